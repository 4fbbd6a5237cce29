-- Generated module data. Row counts scale with erp.scale through pg_temp.n;
-- lookup tables (departments, warehouses...) have a fixed size.

CREATE OR REPLACE FUNCTION pg_temp.first_names() RETURNS text[] LANGUAGE sql IMMUTABLE AS $$ SELECT ARRAY[
 'James','Mary','Robert','Patricia','John','Jennifer','Michael','Linda','David','Elizabeth','William','Barbara',
 'Richard','Susan','Joseph','Jessica','Thomas','Sarah','Carlos','Maria','Luis','Ana','Jose','Sofia','Miguel','Lucia',
 'Hans','Anna','Klaus','Julia','Stefan','Laura','Pierre','Camille','Jean','Chloe','Marco','Giulia','Luca','Francesca',
 'Raj','Priya','Amit','Ananya','Wei','Li','Hiroshi','Yuki','Kenji','Sakura','Lars','Ingrid','Piotr','Agnieszka',
 'Oliver','Emma','Noah','Olivia','Liam','Ava','Ethan','Mia','Lucas','Amelia','Daniel','Harper','Omar','Fatima'] $$;
CREATE OR REPLACE FUNCTION pg_temp.last_names() RETURNS text[] LANGUAGE sql IMMUTABLE AS $$ SELECT ARRAY[
 'Smith','Johnson','Williams','Brown','Jones','Garcia','Miller','Davis','Rodriguez','Martinez','Hernandez','Lopez',
 'Gonzalez','Wilson','Anderson','Taylor','Moore','Jackson','Martin','Lee','Thompson','White','Harris','Clark',
 'Mueller','Schmidt','Schneider','Fischer','Weber','Meyer','Dubois','Moreau','Laurent','Rossi','Russo','Ferrari',
 'Esposito','Sharma','Patel','Singh','Kumar','Wang','Zhang','Chen','Liu','Tanaka','Suzuki','Sato','Nakamura',
 'Johansson','Andersson','Nowak','Kowalski','Silva','Santos','Oliveira','Costa','Novak','van Dijk','de Vries',
 'Murphy','Kelly','Walsh','Okafor','Nguyen','Kim','Park','Cohen','Haddad'] $$;
-- Cities per country, in the order of the country codes below.
CREATE OR REPLACE FUNCTION pg_temp.cc() RETURNS text[] LANGUAGE sql IMMUTABLE AS $$ SELECT ARRAY[
 'US','US','US','US','US','US','CA','CA','MX','BR','BR','AR','CL','GB','GB','DE','DE','DE','FR','FR','NL','ES','IT',
 'CH','SE','PL','ZA','AE','IN','IN','CN','JP','SG','AU'] $$;
CREATE OR REPLACE FUNCTION pg_temp.cities() RETURNS text[] LANGUAGE sql IMMUTABLE AS $$ SELECT ARRAY[
 'New York','Chicago','Houston','Atlanta','Seattle','Boston','Toronto','Vancouver','Monterrey','Sao Paulo','Curitiba',
 'Buenos Aires','Santiago','London','Manchester','Berlin','Munich','Hamburg','Paris','Lyon','Rotterdam','Madrid',
 'Milan','Zurich','Stockholm','Warsaw','Johannesburg','Dubai','Bengaluru','Pune','Shanghai','Osaka','Singapore',
 'Sydney'] $$;

-- ===================== HR =====================
INSERT INTO office_locations VALUES
 (1, 'New York HQ', 'New York', 'US', 'America/New_York', '2009-03-01'),
 (2, 'Chicago Office', 'Chicago', 'US', 'America/Chicago', '2012-06-01'),
 (3, 'Toronto Office', 'Toronto', 'CA', 'America/Toronto', '2015-01-15'),
 (4, 'Sao Paulo Office', 'Sao Paulo', 'BR', 'America/Sao_Paulo', '2016-09-01'),
 (5, 'London Office', 'London', 'GB', 'Europe/London', '2010-02-01'),
 (6, 'Berlin Office', 'Berlin', 'DE', 'Europe/Berlin', '2011-05-01'),
 (7, 'Paris Office', 'Paris', 'FR', 'Europe/Paris', '2014-04-01'),
 (8, 'Rotterdam Site', 'Rotterdam', 'NL', 'Europe/Amsterdam', '2013-10-01'),
 (9, 'Warsaw Service Center', 'Warsaw', 'PL', 'Europe/Warsaw', '2018-01-08'),
 (10, 'Bengaluru Tech Center', 'Bengaluru', 'IN', 'Asia/Kolkata', '2017-07-01'),
 (11, 'Singapore Office', 'Singapore', 'SG', 'Asia/Singapore', '2019-03-01'),
 (12, 'Sydney Office', 'Sydney', 'AU', 'Australia/Sydney', '2020-11-01');

INSERT INTO job_titles
SELECT f.k * 4 + t.k + 1, t.title, f.family, f.base_grade + t.k, f.base_pay * (1 + 0.35 * t.k), f.base_pay * (1.5 + 0.45 * t.k)
FROM (VALUES (0, 'Management', 5, 90000), (1, 'Finance', 2, 52000), (2, 'HR', 2, 48000),
             (3, 'Sales', 2, 50000), (4, 'Engineering', 2, 65000), (5, 'Operations', 1, 40000)) AS f(k, family, base_grade, base_pay)
CROSS JOIN LATERAL (VALUES
    (0, CASE f.family WHEN 'Management' THEN 'Director' WHEN 'Finance' THEN 'Accountant' WHEN 'HR' THEN 'HR Generalist'
         WHEN 'Sales' THEN 'Sales Representative' WHEN 'Engineering' THEN 'Software Engineer' ELSE 'Warehouse Associate' END),
    (1, CASE f.family WHEN 'Management' THEN 'Vice President' WHEN 'Finance' THEN 'Senior Accountant' WHEN 'HR' THEN 'HR Business Partner'
         WHEN 'Sales' THEN 'Account Executive' WHEN 'Engineering' THEN 'Senior Software Engineer' ELSE 'Logistics Coordinator' END),
    (2, CASE f.family WHEN 'Management' THEN 'Senior Vice President' WHEN 'Finance' THEN 'Financial Analyst' WHEN 'HR' THEN 'Recruiter'
         WHEN 'Sales' THEN 'Key Account Manager' WHEN 'Engineering' THEN 'Engineering Manager' ELSE 'Buyer' END),
    (3, CASE f.family WHEN 'Management' THEN 'Chief Officer' WHEN 'Finance' THEN 'Finance Manager' WHEN 'HR' THEN 'HR Manager'
         WHEN 'Sales' THEN 'Sales Manager' WHEN 'Engineering' THEN 'Principal Engineer' ELSE 'Operations Manager' END)
) AS t(k, title);

INSERT INTO cost_centers (cc_id, cc_code, name, is_active)
SELECT k, 'CC-' || (100 + k * 10), name, k <> 20
FROM unnest(ARRAY['Executive Office','Corporate Finance','Accounting','Human Resources','Sales North America',
  'Sales EMEA','Sales APAC','Sales LATAM','Marketing','Software Engineering','IT Infrastructure','Operations',
  'Procurement','Logistics','Customer Service','Legal','Research & Development','Quality Assurance','Facilities',
  'Legacy Retail (closed)']) WITH ORDINALITY AS u(name, k);

INSERT INTO departments (dept_id, dept_cd, dept_name, parent_dept_id, location_id, cc_id) VALUES
 (1, 'EXEC', 'Executive', NULL, 1, 1), (2, 'FIN', 'Finance', 1, 1, 2), (3, 'HR', 'Human Resources', 1, 5, 4),
 (4, 'SLS', 'Sales', 1, 2, 5), (5, 'MKT', 'Marketing', 4, 5, 9), (6, 'ENG', 'Engineering', 1, 10, 10),
 (7, 'IT', 'IT', 6, 9, 11), (8, 'OPS', 'Operations', 1, 8, 12), (9, 'PROC', 'Procurement', 8, 6, 13),
 (10, 'LOG', 'Logistics', 8, 8, 14), (11, 'CS', 'Customer Service', 4, 9, 15), (12, 'LEG', 'Legal', 1, 1, 16),
 (13, 'RND', 'Research & Development', 6, 6, 17), (14, 'QA', 'Quality Assurance', 6, 10, 18);

-- Employees: department by weight, job family from the department.
INSERT INTO employees
SELECT i,
       'E' || lpad(i::text, 5, '0'),
       fn, ln,
       lower(replace(fn || '.' || ln, ' ', '')) || i || '@example.com',
       -- first_names() alternates male and female names
       CASE WHEN pg_temp.r('emp_g', i) < 0.02 THEN 'X' WHEN array_position(pg_temp.first_names(), fn) % 2 = 1 THEN 'M' ELSE 'F' END,
       pg_temp.dt('emp_bd', i, date '1960-01-01', date '2002-12-31'),
       hd,
       CASE WHEN st = 'Terminated' THEN least(hd + pg_temp.ri('emp_td', i, 60, 1200), date '2025-12-15') END,
       dept,
       CASE dept WHEN 1 THEN 0 WHEN 12 THEN 0 WHEN 2 THEN 4 WHEN 3 THEN 8 WHEN 4 THEN 12 WHEN 5 THEN 12 WHEN 11 THEN 12
                 WHEN 6 THEN 16 WHEN 7 THEN 16 WHEN 13 THEN 16 WHEN 14 THEN 16 ELSE 20 END
         + pg_temp.wpick('emp_jt', i, ARRAY['1','2','3','4'], ARRAY[50, 30, 14, 6])::integer,
       NULL,
       CASE dept WHEN 6 THEN pg_temp.pick('emp_loc6', i, ARRAY['10','10','6','1'])::integer
                 ELSE pg_temp.ri('emp_loc', i, 1, 12) END,
       pg_temp.wpick('emp_et', i, ARRAY['Full-time','Part-time','Contractor','Intern'], ARRAY[78, 10, 9, 3])::employment_type,
       st
FROM (
    SELECT i,
           pg_temp.pick('emp_fn', i, pg_temp.first_names()) AS fn,
           pg_temp.pick('emp_ln', i, pg_temp.last_names()) AS ln,
           pg_temp.dt('emp_hd', i, date '2012-01-01', date '2025-09-30') AS hd,
           CASE WHEN i <= 14 THEN i
                ELSE pg_temp.wpick('emp_dept', i, ARRAY['1','2','3','4','5','6','7','8','9','10','11','12','13','14'],
                                   ARRAY[1, 10, 4, 16, 6, 18, 7, 10, 5, 8, 7, 2, 4, 4])::integer END AS dept,
           CASE WHEN i <= 14 THEN 'Active'
                ELSE pg_temp.wpick('emp_st', i, ARRAY['Active','On Leave','Terminated'], ARRAY[80, 5, 15]) END AS st
    FROM generate_series(1, pg_temp.n(1000, 80)) AS i
) AS e;
-- The first 14 employees head the 14 departments; everybody else reports to
-- a head or to another employee of the same department hired earlier.
UPDATE departments SET mgr_emp_id = dept_id;
UPDATE employees SET job_title_id = CASE WHEN emp_id = 1 THEN 4 ELSE job_title_id - (job_title_id - 1) % 4 + 3 END,
       manager_id = CASE WHEN emp_id = 1 THEN NULL ELSE 1 END, employment_type = 'Full-time'
