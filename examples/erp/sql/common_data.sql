-- Reference data (public). Static values plus generated calendar and rates.
INSERT INTO regions VALUES ('EMEA', 'Europe, Middle East and Africa'), ('NA', 'North America'),
    ('LATM', 'Latin America'), ('APAC', 'Asia Pacific');

INSERT INTO currencies VALUES
    ('USD', 'US Dollar', '$', 2), ('EUR', 'Euro', '€', 2), ('GBP', 'Pound Sterling', '£', 2),
    ('CHF', 'Swiss Franc', 'CHF', 2), ('JPY', 'Japanese Yen', '¥', 0), ('CNY', 'Yuan Renminbi', '¥', 2),
    ('INR', 'Indian Rupee', '₹', 2), ('BRL', 'Brazilian Real', 'R$', 2), ('MXN', 'Mexican Peso', '$', 2),
    ('CAD', 'Canadian Dollar', '$', 2), ('AUD', 'Australian Dollar', '$', 2), ('SEK', 'Swedish Krona', 'kr', 2),
    ('PLN', 'Zloty', 'zł', 2), ('SGD', 'Singapore Dollar', '$', 2), ('ZAR', 'Rand', 'R', 2);

INSERT INTO countries VALUES
    ('US', 'United States', 'NA', 'USD', '+1'), ('CA', 'Canada', 'NA', 'CAD', '+1'),
    ('MX', 'Mexico', 'LATM', 'MXN', '+52'), ('BR', 'Brazil', 'LATM', 'BRL', '+55'),
    ('AR', 'Argentina', 'LATM', 'USD', '+54'), ('CL', 'Chile', 'LATM', 'USD', '+56'),
    ('GB', 'United Kingdom', 'EMEA', 'GBP', '+44'), ('DE', 'Germany', 'EMEA', 'EUR', '+49'),
    ('FR', 'France', 'EMEA', 'EUR', '+33'), ('NL', 'Netherlands', 'EMEA', 'EUR', '+31'),
    ('ES', 'Spain', 'EMEA', 'EUR', '+34'), ('IT', 'Italy', 'EMEA', 'EUR', '+39'),
    ('CH', 'Switzerland', 'EMEA', 'CHF', '+41'), ('SE', 'Sweden', 'EMEA', 'SEK', '+46'),
    ('PL', 'Poland', 'EMEA', 'PLN', '+48'), ('ZA', 'South Africa', 'EMEA', 'ZAR', '+27'),
    ('AE', 'United Arab Emirates', 'EMEA', 'USD', '+971'), ('IN', 'India', 'APAC', 'INR', '+91'),
    ('CN', 'China', 'APAC', 'CNY', '+86'), ('JP', 'Japan', 'APAC', 'JPY', '+81'),
    ('SG', 'Singapore', 'APAC', 'SGD', '+65'), ('AU', 'Australia', 'APAC', 'AUD', '+61');

INSERT INTO exchange_rates (from_currency, to_currency, rate_date, rate)
SELECT c.currency_code, 'USD', m::date,
       round((b.base * (1 + 0.04 * sin(extract(epoch FROM m) / 5e6 + length(c.name))))::numeric, 6)
FROM currencies c
JOIN (VALUES ('EUR', 1.08), ('GBP', 1.26), ('CHF', 1.11), ('JPY', 0.0072), ('CNY', 0.14),
             ('INR', 0.012), ('BRL', 0.20), ('MXN', 0.056), ('CAD', 0.74), ('AUD', 0.66),
             ('SEK', 0.095), ('PLN', 0.24), ('SGD', 0.74), ('ZAR', 0.054)) AS b(code, base) ON b.code = c.currency_code
CROSS JOIN generate_series(date '2022-01-01', date '2025-12-01', interval '1 month') AS m;

INSERT INTO units_of_measure VALUES
    ('EA', 'Each', 'Count'), ('BOX', 'Box', 'Count'), ('PAL', 'Pallet', 'Count'), ('SET', 'Set', 'Count'),
    ('KG', 'Kilogram', 'Weight'), ('G', 'Gram', 'Weight'), ('L', 'Litre', 'Volume'),
    ('ML', 'Millilitre', 'Volume'), ('M', 'Metre', 'Length'), ('ROLL', 'Roll', 'Length');

INSERT INTO languages VALUES ('en', 'English'), ('de', 'German'), ('fr', 'French'), ('es', 'Spanish'),
    ('pt', 'Portuguese'), ('it', 'Italian'), ('nl', 'Dutch'), ('ja', 'Japanese'), ('zh', 'Chinese'),
    ('hi', 'Hindi'), ('sv', 'Swedish'), ('pl', 'Polish');

