-- expect: V010
SELECT pg_sleep(10)

-- expect: V010
SELECT pg_catalog.pg_sleep(10)

-- expect: V010
SELECT "pg_sleep"(10)

-- expect: V010
SELECT "PG_SLEEP"(10)

-- expect: V010
SELECT PG_SLEEP(10)

-- expect: V010
SELECT U&"pg\005fsleep"(10)

-- expect: V010
SELECT U&"\0070g_sleep"(1)

-- expect: V010
SELECT pg_sleep_for('5 minutes')

-- expect: V010
SELECT pg_sleep_until(now() + interval '1 hour')

-- expect: V010
SELECT * FROM users WHERE pg_sleep(1) IS NOT NULL

-- expect: V010
SELECT * FROM users ORDER BY pg_sleep(1)

-- expect: V010
SELECT count(*) FILTER (WHERE pg_sleep(1) IS NULL) FROM users

-- expect: V010
SELECT row_number() OVER (PARTITION BY pg_sleep(1)) FROM users

-- expect: V010
SELECT * FROM users u, LATERAL (SELECT pg_sleep(1)) s

-- expect: V010
WITH s AS (SELECT pg_sleep(1)) SELECT * FROM s

-- expect: V010
SELECT * FROM (VALUES (pg_sleep(1))) v(x)

-- expect: V010
SELECT 1 UNION SELECT 1 FROM users WHERE pg_sleep(1) IS NULL

-- expect: V010
SELECT CASE WHEN id = 1 THEN pg_sleep(5)::text END FROM users

-- expect: V010
SELECT pg_sleep(1)::text::int

-- expect: V010
SELECT coalesce(NULL, pg_sleep(1))

-- expect: V010
SELECT * FROM users GROUP BY id HAVING pg_sleep(1) IS NULL

-- expect: V010
SELECT * FROM pg_sleep(1)

-- expect: V010
SELECT * FROM ROWS FROM (pg_sleep(1), generate_series(1, 2))

-- expect: V010
SELECT set_config('default_transaction_read_only', 'off', false)

-- expect: V010
SELECT pg_catalog.set_config('role', 'postgres', true)

-- expect: V010
SELECT current_setting('data_directory')

-- expect: V010
SELECT pg_advisory_lock(1)

-- expect: V010
SELECT pg_try_advisory_xact_lock(42)

-- expect: V010
SELECT pg_advisory_unlock_all()

-- expect: V010
SELECT lo_import('/etc/passwd')

-- expect: V010
SELECT lo_export(1234, '/tmp/x')

-- expect: V010
SELECT lo_creat(-1)

-- expect: V010
SELECT loread(lo_open(1, 262144), 100)

-- expect: V010
SELECT dblink('host=evil', 'DELETE FROM users')

-- expect: V010
SELECT dblink_exec('dbname=postgres', 'DROP TABLE users')

-- expect: V010
SELECT * FROM dblink('dbname=x', 'select 1') AS t(a int)

-- expect: V010
SELECT pg_read_file('/etc/passwd')

-- expect: V010
SELECT pg_read_binary_file('postgresql.conf')

-- expect: V010
SELECT pg_ls_dir('.')

-- expect: V010
SELECT * FROM pg_ls_waldir()

-- expect: V010
SELECT pg_stat_file('postgresql.conf')

-- expect: V010
SELECT pg_terminate_backend(pid) FROM users

-- expect: V010
SELECT pg_cancel_backend(1)

-- expect: V010
SELECT pg_reload_conf()

-- expect: V010
SELECT pg_rotate_logfile()

-- expect: V010
SELECT txid_current()

-- expect: V010
SELECT pg_current_xact_id()

-- expect: V010
SELECT nextval('users_id_seq')

-- expect: V010
SELECT setval('users_id_seq', 1)

-- expect: V010
SELECT currval('users_id_seq')

-- expect: V010
SELECT pg_notify('chan', 'x')

-- expect: V010
SELECT pg_logical_emit_message(true, 'p', 'x')

-- expect: V010
SELECT * FROM pg_logical_slot_get_changes('s', NULL, NULL)

-- expect: V010
SELECT pg_create_logical_replication_slot('s', 'test_decoding')

-- expect: V010
SELECT pg_create_physical_replication_slot('s')

-- expect: V010
SELECT pg_create_restore_point('x')

-- expect: V010
SELECT pg_switch_wal()

-- expect: V010
SELECT pg_promote()

-- expect: V010
SELECT pg_backup_start('x')

-- expect: V010
SELECT pg_drop_replication_slot('s')

-- expect: V010
SELECT setseed(0.5)

-- expect: V010
SELECT pg_file_write('x', 'y', false)

-- expect: V010
SELECT array_fill(1, ARRAY[100000000])

-- expect: V010
SELECT pg_catalog.lo_unlink(1)

-- expect: V010
SELECT id FROM users WHERE id = ANY (SELECT pg_backend_pid())

-- expect: V010
SELECT version()
