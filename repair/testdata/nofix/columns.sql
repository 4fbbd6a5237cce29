-- Misspelt or invented columns of the tables already in the query.

-- expect: tied p.name | c.name
-- server: error 42703
-- products and categories both have name, one abbreviation away from nme.
SELECT nme FROM products p JOIN categories c ON c.id = p.category_id

-- expect: tied p.unit_price | l.unit_price
-- server: error 42703
-- The list price or the price on the order line: one typo from both.
SELECT p.sku, unit_prce FROM products p JOIN order_lines l ON l.product_id = p.id WHERE l.qty > 2

-- expect: tied o.status | c.status
-- server: error 42703
-- The order's status or the customer's: both one swap away.
SELECT o.id, stauts FROM orders o JOIN customers c ON c.id = o.customer_id

-- expect: tied c.city | w.city
-- server: error 42703
-- Two joined tables with a city; the model misspelt it.
SELECT o.id, ctiy FROM orders o JOIN customers c ON c.id = o.customer_id JOIN warehouses w ON w.id = o.warehouse_id

-- expect: tied c.email | e.email
-- server: error 42703
-- The customer's email or the sales rep's.
SELECT o.id, emial FROM orders o JOIN customers c ON c.id = o.customer_id JOIN hr.employees e ON e.emp_id = o.sales_rep_id

-- expect: loose e.first_nm | e.last_nm
-- server: error 42703
-- An employee's "name": the first or the last one, equally.
SELECT e.emp_id, e.name FROM hr.employees e ORDER BY e.emp_id

-- expect: loose first_nm | last_nm
-- server: error 42703
-- The abbreviation is the last word of both name columns.
SELECT emp_id, nm FROM hr.employees WHERE dept_id = 2

-- expect: loose total_amt
-- server: error 42703
-- total is part of total_amt, but "total" may as well be a sum to compute.
SELECT customer_id, total FROM orders WHERE is_paid

-- expect: loose shipped_at
-- server: error 42703
-- A flag the table does not have; shipped_at is a timestamp, not "shipped".
SELECT id, status FROM orders WHERE shipped

-- expect: none
-- server: error 42703
-- "created" is not the order date for sure (an order may be entered later):
-- not even a loose match.
SELECT o.id, o.total_amt FROM orders o WHERE o.created_date >= DATE '2024-06-01'

-- expect: loose l.order_id | l.product_id | orders.id | products.id
-- server: error 42703
-- Order lines have no id of their own (the key is order_id, line_no):
-- either foreign key, or the id of either parent.
SELECT l.id, l.qty FROM order_lines l WHERE l.qty > 3

-- expect: loose country_code
-- server: error 42703
-- The country's code or its name? customers only has the code.
SELECT cust_nm, country FROM customers WHERE is_vip

-- expect: none
-- server: error 42703
-- Nothing in customers (or one key away) resembles a loyalty score.
SELECT cust_nm FROM customers WHERE loyalty_points > 100

-- expect: none
-- server: error 42703
-- No delivery date anywhere: a filter cannot be dropped either.
SELECT id FROM orders WHERE delivery_dt > DATE '2024-03-01'

-- expect: none
-- server: error 42703
-- A stock quantity exists nowhere; order_lines.qty is what was sold.
SELECT sku, name FROM products WHERE stock_qty < 5

-- expect: none
-- server: error 42703
-- Too far from anything: a made-up metric in an aggregate query.
SELECT status, avg(margin_pct) FROM orders GROUP BY status

-- expect: none
-- server: error 42703
-- The subquery's columns are unknown (*): the name may be one of them.
SELECT nmae FROM (SELECT * FROM products) p
