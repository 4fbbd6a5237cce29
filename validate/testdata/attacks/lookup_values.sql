-- Values of catalog-lookup types reached without a cast (issue 25):
-- pg_typeof returns a regtype, and PostgreSQL gives a string literal the
-- type of the values it is unified with, so the literal is read by
-- regtype's input function, which names another tenant's relations and
-- their OIDs (t::oid), or tells that they exist. EXPLAIN does not print a
-- VALUES list: the static check is the guard. pg_typeof's result may only
-- be cast to text (or passed to format/concat) where it stands. All V013,
-- but the functions that look names up themselves (to_regoper, ...) or
-- build aclitems, always denied (V010).

-- expect: V013
-- server: plan
SELECT t::text, t::oid FROM (VALUES (pg_typeof(1)), ('div_02.bank_accounts'), ('pg_catalog.pg_authid')) v(t)

-- expect: V013
-- server: plan
VALUES (pg_typeof(1)), ('div_02.bank_accounts')

-- expect: V013
-- server: plan
SELECT * FROM (VALUES ('div_02.bank_accounts'), (pg_typeof(1))) v(t)

-- expect: V013
-- server: plan
WITH v(t) AS (VALUES (pg_typeof(1)), ('div_02.bank_accounts')) SELECT t::oid FROM v

-- expect: V013
-- server: plan
WITH v AS MATERIALIZED (SELECT pg_typeof(1) AS t) SELECT t::text FROM v

-- expect: V013
-- server: plan
SELECT (SELECT t FROM (VALUES (pg_typeof(1)), ('div_02.bank_accounts')) v(t) OFFSET 1)::oid

-- expect: V013
-- server: plan
SELECT x::text FROM users u, LATERAL (VALUES (pg_typeof(u.id)), ('div_02.bank_accounts')) v(x)

-- expect: V013
-- server: plan
SELECT * FROM users WHERE EXISTS (VALUES (pg_typeof(1)), ('div_02.bank_accounts'))

-- expect: V013
-- server: plan
SELECT pg_typeof(1) UNION SELECT 'div_02.bank_accounts'

-- expect: V013
-- server: plan
SELECT 'div_02.bank_accounts' UNION ALL SELECT pg_typeof(1)

-- expect: V013
-- server: plan
SELECT t::oid FROM (SELECT pg_typeof(1) AS t INTERSECT SELECT 'div_02.bank_accounts') s

-- expect: V013
-- server: plan
SELECT pg_typeof(1) EXCEPT SELECT 'div_02.bank_accounts'

-- expect: V013
-- server: plan
SELECT CASE WHEN true THEN pg_typeof(1) ELSE 'div_02.bank_accounts' END

-- expect: V013
-- server: plan
SELECT COALESCE(NULL, pg_typeof(1), 'div_02.bank_accounts')::oid

-- expect: V013
-- server: plan
SELECT ARRAY[pg_typeof(1), 'div_02.bank_accounts']

-- expect: V013
-- server: plan
SELECT greatest(pg_typeof(1), 'div_02.bank_accounts')

-- expect: V013
-- server: plan
SELECT least(pg_typeof(1), 'pg_catalog.pg_authid')

-- expect: V013
-- server: error 22P02
SELECT nullif(pg_typeof(1), 'div_02.bank_accounts')

-- expect: V013
-- server: plan
SELECT 1 WHERE pg_typeof(1) IN ('integer', 'div_02.bank_accounts')

-- expect: V013
-- server: error 22P02
SELECT 1 WHERE pg_typeof(1) NOT IN ('div_02.bank_accounts')

-- expect: V013
-- server: error 22P02
-- the literal becomes an oid here (the comparison is oid's), IN a regtype
SELECT pg_typeof(1) = 'div_02.bank_accounts'

-- expect: V013
-- server: error 22P02
SELECT 'div_02.bank_accounts' = ANY (ARRAY[pg_typeof(1)])

-- expect: V013
-- server: plan
SELECT array_append(ARRAY[pg_typeof(1)], 'div_02.bank_accounts')

-- expect: V013
-- server: plan
SELECT max(x) FROM (SELECT pg_typeof(1) AS x) s

-- expect: V013
-- server: plan
SELECT concat(VARIADIC ARRAY[pg_typeof(1), 'div_02.bank_accounts'])

-- expect: V013
-- server: plan
SELECT pg_typeof(1)::oid

-- expect: V013
-- server: plan
SELECT pg_typeof(pg_typeof(1))::text

-- expect: V013
-- server: plan
SELECT count(*) OVER (ORDER BY pg_typeof(1)) FROM users

-- expect: V013
-- server: plan
SELECT count(*) OVER (ORDER BY id RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM users GROUP BY id, pg_typeof(id)

-- expect: V013
-- server: plan
SELECT 1 FROM users ORDER BY pg_typeof(id)

-- expect: V013
-- server: plan
VALUES (pg_catalog.pg_typeof(1)), ('div_02.bank_accounts')

-- expect: V013
-- server: plan
VALUES ("pg_typeof"(1)), ('div_02.bank_accounts')

-- expect: V013
-- server: plan
VALUES (PG_TYPEOF(1)), ('div_02.bank_accounts')

-- expect: V013
-- server: plan
VALUES (U&"pg\005ftypeof"(1)), ('div_02.bank_accounts')

-- expect: V013
-- server: plan
VALUES (pg_typeof(1)), (U&'div\005f02.bank_accounts')

-- expect: V013
-- server: plan
VALUES (pg_typeof(1)), ($$div_02.bank_accounts$$)

-- expect: V013
-- server: plan
VALUES (pg_typeof(1)), ($q$pg_catalog.pg_authid$q$)

-- expect: V013
-- server: plan
VALUES (pg_typeof(1)), (E'div_02.bank_accounts')

-- expect: V013
-- server: plan
-- functional notation: u.pg_typeof is pg_typeof(u)
SELECT x::text FROM users u, LATERAL (VALUES (u.pg_typeof), ('div_02.bank_accounts')) v(x)

-- expect: V010
-- server: plan
SELECT to_regcollation('div_02.c')

-- expect: V010
-- server: plan
SELECT to_regoper('pg_catalog.+')

-- expect: V010
-- server: plan
SELECT (U&'+').to_regoperator

-- expect: V010
-- server: plan
SELECT pg_catalog.to_regoperator('+(int4,int4)')::text

-- expect: V010
-- server: plan
SELECT makeaclitem(10, 10, 'SELECT', false)
