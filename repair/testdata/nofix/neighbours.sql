-- Columns that only tables one foreign key away (or farther) have.

-- expect: tied customers.email | employees.email
-- server: error 42703
-- Both parents of orders have an email: the customer's or the sales rep's?
SELECT o.id, o.email FROM orders o WHERE o.total_amt > 500

-- expect: tied customers.city | warehouses.city
-- server: error 42703
-- The city of an order: where the customer is, or where it ships from?
SELECT id, city FROM orders WHERE status = 'shipped'

-- expect: tied customers.country_code | warehouses.country_code
-- server: error 42703
-- Same: two parents with a country.
SELECT o.id, o.country_code FROM orders o

-- expect: loose warehouses.name | customers.cust_nm | employees.first_nm | employees.last_nm
-- server: error 42703
-- "name" of an order: the customer's, the warehouse's, the rep's? A
-- generic word says nothing about whose.
SELECT id, name FROM orders WHERE total_amt > 1000

-- expect: loose products.name
-- server: error 42703
-- Probably the product's name, but a generic word is every table's: no
-- JOIN is added for it.
SELECT l.order_id, l.name, l.qty FROM order_lines l

-- expect: none
-- server: error 42703
-- region is the country's, two keys away from orders and by two paths
-- (the customer's country, the warehouse's).
SELECT o.id, o.region FROM orders o

-- expect: loose o.total_amt | invoices.amount
-- server: error 42703
-- The order's total, or its invoices' amounts (a JOIN to invoices would
-- repeat each order once per invoice)?
SELECT o.id, o.amount FROM orders o

-- expect: loose orders.total_amt
-- server: error 42703
-- A customer's total is a sum over orders; joining orders would list each
-- order instead.
SELECT c.cust_nm, c.total_amt FROM customers c ORDER BY c.cust_nm

-- expect: loose order_lines.qty
-- server: error 42703
-- Quantity sold per line, not a product attribute: joining lines repeats
-- products.
SELECT p.sku, p.qty FROM products p

-- expect: none
-- server: error 42703
-- dept_name lives in hr.departments, two keys away from orders.
SELECT id, dept_name FROM orders

-- expect: none
-- server: error 42703
-- salary is an employee's; customers has no key to employees.
SELECT cust_nm, salary FROM customers WHERE city = 'Rome'

-- expect: none
-- server: error 42703
-- event_dt belongs to legacy_events, unrelated to orders.
SELECT id, event_dt FROM orders

-- expect: none
-- server: error 42703
-- region belongs to countries, unrelated to products.
SELECT sku, region FROM products

-- expect: none
-- server: error 42703
-- A category has no status; products.discontinued is not it either.
SELECT c.name, c.status FROM categories c
