-- expect: V008
SELECT xmlelement(name x, 'y')

-- expect: V008
SELECT xmlparse(document '<a/>')

-- expect: V008
SELECT * FROM XMLTABLE('/a' PASSING CAST('<a/>' AS xml) COLUMNS x int PATH 'x')

-- expect: V008
SELECT xmlserialize(content '<a/>'::xml AS text)

-- expect: V009
SELECT * FROM users WHERE id = $1

-- expect: V009
SELECT $1::text

-- expect: V011
SELECT my_udf(id) FROM users

-- expect: V011
SELECT public.similarity('a', 'b')

-- expect: V011
SELECT evil.count(*) FROM users

-- expect: V011
SELECT "COUNT"(*) FROM users

-- expect: V011
SELECT mydb.public.lower('x')

-- expect: V010
SELECT pg_catalog.pg_get_keywords()

-- expect: V011
SELECT * FROM users WHERE name = current_database()

-- expect: V011
SELECT inet_client_addr()

-- expect: V011
SELECT * FROM json_populate_record_evil(null::users, '{}')

-- expect: V011
SELECT unknown_function(1) OVER ()

-- expect: V011
SELECT * FROM users ORDER BY user_defined_rank(id)

-- expect: L005
SELECT * FROM users WHERE name = NULL

-- expect: L005
SELECT * FROM users WHERE NULL <> name

-- expect: L005
SELECT * FROM users u JOIN orders o ON o.user_id = u.id AND o.status != NULL
