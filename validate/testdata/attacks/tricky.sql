-- Spelling tricks: quoting, case, whitespace, comments, escapes, and
-- denied calls hidden in every clause.

-- expect: V010
SELECT "pg_catalog"."pg_sleep"(1)

-- expect: V010
SELECT PG_CATALOG.PG_SLEEP(1)

-- expect: V010
SELECT pg_catalog . pg_sleep (1)

-- expect: V010
SELECT pg_catalog/* hidden */.pg_sleep(1)

-- expect: V010
SELECT /* nested /* comment */ still comment */ pg_sleep(1)

-- expect: V010
SELECT 1 -- line comment
, pg_sleep(1)

-- expect: V010
SELECT U&"!0070!0067!005fsleep" UESCAPE '!' (1)

-- expect: V010
SELECT E'\x41', pg_sleep(1)

-- expect: V010
SELECT $tag$ pg_sleep $tag$, pg_sleep(1)

-- expect: V010
SELECT DISTINCT ON (pg_sleep(1)) id FROM users

-- expect: V010
SELECT id FROM users GROUP BY id, pg_sleep(1)

-- expect: V010
SELECT id FROM users LIMIT (SELECT 1 FROM pg_sleep(1))

-- expect: V010
SELECT id FROM users OFFSET (SELECT count(*) FROM pg_sleep(1))

-- expect: V010
SELECT sum(id) OVER (ORDER BY pg_sleep(1)::text) FROM users

-- expect: V010
SELECT id FROM users WINDOW w AS (PARTITION BY pg_sleep(0.1))

-- expect: V010
SELECT array_agg(id ORDER BY pg_sleep(1)) FROM users

-- expect: V010
SELECT CAST(pg_sleep(1) AS text)

-- expect: V010
SELECT (ARRAY[pg_sleep(1)])[1]

-- expect: V010
SELECT ROW(pg_sleep(1), 2)

-- expect: V010
SELECT id FROM users WHERE id BETWEEN 1 AND (SELECT pg_backend_pid())

-- expect: V010
SELECT id FROM users WHERE name IN (SELECT lo_get(1)::text)

-- expect: V010
SELECT * FROM users JOIN LATERAL pg_ls_dir('.') d ON true

-- expect: V010
SELECT jsonb_build_object('x', pg_read_file('/etc/passwd'))

-- expect: V010
SELECT coalesce(name, set_config('role', 'x', true)) FROM users

-- expect: V010
SELECT id FROM users WHERE EXISTS (SELECT 1 WHERE pg_try_advisory_lock(id))

-- expect: V010
VALUES (pg_sleep(1))

-- expect: V010
TABLE users UNION ALL SELECT pg_sleep(1)::text, null, null, null

-- expect: V010
SELECT x FROM unnest(ARRAY[1]) x WHERE x = ANY (SELECT nextval('s'))

-- expect: V010
SELECT GREATEST(1, txid_current())

-- expect: V013
SELECT * FROM "pg_catalog"."pg_authid"

-- expect: V013
SELECT * FROM PG_CATALOG.PG_AUTHID

-- expect: V013
SELECT * FROM U&"pg\005fauthid"

-- expect: V013
SELECT * FROM pg_catalog/**/.pg_shadow

-- expect: V013
TABLE pg_authid

-- expect: V013
SELECT * FROM users WHERE id::regclass IS NOT NULL