WHERE emp_id <= 14;
UPDATE employees e SET manager_id = CASE WHEN pg_temp.r('emp_mgr', e.emp_id) < 0.4 THEN e.dept_id
        ELSE coalesce((SELECT max(x.emp_id) FROM employees x WHERE x.dept_id = e.dept_id AND x.emp_id < e.emp_id AND x.emp_id > 14
                       AND x.job_title_id > e.job_title_id), e.dept_id) END
WHERE e.emp_id > 14;
UPDATE cost_centers c SET manager_emp_id = d.mgr_emp_id FROM departments d WHERE d.cc_id = c.cc_id;
UPDATE cost_centers SET manager_emp_id = 4 WHERE manager_emp_id IS NULL;

-- Staff lookup used to pick plausible employees (buyers, warehouse staff...)
-- without correlated scans: the i-th employee of a department, or its head.
DROP TABLE IF EXISTS pg_temp.dept_staff;
CREATE TEMP TABLE dept_staff ON COMMIT DROP AS
SELECT dept_id, row_number() OVER (PARTITION BY dept_id ORDER BY emp_id)::integer AS k, emp_id
FROM employees WHERE emp_id > 14 AND status <> 'Terminated';
ALTER TABLE dept_staff ADD PRIMARY KEY (dept_id, k);
DROP TABLE IF EXISTS pg_temp.dept_staff_n;
CREATE TEMP TABLE dept_staff_n ON COMMIT DROP AS SELECT dept_id, count(*)::integer AS n FROM dept_staff GROUP BY dept_id;
CREATE OR REPLACE FUNCTION pg_temp.staff(d integer, i integer) RETURNS integer
LANGUAGE sql STABLE AS
$$ SELECT coalesce((SELECT s.emp_id FROM pg_temp.dept_staff s JOIN pg_temp.dept_staff_n c USING (dept_id)
                    WHERE s.dept_id = d AND s.k = 1 + i % c.n), d) $$;

INSERT INTO salary_history
SELECT e.emp_id, greatest(e.hire_date, make_date(y, 1, 1)),
       round(j.min_salary * (1 + 0.6 * pg_temp.r('sal', e.emp_id)) * (1 + 0.04 * (y - 2022)) *
             CASE WHEN e.employment_type = 'Part-time' THEN 0.5 WHEN e.employment_type = 'Intern' THEN 0.35 ELSE 1 END, -2),
       CASE l.country_code WHEN 'US' THEN 'USD' ELSE 'USD' END,
       CASE WHEN make_date(y, 1, 1) <= e.hire_date THEN 'Hire'
            ELSE pg_temp.wpick('sal_r', e.emp_id * 10 + y, ARRAY['Merit increase','Promotion','Market adjustment'], ARRAY[70, 10, 20]) END
FROM employees e
JOIN job_titles j USING (job_title_id)
LEFT JOIN office_locations l USING (location_id)
CROSS JOIN generate_series(2022, 2025) AS y
WHERE make_date(y, 12, 31) >= e.hire_date AND (e.termination_date IS NULL OR e.termination_date >= make_date(y, 1, 1));

INSERT INTO payroll_runs
SELECT k, (date '2024-01-01' + (k - 1) * interval '1 month')::date,
       (date '2024-01-25' + (k - 1) * interval '1 month')::date,
       CASE WHEN k = 24 THEN 'Approved' ELSE 'Paid' END
FROM generate_series(1, 24) AS k;

INSERT INTO payroll_lines
SELECT r.run_id, e.emp_id, g, round(g * 0.22, 2), round(g * 0.08, 2), g - round(g * 0.22, 2) - round(g * 0.08, 2)
FROM payroll_runs r
JOIN employees e ON e.hire_date <= r.pay_period + 27 AND (e.termination_date IS NULL OR e.termination_date >= r.pay_period)
CROSS JOIN LATERAL (
    SELECT round(s.base_salary / 12, 2) AS g FROM salary_history s
    WHERE s.emp_id = e.emp_id AND s.effective_date <= r.pay_period + 27
    ORDER BY s.effective_date DESC LIMIT 1) AS s;

INSERT INTO leave_types VALUES (1, 'Annual Leave', true), (2, 'Sick Leave', true), (3, 'Parental Leave', true),
    (4, 'Unpaid Leave', false), (5, 'Training Leave', true), (6, 'Bereavement Leave', true);

INSERT INTO leave_requests
SELECT i, e.emp_id, lt, sd, sd + (d - 1), d,
       CASE WHEN sd > date '2025-11-30' THEN 'Pending'
            ELSE pg_temp.wpick('lr_st', i, ARRAY['Approved','Rejected','Pending'], ARRAY[85, 8, 7]) END,
       e.manager_id
FROM generate_series(1, pg_temp.n(5000, 100)) AS i
JOIN employees e ON e.emp_id = pg_temp.ri('lr_emp', i, 1, (SELECT count(*) FROM employees)::integer)
CROSS JOIN LATERAL (SELECT pg_temp.wpick('lr_t', i, ARRAY['1','2','3','4','5','6'], ARRAY[60, 25, 3, 5, 5, 2])::integer AS lt,
                           pg_temp.dt('lr_sd', i, date '2022-01-03', date '2025-12-15') AS sd,
                           pg_temp.ri('lr_d', i, 1, 10) AS d) AS x;

INSERT INTO performance_reviews
SELECT row_number() OVER (ORDER BY y, e.emp_id), e.emp_id, e.manager_id, y,
       pg_temp.wpick('pr', e.emp_id * 10 + y, ARRAY['1','2','3','4','5'], ARRAY[4, 12, 45, 29, 10])::smallint,
       NULL
FROM employees e CROSS JOIN generate_series(2022, 2024) AS y
WHERE e.hire_date < make_date(y, 10, 1) AND (e.termination_date IS NULL OR e.termination_date > make_date(y, 12, 31))
  AND e.manager_id IS NOT NULL;

INSERT INTO training_courses
SELECT k, title, cat, hours, cost
FROM (VALUES
 (1, 'Code of Conduct', 'Compliance', 2, 0), (2, 'Data Protection (GDPR)', 'Compliance', 3, 0),
 (3, 'Anti-Bribery Essentials', 'Compliance', 2, 0), (4, 'Information Security Awareness', 'Compliance', 2, 0),
 (5, 'Forklift Safety', 'Safety', 8, 350), (6, 'First Aid at Work', 'Safety', 16, 480), (7, 'Fire Warden', 'Safety', 6, 220),
 (8, 'Advanced SQL', 'Technical', 24, 1200), (9, 'Cloud Architecture', 'Technical', 32, 2100), (10, 'Go Programming', 'Technical', 24, 1500),
 (11, 'Excel for Finance', 'Technical', 12, 600), (12, 'IFRS Update', 'Technical', 8, 900), (13, 'SAP Basics', 'Technical', 16, 1100),
 (14, 'Leading Teams', 'Leadership', 24, 2500), (15, 'First-time Manager', 'Leadership', 16, 1800), (16, 'Strategic Thinking', 'Leadership', 12, 2200),
 (17, 'Negotiation Skills', 'Soft Skills', 12, 950), (18, 'Presentation Skills', 'Soft Skills', 8, 700), (19, 'Time Management', 'Soft Skills', 4, 300),
 (20, 'Customer Empathy', 'Soft Skills', 6, 400)) AS c(k, title, cat, hours, cost);

INSERT INTO training_enrollments
SELECT i, c, e, en,
       CASE WHEN pg_temp.r('te_done', i) < 0.8 AND en < date '2025-11-01' THEN en + pg_temp.ri('te_cd', i, 1, 40) END,
       CASE WHEN pg_temp.r('te_done', i) < 0.8 AND en < date '2025-11-01' THEN pg_temp.ri('te_sc', i, 55, 100) END
FROM generate_series(1, pg_temp.n(3000, 80)) AS i
CROSS JOIN LATERAL (SELECT pg_temp.ri('te_c', i, 1, 20) AS c,
                           pg_temp.ri('te_e', i, 1, (SELECT count(*) FROM employees)::integer) AS e,
                           pg_temp.dt('te_en', i, date '2022-01-01', date '2025-12-01') AS en) AS x;

INSERT INTO benefit_plans VALUES (1, 'Global Health Basic', 'Health', 310), (2, 'Global Health Plus', 'Health', 520),
    (3, 'Dental Care', 'Dental', 45), (4, 'Company Pension 4%', 'Pension', 260), (5, 'Company Pension 6%', 'Pension', 390),
    (6, 'Group Life Insurance', 'Life', 28), (7, 'Company Car', 'Mobility', 650), (8, 'Public Transport Pass', 'Mobility', 75);

INSERT INTO emp_bnft
SELECT e.emp_id, p.plan_id, greatest(e.hire_date, date '2022-01-01') + pg_temp.ri('eb_d', e.emp_id * 10 + p.plan_id, 0, 60),
       e.termination_date, pg_temp.wpick('eb_cv', e.emp_id * 10 + p.plan_id, ARRAY['EE','ES','FAM'], ARRAY[55, 20, 25])
FROM employees e CROSS JOIN benefit_plans p
WHERE e.employment_type IN ('Full-time', 'Part-time')
  AND pg_temp.r('eb', e.emp_id * 10 + p.plan_id) < CASE p.plan_type WHEN 'Health' THEN 0.45 WHEN 'Pension' THEN 0.4
                                                  WHEN 'Dental' THEN 0.5 WHEN 'Life' THEN 0.3 ELSE 0.15 END;

-- ===================== Finance (part 1) =====================
INSERT INTO gl_accounts (acct_id, acct_no, acct_name, acct_type, parent_acct_id) VALUES
 (1, '1000', 'Assets', 'Asset', NULL), (2, '1010', 'Cash - Operating Bank', 'Asset', 1), (3, '1020', 'Cash - Payroll Bank', 'Asset', 1),
 (4, '1100', 'Accounts Receivable', 'Asset', 1), (5, '1200', 'Inventory', 'Asset', 1), (6, '1500', 'Fixed Assets - Equipment', 'Asset', 1),
 (7, '1510', 'Fixed Assets - Vehicles', 'Asset', 1), (8, '1520', 'Fixed Assets - IT Hardware', 'Asset', 1),
 (9, '1590', 'Accumulated Depreciation', 'Asset', 1), (10, '2000', 'Liabilities', 'Liability', NULL),
 (11, '2100', 'Accounts Payable', 'Liability', 10), (12, '2200', 'Accrued Payroll', 'Liability', 10),
 (13, '2300', 'Sales Tax Payable', 'Liability', 10), (14, '2500', 'Long-term Debt', 'Liability', 10),
 (15, '3000', 'Equity', 'Equity', NULL), (16, '3100', 'Share Capital', 'Equity', 15), (17, '3200', 'Retained Earnings', 'Equity', 15),
 (18, '4000', 'Revenue', 'Revenue', NULL), (19, '4100', 'Product Sales', 'Revenue', 18), (20, '4200', 'Service Revenue', 'Revenue', 18),
 (21, '4900', 'Other Income', 'Revenue', 18), (22, '5000', 'Cost of Goods Sold', 'Expense', NULL),
 (23, '6000', 'Operating Expenses', 'Expense', NULL), (24, '6100', 'Salaries and Wages', 'Expense', 23),
 (25, '6150', 'Employee Benefits', 'Expense', 23), (26, '6200', 'Rent and Facilities', 'Expense', 23),
 (27, '6300', 'Travel and Entertainment', 'Expense', 23), (28, '6400', 'Marketing and Advertising', 'Expense', 23),
 (29, '6500', 'Software and Subscriptions', 'Expense', 23), (30, '6600', 'Professional Fees', 'Expense', 23),
 (31, '6700', 'Depreciation Expense', 'Expense', 23), (32, '6800', 'Training', 'Expense', 23),
 (33, '6900', 'Repairs and Maintenance', 'Expense', 23), (34, '7000', 'Freight Out', 'Expense', 23),
 (35, '7100', 'Bank Fees', 'Expense', 23), (36, '7500', 'Interest Expense', 'Expense', 23);
