-- Small ERP-like fixture for the repair tests: abbreviated column names,
-- a second schema, text dates, booleans, double precision money; tables
-- reachable through two foreign keys with like-named columns (countries,
-- warehouses), a table name in two schemas off the search path (archive).

CREATE SCHEMA hr;
CREATE SCHEMA archive;

CREATE TABLE countries (
    code char(2) PRIMARY KEY,
    name text NOT NULL,
    region text NOT NULL
);

CREATE TABLE categories (
    id int PRIMARY KEY,
    name text NOT NULL
);

CREATE TABLE customers (
    id int PRIMARY KEY,
    cust_nm text NOT NULL,
    city text NOT NULL,
    country_code char(2) NOT NULL REFERENCES countries,
    email text UNIQUE,
    is_vip boolean NOT NULL DEFAULT false,
    credit_limit double precision NOT NULL,
    signup_date date NOT NULL,
    status text NOT NULL
);

CREATE TABLE products (
    id int PRIMARY KEY,
    sku text NOT NULL UNIQUE,
    name text NOT NULL,
    category_id int NOT NULL REFERENCES categories,
    unit_price numeric(10,2) NOT NULL,
    discontinued boolean NOT NULL
);

CREATE TABLE hr.departments (
    dept_id int PRIMARY KEY,
    dept_name text NOT NULL
);

CREATE TABLE hr.employees (
    emp_id int PRIMARY KEY,
    first_nm text NOT NULL,
    last_nm text NOT NULL,
    dept_id int NOT NULL REFERENCES hr.departments,
    hire_dt date NOT NULL,
    salary numeric(10,2) NOT NULL,
    email text
);

-- Departments closed before the current hr schema.
CREATE TABLE archive.departments (
    dept_id int PRIMARY KEY,
    dept_name text NOT NULL,
    closed_on date NOT NULL
);

CREATE TABLE warehouses (
    id int PRIMARY KEY,
    name text NOT NULL,
    city text NOT NULL,
    country_code char(2) NOT NULL REFERENCES countries
);

CREATE TABLE orders (
    id int PRIMARY KEY,
    customer_id int NOT NULL REFERENCES customers,
    sales_rep_id int REFERENCES hr.employees,
    order_date date NOT NULL,
    shipped_at timestamp,
    status text NOT NULL,
    total_amt numeric(12,2) NOT NULL,
    is_paid boolean NOT NULL,
    warehouse_id int REFERENCES warehouses
);

CREATE TABLE order_lines (
    order_id int NOT NULL REFERENCES orders,
    line_no int NOT NULL,
    product_id int NOT NULL REFERENCES products,
    qty int NOT NULL,
    unit_price numeric(10,2) NOT NULL,
    discount_pct double precision NOT NULL DEFAULT 0,
    PRIMARY KEY (order_id, line_no)
);

CREATE TABLE invoices (
    invoice_no text PRIMARY KEY,
    order_id int NOT NULL REFERENCES orders,
    issued_on date NOT NULL,
    amount double precision NOT NULL,
    paid boolean NOT NULL
);

-- Imported from SQLite: dates and numbers stored as text.
CREATE TABLE legacy_events (
    id int PRIMARY KEY,
    event_dt text NOT NULL,
    code text NOT NULL,
    ref_num text NOT NULL
);

INSERT INTO countries VALUES ('IT', 'Italy', 'South'), ('DE', 'Germany', 'Central'), ('FR', 'France', 'West'),
    ('ES', 'Spain', 'South'), ('PT', 'Portugal', 'West'), ('NL', 'Netherlands', 'North');

INSERT INTO warehouses VALUES (1, 'Milan hub', 'Milan', 'IT'), (2, 'Lyon depot', 'Lyon', 'FR'), (3, 'Rotterdam port', 'Rotterdam', 'NL');

INSERT INTO archive.departments VALUES (10, 'Telesales', date '2019-06-30'), (11, 'Print shop', date '2021-03-31');

INSERT INTO categories VALUES (1, 'Hardware'), (2, 'Software'), (3, 'Services'), (4, 'Spare parts');

INSERT INTO customers
SELECT i, 'Customer ' || i,
       (ARRAY['Rome', 'Berlin', 'Paris', 'Madrid', 'Lisbon'])[1 + i % 5],
       (ARRAY['IT', 'DE', 'FR', 'ES', 'PT'])[1 + i % 5],
       'c' || i || '@example.com',
       i % 4 = 0,
       i * 1000.55,
       date '2023-01-01' + i * 20,
       CASE WHEN i % 5 = 0 THEN 'Inactive' ELSE 'Active' END
FROM generate_series(1, 12) i;

INSERT INTO products
SELECT i, 'SKU-' || lpad(i::text, 3, '0'), 'Product ' || i, 1 + i % 4, (i * 12.5)::numeric(10,2), i % 7 = 0
FROM generate_series(1, 10) i;

INSERT INTO hr.departments VALUES (1, 'Sales'), (2, 'Support'), (3, 'Finance'), (4, 'Legal');

INSERT INTO hr.employees
SELECT i, 'First' || i, 'Last' || i, 1 + i % 3, date '2020-01-15' + i * 100, 3000 + i * 250, 'e' || i || '@corp.example'
FROM generate_series(1, 6) i;

INSERT INTO orders
SELECT i, 1 + (i * 7) % 12,
       CASE WHEN i % 6 = 0 THEN NULL ELSE 1 + i % 6 END,
       date '2024-01-01' + i * 9,
       CASE WHEN i % 4 = 2 THEN NULL ELSE (date '2024-01-01' + i * 9) + (i % 5) * interval '1 day' + interval '3 hours' END,
       (ARRAY['shipped', 'pending', 'cancelled', 'delivered'])[1 + i % 4],
       (i * 37.25)::numeric(12,2),
       i % 3 <> 0,
       CASE WHEN i % 5 = 0 THEN NULL ELSE 1 + i % 3 END
FROM generate_series(1, 40) i;

INSERT INTO order_lines
SELECT o, l, 1 + (o + l) % 10, 1 + (o * l) % 5, ((1 + (o + l) % 10) * 12.5)::numeric(10,2), CASE WHEN (o + l) % 3 = 0 THEN 0.1 ELSE 0 END
FROM generate_series(1, 40) o, generate_series(1, 3) l
WHERE l <= 1 + o % 3;

INSERT INTO invoices
SELECT lpad(id::text, 6, '0'), id, order_date + 1, total_amt::double precision / 3, is_paid
FROM orders WHERE id % 2 = 1;

INSERT INTO legacy_events
SELECT i, to_char(date '2023-10-01' + i * 23, 'YYYY-MM-DD'), 'EV' || i, (i * 3)::text
FROM generate_series(1, 15) i;

ANALYZE;
