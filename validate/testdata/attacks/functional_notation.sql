-- Functional notation (issue 12): PostgreSQL resolves a field selection that
-- names no column as a call of a one-argument function, so (x).f and t.f mean
-- f(x) and f(t). A denied function reached that way is V010 (checked by
-- name, whatever the base expression); a function that is not denied but
-- names no column is V014 (needs the tables' columns: strict validator only).
-- Every case is planned by a real server (attack_server_test.go): the
-- spelling resolves to the function call shown in EXPLAIN VERBOSE.

-- expect: V010
-- server: plan
SELECT ('25 seconds'::interval).pg_sleep_for

-- expect: V010
-- server: plan
SELECT (1.0::float8).pg_sleep

-- expect: V010
-- server: plan
-- t is a function scan of a scalar: t.pg_sleep is pg_sleep(t)
SELECT t.pg_sleep FROM abs(2.0::float8) AS t

-- expect: V010
-- server: plan
SELECT ('pg_hba.conf'::text).pg_stat_file

-- expect: V010
-- server: plan
SELECT (now() + interval '1 minute').pg_sleep_until

-- expect: V010
-- server: plan
-- the integer base is coerced to float8 implicitly
SELECT (1).pg_sleep

-- expect: V010
-- server: plan
SELECT ('postmaster.opts'::text).pg_read_file

-- expect: V010
-- server: plan
SELECT ('PG_VERSION'::text).pg_read_binary_file

-- expect: V010
-- server: plan
-- a set-returning function by functional notation: a directory listing
SELECT ('.'::text).pg_ls_dir

-- expect: V010
-- server: plan
SELECT * FROM users u, LATERAL (SELECT (u.name).pg_ls_dir AS f) d

-- expect: V010
-- server: plan
SELECT (1663::oid).pg_ls_tmpdir

-- expect: V010
-- server: plan
-- large-object import of a server file
SELECT ('/etc/passwd'::text).lo_import

-- expect: V010
-- server: plan
SELECT (16400::oid).lo_get

-- expect: V010
-- server: plan
SELECT (16400::oid).lo_unlink

-- expect: V010
-- server: plan
SELECT (0::oid).lo_create

-- expect: V010
-- server: plan
SELECT (-1).lo_creat

-- expect: V010
-- server: plan
-- pg_terminate_backend(pid, timeout DEFAULT 0): defaults fill the rest
SELECT (1).pg_terminate_backend

-- expect: V010
-- server: plan
SELECT (u.id).pg_cancel_backend FROM users u

-- expect: V010
-- server: plan
SELECT (1).pg_log_backend_memory_contexts

-- expect: V010
-- server: plan
SELECT (42::bigint).pg_advisory_lock

-- expect: V010
-- server: plan
SELECT (u.id).pg_try_advisory_lock FROM users u

-- expect: V010
-- server: plan
SELECT (7).pg_advisory_xact_lock_shared

-- expect: V010
-- server: plan
SELECT (7).pg_advisory_unlock

-- expect: V010
-- server: plan
SELECT (0.5::float8).setseed

-- expect: V010
-- server: plan
-- text is cast to regclass implicitly: nextval('seq')
SELECT ('seq'::text).nextval

-- expect: V010
-- server: plan
SELECT ('seq'::text).currval

-- expect: V010
-- server: plan
SELECT ('seq'::text).pg_sequence_last_value

-- expect: V010
-- server: plan
SELECT ('data_directory'::text).current_setting

-- expect: V010
-- server: plan
SELECT (u.name).current_setting FROM users u

-- expect: V010
-- server: plan
-- name is coerced to text: current_setting('is_superuser')
SELECT ('is_superuser'::name).current_setting

-- expect: V010
-- server: plan
-- ts_stat runs the query in the string: a table outside the allowed set
SELECT ('SELECT to_tsvector(secret) FROM other_schema.t'::text).ts_stat

-- expect: V010
-- server: plan
SELECT ((('SELECT to_tsvector(value) FROM secrets'::text).ts_stat)).word

-- expect: V010
-- server: plan
SELECT (10::oid).pg_get_userbyid

-- expect: V010
-- server: plan
SELECT ('pg_authid'::text).to_regclass

-- expect: V010
-- server: plan
SELECT ('pg_roles'::text).pg_get_viewdef

-- expect: V010
-- server: plan
SELECT ('users'::text).pg_relation_filepath

-- expect: V010
-- server: plan
SELECT ('postgres'::name).pg_database_size

-- expect: V010
-- server: plan
-- pg_promote(wait DEFAULT true, wait_seconds DEFAULT 60)
SELECT (true).pg_promote

-- expect: V010
-- server: plan
-- the SQL text another session is running
SELECT (1).pg_stat_get_backend_activity

-- expect: V010
-- server: plan
SELECT ('<a/>'::text).xml_is_well_formed

-- expect: V010
-- server: plan
SELECT ('x'::text).pg_create_restore_point

-- expect: V010
-- server: plan
SELECT ('bgwriter'::text).pg_stat_reset_shared

-- expect: V010
-- server: plan
SELECT ('1'::xid).pg_xact_commit_timestamp

-- expect: V010
-- server: plan
SELECT (1::bigint).txid_status

-- expect: V010
-- server: plan
SELECT ('users'::text).brin_summarize_new_values

-- expect: V010
-- server: plan
SELECT ('users_pkey'::text).gin_clean_pending_list

-- expect: V010
-- server: plan
SELECT (1.0::float8)."pg_sleep"

-- expect: V010
-- server: plan
SELECT (1.0::float8).PG_SLEEP

-- expect: V010
-- server: plan
SELECT (1.0::float8).U&"pg\005fsleep"

-- expect: V010
-- server: plan
SELECT (1.0::float8).U&"!0070!0067!005fsleep" UESCAPE '!'

-- expect: V010
-- server: plan
SELECT ((((1.0::float8)))).pg_sleep

-- expect: V010
-- server: plan
SELECT (t.*).pg_sleep FROM abs(2.0::float8) t

-- expect: V010
-- server: plan
SELECT (t).pg_sleep FROM abs(2.0::float8) t

-- expect: V010
-- server: plan
-- the alias shadows an allowed table's name
SELECT users.pg_sleep FROM abs(2.0::float8) AS users

-- expect: V010
-- server: plan
SELECT T.PG_SLEEP FROM ABS(2.0::FLOAT8) AS T

-- expect: V010
-- server: plan
SELECT t."pg_sleep" FROM abs(2.0::float8) t

-- expect: V010
-- server: plan
SELECT g.pg_sleep FROM generate_series(1, 3) g

-- expect: V010
-- server: plan
SELECT t.pg_sleep FROM ROWS FROM (abs(2.0::float8)) AS t

-- expect: V010
-- server: plan
SELECT t.pg_read_file FROM users u, unnest(ARRAY[u.name]) AS t

-- expect: V010
-- server: plan
-- the alias is also a column name of users
SELECT name.pg_read_file FROM users u, unnest(ARRAY[u.name]) AS name

-- expect: V010
-- server: plan
-- chained: pg_sleep(floor(1.0))
SELECT (1.0::float8).floor.pg_sleep

-- expect: V010
-- server: plan
-- a subscript, then a field selection
SELECT (ARRAY[1.0::float8])[1].pg_sleep

-- expect: V010
-- server: plan
SELECT ((SELECT 1.0::float8)).pg_sleep

-- expect: V010
-- server: plan
-- a record's column f1, then pg_sleep of it
SELECT (ROW(1.0::float8)).f1.pg_sleep

-- expect: V010
-- server: plan
SELECT (CASE WHEN true THEN 1.0::float8 END).pg_sleep

-- expect: V010
-- server: plan
SELECT (coalesce(NULL, 1.0::float8)).pg_sleep

-- expect: V010
-- server: plan
SELECT (CAST(1 AS float8)).pg_sleep

-- expect: V010
-- server: plan
SELECT (float8 '1').pg_sleep

-- expect: V010
-- server: plan
SELECT (u.id).pg_sleep FROM users u

-- expect: V010
-- server: plan
SELECT (u.id::float8 / 1000).pg_sleep FROM users u

-- expect: V010
-- server: plan
SELECT (1.0::float8).pg_sleep::text

-- expect: V010
-- server: plan
WITH s AS (SELECT (1.0::float8).pg_sleep) SELECT * FROM s

-- expect: V010
-- server: plan
SELECT (SELECT (1.0::float8).pg_sleep)

-- expect: V010
-- server: plan
SELECT id FROM users WHERE EXISTS (SELECT (u2.id).pg_try_advisory_lock FROM users u2)

-- expect: V010
-- server: plan
SELECT id FROM users WHERE name IN (SELECT ('/etc/hostname'::text).pg_read_file)

-- expect: V010
-- server: plan
SELECT * FROM users u JOIN LATERAL (SELECT ('.'::text).pg_ls_dir AS f) d ON true

-- expect: V010
-- server: plan
SELECT * FROM (SELECT (1).pg_sleep) s

-- expect: V010
-- server: plan
SELECT id FROM users LIMIT CASE WHEN (1).pg_try_advisory_lock THEN 1 END

-- expect: V010
-- server: plan
SELECT id FROM users OFFSET (SELECT length(('PG_VERSION'::text).pg_read_file))

-- expect: V010
-- server: plan
SELECT id FROM users u ORDER BY (u.id).pg_try_advisory_lock

-- expect: V010
-- server: plan
SELECT count(*) FROM users u GROUP BY (u.id).pg_try_advisory_lock

-- expect: V010
-- server: plan
-- an aggregate as the base: pg_try_advisory_lock(count(*))
SELECT count(*) FROM users HAVING (count(*)).pg_try_advisory_lock

-- expect: V010
-- server: plan
SELECT count(*) FILTER (WHERE (u.id).pg_try_advisory_lock) FROM users u

-- expect: V010
-- server: plan
SELECT row_number() OVER (PARTITION BY (u.id).pg_try_advisory_lock) FROM users u

-- expect: V010
-- server: plan
SELECT sum(id) OVER w FROM users u WINDOW w AS (ORDER BY (u.name).current_setting)

-- expect: V010
-- server: plan
SELECT name FROM users UNION SELECT ('postmaster.pid'::text).pg_read_file

-- expect: V010
-- server: plan
SELECT id::text FROM users INTERSECT SELECT ('seq'::text).nextval::text

-- expect: V010
-- server: plan
SELECT 1 EXCEPT SELECT (1).pg_terminate_backend::int

-- expect: V010
-- server: plan
VALUES ((1.0::float8).pg_sleep)

-- expect: V010
-- server: plan
SELECT * FROM (VALUES (true), ((2).pg_cancel_backend)) v(x)

-- expect: V010
-- server: plan
SELECT CASE WHEN id > 0 THEN (u.id).pg_try_advisory_lock ELSE false END FROM users u

-- expect: V010
-- server: plan
SELECT length(('pg_hba.conf'::text).pg_read_file)

-- expect: V010
-- server: plan
SELECT (ARRAY[(1).pg_try_advisory_lock])[1]

-- expect: V010
-- server: plan
SELECT json_build_object('f', ('pg_hba.conf'::text).pg_read_file)

-- expect: V010
-- server: plan 16
SELECT JSON_OBJECT('f': ('pg_hba.conf'::text).pg_read_file)

-- expect: V010
-- server: plan 16
SELECT JSON_ARRAY((1).pg_try_advisory_lock)

-- expect: V010
-- server: plan 16
SELECT JSON_ARRAYAGG((u.id).pg_try_advisory_lock) FROM users u

-- expect: V010
-- server: plan
SELECT * FROM users u WHERE (u.id).pg_try_advisory_lock

-- expect: V010
-- server: plan
SELECT * FROM users u JOIN orders o ON (o.id).pg_try_advisory_xact_lock

-- expect: V010
-- server: plan
SELECT DISTINCT ON ((u.id).pg_try_advisory_lock) id FROM users u

-- expect: V010
-- server: plan
SELECT array_agg(id ORDER BY (u.id).pg_try_advisory_lock) FROM users u

-- expect: V010
-- server: plan
SELECT coalesce(name, ('search_path'::text).current_setting) FROM users

-- expect: V010
-- server: plan
SELECT ROW((1).pg_try_advisory_lock, 2)

-- expect: V010
-- server: plan
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3 AND (n).pg_try_advisory_lock) SELECT * FROM r