UPDATE gl_accounts SET is_active = false WHERE acct_no = '7100';

INSERT INTO gl_account_map
SELECT a.acct_id, CASE WHEN a.acct_id % 2 = 0 THEN 'A4-' ELSE 'R3-' END || lpad((a.acct_id * 37)::text, 5, '0'),
       CASE WHEN a.acct_id % 2 = 0 THEN 'AS400' ELSE 'SAP R/3' END, a.acct_id
FROM gl_accounts a WHERE a.parent_acct_id IS NOT NULL;

INSERT INTO bank_accounts VALUES
 (1, 'JPMorgan Chase', 'US64CHAS0000000011223344', 'USD', 2, 4850000.00),
 (2, 'JPMorgan Chase', 'US64CHAS0000000055667788', 'USD', 3, 910000.00),
 (3, 'Deutsche Bank', 'DE89370400440532013000', 'EUR', 2, 2230000.00),
 (4, 'Barclays', 'GB29NWBK60161331926819', 'GBP', 2, 760000.00),
 (5, 'HSBC Singapore', 'SG12HSBC000012345678', 'SGD', 2, 395000.00),
 (6, 'Banco Itau', 'BR1800360305000010009795493C1', 'BRL', 2, 120000.00);

INSERT INTO budgets
SELECT row_number() OVER (ORDER BY fy, c.cc_id, a.acct_id), fy, c.cc_id, a.acct_id,
       round((20000 + 480000 * pg_temp.r('bud', c.cc_id * 100 + a.acct_id)) * (1 + 0.05 * (fy - 2022)), -3)
FROM generate_series(2022, 2025) AS fy
CROSS JOIN cost_centers c
CROSS JOIN gl_accounts a
WHERE a.acct_type = 'Expense' AND a.parent_acct_id = 23 AND c.is_active
  AND pg_temp.r('bud_has', c.cc_id * 100 + a.acct_id) < 0.6;

-- ===================== Inventory (part 1) =====================
INSERT INTO product_categories VALUES
 (1, 'Electronics', NULL), (2, 'Office Supplies', NULL), (3, 'Furniture', NULL), (4, 'Industrial Equipment', NULL),
 (5, 'Safety & PPE', NULL), (6, 'Packaging', NULL), (7, 'Chemicals', NULL), (8, 'Spare Parts', NULL),
 (9, 'Laptops', 1), (10, 'Monitors', 1), (11, 'Networking', 1), (12, 'Accessories', 1),
 (13, 'Paper', 2), (14, 'Writing Instruments', 2), (15, 'Desks', 3), (16, 'Chairs', 3), (17, 'Storage', 3),
 (18, 'Pumps', 4), (19, 'Compressors', 4), (20, 'Power Tools', 4), (21, 'Gloves', 5), (22, 'Helmets', 5),
 (23, 'Boxes', 6), (24, 'Pallets & Wrap', 6), (25, 'Lubricants', 7), (26, 'Cleaning Agents', 7),
 (27, 'Bearings', 8), (28, 'Filters', 8), (29, 'Belts', 8), (30, 'Valves', 8);

INSERT INTO products
SELECT i, 'SKU-' || lpad(i::text, 6, '0'),
       brand || ' ' || noun || ' ' || pg_temp.pick('p_mod', i, ARRAY['100','200','300','Pro','Max','Lite','X2','S','Plus','Eco']),
       cat, brand,
       CASE WHEN cat IN (25, 26) THEN pg_temp.pick('p_uoml', i, ARRAY['L','ML'])
            WHEN cat IN (13, 23, 21) THEN 'BOX' WHEN cat = 24 THEN 'ROLL' ELSE 'EA' END,
       round(cost * (1.25 + 0.6 * pg_temp.r('p_margin', i)::numeric), 2), cost,
       round((0.1 + 30 * pg_temp.r('p_w', i))::numeric, 3),
       pg_temp.r('p_act', i) > 0.08,
       pg_temp.dt('p_l', i, date '2015-01-01', date '2025-06-30')
FROM (
    SELECT i, c.cat,
           pg_temp.pick('p_brand', i, ARRAY['Acme','Nordwind','Vertex','Globex','Initech','Zentro','Helix','Orion','Kestrel','Polaris']) AS brand,
           CASE c.cat WHEN 9 THEN 'Laptop' WHEN 10 THEN 'Monitor' WHEN 11 THEN 'Switch' WHEN 12 THEN 'Docking Station'
             WHEN 13 THEN 'Copy Paper' WHEN 14 THEN 'Pen Set' WHEN 15 THEN 'Standing Desk' WHEN 16 THEN 'Office Chair'
             WHEN 17 THEN 'Filing Cabinet' WHEN 18 THEN 'Centrifugal Pump' WHEN 19 THEN 'Air Compressor' WHEN 20 THEN 'Cordless Drill'
             WHEN 21 THEN 'Nitrile Gloves' WHEN 22 THEN 'Safety Helmet' WHEN 23 THEN 'Shipping Box' WHEN 24 THEN 'Stretch Wrap'
             WHEN 25 THEN 'Hydraulic Oil' WHEN 26 THEN 'Degreaser' WHEN 27 THEN 'Ball Bearing' WHEN 28 THEN 'Air Filter'
             WHEN 29 THEN 'V-Belt' ELSE 'Ball Valve' END AS noun,
           round(CASE c.cat WHEN 9 THEN 600 WHEN 10 THEN 150 WHEN 11 THEN 250 WHEN 15 THEN 300 WHEN 16 THEN 120
                   WHEN 18 THEN 900 WHEN 19 THEN 700 WHEN 20 THEN 90 ELSE 8 END
                 * (0.6 + pg_temp.r('p_cost', i))::numeric, 2) AS cost
    FROM generate_series(1, pg_temp.n(1200, 80)) AS i
    CROSS JOIN LATERAL (SELECT 9 + (i - 1) % 22 AS cat) AS c
) AS p;

INSERT INTO warehouses VALUES
 (1, 'WH-NJ', 'Newark Distribution Center', 'Newark', 'US', 'America/New_York', NULL, 42000),
 (2, 'WH-DAL', 'Dallas Warehouse', 'Dallas', 'US', 'America/Chicago', NULL, 30000),
 (3, 'WH-RTM', 'Rotterdam Hub', 'Rotterdam', 'NL', 'Europe/Amsterdam', NULL, 55000),
 (4, 'WH-HAM', 'Hamburg Warehouse', 'Hamburg', 'DE', 'Europe/Berlin', NULL, 25000),
 (5, 'WH-MAN', 'Manchester Depot', 'Manchester', 'GB', 'Europe/London', NULL, 18000),
 (6, 'WH-SGP', 'Singapore Hub', 'Singapore', 'SG', 'Asia/Singapore', NULL, 21000),
 (7, 'WH-SAO', 'Sao Paulo Warehouse', 'Sao Paulo', 'BR', 'America/Sao_Paulo', NULL, 15000),
 (8, 'WH-SYD', 'Sydney Depot', 'Sydney', 'AU', 'Australia/Sydney', NULL, 9000);
UPDATE warehouses SET mgr_emp_id = pg_temp.staff(10, wh_id);

INSERT INTO bin_locations
SELECT (w - 1) * 25 + b, w, chr(64 + (b - 1) / 5 + 1) || '-' || lpad(((b - 1) % 5 + 1)::text, 2, '0'),
       CASE WHEN b <= 10 THEN 'Bulk' WHEN b <= 20 THEN 'Picking' WHEN b <= 23 THEN 'Cold' ELSE 'Returns' END
FROM generate_series(1, 8) AS w CROSS JOIN generate_series(1, 25) AS b;

-- ===================== Procurement (part 1) =====================
INSERT INTO suppliers
SELECT i, 'S' || lpad(i::text, 4, '0'),
       pg_temp.pick('s_a', i, ARRAY['Atlas','Summit','Pioneer','Meridian','Brightline','Ironwood','Bluewater','Redstone',
           'Silverline','Northstar','Crescent','Evergreen','Keystone','Harbor','Falcon','Granite','Sterling','Apex']) || ' ' ||
       pg_temp.pick('s_b', i, ARRAY['Industrial','Components','Supply','Logistics','Electronics','Packaging','Chemicals',
           'Tools','Office','Technologies','Trading','Manufacturing']) || ' ' ||
       CASE cc WHEN 'DE' THEN 'GmbH' WHEN 'GB' THEN 'Ltd' WHEN 'FR' THEN 'SA' WHEN 'NL' THEN 'B.V.' WHEN 'CN' THEN 'Co. Ltd'
               WHEN 'JP' THEN 'K.K.' WHEN 'IN' THEN 'Pvt Ltd' ELSE 'Inc' END,
       cc, (pg_temp.cities())[ci],
       pg_temp.wpick('s_t', i, ARRAY['NET30','NET45','NET60','2/10NET30','PREPAY'], ARRAY[40, 20, 20, 15, 5]),
       (SELECT currency_code FROM countries WHERE country_code = cc),
       pg_temp.wpick('s_r', i, ARRAY['A','B','C','D'], ARRAY[30, 45, 20, 5]),
       pg_temp.wpick('s_st', i, ARRAY['Approved','Probation','Blocked'], ARRAY[85, 10, 5]),
       pg_temp.dt('s_on', i, date '2010-01-01', date '2025-06-30')
FROM generate_series(1, pg_temp.n(300, 25)) AS i
CROSS JOIN LATERAL (SELECT pg_temp.ri('s_c', i, 1, 34) AS ci) AS x
CROSS JOIN LATERAL (SELECT (pg_temp.cc())[x.ci] AS cc) AS y;

INSERT INTO supplier_contacts
SELECT row_number() OVER (ORDER BY s.supplier_id, k), s.supplier_id,
       pg_temp.pick('sc_fn', s.supplier_id * 3 + k, pg_temp.first_names()) || ' ' || pg_temp.pick('sc_ln', s.supplier_id * 3 + k, pg_temp.last_names()),
       'contact' || k || '@' || lower(s.supp_cd) || '.example.net', '+' || pg_temp.ri('sc_ph', s.supplier_id * 3 + k, 10000000, 99999999), k = 1
FROM suppliers s CROSS JOIN generate_series(1, 2) AS k
WHERE k = 1 OR pg_temp.r('sc2', s.supplier_id) < 0.5;

INSERT INTO supplier_contracts
SELECT i, s, 'CTR-' || lpad(i::text, 6, '0'), sd, sd + pg_temp.ri('ct_len', i, 1, 3) * 365,
       round((50000 + 2000000 * pg_temp.r('ct_v', i) ^ 2)::numeric, -2),
       pg_temp.staff(9, i),
       pg_temp.pick('ct_inc', i, ARRAY['EXW','FCA','DAP','DDP','FOB','CIF'])
