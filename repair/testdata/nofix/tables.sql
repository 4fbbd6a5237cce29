-- Unknown tables and qualifiers with no FROM entry.

-- expect: none
-- server: error 42P01
-- No table of line items; order_lines is not a spelling of it.
SELECT * FROM line_items WHERE qty > 2

-- expect: none
-- server: error 42P01
-- Customers or orders? Neither is a misspelling of customer_orders.
SELECT count(*) FROM customer_orders

-- expect: none
-- server: error 42P01
-- "sales" names a module, not a table.
SELECT sum(total_amt) FROM sales

-- expect: none
-- server: error 42P01
-- staff may mean hr.employees, but only by meaning, not by name.
SELECT count(*) FROM staff

-- expect: tied archive.departments | hr.departments
-- server: error 42P01
-- Off the search path, two schemas have departments.
SELECT dept_name FROM departments ORDER BY 1

-- expect: tied archive.departments | hr.departments
-- server: error 42P01
-- Same, singular.
SELECT count(*) FROM department

-- expect: tied categories | countries
-- server: error 42P01
-- c: the product's category or the customer's country, both have name
-- and both are one key away from a table in the query.
SELECT p.sku, c.name FROM products p JOIN order_lines l ON l.product_id = p.id JOIN orders o ON o.id = l.order_id JOIN customers cu ON cu.id = o.customer_id

-- expect: tied a | b
-- server: error 42P01
-- A self join: which customers is "customers"?
SELECT customers.cust_nm FROM customers a JOIN customers b ON a.city = b.city AND a.id < b.id

-- expect: none
-- server: error 42P01
-- d would be hr.departments, two keys away from orders.
SELECT o.id, d.dept_name FROM orders o

-- expect: none
-- server: error 42P01
-- e would be hr.employees, which customers has no key to.
SELECT c.cust_nm, e.email FROM customers c
