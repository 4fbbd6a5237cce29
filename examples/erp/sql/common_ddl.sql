-- Common/reference module: shared by every division, always in schema public.

CREATE TYPE employment_type AS ENUM ('Full-time', 'Part-time', 'Contractor', 'Intern');
COMMENT ON TYPE employment_type IS 'Kind of employment contract';
CREATE TYPE deal_stage AS ENUM ('Prospecting', 'Qualification', 'Proposal', 'Negotiation', 'Closed Won', 'Closed Lost');
COMMENT ON TYPE deal_stage IS 'Sales pipeline stage of an opportunity (deal)';
CREATE TYPE asset_condition AS ENUM ('New', 'Good', 'Fair', 'Poor');
COMMENT ON TYPE asset_condition IS 'Physical condition of a fixed asset';
CREATE TYPE priority_level AS ENUM ('Low', 'Medium', 'High', 'Critical');
COMMENT ON TYPE priority_level IS 'Priority of a task, risk or maintenance order';

CREATE TABLE regions (
    region_code char(4) PRIMARY KEY,
    name text NOT NULL
);
COMMENT ON TABLE regions IS 'World sales regions (EMEA, NA, LATAM, APAC)';
COMMENT ON COLUMN regions.region_code IS 'Short region code, e.g. EMEA';
COMMENT ON COLUMN regions.name IS 'Region name';

CREATE TABLE currencies (
    currency_code char(3) PRIMARY KEY,
    name text NOT NULL,
    symbol text,
    decimals smallint NOT NULL DEFAULT 2
);
COMMENT ON TABLE currencies IS 'ISO 4217 currencies';
COMMENT ON COLUMN currencies.currency_code IS 'ISO 4217 code, e.g. EUR';
COMMENT ON COLUMN currencies.name IS 'Currency name';
COMMENT ON COLUMN currencies.decimals IS 'Number of minor-unit digits';

CREATE TABLE countries (
    country_code char(2) PRIMARY KEY,
    name text NOT NULL,
    region_code char(4) NOT NULL REFERENCES regions,
    currency_code char(3) NOT NULL REFERENCES currencies,
    phone_prefix text
);
COMMENT ON TABLE countries IS 'ISO 3166 countries with their region and default currency';
COMMENT ON COLUMN countries.country_code IS 'ISO 3166-1 alpha-2 code, e.g. DE';
COMMENT ON COLUMN countries.name IS 'Country name in English';
COMMENT ON COLUMN countries.region_code IS 'Sales region the country belongs to';
COMMENT ON COLUMN countries.currency_code IS 'Default currency of the country';

CREATE TABLE exchange_rates (
    from_currency char(3) NOT NULL REFERENCES currencies,
    to_currency char(3) NOT NULL REFERENCES currencies,
    rate_date date NOT NULL,
    rate numeric(14,6) NOT NULL,
    PRIMARY KEY (from_currency, to_currency, rate_date)
);
COMMENT ON TABLE exchange_rates IS 'Monthly currency exchange rates (first day of each month) into USD';
COMMENT ON COLUMN exchange_rates.rate IS 'Units of to_currency for one unit of from_currency';
COMMENT ON COLUMN exchange_rates.rate_date IS 'Date the rate applies from';

CREATE TABLE units_of_measure (
    uom_code varchar(8) PRIMARY KEY,
    name text NOT NULL,
    uom_class text NOT NULL
);
COMMENT ON TABLE units_of_measure IS 'Units of measure for products (each, kg, litre, box...)';
COMMENT ON COLUMN units_of_measure.uom_class IS 'Quantity class: Count, Weight, Volume, Length';

CREATE TABLE languages (
    language_code char(2) PRIMARY KEY,
    name text NOT NULL
);
COMMENT ON TABLE languages IS 'ISO 639-1 languages used for contacts and documents';

CREATE TABLE time_zones (
    tz_name text PRIMARY KEY,
    utc_offset_minutes integer NOT NULL
);
COMMENT ON TABLE time_zones IS 'IANA time zones of offices and warehouses';
COMMENT ON COLUMN time_zones.utc_offset_minutes IS 'Standard offset from UTC in minutes';