INSERT INTO time_zones VALUES ('America/New_York', -300), ('America/Chicago', -360),
    ('America/Los_Angeles', -480), ('America/Toronto', -300), ('America/Mexico_City', -360),
    ('America/Sao_Paulo', -180), ('Europe/London', 0), ('Europe/Berlin', 60), ('Europe/Paris', 60),
    ('Europe/Amsterdam', 60), ('Europe/Madrid', 60), ('Europe/Zurich', 60), ('Europe/Stockholm', 60),
    ('Europe/Warsaw', 60), ('Asia/Kolkata', 330), ('Asia/Shanghai', 480), ('Asia/Tokyo', 540),
    ('Asia/Singapore', 480), ('Australia/Sydney', 600), ('Africa/Johannesburg', 120), ('Asia/Dubai', 240);

INSERT INTO calendar_dates
SELECT d::date, extract(year FROM d), extract(quarter FROM d), extract(month FROM d),
       trim(to_char(d, 'Month')), extract(week FROM d), trim(to_char(d, 'Day')),
       extract(isodow FROM d) >= 6,
       to_char(d, 'MM-DD') IN ('01-01', '05-01', '12-24', '12-25', '12-26', '12-31'),
       extract(year FROM d + interval '9 months'),
       extract(month FROM d + interval '9 months')
FROM generate_series(date '2022-01-01', date '2025-12-31', interval '1 day') AS d;

INSERT INTO payment_terms VALUES ('NET15', 'Net 15 days', 15, 0), ('NET30', 'Net 30 days', 30, 0),
    ('NET45', 'Net 45 days', 45, 0), ('NET60', 'Net 60 days', 60, 0), ('2/10NET30', '2% 10 days, net 30', 30, 2),
    ('COD', 'Cash on delivery', 0, 0), ('PREPAY', 'Payment in advance', 0, 0);

INSERT INTO tax_codes VALUES
    ('US-EXEMPT', 'US', 'US sales tax exempt (B2B resale)', 0), ('US-STD', 'US', 'US average sales tax', 7.25),
    ('CA-GST', 'CA', 'Canada GST', 5), ('MX-IVA', 'MX', 'Mexico IVA', 16), ('BR-ICMS', 'BR', 'Brazil ICMS', 18),
    ('GB-VAT20', 'GB', 'UK VAT standard', 20), ('DE-VAT19', 'DE', 'Germany USt standard', 19),
    ('DE-VAT7', 'DE', 'Germany USt reduced', 7), ('FR-TVA20', 'FR', 'France TVA standard', 20),
    ('NL-BTW21', 'NL', 'Netherlands BTW standard', 21), ('ES-IVA21', 'ES', 'Spain IVA standard', 21),
    ('IT-IVA22', 'IT', 'Italy IVA standard', 22), ('CH-MWST', 'CH', 'Switzerland MWST', 8.1),
    ('SE-MOMS25', 'SE', 'Sweden moms', 25), ('PL-VAT23', 'PL', 'Poland VAT', 23),
    ('IN-GST18', 'IN', 'India GST', 18), ('CN-VAT13', 'CN', 'China VAT', 13), ('JP-CT10', 'JP', 'Japan consumption tax', 10),
    ('SG-GST9', 'SG', 'Singapore GST', 9), ('AU-GST10', 'AU', 'Australia GST', 10), ('ZA-VAT15', 'ZA', 'South Africa VAT', 15),
    ('EU-RC', 'DE', 'EU reverse charge (intra-community)', 0);

INSERT INTO industries VALUES ('MFG', 'Manufacturing'), ('RET', 'Retail'), ('HLT', 'Healthcare'),
    ('FIN', 'Financial Services'), ('TEC', 'Technology'), ('EDU', 'Education'), ('GOV', 'Government'),
    ('ENE', 'Energy'), ('LOG', 'Transportation & Logistics'), ('AGR', 'Agriculture'), ('CON', 'Construction'),
    ('HOS', 'Hospitality');

INSERT INTO incoterms VALUES ('EXW', 'Ex Works'), ('FCA', 'Free Carrier'), ('CPT', 'Carriage Paid To'),
    ('CIP', 'Carriage and Insurance Paid To'), ('DAP', 'Delivered at Place'), ('DPU', 'Delivered at Place Unloaded'),
    ('DDP', 'Delivered Duty Paid'), ('FOB', 'Free on Board'), ('CIF', 'Cost, Insurance and Freight');