-- expect: V010
-- server: plan
SELECT count(*) FROM users u GROUP BY GROUPING SETS (((u.id).pg_try_advisory_lock), ())

-- expect: V010
-- server: plan
SELECT sum(length(('PG_VERSION'::text).pg_read_file)) FROM users

-- expect: V010
-- server: plan
SELECT ('pg_hba.conf'::text).pg_read_file COLLATE "C"

-- expect: V010
-- server: plan
SELECT ('PG_VERSION'::text).pg_read_file || 'x'

-- expect: V010
-- server: plan
SELECT id FROM users WHERE name LIKE ('lc_messages'::text).current_setting

-- expect: V010
-- server: plan
SELECT id FROM users u WHERE (u.id).pg_try_advisory_lock IS NOT NULL

-- expect: V010
-- server: plan
SELECT id FROM users WHERE id = ANY (SELECT (u2.id).pg_cancel_backend::int FROM users u2)

-- expect: V010
-- server: plan
SELECT * FROM users u CROSS JOIN LATERAL (SELECT t.pg_advisory_xact_lock FROM abs(u.id::bigint) t) l

-- expect: V014
-- server: error 42703
-- no upper(users) exists: PostgreSQL reports a missing column, the validator must too
SELECT u.upper FROM users u

-- expect: V014
-- server: error 42703
SELECT (u).length FROM users u