CREATE TABLE calendar_dates (
    cal_date date PRIMARY KEY,
    cal_year smallint NOT NULL,
    cal_quarter smallint NOT NULL,
    cal_month smallint NOT NULL,
    month_name text NOT NULL,
    iso_week smallint NOT NULL,
    day_name text NOT NULL,
    is_weekend boolean NOT NULL,
    is_holiday boolean NOT NULL,
    fiscal_year smallint NOT NULL,
    fiscal_period smallint NOT NULL
);
COMMENT ON TABLE calendar_dates IS 'Date dimension 2022-2025; the fiscal year starts on 1 April';
COMMENT ON COLUMN calendar_dates.fiscal_year IS 'Fiscal year, named after the calendar year in which it ends';
COMMENT ON COLUMN calendar_dates.fiscal_period IS 'Fiscal month 1-12 (April = 1)';
COMMENT ON COLUMN calendar_dates.is_holiday IS 'Company-wide public holiday';

CREATE TABLE payment_terms (
    term_code varchar(10) PRIMARY KEY,
    description text NOT NULL,
    due_days integer NOT NULL,
    discount_pct numeric(5,2) NOT NULL DEFAULT 0
);
COMMENT ON TABLE payment_terms IS 'Payment terms for customers and suppliers, e.g. NET30';
COMMENT ON COLUMN payment_terms.due_days IS 'Days after invoice date until payment is due';
COMMENT ON COLUMN payment_terms.discount_pct IS 'Early-payment discount percentage';

CREATE TABLE tax_codes (
    tax_code varchar(12) PRIMARY KEY,
    country_code char(2) NOT NULL REFERENCES countries,
    description text NOT NULL,
    rate_pct numeric(5,2) NOT NULL
);
COMMENT ON TABLE tax_codes IS 'Sales tax / VAT codes per country';
COMMENT ON COLUMN tax_codes.rate_pct IS 'Tax rate in percent';

CREATE TABLE industries (
    industry_code varchar(6) PRIMARY KEY,
    name text NOT NULL
);
COMMENT ON TABLE industries IS 'Industry classification of customers';

CREATE TABLE incoterms (
    incoterm char(3) PRIMARY KEY,
    description text NOT NULL
);
COMMENT ON TABLE incoterms IS 'Incoterms 2020 delivery terms used on purchase and sales orders';

-- Further column comments
COMMENT ON COLUMN currencies.symbol IS 'Currency symbol';
COMMENT ON COLUMN countries.phone_prefix IS 'International dialling prefix';
COMMENT ON COLUMN exchange_rates.from_currency IS 'Currency; references currencies';
COMMENT ON COLUMN exchange_rates.to_currency IS 'Currency; references currencies';
COMMENT ON COLUMN units_of_measure.uom_code IS 'Primary key of the unit of measure';
COMMENT ON COLUMN units_of_measure.name IS 'Name';
COMMENT ON COLUMN languages.language_code IS 'Primary key of the language';
COMMENT ON COLUMN languages.name IS 'Name';
COMMENT ON COLUMN time_zones.tz_name IS 'Primary key of the time zone';
COMMENT ON COLUMN calendar_dates.cal_date IS 'Primary key of the calendar date';
COMMENT ON COLUMN calendar_dates.cal_year IS 'Calendar year';
COMMENT ON COLUMN calendar_dates.cal_quarter IS 'Calendar quarter 1-4';
COMMENT ON COLUMN calendar_dates.cal_month IS 'Calendar month 1-12';
COMMENT ON COLUMN calendar_dates.month_name IS 'Month name';
COMMENT ON COLUMN calendar_dates.iso_week IS 'ISO week number';
COMMENT ON COLUMN calendar_dates.day_name IS 'Weekday name';
COMMENT ON COLUMN calendar_dates.is_weekend IS 'Saturday or Sunday';
COMMENT ON COLUMN payment_terms.term_code IS 'Primary key of the payment term';
COMMENT ON COLUMN payment_terms.description IS 'Description';
COMMENT ON COLUMN tax_codes.tax_code IS 'Primary key of the tax code';
COMMENT ON COLUMN tax_codes.country_code IS 'Country; references countries';
COMMENT ON COLUMN tax_codes.description IS 'Description';
COMMENT ON COLUMN industries.industry_code IS 'Primary key of the industry';
COMMENT ON COLUMN industries.name IS 'Name';
COMMENT ON COLUMN incoterms.incoterm IS 'Primary key of the Incoterm';
COMMENT ON COLUMN incoterms.description IS 'Description';
