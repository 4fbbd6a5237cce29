-- 42702: a bare column several relations have, their values not equal.

-- expect: tied customers.id | orders.id
-- server: error 42702
-- The customer's id or the order's: the join equates customers.id with
-- orders.customer_id, not with orders.id.
SELECT id, cust_nm, total_amt FROM customers JOIN orders ON customers.id = orders.customer_id WHERE total_amt > 1400

-- expect: tied p.unit_price | l.unit_price
-- server: error 42702
-- The list price or the price charged on the line.
SELECT p.name FROM products p JOIN order_lines l ON l.product_id = p.id WHERE unit_price > 100

-- expect: tied o.status | c.status
-- server: error 42702
-- Grouping by the order's or the customer's status.
SELECT status, count(*) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY status

-- expect: tied p.name | c.name
-- server: error 42702
-- Product or category name.
SELECT name, unit_price FROM products p JOIN categories c ON c.id = p.category_id

-- expect: tied l.order_id | i.order_id
-- server: error 42702
-- Equal where both exist, but a FULL JOIN NULL-extends both sides: only
-- COALESCE(l.order_id, i.order_id) would keep every row's key.
SELECT order_id, count(*) FROM order_lines l FULL JOIN invoices i ON i.order_id = l.order_id GROUP BY 1

-- expect: tied c.code | w.code
-- server: error 42702
-- countries.code joined twice (the customer's and the warehouse's).
SELECT code FROM orders o JOIN customers cu ON cu.id = o.customer_id JOIN countries c ON c.code = cu.country_code JOIN warehouses wh ON wh.id = o.warehouse_id JOIN countries w ON w.code = wh.country_code
