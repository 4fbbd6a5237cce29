-- Re-create (and thereby validate) the foreign keys dropped by fk_off.sql.
DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT * FROM pg_temp.erp_fks ORDER BY con_oid LOOP
        EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s', r.tbl, r.conname, r.def);
    END LOOP;
END $$;