FROM generate_series(1, pg_temp.n(200, 10)) AS i
CROSS JOIN LATERAL (SELECT pg_temp.ri('ct_s', i, 1, (SELECT count(*) FROM suppliers)::integer) AS s,
                           pg_temp.dt('ct_sd', i, date '2021-01-01', date '2025-06-30') AS sd) AS x;

INSERT INTO supplier_evaluations
SELECT i, pg_temp.ri('se_s', i, 1, (SELECT count(*) FROM suppliers)::integer), pg_temp.dt('se_d', i, date '2022-01-01', date '2025-12-15'),
       pg_temp.ri('se_q', i, 3, 10), pg_temp.ri('se_dl', i, 2, 10), pg_temp.ri('se_p', i, 3, 10),
       pg_temp.staff(9, i)
FROM generate_series(1, pg_temp.n(1200, 40)) AS i;

INSERT INTO product_suppliers
SELECT p.product_id, s, 'V-' || p.product_id || '-' || s, round(p.std_cost * (0.85 + 0.3 * pg_temp.r('ps_c', p.product_id * 10 + k))::numeric, 2),
       pg_temp.ri('ps_lt', p.product_id * 10 + k, 3, 60), k = 1
FROM products p CROSS JOIN generate_series(1, 3) AS k
CROSS JOIN LATERAL (SELECT 1 + ((p.product_id * 7 + k * 13) % (SELECT count(*) FROM suppliers))::integer AS s) AS x
WHERE k = 1 OR pg_temp.r('ps_k', p.product_id * 10 + k) < 0.5;

INSERT INTO purchase_requisitions
SELECT i, e.emp_id, e.dept_id, rd, rd + pg_temp.ri('pr_nb', i, 7, 45),
       CASE WHEN rd > date '2025-12-01' THEN 'Submitted'
            ELSE pg_temp.wpick('pr_st', i, ARRAY['Submitted','Approved','Rejected','Ordered'], ARRAY[5, 15, 10, 70]) END,
       pg_temp.pick('pr_j', i, ARRAY['Replenish stock','New hire equipment','Project materials','Replacement of broken equipment','Customer order'])
FROM generate_series(1, pg_temp.n(3000, 60)) AS i
CROSS JOIN LATERAL (SELECT pg_temp.dt('pr_d', i, date '2022-01-01', date '2025-12-20') AS rd) AS d
JOIN employees e ON e.emp_id = pg_temp.ri('pr_e', i, 1, (SELECT count(*) FROM employees)::integer);

INSERT INTO requisition_lines
SELECT r.req_id, k, pg_temp.ri('rl_p', r.req_id * 10 + k, 1, (SELECT count(*) FROM products)::integer),
       pg_temp.ri('rl_q', r.req_id * 10 + k, 1, 50), NULL
FROM purchase_requisitions r CROSS JOIN generate_series(1, 3) AS k
WHERE k <= pg_temp.ri('rl_n', r.req_id, 1, 3);
UPDATE requisition_lines l SET est_unit_cost = p.std_cost FROM products p WHERE p.product_id = l.product_id;

INSERT INTO purchase_orders
SELECT i, 'PO-' || lpad(i::text, 6, '0'), s.supplier_id,
       CASE WHEN pg_temp.r('po_req', i) < 0.3 THEN pg_temp.ri('po_r', i, 1, (SELECT count(*) FROM purchase_requisitions)::integer) END,
       pg_temp.staff(9, i),
       od, od + pg_temp.ri('po_lt', i, 5, 60),
       CASE WHEN od > date '2025-12-10' THEN pg_temp.pick('po_st1', i, ARRAY['Draft','Sent'])
            WHEN od > date '2025-10-15' THEN pg_temp.wpick('po_st2', i, ARRAY['Sent','Partially Received','Received'], ARRAY[50, 30, 20])
            ELSE pg_temp.wpick('po_st3', i, ARRAY['Received','Closed','Cancelled','Partially Received'], ARRAY[30, 60, 7, 3]) END,
       'USD', pg_temp.pick('po_inc', i, ARRAY['EXW','FCA','DAP','DDP','FOB','CIF']),
       pg_temp.ri('po_wh', i, 1, 8), 0
FROM generate_series(1, pg_temp.n(3500, 120)) AS i
CROSS JOIN LATERAL (SELECT pg_temp.dt('po_d', i, date '2022-01-01', date '2025-12-20') AS od) AS d
JOIN suppliers s ON s.supplier_id = pg_temp.ri('po_s', i, 1, (SELECT count(*) FROM suppliers)::integer);

INSERT INTO purchase_order_lines
SELECT po.po_id, k, p.product_id, q,
       CASE po.status WHEN 'Received' THEN q WHEN 'Closed' THEN q
                      WHEN 'Partially Received' THEN CASE WHEN k = 1 THEN round(q / 2) ELSE 0 END ELSE 0 END,
       round(p.std_cost * (0.9 + 0.2 * pg_temp.r('pol_c', po.po_id * 10 + k))::numeric, 2)
FROM purchase_orders po CROSS JOIN generate_series(1, 4) AS k
CROSS JOIN LATERAL (SELECT pg_temp.ri('pol_q', po.po_id * 10 + k, 5, 200)::numeric AS q) AS x
JOIN products p ON p.product_id = pg_temp.ri('pol_p', po.po_id * 10 + k, 1, (SELECT count(*) FROM products)::integer)
WHERE k <= pg_temp.ri('pol_n', po.po_id, 1, 4);
UPDATE purchase_orders po SET tot_amt = l.s FROM (SELECT po_id, sum(qty_ord * unit_cost) AS s FROM purchase_order_lines GROUP BY po_id) AS l
WHERE l.po_id = po.po_id;

INSERT INTO goods_receipts
SELECT po.po_id, po.po_id, po.ship_to_wh_id, least(po.expected_dt + pg_temp.ri('gr_late', po.po_id, -4, 12), date '2025-12-31'),
       pg_temp.staff(10, po.po_id)
FROM purchase_orders po WHERE po.status IN ('Received', 'Closed', 'Partially Received');

INSERT INTO goods_receipt_lines
SELECT l.po_id, l.po_id, l.line_no, l.qty_rcvd,
       CASE WHEN pg_temp.r('grl_rej', l.po_id * 10 + l.line_no) < 0.05 THEN least(l.qty_rcvd, 3) ELSE 0 END
FROM purchase_order_lines l JOIN goods_receipts g ON g.po_id = l.po_id WHERE l.qty_rcvd > 0;

-- ===================== Inventory (part 2) =====================
INSERT INTO inventory_balances
SELECT w.wh_id, p.product_id, q, least(q, round(q * 0.3 * pg_temp.r('ib_al', p.product_id * 10 + w.wh_id)::numeric)),
       pg_temp.ri('ib_rp', p.product_id * 10 + w.wh_id, 10, 120),
       pg_temp.dt('ib_cnt', p.product_id * 10 + w.wh_id, date '2025-01-01', date '2025-12-20')
FROM products p CROSS JOIN warehouses w
CROSS JOIN LATERAL (SELECT floor(600 * pg_temp.r('ib_q', p.product_id * 10 + w.wh_id) ^ 2)::numeric AS q) AS x
WHERE pg_temp.r('ib', p.product_id * 10 + w.wh_id) < CASE WHEN w.wh_id <= 4 THEN 0.6 ELSE 0.3 END;

INSERT INTO product_lots
SELECT i, pid, 'L' || to_char(md, 'YYMMDD') || '-' || i, pg_temp.ri('pl_s', i, 1, (SELECT count(*) FROM suppliers)::integer),
       md, CASE WHEN cat IN (25, 26, 21) THEN md + pg_temp.ri('pl_ex', i, 180, 900) END, pg_temp.ri('pl_q', i, 10, 500)
FROM generate_series(1, pg_temp.n(2000, 40)) AS i
CROSS JOIN LATERAL (SELECT pg_temp.ri('pl_p', i, 1, (SELECT count(*) FROM products)::integer) AS pid,
                           pg_temp.dt('pl_md', i, date '2021-06-01', date '2025-11-30') AS md) AS x
JOIN products p ON p.product_id = x.pid
CROSS JOIN LATERAL (SELECT p.category_id AS cat) AS y;

INSERT INTO stock_movements
SELECT i, pg_temp.ri('sm_p', i, 1, (SELECT count(*) FROM products)::integer), pg_temp.ri('sm_w', i, 1, 8),
       pg_temp.dt('sm_d', i, date '2022-01-01', date '2025-12-31'), mt,
       CASE mt WHEN 'Receipt' THEN 1 WHEN 'Issue' THEN -1 WHEN 'Transfer' THEN (CASE WHEN i % 2 = 0 THEN 1 ELSE -1 END)
               ELSE (CASE WHEN pg_temp.r('sm_adj', i) < 0.6 THEN -1 ELSE 1 END) END * pg_temp.ri('sm_q', i, 1, 120),
       CASE mt WHEN 'Receipt' THEN 'PO-' WHEN 'Issue' THEN 'SO-' WHEN 'Transfer' THEN 'TR-' ELSE 'ADJ-' END || lpad(pg_temp.ri('sm_ref', i, 1, 20000)::text, 6, '0'),
       pg_temp.staff(10, i)
FROM generate_series(1, pg_temp.n(10000, 300)) AS i
CROSS JOIN LATERAL (SELECT pg_temp.wpick('sm_t', i, ARRAY['Receipt','Issue','Transfer','Adjustment'], ARRAY[35, 45, 12, 8]) AS mt) AS x;

INSERT INTO stock_counts
SELECT row_number() OVER (ORDER BY ib.wh_id, ib.prod_id), ib.wh_id, ib.prod_id, ib.last_cnt_dt,
       ib.qty_oh, greatest(0, ib.qty_oh + CASE WHEN pg_temp.r('sc_v', ib.prod_id * 10 + ib.wh_id) < 0.8 THEN 0
                                              ELSE pg_temp.ri('sc_d', ib.prod_id * 10 + ib.wh_id, -6, 4) END),
       pg_temp.staff(10, ib.wh_id)
FROM inventory_balances ib WHERE pg_temp.r('sc', ib.prod_id * 10 + ib.wh_id) < 0.6;

-- ===================== Sales =====================
INSERT INTO sales_territories (territory_id, territory_name, region_code) VALUES
 (1, 'US East', 'NA'), (2, 'US Central', 'NA'), (3, 'US West', 'NA'), (4, 'Canada', 'NA'),
 (5, 'Latin America', 'LATM'), (6, 'UK & Ireland', 'EMEA'), (7, 'DACH', 'EMEA'), (8, 'France & Benelux', 'EMEA'),
 (9, 'Southern Europe', 'EMEA'), (10, 'Nordics & Eastern Europe', 'EMEA'), (11, 'Middle East & Africa', 'EMEA'),
 (12, 'Asia Pacific', 'APAC');

INSERT INTO sales_reps
SELECT e.emp_id, 1 + (e.emp_id % 12), round(400000 + 1600000 * pg_temp.r('sr_q', e.emp_id)::numeric, -4),
       pg_temp.pick('sr_c', e.emp_id, ARRAY['2.5','3.0','3.5','4.0','5.0'])::numeric
