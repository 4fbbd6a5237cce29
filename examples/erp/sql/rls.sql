-- Row-level tenancy (Options.RLS): the single layout's sales data split
-- between two tenants, Aurora (1) and Borealis (2), kept apart by
-- row-level security policies that read the custom setting app.tenant_id.
-- Runs after the single layout, as the owner of its tables.
CREATE TABLE tenants (
    tenant_id integer PRIMARY KEY,
    tenant_name text NOT NULL UNIQUE
);
COMMENT ON TABLE tenants IS 'Tenants of this database: each sees its own customers, products, sales, projects, stock and purchasing';
INSERT INTO tenants VALUES (1, 'Aurora'), (2, 'Borealis');

-- Customers and products alternate between the tenants; each name starts
-- with its tenant's, so that a value of one is recognisable in the other's.
ALTER TABLE customers ADD COLUMN tenant_id integer REFERENCES tenants;
UPDATE customers SET tenant_id = 2 - customer_id % 2;
UPDATE customers c SET customer_name = t.tenant_name || ' ' || c.customer_name FROM tenants t WHERE t.tenant_id = c.tenant_id;
ALTER TABLE products ADD COLUMN tenant_id integer REFERENCES tenants;
UPDATE products SET tenant_id = 2 - product_id % 2;
UPDATE products p SET product_name = t.tenant_name || ' ' || p.product_name FROM tenants t WHERE t.tenant_id = p.tenant_id;

-- What belongs to a customer is its tenant's; a line's product is moved to
-- the neighbouring id when it was the other tenant's.
ALTER TABLE customer_contacts ADD COLUMN tenant_id integer REFERENCES tenants;
UPDATE customer_contacts x SET tenant_id = c.tenant_id FROM customers c WHERE c.customer_id = x.customer_id;
ALTER TABLE sales_orders ADD COLUMN tenant_id integer REFERENCES tenants;
UPDATE sales_orders x SET tenant_id = c.tenant_id FROM customers c WHERE c.customer_id = x.customer_id;
ALTER TABLE invoices ADD COLUMN tenant_id integer REFERENCES tenants;
UPDATE invoices x SET tenant_id = c.tenant_id FROM customers c WHERE c.customer_id = x.customer_id;
ALTER TABLE sales_order_lines ADD COLUMN tenant_id integer REFERENCES tenants;
UPDATE sales_order_lines x SET tenant_id = o.tenant_id FROM sales_orders o WHERE o.so_id = x.so_id;
ALTER TABLE invoice_lines ADD COLUMN tenant_id integer REFERENCES tenants;
UPDATE invoice_lines x SET tenant_id = i.tenant_id FROM invoices i WHERE i.invoice_id = x.invoice_id;
UPDATE sales_order_lines SET product_id = CASE WHEN product_id > 1 THEN product_id - 1 ELSE product_id + 1 END
WHERE 2 - product_id % 2 <> tenant_id;
UPDATE invoice_lines SET product_id = CASE WHEN product_id > 1 THEN product_id - 1 ELSE product_id + 1 END
WHERE product_id IS NOT NULL AND 2 - product_id % 2 <> tenant_id;
UPDATE invoice_lines l SET description = p.product_name FROM products p WHERE p.product_id = l.product_id;