-- expect: V014
-- server: error 42703
SELECT o.abs FROM orders o

-- expect: V014
-- server: plan
SELECT (1.5::float8).floor

-- expect: V014
-- server: plan
SELECT (p.name).md5 FROM products p

-- expect: V014
-- server: plan
SELECT u.row_to_json FROM users u

-- expect: V014
-- server: plan
SELECT (u).to_jsonb FROM users u

-- expect: V014
-- server: plan
SELECT (u.*).to_json FROM users u

-- expect: V014
-- server: plan
-- schema.table.f: the three-part name is the whole row of public.users
SELECT public.users.row_to_json FROM users

-- expect: V014
-- server: plan
SELECT users.to_jsonb FROM public.users

-- expect: V014
-- server: plan
SELECT (u.name).upper FROM users u

-- expect: V014
-- server: plan
SELECT (o.amount).abs FROM orders o

-- expect: V014
-- server: plan
-- a type coercion by functional notation: int4(amount)
SELECT (o.amount).int4 FROM orders o

-- expect: V014
-- server: plan
SELECT (o.amount).text FROM orders o

-- expect: V014
-- server: plan
SELECT (u.created_at).date FROM users u

-- expect: V014
-- server: plan
-- an aggregate by functional notation: sum(u.id)
SELECT (u.id).sum FROM users u

