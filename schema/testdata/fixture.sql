-- Introspection fixture: every shape the catalog model must capture.
CREATE SCHEMA sales;
COMMENT ON SCHEMA sales IS 'Sales module';
CREATE SCHEMA "Legacy";
CREATE SCHEMA skipme;

CREATE TYPE order_status AS ENUM ('draft', 'open', 'shipped', 'closed');
CREATE TYPE sales.channel AS ENUM ('web', 'store');

CREATE TABLE public.countries (
  iso2 char(2) PRIMARY KEY,
  name text NOT NULL UNIQUE
);
COMMENT ON TABLE public.countries IS 'ISO 3166 countries';

CREATE TABLE sales.customers (
  cust_nbr integer PRIMARY KEY,
  cust_nm varchar(80) NOT NULL,
  country char(2) REFERENCES public.countries(iso2),
  created_at timestamptz NOT NULL DEFAULT now(),
  tags text[]
);
COMMENT ON TABLE sales.customers IS 'Customers who buy from us';
COMMENT ON COLUMN sales.customers.cust_nbr IS 'Customer number';
COMMENT ON COLUMN sales.customers.cust_nm IS 'Customer name';

CREATE TABLE sales.orders (
  order_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  cust_nbr integer NOT NULL REFERENCES sales.customers(cust_nbr),
  status order_status NOT NULL DEFAULT 'draft',
  channel sales.channel,
  tot_amt numeric(12,2),
  dropped_col int
);
ALTER TABLE sales.orders DROP COLUMN dropped_col;
COMMENT ON COLUMN sales.orders.tot_amt IS 'Total amount incl. tax';

CREATE TABLE sales.order_lines (
  order_id bigint REFERENCES sales.orders(order_id),
  line_no smallint,
  qty double precision,
  PRIMARY KEY (order_id, line_no)
);

CREATE TABLE sales.shipments (
  shipment_id serial PRIMARY KEY,
  order_id bigint NOT NULL,
  line_no smallint NOT NULL,
  shipped_on date,
  CONSTRAINT shipments_line_fk FOREIGN KEY (order_id, line_no) REFERENCES sales.order_lines(order_id, line_no),
  UNIQUE (order_id, line_no)
);

CREATE TABLE "Legacy"."CustomerNotes" (
  "NoteID" int PRIMARY KEY,
  "Cust Nbr" int REFERENCES sales.customers(cust_nbr),
  "Body" text
);
COMMENT ON TABLE "Legacy"."CustomerNotes" IS 'Free-text notes from the old CRM';

CREATE TABLE public.ledger (
  entry_id bigint NOT NULL,
  posted_on date NOT NULL,
  amount numeric(14,2) NOT NULL,
  country char(2) REFERENCES public.countries(iso2),
  PRIMARY KEY (entry_id, posted_on)
) PARTITION BY RANGE (posted_on);
COMMENT ON TABLE public.ledger IS 'General ledger, partitioned by year';
CREATE TABLE public.ledger_2023 PARTITION OF public.ledger FOR VALUES FROM ('2023-01-01') TO ('2024-01-01');
CREATE TABLE public.ledger_2024 PARTITION OF public.ledger FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
INSERT INTO public.ledger SELECT g, date '2023-01-01' + (g % 700), g FROM generate_series(1, 1000) g;

CREATE VIEW sales.open_orders AS SELECT order_id, cust_nbr FROM sales.orders WHERE status = 'open';
COMMENT ON VIEW sales.open_orders IS 'Orders not yet shipped';
CREATE MATERIALIZED VIEW sales.customer_counts AS SELECT country, count(*) AS n FROM sales.customers GROUP BY country;

CREATE TABLE skipme.junk (id int);
CREATE TABLE public.fk_outside (id int PRIMARY KEY, junk_id int);
ANALYZE;
