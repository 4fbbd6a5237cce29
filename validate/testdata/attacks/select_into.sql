-- expect: V006
SELECT * INTO stolen FROM users

-- expect: V006
SELECT id, name INTO TEMP t FROM users

-- expect: V006
SELECT 1 INTO UNLOGGED TABLE x

-- expect: V006
WITH a AS (SELECT * FROM users) SELECT * INTO copy FROM a

-- expect: V006
SELECT * INTO TABLE x FROM users UNION SELECT * FROM users

-- expect: V006
CREATE TABLE stolen AS SELECT * FROM users

-- expect: V006
CREATE MATERIALIZED VIEW mv AS SELECT * FROM users
