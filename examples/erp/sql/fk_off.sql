-- Bulk-load trick: drop the foreign keys of the schema being filled and
-- re-create them afterwards (fk_on.sql). Re-adding a foreign key validates
-- all rows with one join, much faster than a trigger call per inserted row,
-- and the data is still fully checked before the transaction commits.
DROP TABLE IF EXISTS pg_temp.erp_fks;
CREATE TEMP TABLE erp_fks ON COMMIT DROP AS
SELECT c.conrelid::regclass::text AS tbl, c.conname::text AS conname, pg_get_constraintdef(c.oid) AS def, c.oid AS con_oid
FROM pg_constraint c
WHERE c.contype = 'f' AND c.conparentid = 0 AND c.connamespace = current_schema()::regnamespace;
DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT * FROM pg_temp.erp_fks ORDER BY con_oid LOOP
        EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', r.tbl, r.conname);
    END LOOP;
END $$;
