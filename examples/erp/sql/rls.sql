-- Row-level tenancy (Options.RLS): the single layout's sales data split
-- between two tenants, Aurora (1) and Borealis (2), kept apart by
-- row-level security policies that read the custom setting app.tenant_id.
-- Runs after the single layout, as the owner of its tables.
CREATE TABLE tenants (
    tenant_id integer PRIMARY KEY,
    tenant_name text NOT NULL UNIQUE
);
COMMENT ON TABLE tenants IS 'Tenants of this database: each sees its own customers, products, orders and invoices';
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

-- The policies: a reader sees the rows of the tenant its transaction names
-- (SET LOCAL app.tenant_id); without the setting the query fails. FORCE
-- makes the tables' owner obey them too; views read as their caller.
DO $$
DECLARE t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['tenants', 'customers', 'customer_contacts', 'products', 'sales_orders',
                             'sales_order_lines', 'invoices', 'invoice_lines'] LOOP
        EXECUTE format('ALTER TABLE %I ALTER COLUMN tenant_id SET NOT NULL', t);
        EXECUTE format('CREATE INDEX ON %I (tenant_id)', t);
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
