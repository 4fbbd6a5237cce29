-- Types that look things up in the system catalogs (issue 12): the reg*
-- object identifier types and aclitem, whose input and output functions
-- read pg_class, pg_proc, pg_authid, ... around the relation checks, in
-- every spelling: array types (_regclass, regclass[], regclass ARRAY),
-- quoting, unicode escapes, schema qualification, typed literals, CAST,
-- column definition lists, function-style casts (regclass('x')) and their
-- functional notation (('x'::text).regclass), which name the type without
-- any type name node. regconfig and regdictionary stay allowed
-- (to_tsvector('english', ...) needs them). All V013.

-- expect: V013
-- server: plan
SELECT '{1259}'::_regclass

-- expect: V013
-- server: plan
SELECT '{1259}'::regclass[]

-- expect: V013
-- server: plan
SELECT '{postgres}'::pg_catalog._regrole

-- expect: V013
-- server: plan
SELECT '{int4}'::"_regtype"

-- expect: V013
-- server: plan
SELECT '{"+(int4,int4)"}'::_regoperator

-- expect: V013
-- server: plan
SELECT '{"pg_sleep(float8)"}'::_regprocedure

-- expect: V013
-- server: plan
SELECT '{pg_sleep}'::_regproc

-- expect: V013
-- server: plan
SELECT '{||/}'::_regoper

-- expect: V013
-- server: plan
SELECT '{pg_catalog}'::_regnamespace

-- expect: V013
-- server: plan
SELECT '{"\"C\""}'::_regcollation

-- expect: V013
-- server: plan
SELECT 'pg_catalog'::regnamespace

-- expect: V013
-- server: plan
-- the bootstrap superuser's name from its oid
SELECT 10::regrole::text

-- expect: V013
-- server: plan
SELECT 'pg_sleep'::regproc::oid

-- expect: V013
-- server: plan
SELECT 'pg_sleep(float8)'::regprocedure

-- expect: V013
-- server: plan
SELECT '||/'::regoper

-- expect: V013
-- server: plan
SELECT '+(int4,int4)'::regoperator

-- expect: V013
-- server: plan
SELECT 'int4'::regtype

-- expect: V013
-- server: plan
SELECT '"C"'::regcollation

-- expect: V013
-- server: plan
-- aclitem input looks up role names
SELECT 'postgres=r/postgres'::aclitem

-- expect: V013
-- server: plan
SELECT '{=r/postgres}'::_aclitem

-- expect: V013
-- server: plan
SELECT '{=r/postgres}'::aclitem[]

-- expect: V013
-- server: plan
SELECT '{=r/postgres}'::pg_catalog._aclitem

-- expect: V013
-- server: plan
SELECT CAST('pg_authid' AS pg_catalog.regclass)

-- expect: V013
-- server: plan
SELECT CAST('{pg_authid}' AS regclass[])

-- expect: V013
-- server: plan
SELECT CAST('{postgres}' AS _regrole)

-- expect: V013
-- server: plan
SELECT regclass '1259'

-- expect: V013
-- server: plan
SELECT pg_catalog.regclass '1259'

-- expect: V013
-- server: plan
SELECT _regclass '{1259}'

-- expect: V013
-- server: plan
SELECT aclitem '=r/postgres'

-- expect: V013
-- server: plan
SELECT regrole 'postgres'

-- expect: V013
-- server: plan
SELECT "regnamespace" 'pg_toast'

-- expect: V013
-- server: plan
SELECT 'pg_authid'::PG_CATALOG.REGCLASS

-- expect: V013
-- server: plan
SELECT 'pg_authid'::"regclass"

-- expect: V013
-- server: plan
SELECT 'pg_authid'::"pg_catalog"."regclass"

-- expect: V013
-- server: plan
SELECT 'pg_authid'::U&"reg\0063lass"

-- expect: V013
-- server: plan
SELECT 'pg_authid'::U&"!0072egclass" UESCAPE '!'

-- expect: V013
-- server: plan
SELECT '{postgres}'::U&"\005fregrole"

-- expect: V013
-- server: plan
SELECT '{1259}'::regclass ARRAY

-- expect: V013
-- server: plan
SELECT '{1259}'::regclass ARRAY[1]

-- expect: V013
-- server: plan
SELECT '{{1259}}'::regclass[][]

-- expect: V013
-- server: plan
SELECT '{1259}'::regclass[5]

-- expect: V013
-- server: plan
SELECT ARRAY['pg_authid', 'pg_shadow']::regclass[]

-- expect: V013
-- server: plan
SELECT ARRAY[1259]::oid[]::regclass[]

-- expect: V013
-- server: plan
SELECT unnest('{1259,1260}'::_regclass)

-- expect: V013
-- server: plan
SELECT * FROM unnest('{1259,1260}'::regclass[]) AS c

-- expect: V013
-- server: plan
SELECT * FROM json_to_record('{"a":"pg_authid"}') AS t(a regclass)

-- expect: V013
-- server: plan
SELECT * FROM jsonb_to_recordset('[{"r":"postgres"}]') AS t(r regrole)

-- expect: V013
-- server: plan
SELECT * FROM ROWS FROM (json_to_record('{"a":"{1259}"}') AS (a _regclass))