-- expect: V014
-- server: plan
SELECT (p.price).avg FROM products p

-- expect: V014
-- server: plan
SELECT (u.email).lower FROM users u WHERE (u.name).length > 3

-- expect: V014
-- server: plan
SELECT t.upper FROM unnest(ARRAY['a', 'b']) AS t

-- expect: V014
-- server: plan
SELECT u."row_to_json" FROM users u

-- expect: V014
-- server: plan
SELECT U.ROW_TO_JSON FROM USERS U

-- expect: V014
-- server: plan
-- neither allowed nor denied: pg_column_size(name)
SELECT (u.name).pg_column_size FROM users u

-- expect: V014
-- server: plan
SELECT (o.created_at).isfinite FROM orders o

-- expect: V014
-- server: plan
SELECT p.name FROM products p ORDER BY (p.price).round

-- expect: V014
-- server: plan
WITH c AS (SELECT name FROM users) SELECT (c.name).initcap FROM c

-- expect: V014
-- server: plan
-- the whole row of a derived table: to_json(s)
SELECT s.to_json FROM (SELECT 1 AS a) s

-- expect: V014
-- server: plan
SELECT name FROM users u ORDER BY (u).row_to_json::text

-- expect: V014
-- server: plan
SELECT (u.name).array_agg FROM users u

-- expect: V014
-- server: plan
-- a set-returning function by functional notation: unnest(ARRAY[1, 2])
SELECT (ARRAY[1, 2]).unnest

-- expect: V014
-- server: plan
SELECT (jsonb_build_object('a', 1)).jsonb_each

-- expect: V014
-- server: plan
SELECT (u.email).to_tsvector FROM users u

-- expect: V014
-- server: plan
SELECT id FROM users u WHERE (u.name).quote_ident <> name

-- expect: V010
-- server: plan
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY (u.id).pg_try_advisory_lock::int) FROM users u

-- expect: V010
-- server: plan
SELECT id FROM users TABLESAMPLE SYSTEM ((1).pg_try_advisory_lock::int)

-- expect: V010
-- server: plan
SELECT id FROM users TABLESAMPLE BERNOULLI (50) REPEATABLE (length(('server_version'::text).current_setting))

-- expect: V010
-- server: plan
SELECT id FROM users FETCH FIRST (length(('PG_VERSION'::text).pg_read_file)) ROWS ONLY

-- expect: V010
-- server: plan
-- in a subscript
SELECT (ARRAY[1, 2])[(1).pg_try_advisory_lock::int + 1]

-- expect: V010
-- server: plan
SELECT id FROM users WHERE id IN (1, (2).pg_cancel_backend::int)

-- expect: V010
-- server: plan
SELECT GREATEST(1, ('seq'::text).nextval)

-- expect: V010
-- server: plan
SELECT NULLIF(('seq'::text).currval, 0)

-- expect: V010
-- server: plan
SELECT x FROM users u, LATERAL (SELECT (u.name).pg_read_file) AS l(x)

-- expect: V010
-- server: plan 17
SELECT JSON_VALUE(jsonb '{}', '$' PASSING (1).pg_try_advisory_lock AS x)