-- Every other table holding a tenant's rows gets its tenant_id too: what
-- names a tenant's customer, order, quote, project or product (directly or
-- through its header) is that tenant's, else it would show, say, Borealis's
-- opportunities ("<customer> - Fleet Renewal") to Aurora. A lead is its
-- converted customer's tenant's, a project its customer's, the others
-- (and internal projects) alternate; purchasing
-- alternates by requisition and order, and its lines follow their header
-- (their products moved to the tenant's, as for order lines). The tables
-- left shared hold reference and company data (employees, suppliers,
-- warehouses, accounts...) that names no tenant's row.
CREATE FUNCTION pg_temp.own(t text, tenant text, src text DEFAULT '') RETURNS void LANGUAGE plpgsql AS $f$
BEGIN
    EXECUTE format('ALTER TABLE %I ADD COLUMN tenant_id integer REFERENCES tenants', t);
    EXECUTE format('UPDATE %I x SET tenant_id = %s %s', t, tenant, src);
END $f$;
CREATE FUNCTION pg_temp.move_products(t text, col text) RETURNS void LANGUAGE plpgsql AS $f$
BEGIN
    EXECUTE format('UPDATE %1$I SET %2$I = CASE WHEN %2$I > 1 THEN %2$I - 1 ELSE %2$I + 1 END '
                   'WHERE %2$I IS NOT NULL AND 2 - %2$I %% 2 <> tenant_id', t, col);
END $f$;
SELECT pg_temp.own('opportunities', 'c.tenant_id', 'FROM customers c WHERE c.customer_id = x.customer_id');
SELECT pg_temp.own('quotes', 'c.tenant_id', 'FROM customers c WHERE c.customer_id = x.customer_id');
SELECT pg_temp.own('quote_lines', 'q.tenant_id', 'FROM quotes q WHERE q.quote_id = x.quote_id');
SELECT pg_temp.move_products('quote_lines', 'product_id');
SELECT pg_temp.own('customer_payments', 'c.tenant_id', 'FROM customers c WHERE c.customer_id = x.customer_id');
SELECT pg_temp.own('leads', 'coalesce((SELECT c.tenant_id FROM customers c WHERE c.customer_id = x.converted_customer_id), 2 - x.lead_id % 2)');
SELECT pg_temp.own('shipments', 'o.tenant_id', 'FROM sales_orders o WHERE o.so_id = x.so_id');
SELECT pg_temp.own('shipment_lines', 's.tenant_id', 'FROM shipments s WHERE s.shipment_id = x.shipment_id');
SELECT pg_temp.own('sales_returns', 'o.tenant_id', 'FROM sales_orders o WHERE o.so_id = x.so_id');
SELECT pg_temp.move_products('sales_returns', 'product_id');
SELECT pg_temp.own('projects', 'coalesce((SELECT c.tenant_id FROM customers c WHERE c.customer_id = x.customer_id), 2 - x.project_id % 2)');
SELECT pg_temp.own(t, 'p.tenant_id', 'FROM projects p WHERE p.project_id = x.project_id')
FROM unnest(ARRAY['project_billing', 'project_expenses', 'project_members', 'project_milestones', 'project_risks',
                  'project_status_reports', 'project_tasks', 'timesheets']) t;
SELECT pg_temp.own(t, 'p.tenant_id', format('FROM products p WHERE p.product_id = x.%I', c))
FROM (VALUES ('inventory_balances', 'prod_id'), ('price_list_items', 'product_id'), ('product_lots', 'product_id'),
             ('product_suppliers', 'product_id'), ('stock_counts', 'product_id'), ('stock_movements', 'product_id')) v(t, c);
SELECT pg_temp.own('purchase_requisitions', '2 - x.req_id % 2');
SELECT pg_temp.own('requisition_lines', 'r.tenant_id', 'FROM purchase_requisitions r WHERE r.req_id = x.req_id');
SELECT pg_temp.move_products('requisition_lines', 'product_id');
SELECT pg_temp.own('purchase_orders', 'coalesce((SELECT r.tenant_id FROM purchase_requisitions r WHERE r.req_id = x.req_id), 2 - x.po_id % 2)');
SELECT pg_temp.own('purchase_order_lines', 'o.tenant_id', 'FROM purchase_orders o WHERE o.po_id = x.po_id');
SELECT pg_temp.move_products('purchase_order_lines', 'product_id');
SELECT pg_temp.own('goods_receipts', 'o.tenant_id', 'FROM purchase_orders o WHERE o.po_id = x.po_id');
SELECT pg_temp.own('goods_receipt_lines', 'r.tenant_id', 'FROM goods_receipts r WHERE r.receipt_id = x.receipt_id');
SELECT pg_temp.own('supplier_invoices', 'coalesce((SELECT o.tenant_id FROM purchase_orders o WHERE o.po_id = x.po_id), 2 - x.sinv_id % 2)');
SELECT pg_temp.own('supplier_payments', 'i.tenant_id', 'FROM supplier_invoices i WHERE i.sinv_id = x.sinv_id');
-- The ledger: an entry naming a tenant's invoice ("Customer invoice
-- INV-003645") or supplier invoice is that tenant's, the others
-- alternate; the lines (a partitioned table) follow their entry.
SELECT pg_temp.own('journal_entries', '2 - x.je_id % 2');
UPDATE journal_entries x SET tenant_id = i.tenant_id FROM invoices i
WHERE x.source = 'AR' AND x.description = 'Customer invoice ' || i.invoice_no;
UPDATE journal_entries x SET tenant_id = i.tenant_id FROM supplier_invoices i
WHERE x.source = 'AP' AND x.description = 'Supplier invoice ' || i.inv_nbr;
SELECT pg_temp.own('gl_journal_lines', 'e.tenant_id', 'FROM journal_entries e WHERE e.je_id = x.je_id');

-- A reference between two tenants' tables that crosses tenants (a quote's
-- opportunity of another customer, an invoice's project...) is cleared.
DO $$
DECLARE r record; n bigint;
BEGIN
    FOR r IN SELECT c.conrelid::regclass AS child, c.confrelid::regclass AS parent, a.attname AS col, f.attname AS ref, a.attnotnull
             FROM pg_constraint c
             JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
             JOIN pg_attribute f ON f.attrelid = c.confrelid AND f.attnum = c.confkey[1]
             WHERE c.contype = 'f' AND cardinality(c.conkey) = 1 AND c.conrelid <> c.confrelid
               AND EXISTS (SELECT FROM pg_attribute t WHERE t.attrelid = c.conrelid AND t.attname = 'tenant_id')
               AND EXISTS (SELECT FROM pg_attribute t WHERE t.attrelid = c.confrelid AND t.attname = 'tenant_id')
               AND c.confrelid <> 'tenants'::regclass
             ORDER BY 1, 2, 3 LOOP
        IF r.attnotnull THEN
            EXECUTE format('SELECT count(*) FROM %s x JOIN %s p ON p.%I = x.%I WHERE p.tenant_id <> x.tenant_id', r.child, r.parent, r.ref, r.col) INTO n;
            IF n > 0 THEN
                RAISE EXCEPTION '%.% crosses tenants in % rows', r.child, r.col, n;
            END IF;
        ELSE
            EXECUTE format('UPDATE %s x SET %I = NULL FROM %s p WHERE p.%I = x.%I AND p.tenant_id <> x.tenant_id', r.child, r.col, r.parent, r.ref, r.col);
        END IF;
    END LOOP;
END $$;

-- The policies: a reader sees the rows of the tenant its transaction names
-- (SET LOCAL app.tenant_id); without the setting the query fails. FORCE
-- makes the tables' owner obey them too; views read as their caller.
DO $$
DECLARE t text; part boolean;
BEGIN
    -- Every table with a tenant_id, partitions too (a partition read
    -- directly obeys its own policies, not its parent's).
    FOR t, part IN SELECT c.relname, c.relispartition FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
             WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND a.attname = 'tenant_id'
             ORDER BY 1 LOOP
        EXECUTE format('ALTER TABLE %I ALTER COLUMN tenant_id SET NOT NULL', t);
        IF NOT part THEN
            EXECUTE format('CREATE INDEX ON %I (tenant_id)', t);
        END IF;
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = current_setting(''app.tenant_id'')::int)', t);
        EXECUTE format('COMMENT ON COLUMN %I.tenant_id IS %L', t, 'Tenant owning the row (row-level security)');
    END LOOP;
END $$;
ALTER VIEW v_customer_revenue SET (security_invoker = true);
ALTER VIEW v_inventory_valuation SET (security_invoker = true);
ALTER VIEW v_employee_directory SET (security_invoker = true);

-- The engine's login role: not the owner, no BYPASSRLS, SELECT only.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'erp_app') THEN
        CREATE ROLE erp_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
    END IF;
END $$;
GRANT USAGE ON SCHEMA public TO erp_app;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO erp_app;