-- expect: V013
-- server: plan
SELECT * FROM json_to_record('{"a":"=r/postgres"}') AS t(a aclitem)

-- expect: V013
-- server: plan
SELECT * FROM jsonb_to_record('{"a":["pg_authid"]}') AS t(a regclass[])

-- expect: V013
-- server: plan 17
SELECT JSON_VALUE(jsonb '{"a":"pg_authid"}', '$.a' RETURNING regclass)

-- expect: V013
-- server: plan 17
SELECT JSON_VALUE(jsonb '{"a":"x"}', '$.b' RETURNING regrole DEFAULT 'postgres' ON EMPTY)

-- expect: V013
-- server: plan 17
SELECT * FROM JSON_TABLE(jsonb '{"a":"pg_authid"}', '$' COLUMNS (a regclass PATH '$.a')) AS jt

-- expect: V013
-- server: plan
-- a function-style cast: no type name node, a FuncCall named regclass
SELECT regclass('pg_authid')

-- expect: V013
-- server: plan
SELECT pg_catalog.regrole('postgres')

-- expect: V013
-- server: plan
SELECT "regclass"('pg_authid')

-- expect: V013
-- server: plan
SELECT aclitem('=r/postgres')

-- expect: V013
-- server: plan
SELECT _regclass('{1259}')

-- expect: V013
-- server: plan
SELECT regnamespace(11::oid)

-- expect: V013
-- server: plan
SELECT REGTYPE(23::oid)::text

-- expect: V013
-- server: plan
-- a function-style cast by functional notation: regclass('pg_authid'::text)
SELECT ('pg_authid'::text).regclass

-- expect: V013
-- server: plan
SELECT ('pg_authid').regclass

-- expect: V013
-- server: plan
SELECT (1259).regclass

-- expect: V013
-- server: plan
SELECT (10::oid).regrole

-- expect: V013
-- server: plan
SELECT ('=r/postgres'::text).aclitem

-- expect: V013
-- server: plan
SELECT (u.name).regclass FROM users u

-- expect: V013
-- server: plan
SELECT ('{1259}'::text)._regclass

-- expect: V013
-- server: plan
SELECT (11::oid).regnamespace::text

-- expect: V013
-- server: plan
SELECT ('pg_sleep'::text).regproc

-- expect: V013
-- server: plan
SELECT ('pg_sleep(float8)'::text).regprocedure

-- expect: V013
-- server: plan
SELECT ('int4'::text).REGTYPE

-- expect: V013
-- server: plan
SELECT (1259)."regclass"

-- expect: V013
-- server: plan
-- the names of catalog relations, one per generated oid
SELECT t.regclass FROM generate_series(1259, 1262) t

-- expect: V013
-- server: plan
SELECT id FROM users WHERE 'pg_authid'::regclass IS NOT NULL

-- expect: V013
-- server: plan
WITH c AS (SELECT 1259::regclass AS r) SELECT r::text FROM c

-- expect: V013
-- server: plan
SELECT id FROM users WHERE id = ANY ('{1259}'::regclass[]::oid[]::int[])

-- expect: V013
-- server: plan
SELECT CASE WHEN true THEN 10::regrole::text END

-- expect: V013
-- server: plan
SELECT coalesce(NULL, 'pg_authid'::regclass)

-- expect: V013
-- server: plan
SELECT (SELECT '=r/postgres'::aclitem)

-- expect: V013
-- server: plan
SELECT 1 UNION SELECT 1259::regclass::oid::int

-- expect: V013
-- server: plan
VALUES ('pg_authid'::regclass)

-- expect: V013
-- server: plan
SELECT json_build_object('r', 1259::regclass)

-- expect: V013
-- server: plan
SELECT format('%s', 10::regrole)

-- expect: V013
-- server: plan
SELECT (ARRAY[1259::regclass])[1]

-- expect: V013
-- server: plan
SELECT count(*) FROM users GROUP BY 1259::regclass

-- expect: V013
-- server: plan
SELECT id FROM users LIMIT 1259::regclass::oid::int

-- expect: V013
-- server: plan
SELECT name FROM users WHERE name = (10::regrole)::text

-- expect: V013
-- server: plan
SELECT string_agg(c::text, ',') FROM unnest('{1259,1260,1262}'::oid[]::regclass[]) c

-- expect: V013
-- server: plan
SELECT id FROM users u WHERE EXISTS (SELECT 1 WHERE u.id::oid::regclass::text LIKE 'pg_%')

-- expect: V013
-- server: plan
SELECT row_number() OVER (ORDER BY id::oid::regclass) FROM users

-- expect: V013
-- server: plan
SELECT count(*) FILTER (WHERE id::oid::regrole IS NULL) FROM users

-- expect: V013
-- server: plan 16
SELECT JSON_OBJECT('r': 1259::regclass)

-- expect: V013
-- server: plan
SELECT * FROM users u JOIN LATERAL (SELECT u.id::oid::regtype AS t) l ON true

-- expect: V013
-- server: plan
SELECT (10).regrole

-- expect: V013
-- server: plan 17
SELECT * FROM JSON_TABLE(jsonb '[{"a":"=r/postgres"}]', '$[*]' COLUMNS (a _aclitem PATH '$.a')) AS jt