FROM employees e WHERE e.dept_id = 4 AND e.emp_id > 14;
UPDATE sales_territories t SET manager_emp_id = coalesce(
    (SELECT max(r.emp_id) FROM sales_reps r JOIN employees e USING (emp_id) WHERE r.territory_id = t.territory_id AND e.job_title_id >= 15), 4);

INSERT INTO customers
SELECT i, 'C' || lpad(i::text, 6, '0'),
       pg_temp.pick('c_a', i, ARRAY['Blue','Green','Global','United','Prime','First','Royal','Delta','Alpha','Omega','Nova',
          'Quantum','Sun','Star','River','Lake','Mountain','Ocean','Metro','Urban','Golden','Bright','Smart','Swift']) || ' ' ||
       pg_temp.pick('c_b', i, ARRAY['Retail','Health','Foods','Motors','Energy','Systems','Logistics','Builders','Pharma',
          'Bank','Media','Textiles','Farms','Hotels','Labs','Steel','Airlines','Telecom','Robotics','Consulting']) || ' ' ||
       CASE cc WHEN 'DE' THEN 'AG' WHEN 'GB' THEN 'plc' WHEN 'FR' THEN 'SAS' WHEN 'NL' THEN 'N.V.' WHEN 'JP' THEN 'Corp.'
               WHEN 'BR' THEN 'Ltda' WHEN 'ES' THEN 'S.L.' WHEN 'IT' THEN 'S.p.A.' ELSE (ARRAY['Inc','LLC','Corp','Group'])[1 + i % 4] END,
       pg_temp.pick('c_ind', i, ARRAY['MFG','RET','HLT','FIN','TEC','EDU','GOV','ENE','LOG','AGR','CON','HOS']),
       pg_temp.wpick('c_seg', i, ARRAY['Enterprise','Mid-Market','SMB'], ARRAY[15, 35, 50]),
       cc, (pg_temp.cities())[ci],
       CASE WHEN cc = 'US' THEN 1 + i % 3 WHEN cc = 'CA' THEN 4 WHEN cc IN ('MX','BR','AR','CL') THEN 5 WHEN cc = 'GB' THEN 6
            WHEN cc IN ('DE','CH') THEN 7 WHEN cc IN ('FR','NL') THEN 8 WHEN cc IN ('ES','IT') THEN 9 WHEN cc IN ('SE','PL') THEN 10
            WHEN cc IN ('ZA','AE') THEN 11 ELSE 12 END,
       NULL,
       pg_temp.wpick('c_t', i, ARRAY['NET30','NET45','NET60','2/10NET30','PREPAY'], ARRAY[50, 15, 15, 15, 5]),
       round((5000 + 495000 * pg_temp.r('c_cl', i) ^ 2)::numeric, -3),
       pg_temp.wpick('c_st', i, ARRAY['Active','Inactive','Prospect'], ARRAY[80, 12, 8]),
       pg_temp.dt('c_cr', i, date '2016-01-01', date '2025-10-31')
FROM generate_series(1, pg_temp.n(3000, 80)) AS i
CROSS JOIN LATERAL (SELECT pg_temp.ri('c_c', i, 1, 34) AS ci) AS x
CROSS JOIN LATERAL (SELECT (pg_temp.cc())[x.ci] AS cc) AS y;
UPDATE customers c SET account_mgr_id = (SELECT r.emp_id FROM sales_reps r WHERE r.territory_id = c.territory_id
                                         ORDER BY (r.emp_id * 31 + c.customer_id) % 97 LIMIT 1);
UPDATE customers c SET account_mgr_id = (SELECT min(emp_id) FROM sales_reps) WHERE account_mgr_id IS NULL;

INSERT INTO customer_contacts
SELECT row_number() OVER (ORDER BY c.customer_id, k), c.customer_id,
       pg_temp.pick('cc_fn', c.customer_id * 3 + k, pg_temp.first_names()) || ' ' || pg_temp.pick('cc_ln', c.customer_id * 3 + k, pg_temp.last_names()),
       pg_temp.pick('cc_role', c.customer_id * 3 + k, ARRAY['Purchasing Manager','CFO','IT Director','Operations Manager','CEO','Buyer']),
       'contact' || k || '@' || lower(c.cust_nbr) || '.example.org',
       CASE c.country_code WHEN 'DE' THEN 'de' WHEN 'CH' THEN 'de' WHEN 'FR' THEN 'fr' WHEN 'ES' THEN 'es' WHEN 'MX' THEN 'es'
            WHEN 'AR' THEN 'es' WHEN 'CL' THEN 'es' WHEN 'BR' THEN 'pt' WHEN 'IT' THEN 'it' WHEN 'NL' THEN 'nl' WHEN 'JP' THEN 'ja'
            WHEN 'CN' THEN 'zh' WHEN 'SE' THEN 'sv' WHEN 'PL' THEN 'pl' ELSE 'en' END,
       k = 1
FROM customers c CROSS JOIN generate_series(1, 3) AS k
WHERE k = 1 OR pg_temp.r('cc_k', c.customer_id * 3 + k) < 0.35;

INSERT INTO price_lists VALUES (1, 'Standard USD 2022-2023', 'USD', '2022-01-01', '2023-12-31'),
    (2, 'Standard USD 2024+', 'USD', '2024-01-01', NULL), (3, 'Europe EUR', 'EUR', '2022-01-01', NULL),
    (4, 'Partner Discount USD', 'USD', '2023-01-01', NULL);
INSERT INTO price_list_items
SELECT pl.price_list_id, p.product_id,
       round(p.list_price * CASE pl.price_list_id WHEN 1 THEN 0.95 WHEN 2 THEN 1 WHEN 3 THEN 0.93 ELSE 0.85 END, 2)
FROM price_lists pl CROSS JOIN products p WHERE p.is_active OR pl.price_list_id = 1;

INSERT INTO leads
SELECT i,
       pg_temp.pick('l_a', i, ARRAY['Bright','Clear','Next','True','Open','Solid','Rapid','Pure']) || ' ' ||
       pg_temp.pick('l_b', i, ARRAY['Dynamics','Works','Solutions','Partners','Ventures','Industries','Holdings']),
       pg_temp.pick('l_fn', i, pg_temp.first_names()) || ' ' || pg_temp.pick('l_ln', i, pg_temp.last_names()),
       pg_temp.wpick('l_src', i, ARRAY['Web','Trade Show','Referral','Cold Call','Partner'], ARRAY[40, 15, 20, 15, 10]),
       st, pg_temp.staff(4, i),
       (pg_temp.cc())[pg_temp.ri('l_c', i, 1, 34)], pg_temp.dt('l_d', i, date '2022-01-01', date '2025-12-20'),
       CASE WHEN st = 'Converted' THEN pg_temp.ri('l_cv', i, 1, (SELECT count(*) FROM customers)::integer) END
FROM generate_series(1, pg_temp.n(3000, 80)) AS i
CROSS JOIN LATERAL (SELECT pg_temp.wpick('l_st', i, ARRAY['New','Contacted','Qualified','Converted','Lost'], ARRAY[15, 25, 15, 15, 30]) AS st) AS x;

INSERT INTO opportunities
SELECT i, c.customer_name || ' - ' || pg_temp.pick('o_n', i, ARRAY['Fleet Renewal','ERP Rollout','Office Refit','Annual Supply Contract',
          'Plant Expansion','Safety Upgrade','Network Refresh','Spare Parts Framework','Packaging Redesign','Pilot Project']),
       c.customer_id, c.account_mgr_id, st,
       round((5000 + 495000 * pg_temp.r('o_a', i) ^ 2)::numeric, -2),
       CASE st WHEN 'Prospecting' THEN 10 WHEN 'Qualification' THEN 20 WHEN 'Proposal' THEN 40 WHEN 'Negotiation' THEN 70
               WHEN 'Closed Won' THEN 100 ELSE 0 END,
       cr, cr + pg_temp.ri('o_ec', i, 30, 180),
       CASE WHEN st IN ('Closed Won', 'Closed Lost') THEN least(cr + pg_temp.ri('o_cl', i, 20, 200), date '2025-12-31') END
FROM generate_series(1, pg_temp.n(5000, 120)) AS i
CROSS JOIN LATERAL (SELECT pg_temp.dt('o_cr', i, date '2022-01-01', date '2025-12-15') AS cr) AS d
CROSS JOIN LATERAL (SELECT CASE WHEN d.cr < date '2025-03-01'
        THEN pg_temp.wpick('o_st1', i, ARRAY['Closed Won','Closed Lost','Negotiation','Proposal'], ARRAY[42, 50, 4, 4])
        ELSE pg_temp.wpick('o_st2', i, ARRAY['Prospecting','Qualification','Proposal','Negotiation','Closed Won','Closed Lost'],
                           ARRAY[18, 18, 18, 16, 15, 15]) END::deal_stage AS st) AS s
JOIN customers c ON c.customer_id = pg_temp.ri('o_c', i, 1, (SELECT count(*) FROM customers)::integer);

INSERT INTO quotes
SELECT i, 'Q-' || lpad(i::text, 6, '0'), o.opp_id, o.customer_id, qd, qd + 30,
       CASE WHEN o.stage = 'Closed Won' THEN 'Accepted' WHEN o.stage = 'Closed Lost' THEN pg_temp.pick('q_l', i, ARRAY['Rejected','Expired'])
            WHEN qd + 30 < date '2025-12-01' THEN 'Expired' ELSE pg_temp.pick('q_o', i, ARRAY['Draft','Sent']) END,
       0
FROM generate_series(1, pg_temp.n(3000, 80)) AS i
JOIN opportunities o ON o.opp_id = pg_temp.ri('q_opp', i, 1, (SELECT count(*) FROM opportunities)::integer)
CROSS JOIN LATERAL (SELECT least(o.created_on + pg_temp.ri('q_d', i, 5, 40), date '2025-12-31') AS qd) AS d;

INSERT INTO quote_lines
SELECT q.quote_id, k, p.product_id, pg_temp.ri('ql_q', q.quote_id * 10 + k, 1, 40), p.list_price
FROM quotes q CROSS JOIN generate_series(1, 3) AS k
JOIN products p ON p.product_id = pg_temp.ri('ql_p', q.quote_id * 10 + k, 1, (SELECT count(*) FROM products)::integer)
WHERE k <= pg_temp.ri('ql_n', q.quote_id, 1, 3);
UPDATE quotes q SET total_amount = l.s FROM (SELECT quote_id, sum(qty * unit_price) AS s FROM quote_lines GROUP BY quote_id) AS l
WHERE l.quote_id = q.quote_id;

INSERT INTO sales_orders
SELECT i, 'SO-' || lpad(i::text, 6, '0'), c.customer_id,
       CASE WHEN pg_temp.r('so_q', i) < 0.15 THEN aq.quote_id END,
       c.account_mgr_id, od, od + pg_temp.ri('so_rs', i, 2, 21),
       CASE WHEN od > date '2025-12-15' THEN pg_temp.wpick('so_st1', i, ARRAY['Draft','Confirmed'], ARRAY[40, 60])
            WHEN od > date '2025-11-15' THEN pg_temp.wpick('so_st2', i, ARRAY['Confirmed','Shipped','Delivered','Cancelled'], ARRAY[35, 35, 25, 5])
            ELSE pg_temp.wpick('so_st3', i, ARRAY['Delivered','Shipped','Cancelled'], ARRAY[88, 4, 8]) END,
       'USD', pg_temp.pick('so_inc', i, ARRAY['EXW','DAP','DDP','FCA']), 0
