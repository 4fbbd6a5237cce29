-- A small ERP-like schema for the link tests.
CREATE SCHEMA sales;
CREATE SCHEMA hr;
CREATE SCHEMA ap;
CREATE SCHEMA crm;

CREATE TYPE hr.employee_status AS ENUM ('Active', 'On leave', 'Terminated');

CREATE TABLE hr.departments (
    dept_cd  char(4) PRIMARY KEY,
    dept_nm  varchar(60) NOT NULL,
    region   text
);
COMMENT ON TABLE hr.departments IS 'Organisational units';

CREATE TABLE hr.employees (
    emp_id    integer PRIMARY KEY,
    first_nm  text NOT NULL,
    last_nm   text NOT NULL,
    dept_cd   char(4) REFERENCES hr.departments,
    mgr_id    integer REFERENCES hr.employees,
    hire_dt   date,
    sal_amt   numeric(12,2),
    status    hr.employee_status NOT NULL,
    email     text
);
COMMENT ON TABLE hr.employees IS 'People employed by the company';
COMMENT ON COLUMN hr.employees.sal_amt IS 'Yearly gross pay';

CREATE TABLE sales.customers (
    cust_id     integer PRIMARY KEY,
    cust_nm     text NOT NULL,
    region      text,
    country_cd  char(2),
    segment     text,
    credit_lmt  numeric(12,2)
);
COMMENT ON TABLE sales.customers IS 'Companies that buy from us';

CREATE TABLE sales.invoices (
    inv_id   integer PRIMARY KEY,
    inv_nbr  text UNIQUE NOT NULL,
    cust_id  integer NOT NULL REFERENCES sales.customers,
    inv_dt   date NOT NULL,
    tot_amt  numeric(14,2) NOT NULL,
    curr_cd  char(3) NOT NULL,
    stat     text NOT NULL
);
COMMENT ON TABLE sales.invoices IS 'Invoices we send to customers';

CREATE TABLE ap.suppliers (
    supp_id     integer PRIMARY KEY,
    supp_nm     text NOT NULL,
    country_cd  char(2)
);
COMMENT ON TABLE ap.suppliers IS 'Companies we buy from';

CREATE TABLE ap.supplier_invoices (
    sup_inv_id  integer PRIMARY KEY,
    supp_id     integer NOT NULL REFERENCES ap.suppliers,
    inv_dt      date NOT NULL,
    due_dt      date,
    tot_amt     numeric(14,2) NOT NULL,
    paid_flg    boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE ap.supplier_invoices IS 'Invoices received from suppliers';

CREATE TABLE sales.products (
    prod_id   integer PRIMARY KEY,
    prod_nm   text NOT NULL,
    cat_cd    text,
    uom       char(3),
    list_prc  numeric(12,2)
);

CREATE TABLE sales.sales_orders (
    so_id     integer PRIMARY KEY,
    cust_id   integer NOT NULL REFERENCES sales.customers,
    order_dt  date NOT NULL,
    ship_dt   date,
    tot_amt   numeric(14,2),
    stat      text
);

CREATE TABLE sales.order_lines (
    so_id     integer REFERENCES sales.sales_orders,
    ln_nbr    integer,
    prod_id   integer REFERENCES sales.products,
    qty       numeric(12,3) NOT NULL,
    unit_prc  numeric(12,2) NOT NULL,
    disc_pct  numeric(5,2),
    PRIMARY KEY (so_id, ln_nbr)
);

CREATE TABLE ap.purchase_orders (
    po_id     integer PRIMARY KEY,
    supp_id   integer NOT NULL REFERENCES ap.suppliers,
    order_dt  date NOT NULL,
    tot_amt   numeric(14,2),
    stat      text
);

CREATE TABLE crm.deals (
    deal_id       integer PRIMARY KEY,
    cust_id       integer REFERENCES sales.customers,
    deal_nm       text NOT NULL,
    stage         text NOT NULL,
    amt           numeric(14,2),
    close_dt      date,
    owner_emp_id  integer REFERENCES hr.employees
);
COMMENT ON TABLE crm.deals IS 'Sales opportunities in the pipeline';

INSERT INTO hr.departments VALUES
    ('FIN', 'Finance', 'EMEA'), ('HR', 'Human Resources', 'EMEA'), ('SALE', 'Sales', 'Americas'), ('ENG', 'Engineering', 'APAC');

INSERT INTO hr.employees
SELECT g, 'First' || g, 'Last' || g, (ARRAY['FIN','HR','SALE','ENG'])[1 + g % 4], NULLIF(1 + g % 5, g),
       DATE '2015-01-01' + g * 17, 40000 + g * 250,
       (ARRAY['Active','Active','On leave','Terminated'])[1 + g % 4]::hr.employee_status, 'emp' || g || '@example.com'
FROM generate_series(1, 120) g;

INSERT INTO sales.customers
SELECT g, 'Customer ' || g, (ARRAY['North','South','EMEA','APAC'])[1 + g % 4], (ARRAY['DE','FR','US','JP'])[1 + g % 4],
       (ARRAY['SMB','Enterprise','O''Reilly partners'])[1 + g % 3], 1000 * g
FROM generate_series(1, 300) g;

INSERT INTO sales.invoices
SELECT g, 'INV-' || lpad(g::text, 5, '0'), 1 + g % 300, DATE '2023-01-01' + g % 700, 100 + g % 977,
       (ARRAY['EUR','USD'])[1 + g % 2], (ARRAY['Open','Paid','Void'])[1 + g % 3]
FROM generate_series(1, 2000) g;

INSERT INTO ap.suppliers SELECT g, 'Supplier ' || g, 'DE' FROM generate_series(1, 20) g;
INSERT INTO ap.supplier_invoices SELECT g, 1 + g % 20, DATE '2023-01-01' + g, DATE '2023-02-01' + g, 50 + g, g % 2 = 0 FROM generate_series(1, 200) g;
INSERT INTO sales.products SELECT g, 'Product ' || g, (ARRAY['Hardware','Software','Services'])[1 + g % 3], 'EA', 10 * g FROM generate_series(1, 50) g;
INSERT INTO sales.sales_orders SELECT g, 1 + g % 300, DATE '2023-01-01' + g % 600, NULL, 10 * g, 'Shipped' FROM generate_series(1, 500) g;
INSERT INTO ap.purchase_orders SELECT g, 1 + g % 20, DATE '2023-01-01' + g, 20 * g, 'Received' FROM generate_series(1, 100) g;

INSERT INTO crm.deals
SELECT g, 1 + g % 300, 'Deal ' || g,
       (ARRAY['Prospecting','Qualification','Negotiation','Closed Won','Closed Lost'])[1 + g % 5], 500 * g,
       DATE '2024-01-01' + g, 1 + g % 120
FROM generate_series(1, 400) g;

-- No background ANALYZE anywhere: the tests decide which tables have statistics.
DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT oid::regclass AS t FROM pg_class WHERE relkind = 'r' AND relnamespace::regnamespace::text IN ('sales', 'hr', 'ap', 'crm') LOOP
        EXECUTE format('ALTER TABLE %s SET (autovacuum_enabled = false)', r.t);
    END LOOP;
END $$;
