-- expect: V010
SELECT query_to_xml('DELETE FROM users RETURNING *', true, false, '')

-- expect: V010
SELECT query_to_xml_and_xmlschema('select * from pg_authid', true, false, '')

-- expect: V010
SELECT query_to_xmlschema('select 1', true, false, '')

-- expect: V010
SELECT cursor_to_xml('c', 1, true, false, '')

-- expect: V010
SELECT table_to_xml('pg_authid', true, false, '')

-- expect: V010
SELECT schema_to_xml('pg_catalog', true, false, '')

-- expect: V010
SELECT database_to_xml(true, false, '')

-- expect: V010
SELECT * FROM ts_stat('SELECT to_tsvector(name) FROM users')

-- expect: V010
SELECT ts_rewrite('a & b'::tsquery, 'SELECT t, s FROM aliases')

-- expect: V010
SELECT xpath('/a', '<a/>'::xml)

-- expect: V010
SELECT pg_catalog.query_to_xml('select pg_sleep(1)', true, true, '')

-- expect: V010
SELECT "query_to_xml"('select 1', true, true, '')

-- expect: V010
WITH q AS (SELECT query_to_xml('select 1', true, true, '') AS x) SELECT * FROM q

-- expect: V010
SELECT * FROM users WHERE name = (SELECT query_to_xml('update users set name = 1', true, true, '')::text)