FROM generate_series(1, pg_temp.n(8000, 250)) AS i
CROSS JOIN LATERAL (SELECT pg_temp.dt('so_d', i, date '2022-01-01', date '2025-12-31') + 0 AS od,
                           pg_temp.r('so_cw', i) AS w) AS d
JOIN customers c ON c.customer_id = 1 + floor((SELECT count(*) FROM customers) * d.w ^ 1.6)::integer
LEFT JOIN (SELECT customer_id, min(quote_id) AS quote_id FROM quotes WHERE status = 'Accepted' GROUP BY customer_id) AS aq
       ON aq.customer_id = c.customer_id;

INSERT INTO sales_order_lines
SELECT so.so_id, k, p.product_id, pg_temp.ri('sol_q', so.so_id * 10 + k, 1, 25), p.list_price,
       pg_temp.wpick('sol_d', so.so_id * 10 + k, ARRAY['0','0','5','10','15'], ARRAY[50, 10, 20, 15, 5])::numeric
FROM sales_orders so CROSS JOIN generate_series(1, 5) AS k
JOIN products p ON p.product_id = pg_temp.ri('sol_p', so.so_id * 10 + k, 1, (SELECT count(*) FROM products)::integer)
WHERE k <= pg_temp.ri('sol_n', so.so_id, 1, 5);
UPDATE sales_orders so SET total_amount = l.s
FROM (SELECT so_id, round(sum(qty * unit_price * (1 - discount_pct / 100)), 2) AS s FROM sales_order_lines GROUP BY so_id) AS l
WHERE l.so_id = so.so_id;

INSERT INTO shipments
SELECT so.so_id, so.so_id,
       CASE c.country_code WHEN 'US' THEN 1 + so.so_id % 2 WHEN 'CA' THEN 1 WHEN 'MX' THEN 2 WHEN 'BR' THEN 7 WHEN 'AR' THEN 7 WHEN 'CL' THEN 7
            WHEN 'GB' THEN 5 WHEN 'DE' THEN 4 WHEN 'CH' THEN 4 WHEN 'PL' THEN 4 WHEN 'SE' THEN 4 WHEN 'AU' THEN 8
            WHEN 'SG' THEN 6 WHEN 'IN' THEN 6 WHEN 'CN' THEN 6 WHEN 'JP' THEN 6 ELSE 3 END,
       sd,
       CASE WHEN so.status = 'Delivered' THEN sd + pg_temp.ri('sh_dd', so.so_id, 1, 9) END,
       pg_temp.wpick('sh_c', so.so_id, ARRAY['DHL','UPS','FedEx','DB Schenker','Maersk'], ARRAY[30, 25, 25, 12, 8]),
       '1Z' || upper(substr(md5(current_setting('erp.seed') || so.so_id), 1, 14))
FROM sales_orders so JOIN customers c USING (customer_id)
CROSS JOIN LATERAL (SELECT least(so.order_date + pg_temp.ri('sh_d', so.so_id, 1, 10), date '2025-12-31') AS sd) AS d
WHERE so.status IN ('Shipped', 'Delivered');

INSERT INTO shipment_lines
SELECT l.so_id, l.so_id, l.line_no, l.qty FROM sales_order_lines l JOIN shipments s ON s.shipment_id = l.so_id;

INSERT INTO sales_returns
SELECT row_number() OVER (ORDER BY so_id, line_no), 'RMA-' || lpad((row_number() OVER (ORDER BY so_id, line_no))::text, 6, '0'),
       so_id, product_id, greatest(1, round(qty * pg_temp.r('rt_q', so_id * 10 + line_no)::numeric)),
       least(delivered_on + pg_temp.ri('rt_d', so_id, 2, 40), date '2025-12-31'),
       pg_temp.wpick('rt_r', so_id * 10 + line_no, ARRAY['Damaged','Wrong Item','Not Needed','Defective','Late Delivery'], ARRAY[30, 20, 15, 25, 10]),
       pg_temp.r('rt_rs', so_id * 10 + line_no) < 0.6
FROM sales_order_lines l JOIN shipments s USING (so_id)
WHERE s.delivered_on IS NOT NULL AND l.line_no = 1 AND pg_temp.r('rt', so_id) < 0.06;

-- ===================== Projects =====================
INSERT INTO projects
SELECT i, 'PRJ-' || lpad(i::text, 4, '0'),
       CASE WHEN internal THEN pg_temp.pick('pj_in', i, ARRAY['ERP Upgrade','Warehouse Automation','Office Move','Cloud Migration',
                'Data Warehouse','Cyber Security Program','Lean Manufacturing','HR Portal'])
            ELSE (SELECT customer_name FROM customers WHERE customer_id = cust) || ' ' ||
                 pg_temp.pick('pj_ex', i, ARRAY['Implementation','Integration','Rollout','Consulting','Support Transition','Installation']) END,
       CASE WHEN NOT internal THEN cust END,
       pg_temp.staff(pg_temp.pick('pj_pm', i, ARRAY['6','8','13'])::integer, i),
       CASE WHEN internal THEN pg_temp.pick('pj_d', i, ARRAY['6','7','8','13']) ELSE pg_temp.pick('pj_d2', i, ARRAY['6','8','11']) END::integer,
       sd, ed, st, round(20000 + 980000 * pg_temp.r('pj_b', i) ^ 2, -3),
       CASE WHEN internal THEN 'Internal' ELSE pg_temp.pick('pj_bt', i, ARRAY['Fixed Price','Time and Materials']) END
FROM generate_series(1, pg_temp.n(300, 20)) AS i
CROSS JOIN LATERAL (SELECT pg_temp.r('pj_i', i) < 0.3 AS internal,
                           pg_temp.ri('pj_c', i, 1, (SELECT count(*) FROM customers)::integer) AS cust,
                           pg_temp.dt('pj_sd', i, date '2022-01-01', date '2025-10-31') AS sd) AS x
CROSS JOIN LATERAL (SELECT x.sd + pg_temp.ri('pj_len', i, 60, 600) AS ed) AS e
-- Projects that should have ended by now are completed (or cancelled);
-- the others are running, on hold, or (when starting late 2025) planned.
CROSS JOIN LATERAL (SELECT CASE
        WHEN e.ed < date '2025-12-01' THEN pg_temp.wpick('pj_st0', i, ARRAY['Completed','Cancelled'], ARRAY[85, 15])
        WHEN x.sd > date '2025-08-01' THEN pg_temp.wpick('pj_st1', i, ARRAY['Planned','Active','On Hold'], ARRAY[30, 60, 10])
        ELSE pg_temp.wpick('pj_st2', i, ARRAY['Active','On Hold'], ARRAY[85, 15]) END AS st) AS s;

INSERT INTO project_members
SELECT p.project_id, e, CASE WHEN k = 1 THEN 'Lead' ELSE pg_temp.pick('pm_r', p.project_id * 10 + k, ARRAY['Consultant','Developer','Analyst','Engineer','Tester']) END,
       pg_temp.pick('pm_a', p.project_id * 10 + k, ARRAY['20','40','50','80','100'])::smallint, p.start_date + pg_temp.ri('pm_j', p.project_id * 10 + k, 0, 30)
FROM projects p CROSS JOIN generate_series(1, 8) AS k
CROSS JOIN LATERAL (SELECT 15 + ((p.project_id * 37 + k * 101) % ((SELECT count(*) FROM employees)::integer - 14)) AS e) AS x
WHERE k <= pg_temp.ri('pm_n', p.project_id, 3, 8)
ON CONFLICT DO NOTHING;

INSERT INTO project_milestones
SELECT row_number() OVER (ORDER BY p.project_id, k), p.project_id,
       (ARRAY['Kick-off','Design Sign-off','Build Complete','User Acceptance','Go-Live'])[k],
       p.start_date + (coalesce(p.end_date, p.start_date + 300) - p.start_date) * k / 5,
       CASE WHEN p.start_date + (coalesce(p.end_date, p.start_date + 300) - p.start_date) * k / 5 < date '2025-12-01'
             AND p.status IN ('Active', 'Completed', 'On Hold') THEN p.start_date + (coalesce(p.end_date, p.start_date + 300) - p.start_date) * k / 5 + pg_temp.ri('ms_l', p.project_id * 10 + k, -3, 10) END,
       CASE WHEN p.billing_type = 'Fixed Price' THEN round(p.budget_amt * 0.2 * 1.25, 2) END
FROM projects p CROSS JOIN generate_series(1, 5) AS k;
UPDATE project_milestones SET completed_on = NULL WHERE completed_on > date '2025-12-31';

INSERT INTO project_tasks
SELECT row_number() OVER (ORDER BY p.project_id, k), p.project_id,
       (SELECT milestone_id FROM project_milestones m WHERE m.project_id = p.project_id ORDER BY due_date OFFSET (k - 1) / 3 LIMIT 1),
       pg_temp.pick('pt_n', p.project_id * 20 + k, ARRAY['Requirements workshop','Data migration','Interface development','Testing',
           'Training of key users','Hardware installation','Configuration','Documentation','Cut-over planning','Hypercare support']),
       (SELECT pm.emp_id FROM project_members pm WHERE pm.project_id = p.project_id ORDER BY (pm.emp_id * 7 + k) % 13, pm.emp_id LIMIT 1),
       CASE WHEN p.status = 'Completed' THEN 'Done' WHEN p.status = 'Planned' THEN 'To Do'
            ELSE pg_temp.wpick('pt_st', p.project_id * 20 + k, ARRAY['To Do','In Progress','Blocked','Done'], ARRAY[25, 30, 10, 35]) END,
       pg_temp.wpick('pt_pr', p.project_id * 20 + k, ARRAY['Low','Medium','High','Critical'], ARRAY[25, 45, 22, 8])::priority_level,
       pg_temp.ri('pt_h', p.project_id * 20 + k, 4, 120),
       p.start_date + pg_temp.ri('pt_d', p.project_id * 20 + k, 10, 300)
FROM projects p CROSS JOIN generate_series(1, 12) AS k
WHERE k <= pg_temp.ri('pt_k', p.project_id, 6, 12);

DROP TABLE IF EXISTS pg_temp.pm_n;
CREATE TEMP TABLE pm_n ON COMMIT DROP AS
SELECT row_number() OVER (ORDER BY project_id, emp_id)::integer AS rn, project_id, emp_id, joined_on FROM project_members;
DROP TABLE IF EXISTS pg_temp.task_n;
CREATE TEMP TABLE task_n ON COMMIT DROP AS
SELECT project_id, row_number() OVER (PARTITION BY project_id ORDER BY task_id)::integer AS k,
       count(*) OVER (PARTITION BY project_id)::integer AS n, task_id FROM project_tasks;
ALTER TABLE pm_n ADD PRIMARY KEY (rn);
ALTER TABLE task_n ADD PRIMARY KEY (project_id, k);
INSERT INTO timesheets
SELECT i, pm.emp_id, pm.project_id, t.task_id,
       wd, pg_temp.pick('ts_h', i, ARRAY['2','4','4','6','8','8','8'])::numeric,
       p.billing_type <> 'Internal' AND pg_temp.r('ts_b', i) < 0.9,
       wd < date '2025-12-15'
