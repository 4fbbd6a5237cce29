-- expect: V003
SELECT 1; DROP TABLE users

-- expect: V003
SELECT * FROM users; COMMIT; DROP TABLE users

-- expect: V003
SELECT 1; COMMIT

-- expect: V003
COMMIT; SELECT 1

-- expect: V003
SELECT 1; ROLLBACK; BEGIN; DELETE FROM users

-- expect: V003
SELECT 1;
SET default_transaction_read_only = off;
UPDATE users SET name = 'x'

-- expect: V003
select 1 /* comment ; */ ; select 2

-- expect: V003
SELECT 'a;b'; SELECT 2

-- expect: V003
SELECT $$;$$; SELECT pg_sleep(10)

-- expect: V003
SELECT 1;END;SELECT 2

-- expect: V003
SELECT 1 -- trailing comment
; TRUNCATE users

-- expect: V003
SELECT 1; VACUUM

-- expect: V004
COMMIT

-- expect: V004
END

-- expect: V004
ROLLBACK

-- expect: V004
BEGIN READ WRITE

-- expect: V004
START TRANSACTION

-- expect: V004
SAVEPOINT s1

-- expect: V004
SET TRANSACTION READ WRITE

-- expect: V002
;

-- expect: V002
-- only a comment

-- expect: V001
SELECT 1 FROM

-- expect: V001
SELEC 1

-- expect: V001
SELECT 'unterminated

-- expect: V004
INSERT INTO users (name) VALUES ('x')

-- expect: V004
UPDATE users SET name = 'x'

-- expect: V004
DELETE FROM users

-- expect: V004
MERGE INTO users u USING orders o ON u.id = o.user_id WHEN MATCHED THEN DELETE

-- expect: V004
DROP TABLE users

-- expect: V004
TRUNCATE users

-- expect: V004
CREATE TABLE x (a int)

-- expect: V004
ALTER TABLE users ADD COLUMN x int

-- expect: V004
GRANT ALL ON users TO public

-- expect: V004
CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1'

-- expect: V004
CREATE VIEW v AS SELECT * FROM users

-- expect: V004
EXPLAIN ANALYZE DELETE FROM users

-- expect: V004
EXPLAIN SELECT 1

-- expect: V004
LOCK TABLE users

-- expect: V004
VACUUM users

-- expect: V001
(INSERT INTO users (name) VALUES ('x'))
