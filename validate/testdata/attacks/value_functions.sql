-- SQL value functions that reveal the database and the executing role
-- (issue 12): CURRENT_CATALOG, SESSION_USER, CURRENT_USER, CURRENT_ROLE,
-- USER, CURRENT_SCHEMA, and the plain functions behind them
-- (current_database(), current_schema(), "current_user"(), getpgusername(),
-- current_schemas(bool)). They are not on the default allow-list (V011),
-- like current_database(): an operator may allow them with WithFunctions.

-- expect: V011
-- server: plan
SELECT current_catalog

-- expect: V011
-- server: plan
SELECT session_user

-- expect: V011
-- server: plan
SELECT current_user

-- expect: V011
-- server: plan
SELECT current_role

-- expect: V011
-- server: plan
SELECT user

-- expect: V011
-- server: plan
SELECT current_schema

-- expect: V011
-- server: plan
SELECT CURRENT_USER, SESSION_USER

-- expect: V011
-- server: plan
SELECT name FROM users WHERE name = current_user

-- expect: V011
-- server: plan
WITH c AS (SELECT session_user AS s) SELECT s FROM c

-- expect: V011
-- server: plan
VALUES (current_role)

-- expect: V011
-- server: plan
SELECT json_build_object('u', user, 'db', current_catalog)

-- expect: V011
-- server: plan
SELECT id FROM users ORDER BY current_catalog

-- expect: V011
-- server: plan
SELECT CASE WHEN current_user = 'postgres' THEN 1 ELSE 0 END

-- expect: V011
-- server: plan
SELECT 1 UNION SELECT length(session_user)

-- expect: V011
-- server: plan
SELECT current_user::text || '@' || current_catalog

-- expect: V011
-- server: plan
SELECT id FROM users LIMIT length(current_user)

-- expect: V011
-- server: plan
SELECT count(*) FILTER (WHERE session_user IS NOT NULL) FROM users

-- expect: V011
-- server: plan
SELECT array_agg(id) OVER (PARTITION BY current_schema) FROM users

-- expect: V011
-- server: plan
SELECT (SELECT current_user)

-- expect: V011
-- server: plan
SELECT id FROM users WHERE EXISTS (SELECT 1 WHERE current_role = 'postgres')

-- expect: V011
-- server: plan
SELECT * FROM users u JOIN LATERAL (SELECT user AS who) w ON true

-- expect: V011
-- server: plan
SELECT id FROM users GROUP BY id HAVING max(name) <> session_user

-- expect: V011
-- server: plan
SELECT (ARRAY[current_user, session_user])[1]

-- expect: V011
-- server: plan 16
SELECT JSON_OBJECT('db': current_catalog)

-- expect: V011
-- server: plan
SELECT current_schema()

-- expect: V011
-- server: plan
SELECT pg_catalog.current_schema()

-- expect: V011
-- server: plan
SELECT current_database()

-- expect: V011
-- server: plan
SELECT pg_catalog.current_database()

-- expect: V011
-- server: plan
-- the function behind CURRENT_USER, called by its quoted name
SELECT "current_user"()

-- expect: V011
-- server: plan
SELECT pg_catalog."session_user"()

-- expect: V011
-- server: plan
SELECT pg_catalog.current_user()

-- expect: V011
-- server: plan
SELECT getpgusername()

-- expect: V011
-- server: plan
SELECT current_schemas(true)

-- expect: V014
-- server: plan
-- functional notation: current_schemas(true)
SELECT (true).current_schemas

-- expect: V011
-- server: plan 16
-- the authenticated identity (auth method:identity); system_user is on the allow-list today
SELECT system_user