FROM generate_series(1, pg_temp.n(15000, 400)) AS i
JOIN pm_n AS pm ON pm.rn = pg_temp.ri('ts_pm', i, 1, (SELECT count(*) FROM pm_n)::integer)
JOIN projects p ON p.project_id = pm.project_id
LEFT JOIN task_n AS t ON t.project_id = pm.project_id AND t.k = 1 + i % t.n
CROSS JOIN LATERAL (SELECT least(greatest(pm.joined_on, date '2022-01-03') +
        floor(pg_temp.r('ts_d', i) * (least(coalesce(p.end_date, date '2025-12-31'), date '2025-12-31') - greatest(pm.joined_on, date '2022-01-03') + 1))::integer,
        date '2025-12-31') AS wd) AS d;

INSERT INTO project_expenses
SELECT i, p.project_id, (SELECT min(emp_id) FROM project_members pm WHERE pm.project_id = p.project_id),
       least(p.start_date + pg_temp.ri('pe_d', i, 0, 400), date '2025-12-31'),
       pg_temp.wpick('pe_c', i, ARRAY['Travel','Software','Hardware','Subcontractor','Other'], ARRAY[40, 15, 15, 20, 10]),
       round((100 + 14900 * pg_temp.r('pe_a', i) ^ 2)::numeric, 2)
FROM generate_series(1, pg_temp.n(4000, 60)) AS i
JOIN projects p ON p.project_id = pg_temp.ri('pe_p', i, 1, (SELECT count(*) FROM projects)::integer)
WHERE p.status <> 'Planned';

INSERT INTO project_risks
SELECT i, p.project_id,
       pg_temp.pick('rk', i, ARRAY['Key resource unavailable','Scope creep','Supplier delivery delay','Budget overrun',
           'Data quality issues','Customer approval delayed','Integration complexity','Regulatory change']),
       pg_temp.wpick('rk_s', i, ARRAY['Low','Medium','High','Critical'], ARRAY[30, 40, 22, 8])::priority_level,
       CASE WHEN p.status IN ('Completed','Cancelled') THEN 'Closed' ELSE pg_temp.wpick('rk_st', i, ARRAY['Open','Mitigated','Closed'], ARRAY[55, 30, 15]) END,
       p.pm_emp_id, least(p.start_date + pg_temp.ri('rk_d', i, 0, 200), date '2025-12-31')
FROM generate_series(1, pg_temp.n(600, 15)) AS i
JOIN projects p ON p.project_id = pg_temp.ri('rk_p', i, 1, (SELECT count(*) FROM projects)::integer);

INSERT INTO project_status_reports
SELECT row_number() OVER (ORDER BY p.project_id, m), p.project_id, (m + interval '1 month' - interval '1 day')::date,
       pg_temp.wpick('psr_h', (p.project_id * 100 + k)::integer, ARRAY['Green','Amber','Red'], ARRAY[60, 28, 12]),
       least(100, (100 * (m::date - p.start_date) / greatest(1, coalesce(p.end_date, date '2026-06-30') - p.start_date)))::smallint,
       p.pm_emp_id
FROM projects p
CROSS JOIN LATERAL generate_series(date_trunc('month', p.start_date), least(coalesce(p.end_date, date '2025-12-01'), date '2025-12-01'), interval '1 month')
     WITH ORDINALITY AS g(m, k)
WHERE p.status <> 'Planned';

-- ===================== Finance (part 2) =====================
INSERT INTO invoices
SELECT so.so_id, 'INV-' || lpad(so.so_id::text, 6, '0'), so.customer_id, so.so_id, NULL, s.shipped_on,
       s.shipped_on + coalesce(pt.due_days, 30), 'USD', NULL,
       round(so.total_amount * (1 + coalesce(tc.rate_pct, 0) / 100), 2),
       CASE WHEN s.shipped_on + coalesce(pt.due_days, 30) >= date '2025-12-31' THEN 'Open'
            WHEN pg_temp.r('inv_st', so.so_id) < 0.9 THEN 'Paid'
            WHEN pg_temp.r('inv_st', so.so_id) < 0.97 THEN 'Overdue' ELSE 'Cancelled' END
FROM sales_orders so JOIN shipments s ON s.so_id = so.so_id JOIN customers c ON c.customer_id = so.customer_id
LEFT JOIN payment_terms pt ON pt.term_code = c.term_code
LEFT JOIN LATERAL (SELECT t.rate_pct, t.tax_code FROM tax_codes t WHERE t.country_code = c.country_code ORDER BY t.rate_pct DESC LIMIT 1) AS tc ON true;
UPDATE invoices i SET tax_code = (SELECT t.tax_code FROM tax_codes t JOIN customers c ON c.country_code = t.country_code
                                  WHERE c.customer_id = i.customer_id ORDER BY t.rate_pct DESC LIMIT 1);

INSERT INTO invoice_lines
SELECT l.so_id, l.line_no, l.product_id, p.product_name, l.qty, round(l.unit_price * (1 - l.discount_pct / 100), 2)
FROM sales_order_lines l JOIN invoices i ON i.invoice_id = l.so_id JOIN products p ON p.product_id = l.product_id;

-- Milestone invoices of fixed-price projects (ids above every sales order id).
INSERT INTO invoices
SELECT 1000000 + m.milestone_id, 'INV-P' || lpad(m.milestone_id::text, 5, '0'), p.customer_id, NULL, p.project_id,
       m.completed_on, m.completed_on + 30, 'USD', NULL, m.billing_amt,
       CASE WHEN m.completed_on + 30 >= date '2025-12-31' THEN 'Open' ELSE 'Paid' END
FROM project_milestones m JOIN projects p USING (project_id)
WHERE m.billing_amt IS NOT NULL AND m.completed_on IS NOT NULL AND p.customer_id IS NOT NULL;
INSERT INTO invoice_lines
SELECT i.invoice_id, 1, NULL, 'Milestone: ' || m.name, 1, m.billing_amt
FROM invoices i JOIN project_milestones m ON i.invoice_id = 1000000 + m.milestone_id;
INSERT INTO project_billing
SELECT i.project_id, i.invoice_id, i.invoice_id - 1000000, i.total_amount FROM invoices i WHERE i.project_id IS NOT NULL;

INSERT INTO customer_payments
SELECT row_number() OVER (ORDER BY i.invoice_id), i.invoice_id, i.customer_id,
       least(i.invoice_date + pg_temp.ri('cp_d', i.invoice_id, 5, 70), date '2025-12-31'), i.total_amount,
       pg_temp.wpick('cp_m', i.invoice_id, ARRAY['Wire','Card','Direct Debit','Check'], ARRAY[60, 10, 20, 10]),
       pg_temp.wpick('cp_b', i.invoice_id, ARRAY['1','3','4','5','6'], ARRAY[50, 25, 12, 8, 5])::integer
FROM invoices i WHERE i.status = 'Paid';

INSERT INTO supplier_invoices
SELECT po.po_id, upper(substr(md5(current_setting('erp.seed') || 'si' || po.po_id), 1, 4)) || '-' || (10000 + po.po_id),
       po.supplier_id, po.po_id, g.received_on, g.received_on + coalesce(pt.due_days, 30),
       round(po.tot_amt * 1.1, 2), round(po.tot_amt * 0.1, 2),
       CASE WHEN g.received_on + coalesce(pt.due_days, 30) >= date '2025-12-31' THEN pg_temp.pick('si_o', po.po_id, ARRAY['Received','Approved'])
            ELSE pg_temp.wpick('si_st', po.po_id, ARRAY['Paid','Disputed','Approved'], ARRAY[90, 4, 6]) END
FROM purchase_orders po JOIN goods_receipts g ON g.po_id = po.po_id
JOIN suppliers s ON s.supplier_id = po.supplier_id LEFT JOIN payment_terms pt ON pt.term_code = s.term_code;

INSERT INTO supplier_payments
SELECT row_number() OVER (ORDER BY si.sinv_id), si.sinv_id, least(si.due_dt - pg_temp.ri('sp_d', si.sinv_id, -5, 10), date '2025-12-31'),
       si.tot_amt, pg_temp.wpick('sp_b', si.sinv_id, ARRAY['1','3','4'], ARRAY[60, 30, 10])::integer
FROM supplier_invoices si WHERE si.status = 'Paid';

INSERT INTO expense_reports
SELECT i, e.emp_id, sd, e.manager_id,
       CASE WHEN sd > date '2025-12-10' THEN 'Submitted'
            ELSE pg_temp.wpick('er_st', i, ARRAY['Reimbursed','Approved','Rejected','Submitted'], ARRAY[78, 10, 7, 5]) END,
       0, d.cc_id
FROM generate_series(1, pg_temp.n(3000, 80)) AS i
JOIN employees e ON e.emp_id = pg_temp.ri('er_e', i, 1, (SELECT count(*) FROM employees)::integer)
JOIN departments d ON d.dept_id = e.dept_id
CROSS JOIN LATERAL (SELECT pg_temp.dt('er_d', i, date '2022-01-05', date '2025-12-31') AS sd) AS x;

INSERT INTO expense_lines
SELECT r.report_id, k, r.submitted_on - pg_temp.ri('el_d', r.report_id * 10 + k, 1, 25), cat,
       round(CASE cat WHEN 'Airfare' THEN 250 + 1500 * pg_temp.r('el_a', r.report_id * 10 + k) WHEN 'Hotel' THEN 90 + 400 * pg_temp.r('el_a', r.report_id * 10 + k)
                      WHEN 'Meals' THEN 15 + 120 * pg_temp.r('el_a', r.report_id * 10 + k) ELSE 10 + 150 * pg_temp.r('el_a', r.report_id * 10 + k) END::numeric, 2),
       'USD'
FROM expense_reports r CROSS JOIN generate_series(1, 4) AS k
CROSS JOIN LATERAL (SELECT pg_temp.wpick('el_c', r.report_id * 10 + k, ARRAY['Airfare','Hotel','Meals','Taxi','Mileage','Other'], ARRAY[15, 25, 30, 15, 10, 5]) AS cat) AS x
WHERE k <= pg_temp.ri('el_n', r.report_id, 1, 4);
UPDATE expense_reports r SET total_amount = l.s FROM (SELECT report_id, sum(amount) AS s FROM expense_lines GROUP BY report_id) AS l
WHERE l.report_id = r.report_id;

-- Journal: one balanced entry per invoice, supplier invoice, payroll run,
-- plus manual entries; one line pair each (debit, credit).
DROP TABLE IF EXISTS pg_temp.je_src;
CREATE TEMP TABLE je_src ON COMMIT DROP AS
SELECT row_number() OVER (ORDER BY d, src, ref)::integer AS je_id, * FROM (
    SELECT invoice_date AS d, 'AR' AS src, invoice_id AS ref, 'Customer invoice ' || invoice_no AS descr, total_amount AS amt
    FROM invoices WHERE status <> 'Cancelled'
    UNION ALL SELECT inv_dt, 'AP', sinv_id, 'Supplier invoice ' || inv_nbr, tot_amt FROM supplier_invoices
    UNION ALL SELECT r.run_date, 'Payroll', r.run_id, 'Payroll ' || to_char(r.pay_period, 'YYYY-MM'), sum(l.gross_amt)
              FROM payroll_runs r JOIN payroll_lines l USING (run_id) GROUP BY r.run_id
    UNION ALL SELECT pg_temp.dt('je_m', i, date '2022-01-01', date '2025-12-31'), 'Manual', i,
                     pg_temp.pick('je_md', i, ARRAY['Accrual','Rent','Bank fees','Reclassification','Prepaid expenses','Marketing campaign']),
                     round(500 + 49500 * pg_temp.r('je_a', i), 2)
              FROM generate_series(1, pg_temp.n(2000, 40)) AS i
) AS j;

