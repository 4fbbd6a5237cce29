-- Row types (issue 12): every relation has a composite type of the same
-- name (and an array type, _name), so a cast names a relation without any
-- FROM item: its existence, its columns ((NULL::t).*), a json_populate_record
-- template. A system catalog's row type is V013; a user relation outside the
-- allowed set is V012 (strict validator only); a type name the validator
-- does not know at all (an enum, a domain, a composite type) is V016.

-- expect: V013
-- server: plan
SELECT NULL::pg_catalog.pg_authid

-- expect: V013
-- server: plan
-- the column list of pg_authid, rolpassword included
SELECT (NULL::pg_catalog.pg_authid).*

-- expect: V013
-- server: plan
SELECT NULL::pg_authid

-- expect: V013
-- server: plan
SELECT NULL::pg_class

-- expect: V013
-- server: plan
SELECT row_to_json(NULL::pg_roles)

-- expect: V013
-- server: plan
SELECT NULL::information_schema.tables

-- expect: V013
-- server: plan
SELECT NULL::INFORMATION_SCHEMA.COLUMNS

-- expect: V013
-- server: plan
-- the array type of a catalog's row type
SELECT NULL::_pg_authid

-- expect: V013
-- server: plan
SELECT NULL::information_schema._tables

-- expect: V013
-- server: plan
SELECT '{}'::pg_authid[]

-- expect: V013
-- server: plan
SELECT (json_populate_record(NULL::pg_authid, '{}')).rolpassword

-- expect: V013
-- server: plan
SELECT * FROM json_populate_recordset(NULL::pg_shadow, '[]')

-- expect: V013
-- server: plan
SELECT * FROM jsonb_populate_record(NULL::pg_catalog.pg_class, '{}')

-- expect: V013
-- server: plan
SELECT NULL::PG_CATALOG.PG_AUTHID

-- expect: V013
-- server: plan
SELECT NULL::"pg_authid"

-- expect: V013
-- server: plan
SELECT NULL::U&"pg\005fauthid"

-- expect: V013
-- server: plan
SELECT CAST(NULL AS pg_stats)

-- expect: V013
-- server: plan
SELECT NULL::pg_stat_activity

-- expect: V013
-- server: plan
SELECT NULL::pg_settings

-- expect: V013
-- server: plan
SELECT * FROM json_to_record('{}') AS t(a pg_authid)

-- expect: V013
-- server: plan
-- a CTE named like the catalog does not shadow the type
WITH pg_authid AS (SELECT 1 AS x) SELECT (NULL::pg_authid).*

-- expect: V013
-- server: plan
SELECT id FROM users WHERE (NULL::pg_catalog.pg_shadow) IS NULL

-- expect: V013
-- server: plan
SELECT json_build_object('r', NULL::pg_catalog.pg_user_mapping)

-- expect: V013
-- server: plan
SELECT ARRAY[]::pg_catalog.pg_proc[]

-- expect: V012
-- server: plan
SELECT NULL::div_02.bank_accounts

-- expect: V012
-- server: plan
SELECT (NULL::other_schema.t).*

-- expect: V012
-- server: plan
SELECT json_populate_record(NULL::other_schema.t, '{}')

-- expect: V016
-- server: plan
SELECT NULL::secrets

-- expect: V016
-- server: plan
SELECT NULL::public.secrets

-- expect: V016
-- server: plan
SELECT NULL::_secrets

-- expect: V012
-- server: plan
SELECT '{}'::other_schema._t

-- expect: V016
-- server: plan
SELECT secrets '(1,x)'

-- expect: V016
-- server: plan
SELECT ROW(1, 'x')::secrets

-- expect: V016
-- server: plan
SELECT (NULL::secrets).value

-- expect: V012
-- server: plan
SELECT * FROM jsonb_to_record('{}') AS t(s other_schema.t)

-- expect: V012
-- server: plan
SELECT row_to_json(NULL::div_02.bank_accounts)

-- expect: V016
-- server: plan
SELECT CAST(NULL AS "secrets")

-- expect: V012
-- server: plan
SELECT * FROM jsonb_populate_recordset(NULL::other_schema.t, '[]')

-- expect: V016
-- server: plan
WITH x AS (SELECT NULL::secrets AS s) SELECT (s).* FROM x

-- expect: V016
-- server: plan
SELECT ARRAY[]::secrets[]

-- expect: V012
-- server: plan
SELECT NULL::OTHER_SCHEMA.T

-- expect: V012
-- server: plan
SELECT NULL::"other_schema"."t"

-- expect: V016
-- server: plan
-- a CTE does not shadow the row type of the table of the same name
WITH secrets AS (SELECT 1) SELECT NULL::secrets

-- expect: V016
-- server: plan
-- nor does a FROM alias
SELECT NULL::secrets FROM users AS secrets

-- expect: V016
-- server: plan
SELECT id FROM users u WHERE EXISTS (SELECT (json_populate_record(NULL::secrets, '{}')).value)

-- expect: V012
-- server: plan
SELECT name FROM users UNION ALL SELECT (NULL::div_02.bank_accounts).iban

-- expect: V016
-- server: plan
-- an enum type the validator was not told about
SELECT NULL::mood

-- expect: V016
-- server: plan
SELECT 'happy'::public.mood

-- expect: V012
-- server: plan
SELECT NULL::other_schema.pair

-- expect: V016
-- server: plan
-- a domain: casting to it runs its CHECK constraint
SELECT 1::posint

-- expect: V016
-- server: plan
SELECT '{}'::mood[]

-- expect: V016
-- server: plan
SELECT NULL::_mood

-- expect: V016
-- server: plan
SELECT * FROM json_to_record('{"m":"sad"}') AS t(m mood)

-- expect: V016
-- server: error 42704
SELECT NULL::no_such_type

-- expect: V016
-- server: plan
SELECT * FROM ROWS FROM (json_to_record('{}') AS (s secrets))

-- expect: V012
-- server: plan
-- an allowed table's name in another schema
SELECT (NULL::other_schema.users).password
