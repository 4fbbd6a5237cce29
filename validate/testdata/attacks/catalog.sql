-- expect: V013
SELECT * FROM pg_authid

-- expect: V013
SELECT rolpassword FROM pg_catalog.pg_authid

-- expect: V013
SELECT * FROM pg_shadow

-- expect: V013
SELECT usename, passwd FROM pg_user

-- expect: V013
SELECT * FROM pg_catalog.pg_user_mappings

-- expect: V013
SELECT * FROM pg_stat_activity

-- expect: V013
SELECT query FROM pg_stat_statements

-- expect: V013
SELECT * FROM pg_settings

-- expect: V013
SELECT * FROM pg_class

-- expect: V013
SELECT * FROM "pg_class"

-- expect: V013
SELECT * FROM information_schema.tables

-- expect: V013
SELECT * FROM INFORMATION_SCHEMA.COLUMNS

-- expect: V013
SELECT * FROM pg_catalog.pg_proc

-- expect: V013
SELECT * FROM pg_toast.pg_toast_1234

-- expect: V013
SELECT * FROM users u JOIN pg_roles r ON r.rolname = u.name

-- expect: V013
SELECT * FROM users WHERE name IN (SELECT rolname FROM pg_roles)

-- expect: V013
SELECT (SELECT passwd FROM pg_shadow LIMIT 1)

-- expect: V013
WITH x AS (SELECT * FROM pg_authid) SELECT * FROM x

-- expect: V013
WITH pg_authid AS (SELECT 1) SELECT * FROM pg_catalog.pg_authid

-- expect: V013
WITH users AS (SELECT * FROM pg_authid) SELECT * FROM users

-- expect: V013
SELECT * FROM users UNION ALL SELECT oid, rolname, null, null FROM pg_authid

-- expect: V013
SELECT 'pg_authid'::regclass

-- expect: V013
SELECT 'users'::pg_catalog.regclass::oid

-- expect: V013
SELECT CAST('pg_sleep' AS regproc)

-- expect: V013
SELECT 'postgres'::regrole

-- expect: V013
SELECT * FROM pg_temp.x

-- expect: V013
SELECT * FROM pg_largeobject

-- expect: V013
SELECT * FROM pg_stats

-- expect: V013
SELECT * FROM pg_file_settings

-- expect: V013
SELECT * FROM pg_hba_file_rules

-- expect: V012
SELECT * FROM secrets

-- expect: V012
SELECT * FROM public.secrets

-- expect: V012
SELECT * FROM other.users

-- expect: V012
SELECT * FROM otherdb.public.users

-- expect: V012
SELECT * FROM users u JOIN audit_log a ON a.user_id = u.id

-- expect: V012
WITH x AS (SELECT * FROM x) SELECT * FROM x

-- expect: V012
WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a

-- expect: V012
SELECT * FROM (WITH secrets AS (SELECT 1) SELECT * FROM secrets) s, secrets

-- expect: V012
SELECT * FROM "Users"

-- expect: V012
SELECT * FROM users WHERE EXISTS (SELECT 1 FROM payroll)

-- expect: V012
SELECT * FROM ONLY secrets

-- expect: V012
SELECT * FROM secrets TABLESAMPLE SYSTEM (10)