INSERT INTO journal_entries
SELECT je_id, 'JE-' || lpad(je_id::text, 7, '0'), d, src, descr, pg_temp.staff(2, ref),
       CASE WHEN src = 'Manual' AND pg_temp.r('je_st', ref) < 0.1 THEN 'Draft'
            WHEN pg_temp.r('je_rv', ref + length(src)) < 0.01 THEN 'Reversed' ELSE 'Posted' END
FROM je_src;

INSERT INTO gl_journal_lines
SELECT j.je_id, k, j.d,
       CASE j.src WHEN 'AR' THEN (ARRAY[4, 19])[k] WHEN 'AP' THEN (ARRAY[5, 11])[k] WHEN 'Payroll' THEN (ARRAY[24, 12])[k]
            ELSE (ARRAY[(ARRAY[26, 27, 28, 29, 30, 33, 32])[1 + j.je_id % 7], 2])[k] END,
       CASE WHEN k = 1 AND j.src = 'Manual' THEN 1 + j.je_id % 19 END,
       CASE WHEN k = 1 THEN j.amt ELSE 0 END, CASE WHEN k = 2 THEN j.amt ELSE 0 END, j.descr
FROM je_src j CROSS JOIN generate_series(1, 2) AS k;

-- ===================== Assets =====================
INSERT INTO asset_categories VALUES (1, 'IT Hardware', 3, 'Straight-line', 8), (2, 'Office Furniture', 7, 'Straight-line', 6),
    (3, 'Vehicles', 5, 'Declining balance', 7), (4, 'Machinery', 10, 'Straight-line', 6), (5, 'Warehouse Equipment', 8, 'Straight-line', 6),
    (6, 'Buildings Improvements', 15, 'Straight-line', 6), (7, 'Lab Equipment', 6, 'Straight-line', 6), (8, 'Mobile Phones', 2, 'Straight-line', 8);

INSERT INTO fixed_assets
SELECT i, 'FA-' || lpad(i::text, 5, '0'),
       CASE cat WHEN 1 THEN pg_temp.pick('fa1', i, ARRAY['Laptop','Desktop PC','Server','Network Switch','Printer'])
                WHEN 2 THEN pg_temp.pick('fa2', i, ARRAY['Desk','Office Chair','Meeting Table','Cabinet'])
                WHEN 3 THEN pg_temp.pick('fa3', i, ARRAY['Delivery Van','Company Car','Forklift Truck','Pickup Truck'])
                WHEN 4 THEN pg_temp.pick('fa4', i, ARRAY['CNC Machine','Packaging Line','Compressor Unit','Conveyor'])
                WHEN 5 THEN pg_temp.pick('fa5', i, ARRAY['Pallet Racking','Pallet Jack','Scanner Gun','Dock Leveler'])
                WHEN 6 THEN pg_temp.pick('fa6', i, ARRAY['HVAC Upgrade','Office Fit-out','LED Lighting'])
                WHEN 7 THEN pg_temp.pick('fa7', i, ARRAY['Spectrometer','Climate Chamber','Microscope'])
                ELSE pg_temp.pick('fa8', i, ARRAY['Smartphone','Tablet']) END || ' #' || i,
       cat, ad,
       round(CASE cat WHEN 1 THEN 1500 WHEN 2 THEN 600 WHEN 3 THEN 38000 WHEN 4 THEN 120000 WHEN 5 THEN 9000
                      WHEN 6 THEN 80000 WHEN 7 THEN 45000 ELSE 800 END * (0.6 + 0.8 * pg_temp.r('fa_c', i))::numeric, 2),
       0, pg_temp.ri('fa_l', i, 1, 12),
       pg_temp.ri('fa_e', i, 1, (SELECT count(*) FROM employees)::integer),
       pg_temp.ri('fa_cc', i, 1, 19), pg_temp.ri('fa_s', i, 1, (SELECT count(*) FROM suppliers)::integer),
       CASE WHEN ad > date '2025-06-01' THEN 'New' ELSE pg_temp.wpick('fa_cd', i, ARRAY['New','Good','Fair','Poor'], ARRAY[10, 50, 30, 10]) END::asset_condition,
       pg_temp.wpick('fa_st', i, ARRAY['In Use','In Storage','Under Repair','Disposed'], ARRAY[75, 10, 5, 10])
FROM generate_series(1, pg_temp.n(2500, 60)) AS i
CROSS JOIN LATERAL (SELECT pg_temp.wpick('fa_cat', i, ARRAY['1','2','3','4','5','6','7','8'], ARRAY[35, 15, 8, 6, 8, 3, 5, 20])::integer AS cat,
                           pg_temp.dt('fa_ad', i, date '2016-01-01', date '2025-11-30') AS ad) AS x;
UPDATE fixed_assets SET salvage_val = round(acq_cost * 0.1, 2) WHERE asset_category_id IN (3, 4, 7);

INSERT INTO asset_depreciation
SELECT a.asset_id, make_date(y, 12, 31), dep,
       least(a.acq_cost - a.salvage_val, dep * (y - extract(year FROM a.acq_dt)::integer + 1)),
       a.acq_cost - least(a.acq_cost - a.salvage_val, dep * (y - extract(year FROM a.acq_dt)::integer + 1))
FROM fixed_assets a JOIN asset_categories c USING (asset_category_id)
CROSS JOIN generate_series(2022, 2025) AS y
CROSS JOIN LATERAL (SELECT round((a.acq_cost - a.salvage_val) / c.useful_life_years, 2) AS dep) AS d
WHERE extract(year FROM a.acq_dt) <= y AND dep * (y - extract(year FROM a.acq_dt)::integer) < a.acq_cost - a.salvage_val;

INSERT INTO asset_assignments
SELECT row_number() OVER (ORDER BY a.asset_id), a.asset_id, a.custodian_emp_id, greatest(a.acq_dt, date '2022-01-01') + pg_temp.ri('aa_d', a.asset_id, 0, 20),
       CASE WHEN a.status IN ('In Storage', 'Disposed') THEN date '2025-12-31' - pg_temp.ri('aa_r', a.asset_id, 1, 300) END
FROM fixed_assets a WHERE a.asset_category_id IN (1, 3, 8);
UPDATE asset_assignments SET returned_on = assigned_on + 1 WHERE returned_on <= assigned_on;

INSERT INTO maintenance_orders
SELECT i, a.asset_id, od, CASE WHEN st = 'Closed' THEN od + pg_temp.ri('mo_cd', i, 1, 30) END,
       pg_temp.wpick('mo_p', i, ARRAY['Low','Medium','High','Critical'], ARRAY[30, 40, 22, 8])::priority_level, st,
       pg_temp.staff(8, i),
       CASE WHEN pg_temp.r('mo_ext', i) < 0.4 THEN pg_temp.ri('mo_s', i, 1, (SELECT count(*) FROM suppliers)::integer) END,
       round((50 + 4950 * pg_temp.r('mo_c', i) ^ 2)::numeric, 2)
FROM generate_series(1, pg_temp.n(1500, 30)) AS i
JOIN fixed_assets a ON a.asset_id = pg_temp.ri('mo_a', i, 1, (SELECT count(*) FROM fixed_assets)::integer)
CROSS JOIN LATERAL (SELECT greatest(a.acq_dt, date '2022-01-01') + pg_temp.ri('mo_d', i, 10, 700) AS od0) AS x
CROSS JOIN LATERAL (SELECT least(x.od0, date '2025-12-28') AS od) AS y
CROSS JOIN LATERAL (SELECT CASE WHEN y.od > date '2025-11-15' THEN pg_temp.pick('mo_s1', i, ARRAY['Open','In Progress']) ELSE 'Closed' END AS st) AS z;

INSERT INTO asset_disposals
SELECT row_number() OVER (ORDER BY a.asset_id), a.asset_id,
       least(greatest(a.acq_dt + 365, date '2022-01-01') + pg_temp.ri('ad_d', a.asset_id, 0, 900), date '2025-12-20'),
       m, CASE WHEN m = 'Sold' THEN round(a.acq_cost * 0.15, 2) ELSE 0 END,
       pg_temp.staff(2, a.asset_id)
FROM fixed_assets a CROSS JOIN LATERAL (SELECT pg_temp.wpick('ad_m', a.asset_id, ARRAY['Sold','Scrapped','Donated'], ARRAY[45, 45, 10]) AS m) AS x
WHERE a.status = 'Disposed';

INSERT INTO vehicles
SELECT a.asset_id, upper(substr(md5(current_setting('erp.seed') || 'v' || a.asset_id), 1, 3)) || '-' || (1000 + a.asset_id % 9000),
       mk, pg_temp.pick('v_mo' || mk, a.asset_id, CASE mk WHEN 'Ford' THEN ARRAY['Transit','Ranger','Focus'] WHEN 'Volkswagen' THEN ARRAY['Crafter','Passat','ID.4']
           WHEN 'Toyota' THEN ARRAY['Hilux','Corolla','Proace'] WHEN 'Tesla' THEN ARRAY['Model 3','Model Y'] ELSE ARRAY['Sprinter','Vito'] END),
       CASE mk WHEN 'Tesla' THEN 'Electric' ELSE pg_temp.wpick('v_f', a.asset_id, ARRAY['Diesel','Petrol','Hybrid','Electric'], ARRAY[45, 20, 20, 15]) END,
       pg_temp.ri('v_km', a.asset_id, 1000, 220000)
FROM fixed_assets a CROSS JOIN LATERAL (SELECT pg_temp.pick('v_mk', a.asset_id, ARRAY['Ford','Volkswagen','Toyota','Tesla','Mercedes-Benz']) AS mk) AS x
WHERE a.asset_category_id = 3;

INSERT INTO software_licenses
SELECT i, (ARRAY['Microsoft 365','Salesforce Sales Cloud','Atlassian Jira','Slack','Adobe Creative Cloud','Zoom','GitHub Enterprise',
              'Tableau','AutoCAD','DocuSign','Workday','ServiceNow','SAP Concur','Okta','Datadog'])[1 + (i - 1) % 15] ||
          CASE WHEN i > 15 THEN ' (' || (ARRAY['EMEA','APAC','Americas'])[1 + (i / 15) % 3] || ')' ELSE '' END,
       pg_temp.ri('sl_s', i, 1, (SELECT count(*) FROM suppliers)::integer), seats, least(seats, round(seats * (0.5 + 0.6 * pg_temp.r('sl_u', i)))::integer),
       round(seats * (60 + 900 * pg_temp.r('sl_c', i))::numeric, -1), pg_temp.dt('sl_r', i, date '2025-01-01', date '2026-12-31'),
       pg_temp.pick('sl_d', i, ARRAY['7','6','4','2','5','3'])::integer
FROM generate_series(1, pg_temp.n(45, 15)) AS i
CROSS JOIN LATERAL (SELECT pg_temp.ri('sl_n', i, 5, 1500) AS seats) AS x;
