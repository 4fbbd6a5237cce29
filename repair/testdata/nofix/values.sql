-- Words that are values, not columns: quoting them, or matching them to a
-- column, may both change the rows.

-- expect: loose 'shipped' | shipped_at
-- server: error 42703
-- An unquoted value; shipped_at would compare a status with a timestamp.
SELECT count(*) FROM orders WHERE status = shipped

-- expect: tied 'paid' | is_paid
-- server: error 42703
-- status = 'paid' (no such status) or status = is_paid (a boolean)?
SELECT count(*) FROM orders WHERE status = paid

-- expect: loose 'Active'
-- server: error 42703
-- The stored value is 'Active', but the case of an unquoted word is a
-- guess too ('active' matches nothing).
SELECT cust_nm FROM customers WHERE status = Active

-- expect: loose 'Rome'
-- server: error 42703
-- A city name written as an identifier.
SELECT count(*) FROM customers WHERE city = Rome

-- expect: loose 'pending'
-- server: error 42703
-- A list of unquoted values: the first is reported.
SELECT id FROM orders WHERE status IN (pending, shipped)

-- expect: loose 'rome'
-- server: error 42703
-- Compared with lower(city): still a value.
SELECT cust_nm FROM customers WHERE lower(city) = rome

-- expect: loose 'EV3'
-- server: error 42703
-- An event code written bare.
SELECT id, event_dt FROM legacy_events WHERE code = EV3
