-- Module tables (HR, Finance, Sales, Inventory, Procurement, Projects, Assets).
-- Unqualified: created in the first schema of search_path (public, or div_XX
-- in division mode); reference tables and enum types resolve to public.

-- ===================== HR =====================
CREATE TABLE office_locations (
    location_id integer PRIMARY KEY,
    name text NOT NULL,
    city text NOT NULL,
    country_code char(2) NOT NULL REFERENCES countries,
    tz_name text REFERENCES time_zones,
    opened_on date
);
COMMENT ON TABLE office_locations IS 'Company offices and sites where employees work';
COMMENT ON COLUMN office_locations.name IS 'Office name, e.g. Berlin HQ';
COMMENT ON COLUMN office_locations.city IS 'City of the office';
COMMENT ON COLUMN office_locations.country_code IS 'Country of the office';

CREATE TABLE job_titles (
    job_title_id integer PRIMARY KEY,
    title text NOT NULL,
    job_family text NOT NULL,
    grade smallint NOT NULL,
    min_salary numeric(12,2),
    max_salary numeric(12,2)
);
COMMENT ON TABLE job_titles IS 'Job titles with job family and salary band';
COMMENT ON COLUMN job_titles.title IS 'Job title, e.g. Senior Accountant';
COMMENT ON COLUMN job_titles.job_family IS 'Job family: Engineering, Finance, Sales, Operations, HR, Management';
COMMENT ON COLUMN job_titles.grade IS 'Pay grade 1 (junior) to 8 (executive)';

CREATE TABLE cost_centers (
    cc_id integer PRIMARY KEY,
    cc_code varchar(10) NOT NULL UNIQUE,
    name text NOT NULL,
    manager_emp_id integer,
    is_active boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE cost_centers IS 'Finance cost centers that costs and budgets are booked to';
COMMENT ON COLUMN cost_centers.cc_code IS 'Cost center code, e.g. CC-410';
COMMENT ON COLUMN cost_centers.manager_emp_id IS 'Employee responsible for the cost center';

CREATE TABLE departments (
    dept_id integer PRIMARY KEY,
    dept_cd varchar(6) NOT NULL UNIQUE,
    dept_name text NOT NULL,
    parent_dept_id integer REFERENCES departments,
    mgr_emp_id integer,
    location_id integer REFERENCES office_locations,
    cc_id integer REFERENCES cost_centers
);
COMMENT ON TABLE departments IS 'Organisational departments (Finance, Sales, Engineering...)';
COMMENT ON COLUMN departments.dept_cd IS 'Legacy department code, e.g. FIN';
COMMENT ON COLUMN departments.dept_name IS 'Department name';
COMMENT ON COLUMN departments.mgr_emp_id IS 'Department head (employee)';
COMMENT ON COLUMN departments.cc_id IS 'Default cost center of the department';

CREATE TABLE employees (
    emp_id integer PRIMARY KEY,
    emp_no varchar(10) NOT NULL UNIQUE,
    first_name text NOT NULL,
    last_name text NOT NULL,
    email text NOT NULL,
    gender char(1),
    birth_date date,
    hire_date date NOT NULL,
    termination_date date,
    dept_id integer NOT NULL REFERENCES departments,
    job_title_id integer NOT NULL REFERENCES job_titles,
    manager_id integer REFERENCES employees,
    location_id integer REFERENCES office_locations,
    employment_type employment_type NOT NULL,
    status text NOT NULL
);
COMMENT ON TABLE employees IS 'All employees (current and former), the staff master record';
COMMENT ON COLUMN employees.emp_no IS 'Personnel number, e.g. E00042';
COMMENT ON COLUMN employees.hire_date IS 'First day of employment';
COMMENT ON COLUMN employees.termination_date IS 'Last day of employment; NULL while employed';
COMMENT ON COLUMN employees.manager_id IS 'Direct line manager';
COMMENT ON COLUMN employees.status IS 'Active, On Leave or Terminated';
COMMENT ON COLUMN employees.gender IS 'F, M or X';

ALTER TABLE cost_centers ADD FOREIGN KEY (manager_emp_id) REFERENCES employees;
ALTER TABLE departments ADD FOREIGN KEY (mgr_emp_id) REFERENCES employees;

CREATE TABLE salary_history (
    emp_id integer NOT NULL REFERENCES employees,
    effective_date date NOT NULL,
    base_salary numeric(12,2) NOT NULL,
    currency_code char(3) NOT NULL REFERENCES currencies,
    change_reason text,
    PRIMARY KEY (emp_id, effective_date)
);
COMMENT ON TABLE salary_history IS 'Annual base salary of each employee over time';
COMMENT ON COLUMN salary_history.base_salary IS 'Yearly gross base salary from effective_date on';
COMMENT ON COLUMN salary_history.change_reason IS 'Hire, Merit increase, Promotion or Market adjustment';

CREATE TABLE payroll_runs (
    run_id integer PRIMARY KEY,
    pay_period date NOT NULL,
    run_date date NOT NULL,
    status text NOT NULL
);
COMMENT ON TABLE payroll_runs IS 'Monthly payroll runs';
COMMENT ON COLUMN payroll_runs.pay_period IS 'First day of the month that is paid';
COMMENT ON COLUMN payroll_runs.status IS 'Draft, Approved or Paid';

CREATE TABLE payroll_lines (
    run_id integer NOT NULL REFERENCES payroll_runs,
    emp_id integer NOT NULL REFERENCES employees,
    gross_amt numeric(12,2) NOT NULL,
    tax_amt numeric(12,2) NOT NULL,
    ded_amt numeric(12,2) NOT NULL,
    net_amt numeric(12,2) NOT NULL,
    PRIMARY KEY (run_id, emp_id)
);
COMMENT ON TABLE payroll_lines IS 'Pay slip lines: one per employee per payroll run';
COMMENT ON COLUMN payroll_lines.gross_amt IS 'Gross pay';
COMMENT ON COLUMN payroll_lines.tax_amt IS 'Withheld income tax';
COMMENT ON COLUMN payroll_lines.ded_amt IS 'Other deductions (pension, insurance)';
COMMENT ON COLUMN payroll_lines.net_amt IS 'Net pay = gross - tax - deductions';

CREATE TABLE leave_types (
    leave_type_id integer PRIMARY KEY,
    name text NOT NULL,
    is_paid boolean NOT NULL
);
COMMENT ON TABLE leave_types IS 'Kinds of absence: Annual Leave, Sick Leave, Parental Leave...';

CREATE TABLE leave_requests (
    request_id integer PRIMARY KEY,
    emp_id integer NOT NULL REFERENCES employees,
    leave_type_id integer NOT NULL REFERENCES leave_types,
    start_date date NOT NULL,
    end_date date NOT NULL,
    days numeric(4,1) NOT NULL,
    status text NOT NULL,
    approved_by integer REFERENCES employees
);
COMMENT ON TABLE leave_requests IS 'Employee absence / vacation requests';
COMMENT ON COLUMN leave_requests.days IS 'Working days requested';
COMMENT ON COLUMN leave_requests.status IS 'Pending, Approved or Rejected';
COMMENT ON COLUMN leave_requests.approved_by IS 'Manager who decided the request';

CREATE TABLE performance_reviews (
    review_id integer PRIMARY KEY,
    emp_id integer NOT NULL REFERENCES employees,
    reviewer_id integer REFERENCES employees,
    review_year smallint NOT NULL,
    rating smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
    comments text
);
COMMENT ON TABLE performance_reviews IS 'Yearly performance reviews';
COMMENT ON COLUMN performance_reviews.rating IS '1 = unsatisfactory ... 5 = outstanding';

CREATE TABLE training_courses (
    course_id integer PRIMARY KEY,
    title text NOT NULL,
    category text NOT NULL,
    duration_hours numeric(5,1) NOT NULL,
    cost_per_seat numeric(10,2) NOT NULL
);
COMMENT ON TABLE training_courses IS 'Internal and external training courses';
COMMENT ON COLUMN training_courses.category IS 'Compliance, Technical, Leadership, Safety or Soft Skills';

CREATE TABLE training_enrollments (
    enrollment_id integer PRIMARY KEY,
    course_id integer NOT NULL REFERENCES training_courses,
    emp_id integer NOT NULL REFERENCES employees,
    enrolled_on date NOT NULL,
    completed_on date,
    score smallint
);
COMMENT ON TABLE training_enrollments IS 'Employees enrolled in training courses';
COMMENT ON COLUMN training_enrollments.completed_on IS 'Completion date; NULL when not completed';
COMMENT ON COLUMN training_enrollments.score IS 'Final test score 0-100';

CREATE TABLE benefit_plans (
    plan_id integer PRIMARY KEY,
    plan_name text NOT NULL,
    plan_type text NOT NULL,
    employer_cost_monthly numeric(10,2) NOT NULL
);
COMMENT ON TABLE benefit_plans IS 'Employee benefit plans (health, pension, car...)';
COMMENT ON COLUMN benefit_plans.plan_type IS 'Health, Dental, Pension, Life or Mobility';

CREATE TABLE emp_bnft (
    emp_id integer NOT NULL REFERENCES employees,
    plan_id integer NOT NULL REFERENCES benefit_plans,
    enrl_dt date NOT NULL,
    end_dt date,
    cvg_lvl varchar(4) NOT NULL,
    PRIMARY KEY (emp_id, plan_id)
);
COMMENT ON TABLE emp_bnft IS 'Legacy table: benefit plan enrollments of employees';
COMMENT ON COLUMN emp_bnft.enrl_dt IS 'Enrollment date';
COMMENT ON COLUMN emp_bnft.end_dt IS 'End of coverage; NULL while enrolled';
COMMENT ON COLUMN emp_bnft.cvg_lvl IS 'Coverage level: EE (employee), ES (+spouse), FAM (family)';

-- ===================== Finance (part 1) =====================
CREATE TABLE gl_accounts (
    acct_id integer PRIMARY KEY,
    acct_no varchar(8) NOT NULL UNIQUE,
    acct_name text NOT NULL,
    acct_type text NOT NULL,
    parent_acct_id integer REFERENCES gl_accounts,
    is_active boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE gl_accounts IS 'General ledger chart of accounts';
COMMENT ON COLUMN gl_accounts.acct_no IS 'Account number, e.g. 4000';
COMMENT ON COLUMN gl_accounts.acct_type IS 'Asset, Liability, Equity, Revenue or Expense';

CREATE TABLE gl_account_map (
    map_id integer PRIMARY KEY,
    "LegacyAcctCode" varchar(12) NOT NULL,
    "SourceSystem" text NOT NULL,
    acct_id integer NOT NULL REFERENCES gl_accounts
);
COMMENT ON TABLE gl_account_map IS 'Mapping of account codes of the old mainframe ledger to the chart of accounts';
COMMENT ON COLUMN gl_account_map."LegacyAcctCode" IS 'Account code in the legacy system';
COMMENT ON COLUMN gl_account_map."SourceSystem" IS 'Legacy system name (AS400, SAP R/3)';

CREATE TABLE bank_accounts (
    bank_account_id integer PRIMARY KEY,
    bank_name text NOT NULL,
    iban varchar(34) NOT NULL,
    currency_code char(3) NOT NULL REFERENCES currencies,
    gl_acct_id integer NOT NULL REFERENCES gl_accounts,
    current_balance numeric(14,2) NOT NULL
);
COMMENT ON TABLE bank_accounts IS 'Company bank accounts';
COMMENT ON COLUMN bank_accounts.current_balance IS 'Latest statement balance in the account currency';

CREATE TABLE budgets (
    budget_id integer PRIMARY KEY,
    fiscal_year smallint NOT NULL,
    cc_id integer NOT NULL REFERENCES cost_centers,
    acct_id integer NOT NULL REFERENCES gl_accounts,
    budget_amt numeric(14,2) NOT NULL,
    UNIQUE (fiscal_year, cc_id, acct_id)
);
COMMENT ON TABLE budgets IS 'Yearly budget per cost center and expense account';
COMMENT ON COLUMN budgets.budget_amt IS 'Budgeted amount in USD';

CREATE TABLE journal_entries (
    je_id integer PRIMARY KEY,
    je_no varchar(12) NOT NULL UNIQUE,
    entry_date date NOT NULL,
    source text NOT NULL,
    description text,
    posted_by integer REFERENCES employees,
    status text NOT NULL
);
COMMENT ON TABLE journal_entries IS 'General ledger journal entry headers';
COMMENT ON COLUMN journal_entries.source IS 'Origin: AR, AP, Payroll, Assets or Manual';
COMMENT ON COLUMN journal_entries.status IS 'Draft, Posted or Reversed';

CREATE TABLE gl_journal_lines (
    je_id integer NOT NULL REFERENCES journal_entries,
    line_no smallint NOT NULL,
    entry_date date NOT NULL,
    acct_id integer NOT NULL REFERENCES gl_accounts,
    cc_id integer REFERENCES cost_centers,
    debit_amt numeric(14,2) NOT NULL DEFAULT 0,
    credit_amt numeric(14,2) NOT NULL DEFAULT 0,
    memo text,
    PRIMARY KEY (je_id, line_no, entry_date)
) PARTITION BY RANGE (entry_date);
COMMENT ON TABLE gl_journal_lines IS 'General ledger lines (debits and credits), partitioned by year of entry_date';
COMMENT ON COLUMN gl_journal_lines.debit_amt IS 'Debit amount in USD';
COMMENT ON COLUMN gl_journal_lines.credit_amt IS 'Credit amount in USD';
CREATE TABLE gl_journal_lines_2022 PARTITION OF gl_journal_lines FOR VALUES FROM ('2022-01-01') TO ('2023-01-01');
CREATE TABLE gl_journal_lines_2023 PARTITION OF gl_journal_lines FOR VALUES FROM ('2023-01-01') TO ('2024-01-01');
CREATE TABLE gl_journal_lines_2024 PARTITION OF gl_journal_lines FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE TABLE gl_journal_lines_2025 PARTITION OF gl_journal_lines FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
COMMENT ON TABLE gl_journal_lines_2022 IS 'General ledger lines of 2022 (partition)';
COMMENT ON TABLE gl_journal_lines_2023 IS 'General ledger lines of 2023 (partition)';
COMMENT ON TABLE gl_journal_lines_2024 IS 'General ledger lines of 2024 (partition)';
COMMENT ON TABLE gl_journal_lines_2025 IS 'General ledger lines of 2025 (partition)';

-- ===================== Inventory (part 1) =====================
CREATE TABLE product_categories (
    category_id integer PRIMARY KEY,
    category_name text NOT NULL,
    parent_category_id integer REFERENCES product_categories
);
COMMENT ON TABLE product_categories IS 'Product category tree (e.g. Electronics > Laptops)';

CREATE TABLE products (
    product_id integer PRIMARY KEY,
    sku varchar(16) NOT NULL UNIQUE,
    product_name text NOT NULL,
    category_id integer NOT NULL REFERENCES product_categories,
    brand text,
    uom_code varchar(8) NOT NULL REFERENCES units_of_measure,
    list_price numeric(10,2) NOT NULL,
    std_cost numeric(10,2) NOT NULL,
    weight_kg numeric(8,3),
    is_active boolean NOT NULL DEFAULT true,
    launched_on date
);
COMMENT ON TABLE products IS 'Product master: everything the company buys, stocks and sells';
COMMENT ON COLUMN products.sku IS 'Stock keeping unit code';
COMMENT ON COLUMN products.list_price IS 'Standard selling price in USD';
COMMENT ON COLUMN products.std_cost IS 'Standard unit cost in USD';
COMMENT ON COLUMN products.is_active IS 'false for discontinued products';

CREATE TABLE warehouses (
    wh_id integer PRIMARY KEY,
    wh_cd varchar(6) NOT NULL UNIQUE,
    wh_name text NOT NULL,
    city text NOT NULL,
    country_code char(2) NOT NULL REFERENCES countries,
    tz_name text REFERENCES time_zones,
    mgr_emp_id integer REFERENCES employees,
    capacity_m3 integer
);
COMMENT ON TABLE warehouses IS 'Warehouses and distribution centers';
COMMENT ON COLUMN warehouses.wh_cd IS 'Warehouse code, e.g. WH-RTM';
COMMENT ON COLUMN warehouses.mgr_emp_id IS 'Warehouse manager';

CREATE TABLE bin_locations (
    bin_id integer PRIMARY KEY,
    wh_id integer NOT NULL REFERENCES warehouses,
    bin_code varchar(12) NOT NULL,
    zone text NOT NULL,
    UNIQUE (wh_id, bin_code)
);
COMMENT ON TABLE bin_locations IS 'Storage bins inside warehouses';
COMMENT ON COLUMN bin_locations.zone IS 'Bulk, Picking, Cold or Returns';

-- ===================== Procurement (part 1) =====================
CREATE TABLE suppliers (
    supplier_id integer PRIMARY KEY,
    supp_cd varchar(10) NOT NULL UNIQUE,
    supplier_name text NOT NULL,
    country_code char(2) NOT NULL REFERENCES countries,
    city text,
    term_code varchar(10) REFERENCES payment_terms,
    currency_code char(3) REFERENCES currencies,
    rating char(1),
    status text NOT NULL,
    onboarded_on date
);
COMMENT ON TABLE suppliers IS 'Vendors the company buys from';
COMMENT ON COLUMN suppliers.supp_cd IS 'Supplier code, e.g. S0007';
COMMENT ON COLUMN suppliers.rating IS 'Vendor rating A (best) to D';
COMMENT ON COLUMN suppliers.status IS 'Approved, Probation or Blocked';

CREATE TABLE supplier_contacts (
    contact_id integer PRIMARY KEY,
    supplier_id integer NOT NULL REFERENCES suppliers,
    full_name text NOT NULL,
    email text,
    phone text,
    is_primary boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE supplier_contacts IS 'Contact persons at suppliers';

CREATE TABLE supplier_contracts (
    contract_id integer PRIMARY KEY,
    supplier_id integer NOT NULL REFERENCES suppliers,
    contract_no varchar(14) NOT NULL UNIQUE,
    start_date date NOT NULL,
    end_date date NOT NULL,
    annual_value numeric(14,2) NOT NULL,
    owner_emp_id integer REFERENCES employees,
    incoterm char(3) REFERENCES incoterms
);
COMMENT ON TABLE supplier_contracts IS 'Framework contracts with suppliers';
COMMENT ON COLUMN supplier_contracts.annual_value IS 'Committed yearly spend in USD';

CREATE TABLE supplier_evaluations (
    evaluation_id integer PRIMARY KEY,
    supplier_id integer NOT NULL REFERENCES suppliers,
    eval_date date NOT NULL,
    quality_score smallint NOT NULL,
    delivery_score smallint NOT NULL,
    price_score smallint NOT NULL,
    evaluator_emp_id integer REFERENCES employees
);
COMMENT ON TABLE supplier_evaluations IS 'Periodic supplier scorecards (scores 1-10)';

CREATE TABLE product_suppliers (
    product_id integer NOT NULL REFERENCES products,
    supplier_id integer NOT NULL REFERENCES suppliers,
    supplier_sku varchar(20),
    unit_cost numeric(10,2) NOT NULL,
    lead_time_days integer NOT NULL,
    is_preferred boolean NOT NULL DEFAULT false,
    PRIMARY KEY (product_id, supplier_id)
);
COMMENT ON TABLE product_suppliers IS 'Which supplier can deliver which product, at what cost and lead time';
COMMENT ON COLUMN product_suppliers.lead_time_days IS 'Days from order to delivery';

CREATE TABLE purchase_requisitions (
    req_id integer PRIMARY KEY,
    requested_by integer NOT NULL REFERENCES employees,
    dept_id integer NOT NULL REFERENCES departments,
    requested_on date NOT NULL,
    needed_by date,
    status text NOT NULL,
    justification text
);
COMMENT ON TABLE purchase_requisitions IS 'Internal purchase requests raised by employees before a purchase order';
COMMENT ON COLUMN purchase_requisitions.status IS 'Submitted, Approved, Rejected or Ordered';

CREATE TABLE requisition_lines (
    req_id integer NOT NULL REFERENCES purchase_requisitions,
    line_no smallint NOT NULL,
    product_id integer NOT NULL REFERENCES products,
    qty numeric(10,2) NOT NULL,
    est_unit_cost numeric(10,2),
    PRIMARY KEY (req_id, line_no)
);
COMMENT ON TABLE requisition_lines IS 'Requested products and quantities of a purchase requisition';

CREATE TABLE purchase_orders (
    po_id integer PRIMARY KEY,
    po_nbr varchar(12) NOT NULL UNIQUE,
    supplier_id integer NOT NULL REFERENCES suppliers,
    req_id integer REFERENCES purchase_requisitions,
    buyer_emp_id integer REFERENCES employees,
    order_dt date NOT NULL,
    expected_dt date,
    status text NOT NULL,
    currency_code char(3) NOT NULL REFERENCES currencies,
    incoterm char(3) REFERENCES incoterms,
    ship_to_wh_id integer REFERENCES warehouses,
    tot_amt numeric(14,2) NOT NULL
);
COMMENT ON TABLE purchase_orders IS 'Purchase orders sent to suppliers (what we buy)';
COMMENT ON COLUMN purchase_orders.po_nbr IS 'Purchase order number, e.g. PO-000123';
COMMENT ON COLUMN purchase_orders.order_dt IS 'Order date';
COMMENT ON COLUMN purchase_orders.expected_dt IS 'Expected delivery date';
COMMENT ON COLUMN purchase_orders.status IS 'Draft, Sent, Partially Received, Received, Closed or Cancelled';
COMMENT ON COLUMN purchase_orders.tot_amt IS 'Order total in USD';

CREATE TABLE purchase_order_lines (
    po_id integer NOT NULL REFERENCES purchase_orders,
    line_no smallint NOT NULL,
    product_id integer NOT NULL REFERENCES products,
    qty_ord numeric(10,2) NOT NULL,
    qty_rcvd numeric(10,2) NOT NULL DEFAULT 0,
    unit_cost numeric(10,2) NOT NULL,
    PRIMARY KEY (po_id, line_no)
);
COMMENT ON TABLE purchase_order_lines IS 'Lines of purchase orders';
COMMENT ON COLUMN purchase_order_lines.qty_ord IS 'Quantity ordered';
COMMENT ON COLUMN purchase_order_lines.qty_rcvd IS 'Quantity received so far';

CREATE TABLE goods_receipts (
    receipt_id integer PRIMARY KEY,
    po_id integer NOT NULL REFERENCES purchase_orders,
    wh_id integer NOT NULL REFERENCES warehouses,
    received_on date NOT NULL,
    received_by integer REFERENCES employees
);
COMMENT ON TABLE goods_receipts IS 'Deliveries received into a warehouse against a purchase order';

CREATE TABLE goods_receipt_lines (
    receipt_id integer NOT NULL REFERENCES goods_receipts,
    po_id integer NOT NULL,
    po_line_no smallint NOT NULL,
    qty_received numeric(10,2) NOT NULL,
    qty_rejected numeric(10,2) NOT NULL DEFAULT 0,
    PRIMARY KEY (receipt_id, po_line_no),
    FOREIGN KEY (po_id, po_line_no) REFERENCES purchase_order_lines (po_id, line_no)
);
COMMENT ON TABLE goods_receipt_lines IS 'Received quantities per purchase order line';
COMMENT ON COLUMN goods_receipt_lines.qty_rejected IS 'Quantity rejected at quality inspection';

-- ===================== Inventory (part 2) =====================
CREATE TABLE inventory_balances (
    wh_id integer NOT NULL REFERENCES warehouses,
    prod_id integer NOT NULL REFERENCES products,
    qty_oh numeric(12,2) NOT NULL,
    qty_alloc numeric(12,2) NOT NULL DEFAULT 0,
    reorder_pt numeric(12,2) NOT NULL,
    last_cnt_dt date,
    PRIMARY KEY (wh_id, prod_id)
);
COMMENT ON TABLE inventory_balances IS 'Current stock per product and warehouse';
COMMENT ON COLUMN inventory_balances.qty_oh IS 'Quantity on hand';
COMMENT ON COLUMN inventory_balances.qty_alloc IS 'Quantity allocated to open sales orders';
COMMENT ON COLUMN inventory_balances.reorder_pt IS 'Reorder point: replenish when on hand falls below it';
COMMENT ON COLUMN inventory_balances.last_cnt_dt IS 'Date of the last physical count';

CREATE TABLE product_lots (
    lot_id integer PRIMARY KEY,
    product_id integer NOT NULL REFERENCES products,
    lot_no varchar(16) NOT NULL,
    supplier_id integer REFERENCES suppliers,
    manufactured_on date,
    expires_on date,
    qty numeric(10,2) NOT NULL
);
COMMENT ON TABLE product_lots IS 'Production lots / batches of products, with expiry dates';

CREATE TABLE stock_movements (
    movement_id integer PRIMARY KEY,
    product_id integer NOT NULL REFERENCES products,
    wh_id integer NOT NULL REFERENCES warehouses,
    moved_on date NOT NULL,
    movement_type text NOT NULL,
    qty numeric(10,2) NOT NULL,
    reference text,
    emp_id integer REFERENCES employees
);
COMMENT ON TABLE stock_movements IS 'Inventory transactions: goods in and out of warehouses';
COMMENT ON COLUMN stock_movements.movement_type IS 'Receipt, Issue, Transfer or Adjustment';
COMMENT ON COLUMN stock_movements.qty IS 'Quantity moved; negative for outbound';

CREATE TABLE stock_counts (
    count_id integer PRIMARY KEY,
    wh_id integer NOT NULL REFERENCES warehouses,
    product_id integer NOT NULL REFERENCES products,
    counted_on date NOT NULL,
    system_qty numeric(10,2) NOT NULL,
    counted_qty numeric(10,2) NOT NULL,
    counted_by integer REFERENCES employees
);
COMMENT ON TABLE stock_counts IS 'Cycle counts: physical count vs system quantity';

-- ===================== Sales =====================
CREATE TABLE sales_territories (
    territory_id integer PRIMARY KEY,
    territory_name text NOT NULL,
    region_code char(4) NOT NULL REFERENCES regions,
    manager_emp_id integer REFERENCES employees
);
COMMENT ON TABLE sales_territories IS 'Sales territories, each in one region';

CREATE TABLE sales_reps (
    emp_id integer PRIMARY KEY REFERENCES employees,
    territory_id integer NOT NULL REFERENCES sales_territories,
    annual_quota numeric(14,2) NOT NULL,
    commission_pct numeric(5,2) NOT NULL
);
COMMENT ON TABLE sales_reps IS 'Employees working as sales representatives, with quota';
COMMENT ON COLUMN sales_reps.annual_quota IS 'Yearly sales target in USD';

CREATE TABLE customers (
    customer_id integer PRIMARY KEY,
    cust_nbr varchar(10) NOT NULL UNIQUE,
    customer_name text NOT NULL,
    industry_code varchar(6) REFERENCES industries,
    segment text NOT NULL,
    country_code char(2) NOT NULL REFERENCES countries,
    city text,
    territory_id integer REFERENCES sales_territories,
    account_mgr_id integer REFERENCES employees,
    term_code varchar(10) REFERENCES payment_terms,
    credit_limit numeric(14,2),
    status text NOT NULL,
    created_on date NOT NULL
);
COMMENT ON TABLE customers IS 'Customer master (accounts we sell to)';
COMMENT ON COLUMN customers.cust_nbr IS 'Customer number, e.g. C000123';
COMMENT ON COLUMN customers.segment IS 'Enterprise, Mid-Market or SMB';
COMMENT ON COLUMN customers.account_mgr_id IS 'Employee managing the account';
COMMENT ON COLUMN customers.status IS 'Active, Inactive or Prospect';
COMMENT ON COLUMN customers.credit_limit IS 'Credit limit in USD';

CREATE TABLE customer_contacts (
    contact_id integer PRIMARY KEY,
    customer_id integer NOT NULL REFERENCES customers,
    full_name text NOT NULL,
    job_role text,
    email text,
    language_code char(2) REFERENCES languages,
    is_primary boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE customer_contacts IS 'Contact persons at customers';

CREATE TABLE price_lists (
    price_list_id integer PRIMARY KEY,
    name text NOT NULL,
    currency_code char(3) NOT NULL REFERENCES currencies,
    valid_from date NOT NULL,
    valid_to date
);
COMMENT ON TABLE price_lists IS 'Sales price lists per currency';

CREATE TABLE price_list_items (
    price_list_id integer NOT NULL REFERENCES price_lists,
    product_id integer NOT NULL REFERENCES products,
    unit_price numeric(10,2) NOT NULL,
    PRIMARY KEY (price_list_id, product_id)
);
COMMENT ON TABLE price_list_items IS 'Product prices in a price list';

CREATE TABLE leads (
    lead_id integer PRIMARY KEY,
    company_name text NOT NULL,
    contact_name text,
    source text NOT NULL,
    status text NOT NULL,
    owner_emp_id integer REFERENCES employees,
    country_code char(2) REFERENCES countries,
    created_on date NOT NULL,
    converted_customer_id integer REFERENCES customers
);
COMMENT ON TABLE leads IS 'Marketing leads before they become customers';
COMMENT ON COLUMN leads.source IS 'Web, Trade Show, Referral, Cold Call or Partner';
COMMENT ON COLUMN leads.status IS 'New, Contacted, Qualified, Converted or Lost';

CREATE TABLE opportunities (
    opp_id integer PRIMARY KEY,
    opp_name text NOT NULL,
    customer_id integer NOT NULL REFERENCES customers,
    owner_emp_id integer NOT NULL REFERENCES employees,
    stage deal_stage NOT NULL,
    amount numeric(14,2) NOT NULL,
    probability_pct smallint NOT NULL,
    created_on date NOT NULL,
    expected_close date NOT NULL,
    closed_on date
);
COMMENT ON TABLE opportunities IS 'Sales opportunities (deals) in the pipeline';
COMMENT ON COLUMN opportunities.stage IS 'Pipeline stage, e.g. Negotiation or Closed Won';
COMMENT ON COLUMN opportunities.amount IS 'Expected deal value in USD';
COMMENT ON COLUMN opportunities.probability_pct IS 'Win probability in percent';

CREATE TABLE quotes (
    quote_id integer PRIMARY KEY,
    quote_no varchar(12) NOT NULL UNIQUE,
    opp_id integer REFERENCES opportunities,
    customer_id integer NOT NULL REFERENCES customers,
    quoted_on date NOT NULL,
    valid_until date NOT NULL,
    status text NOT NULL,
    total_amount numeric(14,2) NOT NULL
);
COMMENT ON TABLE quotes IS 'Price quotations sent to customers';
COMMENT ON COLUMN quotes.status IS 'Draft, Sent, Accepted, Rejected or Expired';

CREATE TABLE quote_lines (
    quote_id integer NOT NULL REFERENCES quotes,
    line_no smallint NOT NULL,
    product_id integer NOT NULL REFERENCES products,
    qty numeric(10,2) NOT NULL,
    unit_price numeric(10,2) NOT NULL,
    PRIMARY KEY (quote_id, line_no)
);
COMMENT ON TABLE quote_lines IS 'Products and prices on a quote';

CREATE TABLE sales_orders (
    so_id integer PRIMARY KEY,
    order_no varchar(12) NOT NULL UNIQUE,
    customer_id integer NOT NULL REFERENCES customers,
    quote_id integer REFERENCES quotes,
    sales_rep_id integer REFERENCES employees,
    order_date date NOT NULL,
    requested_ship_date date,
    status text NOT NULL,
    currency_code char(3) NOT NULL REFERENCES currencies,
    incoterm char(3) REFERENCES incoterms,
    total_amount numeric(14,2) NOT NULL
);
COMMENT ON TABLE sales_orders IS 'Customer sales orders (what customers buy from us)';
COMMENT ON COLUMN sales_orders.order_no IS 'Sales order number, e.g. SO-000123';
COMMENT ON COLUMN sales_orders.status IS 'Draft, Confirmed, Shipped, Delivered or Cancelled';
COMMENT ON COLUMN sales_orders.total_amount IS 'Order total in USD after discounts';

CREATE TABLE sales_order_lines (
    so_id integer NOT NULL REFERENCES sales_orders,
    line_no smallint NOT NULL,
    product_id integer NOT NULL REFERENCES products,
    qty numeric(10,2) NOT NULL,
    unit_price numeric(10,2) NOT NULL,
    discount_pct numeric(5,2) NOT NULL DEFAULT 0,
    PRIMARY KEY (so_id, line_no)
);
COMMENT ON TABLE sales_order_lines IS 'Order lines: product, quantity and price per sales order';
COMMENT ON COLUMN sales_order_lines.discount_pct IS 'Line discount in percent';

CREATE TABLE shipments (
    shipment_id integer PRIMARY KEY,
    so_id integer NOT NULL REFERENCES sales_orders,
    wh_id integer NOT NULL REFERENCES warehouses,
    shipped_on date NOT NULL,
    delivered_on date,
    carrier text NOT NULL,
    tracking_no varchar(20)
);
COMMENT ON TABLE shipments IS 'Outbound shipments of sales orders from a warehouse';
COMMENT ON COLUMN shipments.carrier IS 'DHL, UPS, FedEx, DB Schenker or Maersk';

CREATE TABLE shipment_lines (
    shipment_id integer NOT NULL REFERENCES shipments,
    so_id integer NOT NULL,
    so_line_no smallint NOT NULL,
    qty_shipped numeric(10,2) NOT NULL,
    PRIMARY KEY (shipment_id, so_line_no),
    FOREIGN KEY (so_id, so_line_no) REFERENCES sales_order_lines (so_id, line_no)
);
COMMENT ON TABLE shipment_lines IS 'Shipped quantity per sales order line';

CREATE TABLE sales_returns (
    return_id integer PRIMARY KEY,
    rma_no varchar(12) NOT NULL UNIQUE,
    so_id integer NOT NULL REFERENCES sales_orders,
    product_id integer NOT NULL REFERENCES products,
    qty numeric(10,2) NOT NULL,
    returned_on date NOT NULL,
    reason text NOT NULL,
    restocked boolean NOT NULL
);
COMMENT ON TABLE sales_returns IS 'Customer returns (RMA) of sold products';
COMMENT ON COLUMN sales_returns.reason IS 'Damaged, Wrong Item, Not Needed, Defective or Late Delivery';

-- ===================== Projects =====================
CREATE TABLE projects (
    project_id integer PRIMARY KEY,
    project_code varchar(10) NOT NULL UNIQUE,
    project_name text NOT NULL,
    customer_id integer REFERENCES customers,
    pm_emp_id integer NOT NULL REFERENCES employees,
    dept_id integer REFERENCES departments,
    start_date date NOT NULL,
    end_date date,
    status text NOT NULL,
    budget_amt numeric(14,2) NOT NULL,
    billing_type text NOT NULL
);
COMMENT ON TABLE projects IS 'Customer and internal projects';
COMMENT ON COLUMN projects.pm_emp_id IS 'Project manager';
COMMENT ON COLUMN projects.customer_id IS 'Customer the project is for; NULL for internal projects';
COMMENT ON COLUMN projects.status IS 'Planned, Active, On Hold, Completed or Cancelled';
COMMENT ON COLUMN projects.budget_amt IS 'Approved budget in USD';
COMMENT ON COLUMN projects.billing_type IS 'Fixed Price, Time and Materials or Internal';

CREATE TABLE project_members (
    project_id integer NOT NULL REFERENCES projects,
    emp_id integer NOT NULL REFERENCES employees,
    project_role text NOT NULL,
    allocation_pct smallint NOT NULL,
    joined_on date NOT NULL,
    PRIMARY KEY (project_id, emp_id)
);
COMMENT ON TABLE project_members IS 'Employees staffed on projects';
COMMENT ON COLUMN project_members.allocation_pct IS 'Share of working time allocated to the project';

CREATE TABLE project_milestones (
    milestone_id integer PRIMARY KEY,
    project_id integer NOT NULL REFERENCES projects,
    name text NOT NULL,
    due_date date NOT NULL,
    completed_on date,
    billing_amt numeric(14,2)
);
COMMENT ON TABLE project_milestones IS 'Project milestones, some of them billable';

CREATE TABLE project_tasks (
    task_id integer PRIMARY KEY,
    project_id integer NOT NULL REFERENCES projects,
    milestone_id integer REFERENCES project_milestones,
    task_name text NOT NULL,
    assignee_emp_id integer REFERENCES employees,
    status text NOT NULL,
    priority priority_level NOT NULL,
    est_hours numeric(6,1),
    due_date date
);
COMMENT ON TABLE project_tasks IS 'Work items of projects';
COMMENT ON COLUMN project_tasks.status IS 'To Do, In Progress, Blocked or Done';

CREATE TABLE timesheets (
    timesheet_id integer PRIMARY KEY,
    emp_id integer NOT NULL REFERENCES employees,
    project_id integer NOT NULL REFERENCES projects,
    task_id integer REFERENCES project_tasks,
    work_date date NOT NULL,
    hours numeric(4,1) NOT NULL,
    is_billable boolean NOT NULL,
    approved boolean NOT NULL
);
COMMENT ON TABLE timesheets IS 'Hours employees booked on projects per day';

CREATE TABLE project_expenses (
    expense_id integer PRIMARY KEY,
    project_id integer NOT NULL REFERENCES projects,
    emp_id integer REFERENCES employees,
    incurred_on date NOT NULL,
    category text NOT NULL,
    amount numeric(12,2) NOT NULL
);
COMMENT ON TABLE project_expenses IS 'Non-labour costs charged to projects';
COMMENT ON COLUMN project_expenses.category IS 'Travel, Software, Hardware, Subcontractor or Other';

CREATE TABLE project_risks (
    risk_id integer PRIMARY KEY,
    project_id integer NOT NULL REFERENCES projects,
    description text NOT NULL,
    severity priority_level NOT NULL,
    status text NOT NULL,
    owner_emp_id integer REFERENCES employees,
    raised_on date NOT NULL
);
COMMENT ON TABLE project_risks IS 'Risk register of projects';
COMMENT ON COLUMN project_risks.status IS 'Open, Mitigated or Closed';

CREATE TABLE project_status_reports (
    report_id integer PRIMARY KEY,
    project_id integer NOT NULL REFERENCES projects,
    report_date date NOT NULL,
    health text NOT NULL,
    pct_complete smallint NOT NULL,
    author_emp_id integer REFERENCES employees
);
COMMENT ON TABLE project_status_reports IS 'Monthly project status reports';
COMMENT ON COLUMN project_status_reports.health IS 'Traffic light: Green, Amber or Red';

-- ===================== Finance (part 2) =====================
CREATE TABLE invoices (
    invoice_id integer PRIMARY KEY,
    invoice_no varchar(12) NOT NULL UNIQUE,
    customer_id integer NOT NULL REFERENCES customers,
    so_id integer REFERENCES sales_orders,
    project_id integer REFERENCES projects,
    invoice_date date NOT NULL,
    due_date date NOT NULL,
    currency_code char(3) NOT NULL REFERENCES currencies,
    tax_code varchar(12) REFERENCES tax_codes,
    total_amount numeric(14,2) NOT NULL,
    status text NOT NULL
);
COMMENT ON TABLE invoices IS 'Accounts receivable: invoices we send to customers';
COMMENT ON COLUMN invoices.total_amount IS 'Invoice total in USD including tax';
COMMENT ON COLUMN invoices.status IS 'Open, Paid, Overdue or Cancelled';

CREATE TABLE invoice_lines (
    invoice_id integer NOT NULL REFERENCES invoices,
    line_no smallint NOT NULL,
    product_id integer REFERENCES products,
    description text NOT NULL,
    qty numeric(10,2) NOT NULL,
    unit_price numeric(10,2) NOT NULL,
    PRIMARY KEY (invoice_id, line_no)
);
COMMENT ON TABLE invoice_lines IS 'Lines of customer invoices';

CREATE TABLE customer_payments (
    payment_id integer PRIMARY KEY,
    invoice_id integer NOT NULL REFERENCES invoices,
    customer_id integer NOT NULL REFERENCES customers,
    paid_on date NOT NULL,
    amount numeric(14,2) NOT NULL,
    method text NOT NULL,
    bank_account_id integer REFERENCES bank_accounts
);
COMMENT ON TABLE customer_payments IS 'Payments received from customers against invoices';
COMMENT ON COLUMN customer_payments.method IS 'Wire, Card, Direct Debit or Check';

CREATE TABLE supplier_invoices (
    sinv_id integer PRIMARY KEY,
    inv_nbr varchar(20) NOT NULL,
    supplier_id integer NOT NULL REFERENCES suppliers,
    po_id integer REFERENCES purchase_orders,
    inv_dt date NOT NULL,
    due_dt date NOT NULL,
    tot_amt numeric(14,2) NOT NULL,
    tax_amt numeric(14,2) NOT NULL,
    status text NOT NULL,
    UNIQUE (supplier_id, inv_nbr)
);
COMMENT ON TABLE supplier_invoices IS 'Accounts payable: invoices received from suppliers';
COMMENT ON COLUMN supplier_invoices.inv_nbr IS 'Invoice number as printed by the supplier';
COMMENT ON COLUMN supplier_invoices.inv_dt IS 'Invoice date';
COMMENT ON COLUMN supplier_invoices.due_dt IS 'Payment due date';
COMMENT ON COLUMN supplier_invoices.tot_amt IS 'Invoice total in USD including tax';
COMMENT ON COLUMN supplier_invoices.status IS 'Received, Approved, Paid or Disputed';

CREATE TABLE supplier_payments (
    spay_id integer PRIMARY KEY,
    sinv_id integer NOT NULL REFERENCES supplier_invoices,
    paid_dt date NOT NULL,
    pay_amt numeric(14,2) NOT NULL,
    bank_account_id integer REFERENCES bank_accounts
);
COMMENT ON TABLE supplier_payments IS 'Payments made to suppliers';
COMMENT ON COLUMN supplier_payments.paid_dt IS 'Payment date';
COMMENT ON COLUMN supplier_payments.pay_amt IS 'Amount paid in USD';

CREATE TABLE expense_reports (
    report_id integer PRIMARY KEY,
    emp_id integer NOT NULL REFERENCES employees,
    submitted_on date NOT NULL,
    approved_by integer REFERENCES employees,
    status text NOT NULL,
    total_amount numeric(12,2) NOT NULL,
    cc_id integer REFERENCES cost_centers
);
COMMENT ON TABLE expense_reports IS 'Employee travel and expense claims';
COMMENT ON COLUMN expense_reports.status IS 'Submitted, Approved, Rejected or Reimbursed';

CREATE TABLE expense_lines (
    report_id integer NOT NULL REFERENCES expense_reports,
    line_no smallint NOT NULL,
    expense_date date NOT NULL,
    category text NOT NULL,
    amount numeric(12,2) NOT NULL,
    currency_code char(3) NOT NULL REFERENCES currencies,
    PRIMARY KEY (report_id, line_no)
);
COMMENT ON TABLE expense_lines IS 'Single receipts of an expense report';
COMMENT ON COLUMN expense_lines.category IS 'Airfare, Hotel, Meals, Taxi, Mileage or Other';

CREATE TABLE project_billing (
    project_id integer NOT NULL REFERENCES projects,
    invoice_id integer NOT NULL REFERENCES invoices,
    milestone_id integer REFERENCES project_milestones,
    billed_amt numeric(14,2) NOT NULL,
    PRIMARY KEY (project_id, invoice_id)
);
COMMENT ON TABLE project_billing IS 'Which customer invoices bill which project (and milestone)';

-- ===================== Assets =====================
CREATE TABLE asset_categories (
    asset_category_id integer PRIMARY KEY,
    name text NOT NULL,
    useful_life_years smallint NOT NULL,
    depreciation_method text NOT NULL,
    gl_acct_id integer REFERENCES gl_accounts
);
COMMENT ON TABLE asset_categories IS 'Fixed asset classes with depreciation rules';
COMMENT ON COLUMN asset_categories.depreciation_method IS 'Straight-line or Declining balance';

CREATE TABLE fixed_assets (
    asset_id integer PRIMARY KEY,
    asset_tag varchar(12) NOT NULL UNIQUE,
    description text NOT NULL,
    asset_category_id integer NOT NULL REFERENCES asset_categories,
    acq_dt date NOT NULL,
    acq_cost numeric(14,2) NOT NULL,
    salvage_val numeric(14,2) NOT NULL DEFAULT 0,
    location_id integer REFERENCES office_locations,
    custodian_emp_id integer REFERENCES employees,
    cc_id integer REFERENCES cost_centers,
    supplier_id integer REFERENCES suppliers,
    condition asset_condition NOT NULL,
    status text NOT NULL
);
COMMENT ON TABLE fixed_assets IS 'Fixed asset register (equipment, vehicles, IT hardware, furniture)';
COMMENT ON COLUMN fixed_assets.asset_tag IS 'Barcode tag, e.g. FA-00017';
COMMENT ON COLUMN fixed_assets.acq_dt IS 'Acquisition date';
COMMENT ON COLUMN fixed_assets.acq_cost IS 'Acquisition cost in USD';
COMMENT ON COLUMN fixed_assets.salvage_val IS 'Expected residual value at end of life';
COMMENT ON COLUMN fixed_assets.custodian_emp_id IS 'Employee responsible for the asset';
COMMENT ON COLUMN fixed_assets.status IS 'In Use, In Storage, Under Repair or Disposed';

CREATE TABLE asset_depreciation (
    asset_id integer NOT NULL REFERENCES fixed_assets,
    period_end date NOT NULL,
    dep_amt numeric(14,2) NOT NULL,
    accum_dep numeric(14,2) NOT NULL,
    book_val numeric(14,2) NOT NULL,
    PRIMARY KEY (asset_id, period_end)
);
COMMENT ON TABLE asset_depreciation IS 'Yearly depreciation schedule of fixed assets';
COMMENT ON COLUMN asset_depreciation.dep_amt IS 'Depreciation of the year';
COMMENT ON COLUMN asset_depreciation.accum_dep IS 'Accumulated depreciation at period end';
COMMENT ON COLUMN asset_depreciation.book_val IS 'Net book value at period end';

CREATE TABLE asset_assignments (
    assignment_id integer PRIMARY KEY,
    asset_id integer NOT NULL REFERENCES fixed_assets,
    emp_id integer NOT NULL REFERENCES employees,
    assigned_on date NOT NULL,
    returned_on date
);
COMMENT ON TABLE asset_assignments IS 'Hand-over of assets (laptops, phones, cars) to employees';

CREATE TABLE maintenance_orders (
    mo_id integer PRIMARY KEY,
    asset_id integer NOT NULL REFERENCES fixed_assets,
    opened_on date NOT NULL,
    closed_on date,
    priority priority_level NOT NULL,
    status text NOT NULL,
    technician_emp_id integer REFERENCES employees,
    supplier_id integer REFERENCES suppliers,
    cost numeric(12,2)
);
COMMENT ON TABLE maintenance_orders IS 'Repair and maintenance work orders for assets';
COMMENT ON COLUMN maintenance_orders.status IS 'Open, In Progress or Closed';
COMMENT ON COLUMN maintenance_orders.supplier_id IS 'External service provider, if any';

CREATE TABLE asset_disposals (
    disposal_id integer PRIMARY KEY,
    asset_id integer NOT NULL UNIQUE REFERENCES fixed_assets,
    disposed_on date NOT NULL,
    method text NOT NULL,
    proceeds numeric(14,2) NOT NULL,
    approved_by integer REFERENCES employees
);
COMMENT ON TABLE asset_disposals IS 'Sale, scrapping or donation of fixed assets';
COMMENT ON COLUMN asset_disposals.method IS 'Sold, Scrapped or Donated';

CREATE TABLE vehicles (
    asset_id integer PRIMARY KEY REFERENCES fixed_assets,
    plate_no varchar(12) NOT NULL,
    make text NOT NULL,
    model text NOT NULL,
    fuel_type text NOT NULL,
    odometer_km integer NOT NULL
);
COMMENT ON TABLE vehicles IS 'Company vehicles (a kind of fixed asset)';
COMMENT ON COLUMN vehicles.fuel_type IS 'Diesel, Petrol, Hybrid or Electric';

CREATE TABLE software_licenses (
    license_id integer PRIMARY KEY,
    product_name text NOT NULL,
    supplier_id integer REFERENCES suppliers,
    seats integer NOT NULL,
    seats_used integer NOT NULL,
    annual_cost numeric(12,2) NOT NULL,
    renewal_date date NOT NULL,
    owner_dept_id integer REFERENCES departments
);
COMMENT ON TABLE software_licenses IS 'Software subscriptions and licenses';
COMMENT ON COLUMN software_licenses.seats_used IS 'Seats currently assigned';

-- ===================== Further column comments =====================
COMMENT ON COLUMN office_locations.location_id IS 'Primary key of the office location';
COMMENT ON COLUMN office_locations.tz_name IS 'Time zone; references time_zones';
COMMENT ON COLUMN office_locations.opened_on IS 'Date opened';
COMMENT ON COLUMN job_titles.job_title_id IS 'Primary key of the job title';
COMMENT ON COLUMN job_titles.min_salary IS 'Min salary';
COMMENT ON COLUMN job_titles.max_salary IS 'Max salary';
COMMENT ON COLUMN cost_centers.cc_id IS 'Primary key of the cost center';
COMMENT ON COLUMN cost_centers.name IS 'Name';
COMMENT ON COLUMN cost_centers.is_active IS 'false when no longer in use';
COMMENT ON COLUMN departments.dept_id IS 'Primary key of the department';
COMMENT ON COLUMN departments.parent_dept_id IS 'Department; references departments';
COMMENT ON COLUMN departments.location_id IS 'Office location; references office_locations';
COMMENT ON COLUMN employees.emp_id IS 'Primary key of the employee';
COMMENT ON COLUMN employees.first_name IS 'First name';
COMMENT ON COLUMN employees.last_name IS 'Last name';
COMMENT ON COLUMN employees.email IS 'E-mail address';
COMMENT ON COLUMN employees.birth_date IS 'Date of birth';
COMMENT ON COLUMN employees.dept_id IS 'Department; references departments';
COMMENT ON COLUMN employees.job_title_id IS 'Job title; references job_titles';
COMMENT ON COLUMN employees.location_id IS 'Office location; references office_locations';
COMMENT ON COLUMN employees.employment_type IS 'Employment type';
COMMENT ON COLUMN salary_history.emp_id IS 'Employee; references employees';
COMMENT ON COLUMN salary_history.effective_date IS 'Effective date';
COMMENT ON COLUMN salary_history.currency_code IS 'Currency; references currencies';
COMMENT ON COLUMN payroll_runs.run_id IS 'Primary key of the payroll run';
COMMENT ON COLUMN payroll_runs.run_date IS 'Date the payroll was paid';
COMMENT ON COLUMN payroll_lines.run_id IS 'Payroll run; references payroll_runs';
COMMENT ON COLUMN payroll_lines.emp_id IS 'Employee; references employees';
COMMENT ON COLUMN leave_types.leave_type_id IS 'Primary key of the leave type';
COMMENT ON COLUMN leave_types.name IS 'Name';
COMMENT ON COLUMN leave_types.is_paid IS 'Absence is paid';
COMMENT ON COLUMN leave_requests.request_id IS 'Primary key of the leave request';
COMMENT ON COLUMN leave_requests.emp_id IS 'Employee; references employees';
COMMENT ON COLUMN leave_requests.leave_type_id IS 'Leave type; references leave_types';
COMMENT ON COLUMN leave_requests.start_date IS 'Start date';
COMMENT ON COLUMN leave_requests.end_date IS 'End date';
COMMENT ON COLUMN performance_reviews.review_id IS 'Primary key of the performance review';
COMMENT ON COLUMN performance_reviews.emp_id IS 'Employee; references employees';
COMMENT ON COLUMN performance_reviews.reviewer_id IS 'Reviewing manager; references employees';
COMMENT ON COLUMN performance_reviews.review_year IS 'Year reviewed';
COMMENT ON COLUMN performance_reviews.comments IS 'Reviewer comments';
COMMENT ON COLUMN training_courses.course_id IS 'Primary key of the training course';
COMMENT ON COLUMN training_courses.title IS 'Title';
COMMENT ON COLUMN training_courses.duration_hours IS 'Course length in hours';
COMMENT ON COLUMN training_courses.cost_per_seat IS 'Price per participant in USD';
COMMENT ON COLUMN training_enrollments.enrollment_id IS 'Primary key of the training enrollment';
COMMENT ON COLUMN training_enrollments.course_id IS 'Training course; references training_courses';
COMMENT ON COLUMN training_enrollments.emp_id IS 'Employee; references employees';
COMMENT ON COLUMN training_enrollments.enrolled_on IS 'Enrollment date';
COMMENT ON COLUMN benefit_plans.plan_id IS 'Primary key of the benefit plan';
COMMENT ON COLUMN benefit_plans.plan_name IS 'Plan name';
COMMENT ON COLUMN benefit_plans.employer_cost_monthly IS 'Monthly employer cost in USD';
COMMENT ON COLUMN emp_bnft.emp_id IS 'Employee; references employees';
COMMENT ON COLUMN emp_bnft.plan_id IS 'Benefit plan; references benefit_plans';
COMMENT ON COLUMN gl_accounts.acct_id IS 'Primary key of the GL account';
COMMENT ON COLUMN gl_accounts.acct_name IS 'Account name';
COMMENT ON COLUMN gl_accounts.parent_acct_id IS 'GL account; references gl_accounts';
COMMENT ON COLUMN gl_accounts.is_active IS 'false when no longer in use';
COMMENT ON COLUMN gl_account_map.map_id IS 'Primary key of the gl account map';
COMMENT ON COLUMN gl_account_map.acct_id IS 'GL account; references gl_accounts';
COMMENT ON COLUMN bank_accounts.bank_account_id IS 'Primary key of the bank account';
COMMENT ON COLUMN bank_accounts.bank_name IS 'Bank name';
COMMENT ON COLUMN bank_accounts.iban IS 'IBAN of the account';
COMMENT ON COLUMN bank_accounts.currency_code IS 'Currency; references currencies';
COMMENT ON COLUMN bank_accounts.gl_acct_id IS 'GL account; references gl_accounts';
COMMENT ON COLUMN budgets.budget_id IS 'Primary key of the budget';
COMMENT ON COLUMN budgets.fiscal_year IS 'Fiscal year';
COMMENT ON COLUMN budgets.cc_id IS 'Cost center; references cost_centers';
COMMENT ON COLUMN budgets.acct_id IS 'GL account; references gl_accounts';
COMMENT ON COLUMN journal_entries.je_id IS 'Primary key of the journal entry';
COMMENT ON COLUMN journal_entries.je_no IS 'Journal entry number';
COMMENT ON COLUMN journal_entries.entry_date IS 'Posting date';
COMMENT ON COLUMN journal_entries.description IS 'Description';
COMMENT ON COLUMN journal_entries.posted_by IS 'Employee who posted; references employees';
COMMENT ON COLUMN gl_journal_lines.je_id IS 'Journal entry; references journal_entries';
COMMENT ON COLUMN gl_journal_lines.line_no IS 'Line number within the document';
COMMENT ON COLUMN gl_journal_lines.entry_date IS 'Posting date';
COMMENT ON COLUMN gl_journal_lines.acct_id IS 'GL account; references gl_accounts';
COMMENT ON COLUMN gl_journal_lines.cc_id IS 'Cost center; references cost_centers';
COMMENT ON COLUMN gl_journal_lines.memo IS 'Line memo';
COMMENT ON COLUMN product_categories.category_id IS 'Primary key of the product category';
COMMENT ON COLUMN product_categories.category_name IS 'Category name';
COMMENT ON COLUMN product_categories.parent_category_id IS 'Product category; references product_categories';
COMMENT ON COLUMN products.product_id IS 'Primary key of the product';
COMMENT ON COLUMN products.product_name IS 'Product name';
COMMENT ON COLUMN products.category_id IS 'Product category; references product_categories';
COMMENT ON COLUMN products.brand IS 'Brand';
COMMENT ON COLUMN products.uom_code IS 'Unit of measure; references units_of_measure';
COMMENT ON COLUMN products.weight_kg IS 'Weight in kg';
COMMENT ON COLUMN products.launched_on IS 'Launch date';
COMMENT ON COLUMN warehouses.wh_id IS 'Primary key of the warehouse';
COMMENT ON COLUMN warehouses.wh_name IS 'Warehouse name';
COMMENT ON COLUMN warehouses.city IS 'City';
COMMENT ON COLUMN warehouses.country_code IS 'Country; references countries';
COMMENT ON COLUMN warehouses.tz_name IS 'Time zone; references time_zones';
COMMENT ON COLUMN warehouses.capacity_m3 IS 'Storage capacity in cubic metres';
COMMENT ON COLUMN bin_locations.bin_id IS 'Primary key of the bin location';
COMMENT ON COLUMN bin_locations.wh_id IS 'Warehouse; references warehouses';
COMMENT ON COLUMN bin_locations.bin_code IS 'Bin code inside the warehouse';
COMMENT ON COLUMN suppliers.supplier_id IS 'Primary key of the supplier';
COMMENT ON COLUMN suppliers.supplier_name IS 'Supplier name';
COMMENT ON COLUMN suppliers.country_code IS 'Country; references countries';
COMMENT ON COLUMN suppliers.city IS 'City';
COMMENT ON COLUMN suppliers.term_code IS 'Payment term; references payment_terms';
COMMENT ON COLUMN suppliers.currency_code IS 'Currency; references currencies';
COMMENT ON COLUMN suppliers.onboarded_on IS 'Date the supplier was approved';
COMMENT ON COLUMN supplier_contacts.contact_id IS 'Primary key of the supplier contact';
COMMENT ON COLUMN supplier_contacts.supplier_id IS 'Supplier; references suppliers';
COMMENT ON COLUMN supplier_contacts.full_name IS 'Full name of the person';
COMMENT ON COLUMN supplier_contacts.email IS 'E-mail address';
COMMENT ON COLUMN supplier_contacts.phone IS 'Phone number';
COMMENT ON COLUMN supplier_contacts.is_primary IS 'Main contact of the company';
COMMENT ON COLUMN supplier_contracts.contract_id IS 'Primary key of the supplier contract';
COMMENT ON COLUMN supplier_contracts.supplier_id IS 'Supplier; references suppliers';
COMMENT ON COLUMN supplier_contracts.contract_no IS 'Contract number';
COMMENT ON COLUMN supplier_contracts.start_date IS 'Start date';
COMMENT ON COLUMN supplier_contracts.end_date IS 'End date';
COMMENT ON COLUMN supplier_contracts.owner_emp_id IS 'Owner (employee); references employees';
COMMENT ON COLUMN supplier_contracts.incoterm IS 'Incoterm; references incoterms';
COMMENT ON COLUMN supplier_evaluations.evaluation_id IS 'Primary key of the supplier evaluation';
COMMENT ON COLUMN supplier_evaluations.supplier_id IS 'Supplier; references suppliers';
COMMENT ON COLUMN supplier_evaluations.eval_date IS 'Evaluation date';
COMMENT ON COLUMN supplier_evaluations.quality_score IS 'Quality score 1-10';
COMMENT ON COLUMN supplier_evaluations.delivery_score IS 'On-time delivery score 1-10';
COMMENT ON COLUMN supplier_evaluations.price_score IS 'Price competitiveness score 1-10';
COMMENT ON COLUMN supplier_evaluations.evaluator_emp_id IS 'Evaluator (employee); references employees';
COMMENT ON COLUMN product_suppliers.product_id IS 'Product; references products';
COMMENT ON COLUMN product_suppliers.supplier_id IS 'Supplier; references suppliers';
COMMENT ON COLUMN product_suppliers.supplier_sku IS 'The supplier''s own article number';
COMMENT ON COLUMN product_suppliers.unit_cost IS 'Unit cost in USD';
COMMENT ON COLUMN product_suppliers.is_preferred IS 'Preferred supplier for the product';
COMMENT ON COLUMN purchase_requisitions.req_id IS 'Primary key of the purchase requisition';
COMMENT ON COLUMN purchase_requisitions.requested_by IS 'Employee who requested; references employees';
COMMENT ON COLUMN purchase_requisitions.dept_id IS 'Department; references departments';
COMMENT ON COLUMN purchase_requisitions.requested_on IS 'Request date';
COMMENT ON COLUMN purchase_requisitions.needed_by IS 'Date needed';
COMMENT ON COLUMN purchase_requisitions.justification IS 'Reason for the purchase';
COMMENT ON COLUMN requisition_lines.req_id IS 'Purchase requisition; references purchase_requisitions';
COMMENT ON COLUMN requisition_lines.line_no IS 'Line number within the document';
COMMENT ON COLUMN requisition_lines.product_id IS 'Product; references products';
COMMENT ON COLUMN requisition_lines.qty IS 'Quantity';
COMMENT ON COLUMN requisition_lines.est_unit_cost IS 'Estimated unit cost in USD';
COMMENT ON COLUMN purchase_orders.po_id IS 'Primary key of the purchase order';
COMMENT ON COLUMN purchase_orders.supplier_id IS 'Supplier; references suppliers';
COMMENT ON COLUMN purchase_orders.req_id IS 'Purchase requisition; references purchase_requisitions';
COMMENT ON COLUMN purchase_orders.buyer_emp_id IS 'Buyer (employee); references employees';
COMMENT ON COLUMN purchase_orders.currency_code IS 'Currency; references currencies';
COMMENT ON COLUMN purchase_orders.incoterm IS 'Incoterm; references incoterms';
COMMENT ON COLUMN purchase_orders.ship_to_wh_id IS 'Warehouse; references warehouses';
COMMENT ON COLUMN purchase_order_lines.po_id IS 'Purchase order; references purchase_orders';
COMMENT ON COLUMN purchase_order_lines.line_no IS 'Line number within the document';
COMMENT ON COLUMN purchase_order_lines.product_id IS 'Product; references products';
COMMENT ON COLUMN purchase_order_lines.unit_cost IS 'Unit cost in USD';
COMMENT ON COLUMN goods_receipts.receipt_id IS 'Primary key of the goods receipt';
COMMENT ON COLUMN goods_receipts.po_id IS 'Purchase order; references purchase_orders';
COMMENT ON COLUMN goods_receipts.wh_id IS 'Warehouse; references warehouses';
COMMENT ON COLUMN goods_receipts.received_on IS 'Receipt date';
COMMENT ON COLUMN goods_receipts.received_by IS 'Employee who received the goods; references employees';
COMMENT ON COLUMN goods_receipt_lines.receipt_id IS 'Goods receipt; references goods_receipts';
COMMENT ON COLUMN goods_receipt_lines.po_id IS 'Po id';
COMMENT ON COLUMN goods_receipt_lines.po_line_no IS 'Po line no';
COMMENT ON COLUMN goods_receipt_lines.qty_received IS 'Quantity received';
COMMENT ON COLUMN inventory_balances.wh_id IS 'Warehouse; references warehouses';
COMMENT ON COLUMN inventory_balances.prod_id IS 'Product; references products';
COMMENT ON COLUMN product_lots.lot_id IS 'Primary key of the product lot';
COMMENT ON COLUMN product_lots.product_id IS 'Product; references products';
COMMENT ON COLUMN product_lots.lot_no IS 'Lot / batch number';
COMMENT ON COLUMN product_lots.supplier_id IS 'Supplier; references suppliers';
COMMENT ON COLUMN product_lots.manufactured_on IS 'Manufacturing date';
COMMENT ON COLUMN product_lots.expires_on IS 'Expiry date; NULL when the product does not expire';
COMMENT ON COLUMN product_lots.qty IS 'Quantity';
COMMENT ON COLUMN stock_movements.movement_id IS 'Primary key of the stock movement';
COMMENT ON COLUMN stock_movements.product_id IS 'Product; references products';
COMMENT ON COLUMN stock_movements.wh_id IS 'Warehouse; references warehouses';
COMMENT ON COLUMN stock_movements.moved_on IS 'Movement date';
COMMENT ON COLUMN stock_movements.reference IS 'Source document number';
COMMENT ON COLUMN stock_movements.emp_id IS 'Employee; references employees';
COMMENT ON COLUMN stock_counts.count_id IS 'Primary key of the stock count';
COMMENT ON COLUMN stock_counts.wh_id IS 'Warehouse; references warehouses';
COMMENT ON COLUMN stock_counts.product_id IS 'Product; references products';
COMMENT ON COLUMN stock_counts.counted_on IS 'Count date';
COMMENT ON COLUMN stock_counts.system_qty IS 'Quantity the system expected';
COMMENT ON COLUMN stock_counts.counted_qty IS 'Quantity physically counted';
COMMENT ON COLUMN stock_counts.counted_by IS 'Employee who counted; references employees';
COMMENT ON COLUMN sales_territories.territory_id IS 'Primary key of the sales territory';
COMMENT ON COLUMN sales_territories.territory_name IS 'Territory name';
COMMENT ON COLUMN sales_territories.region_code IS 'Region; references regions';
COMMENT ON COLUMN sales_territories.manager_emp_id IS 'Manager (employee); references employees';
COMMENT ON COLUMN sales_reps.emp_id IS 'Employee; references employees';
COMMENT ON COLUMN sales_reps.territory_id IS 'Sales territory; references sales_territories';
COMMENT ON COLUMN sales_reps.commission_pct IS 'Commission rate in percent';
COMMENT ON COLUMN customers.customer_id IS 'Primary key of the customer';
COMMENT ON COLUMN customers.customer_name IS 'Customer company name';
COMMENT ON COLUMN customers.industry_code IS 'Industry; references industries';
COMMENT ON COLUMN customers.country_code IS 'Country; references countries';
COMMENT ON COLUMN customers.city IS 'City';
COMMENT ON COLUMN customers.territory_id IS 'Sales territory; references sales_territories';
COMMENT ON COLUMN customers.term_code IS 'Payment term; references payment_terms';
COMMENT ON COLUMN customers.created_on IS 'Date created';
COMMENT ON COLUMN customer_contacts.contact_id IS 'Primary key of the customer contact';
COMMENT ON COLUMN customer_contacts.customer_id IS 'Customer; references customers';
COMMENT ON COLUMN customer_contacts.full_name IS 'Full name of the person';
COMMENT ON COLUMN customer_contacts.job_role IS 'Job role of the contact';
COMMENT ON COLUMN customer_contacts.email IS 'E-mail address';
COMMENT ON COLUMN customer_contacts.language_code IS 'Language; references languages';
COMMENT ON COLUMN customer_contacts.is_primary IS 'Main contact of the company';
COMMENT ON COLUMN price_lists.price_list_id IS 'Primary key of the price list';
COMMENT ON COLUMN price_lists.name IS 'Name';
COMMENT ON COLUMN price_lists.currency_code IS 'Currency; references currencies';
COMMENT ON COLUMN price_lists.valid_from IS 'First day of validity';
COMMENT ON COLUMN price_lists.valid_to IS 'Last day of validity; NULL if open-ended';
COMMENT ON COLUMN price_list_items.price_list_id IS 'Price list; references price_lists';
COMMENT ON COLUMN price_list_items.product_id IS 'Product; references products';
COMMENT ON COLUMN price_list_items.unit_price IS 'Unit price in USD';
COMMENT ON COLUMN leads.lead_id IS 'Primary key of the lead';
COMMENT ON COLUMN leads.company_name IS 'Company name of the lead';
COMMENT ON COLUMN leads.contact_name IS 'Contact person of the lead';
COMMENT ON COLUMN leads.owner_emp_id IS 'Owner (employee); references employees';
COMMENT ON COLUMN leads.country_code IS 'Country; references countries';
COMMENT ON COLUMN leads.created_on IS 'Date created';
COMMENT ON COLUMN leads.converted_customer_id IS 'Customer; references customers';
COMMENT ON COLUMN opportunities.opp_id IS 'Primary key of the opportunity (deal)';
COMMENT ON COLUMN opportunities.opp_name IS 'Opportunity name';
COMMENT ON COLUMN opportunities.customer_id IS 'Customer; references customers';
COMMENT ON COLUMN opportunities.owner_emp_id IS 'Owner (employee); references employees';
COMMENT ON COLUMN opportunities.created_on IS 'Date created';
COMMENT ON COLUMN opportunities.expected_close IS 'Expected close date';
COMMENT ON COLUMN opportunities.closed_on IS 'Date closed';
COMMENT ON COLUMN quotes.quote_id IS 'Primary key of the quote';
COMMENT ON COLUMN quotes.quote_no IS 'Quote number, e.g. Q-000001';
COMMENT ON COLUMN quotes.opp_id IS 'Opportunity (deal); references opportunities';
COMMENT ON COLUMN quotes.customer_id IS 'Customer; references customers';
COMMENT ON COLUMN quotes.quoted_on IS 'Quote date';
COMMENT ON COLUMN quotes.valid_until IS 'Quote expiry date';
COMMENT ON COLUMN quotes.total_amount IS 'Total amount in USD';
COMMENT ON COLUMN quote_lines.quote_id IS 'Quote; references quotes';
COMMENT ON COLUMN quote_lines.line_no IS 'Line number within the document';
COMMENT ON COLUMN quote_lines.product_id IS 'Product; references products';
COMMENT ON COLUMN quote_lines.qty IS 'Quantity';
COMMENT ON COLUMN quote_lines.unit_price IS 'Unit price in USD';
COMMENT ON COLUMN sales_orders.so_id IS 'Primary key of the sales order';
COMMENT ON COLUMN sales_orders.customer_id IS 'Customer; references customers';
COMMENT ON COLUMN sales_orders.quote_id IS 'Quote; references quotes';
COMMENT ON COLUMN sales_orders.sales_rep_id IS 'Employee; references employees';
COMMENT ON COLUMN sales_orders.order_date IS 'Order date';
COMMENT ON COLUMN sales_orders.requested_ship_date IS 'Date the customer wants delivery';
COMMENT ON COLUMN sales_orders.currency_code IS 'Currency; references currencies';
COMMENT ON COLUMN sales_orders.incoterm IS 'Incoterm; references incoterms';
COMMENT ON COLUMN sales_order_lines.so_id IS 'Sales order; references sales_orders';
COMMENT ON COLUMN sales_order_lines.line_no IS 'Line number within the document';
COMMENT ON COLUMN sales_order_lines.product_id IS 'Product; references products';
COMMENT ON COLUMN sales_order_lines.qty IS 'Quantity';
COMMENT ON COLUMN sales_order_lines.unit_price IS 'Unit price in USD';
COMMENT ON COLUMN shipments.shipment_id IS 'Primary key of the shipment';
COMMENT ON COLUMN shipments.so_id IS 'Sales order; references sales_orders';
COMMENT ON COLUMN shipments.wh_id IS 'Warehouse; references warehouses';
COMMENT ON COLUMN shipments.shipped_on IS 'Ship date';
COMMENT ON COLUMN shipments.delivered_on IS 'Delivery date; NULL while in transit';
COMMENT ON COLUMN shipments.tracking_no IS 'Carrier tracking number';
COMMENT ON COLUMN shipment_lines.shipment_id IS 'Shipment; references shipments';
COMMENT ON COLUMN shipment_lines.so_id IS 'So id';
COMMENT ON COLUMN shipment_lines.so_line_no IS 'So line no';
COMMENT ON COLUMN shipment_lines.qty_shipped IS 'Quantity shipped';
COMMENT ON COLUMN sales_returns.return_id IS 'Primary key of the sales return';
COMMENT ON COLUMN sales_returns.rma_no IS 'Return authorisation number';
COMMENT ON COLUMN sales_returns.so_id IS 'Sales order; references sales_orders';
COMMENT ON COLUMN sales_returns.product_id IS 'Product; references products';
COMMENT ON COLUMN sales_returns.qty IS 'Quantity';
COMMENT ON COLUMN sales_returns.returned_on IS 'Date returned';
COMMENT ON COLUMN sales_returns.restocked IS 'Returned goods were put back into stock';
COMMENT ON COLUMN projects.project_id IS 'Primary key of the project';
COMMENT ON COLUMN projects.project_code IS 'Project code, e.g. PRJ-0001';
COMMENT ON COLUMN projects.project_name IS 'Project name';
COMMENT ON COLUMN projects.dept_id IS 'Department; references departments';
COMMENT ON COLUMN projects.start_date IS 'Start date';
COMMENT ON COLUMN projects.end_date IS 'End date';
COMMENT ON COLUMN project_members.project_id IS 'Project; references projects';
COMMENT ON COLUMN project_members.emp_id IS 'Employee; references employees';
COMMENT ON COLUMN project_members.project_role IS 'Role in the project';
COMMENT ON COLUMN project_members.joined_on IS 'Date the employee joined the project';
COMMENT ON COLUMN project_milestones.milestone_id IS 'Primary key of the project milestone';
COMMENT ON COLUMN project_milestones.project_id IS 'Project; references projects';
COMMENT ON COLUMN project_milestones.name IS 'Name';
COMMENT ON COLUMN project_milestones.due_date IS 'Due date';
COMMENT ON COLUMN project_milestones.completed_on IS 'Completion date';
COMMENT ON COLUMN project_milestones.billing_amt IS 'Amount invoiced when the milestone is reached';
COMMENT ON COLUMN project_tasks.task_id IS 'Primary key of the project task';
COMMENT ON COLUMN project_tasks.project_id IS 'Project; references projects';
COMMENT ON COLUMN project_tasks.milestone_id IS 'Project milestone; references project_milestones';
COMMENT ON COLUMN project_tasks.task_name IS 'Task name';
COMMENT ON COLUMN project_tasks.assignee_emp_id IS 'Assigned employee; references employees';
COMMENT ON COLUMN project_tasks.priority IS 'Priority';
COMMENT ON COLUMN project_tasks.est_hours IS 'Estimated effort in hours';
COMMENT ON COLUMN project_tasks.due_date IS 'Due date';
COMMENT ON COLUMN timesheets.timesheet_id IS 'Primary key of the timesheet';
COMMENT ON COLUMN timesheets.emp_id IS 'Employee; references employees';
COMMENT ON COLUMN timesheets.project_id IS 'Project; references projects';
COMMENT ON COLUMN timesheets.task_id IS 'Project task; references project_tasks';
COMMENT ON COLUMN timesheets.work_date IS 'Day the work was done';
COMMENT ON COLUMN timesheets.hours IS 'Hours worked';
COMMENT ON COLUMN timesheets.is_billable IS 'Hours can be billed to the customer';
COMMENT ON COLUMN timesheets.approved IS 'Approved by the manager';
COMMENT ON COLUMN project_expenses.expense_id IS 'Primary key of the project expense';
COMMENT ON COLUMN project_expenses.project_id IS 'Project; references projects';
COMMENT ON COLUMN project_expenses.emp_id IS 'Employee; references employees';
COMMENT ON COLUMN project_expenses.incurred_on IS 'Date of the expense';
COMMENT ON COLUMN project_expenses.amount IS 'Amount in USD';
COMMENT ON COLUMN project_risks.risk_id IS 'Primary key of the project risk';
COMMENT ON COLUMN project_risks.project_id IS 'Project; references projects';
COMMENT ON COLUMN project_risks.description IS 'Description';
COMMENT ON COLUMN project_risks.severity IS 'Severity';
COMMENT ON COLUMN project_risks.owner_emp_id IS 'Owner (employee); references employees';
COMMENT ON COLUMN project_risks.raised_on IS 'Date the risk was raised';
COMMENT ON COLUMN project_status_reports.report_id IS 'Primary key of the project status report';
COMMENT ON COLUMN project_status_reports.project_id IS 'Project; references projects';
COMMENT ON COLUMN project_status_reports.report_date IS 'Report date (month end)';
COMMENT ON COLUMN project_status_reports.pct_complete IS 'Percent complete';
COMMENT ON COLUMN project_status_reports.author_emp_id IS 'Report author (employee); references employees';
COMMENT ON COLUMN invoices.invoice_id IS 'Primary key of the customer invoice';
COMMENT ON COLUMN invoices.invoice_no IS 'Invoice number, e.g. INV-000001';
COMMENT ON COLUMN invoices.customer_id IS 'Customer; references customers';
COMMENT ON COLUMN invoices.so_id IS 'Sales order; references sales_orders';
COMMENT ON COLUMN invoices.project_id IS 'Project; references projects';
COMMENT ON COLUMN invoices.invoice_date IS 'Invoice date';
COMMENT ON COLUMN invoices.due_date IS 'Due date';
COMMENT ON COLUMN invoices.currency_code IS 'Currency; references currencies';
COMMENT ON COLUMN invoices.tax_code IS 'Tax code; references tax_codes';
COMMENT ON COLUMN invoice_lines.invoice_id IS 'Customer invoice; references invoices';
COMMENT ON COLUMN invoice_lines.line_no IS 'Line number within the document';
COMMENT ON COLUMN invoice_lines.product_id IS 'Product; references products';
COMMENT ON COLUMN invoice_lines.description IS 'Description';
COMMENT ON COLUMN invoice_lines.qty IS 'Quantity';
COMMENT ON COLUMN invoice_lines.unit_price IS 'Unit price in USD';
COMMENT ON COLUMN customer_payments.payment_id IS 'Primary key of the customer payment';
COMMENT ON COLUMN customer_payments.invoice_id IS 'Customer invoice; references invoices';
COMMENT ON COLUMN customer_payments.customer_id IS 'Customer; references customers';
COMMENT ON COLUMN customer_payments.paid_on IS 'Payment date';
COMMENT ON COLUMN customer_payments.amount IS 'Amount in USD';
COMMENT ON COLUMN customer_payments.bank_account_id IS 'Bank account; references bank_accounts';
COMMENT ON COLUMN supplier_invoices.sinv_id IS 'Primary key of the supplier invoice';
COMMENT ON COLUMN supplier_invoices.supplier_id IS 'Supplier; references suppliers';
COMMENT ON COLUMN supplier_invoices.po_id IS 'Purchase order; references purchase_orders';
COMMENT ON COLUMN supplier_invoices.tax_amt IS 'Tax amount in USD';
COMMENT ON COLUMN supplier_payments.spay_id IS 'Primary key of the supplier payment';
COMMENT ON COLUMN supplier_payments.sinv_id IS 'Supplier invoice; references supplier_invoices';
COMMENT ON COLUMN supplier_payments.bank_account_id IS 'Bank account; references bank_accounts';
COMMENT ON COLUMN expense_reports.report_id IS 'Primary key of the expense report';
COMMENT ON COLUMN expense_reports.emp_id IS 'Employee; references employees';
COMMENT ON COLUMN expense_reports.submitted_on IS 'Submission date';
COMMENT ON COLUMN expense_reports.approved_by IS 'Employee who approved; references employees';
COMMENT ON COLUMN expense_reports.total_amount IS 'Total amount in USD';
COMMENT ON COLUMN expense_reports.cc_id IS 'Cost center; references cost_centers';
COMMENT ON COLUMN expense_lines.report_id IS 'Expense report; references expense_reports';
COMMENT ON COLUMN expense_lines.line_no IS 'Line number within the document';
COMMENT ON COLUMN expense_lines.expense_date IS 'Date of the receipt';
COMMENT ON COLUMN expense_lines.amount IS 'Amount in USD';
COMMENT ON COLUMN expense_lines.currency_code IS 'Currency; references currencies';
COMMENT ON COLUMN project_billing.project_id IS 'Project; references projects';
COMMENT ON COLUMN project_billing.invoice_id IS 'Customer invoice; references invoices';
COMMENT ON COLUMN project_billing.milestone_id IS 'Project milestone; references project_milestones';
COMMENT ON COLUMN project_billing.billed_amt IS 'Amount billed in USD';
COMMENT ON COLUMN asset_categories.asset_category_id IS 'Primary key of the asset category';
COMMENT ON COLUMN asset_categories.name IS 'Name';
COMMENT ON COLUMN asset_categories.useful_life_years IS 'Depreciation period in years';
COMMENT ON COLUMN asset_categories.gl_acct_id IS 'GL account; references gl_accounts';
COMMENT ON COLUMN fixed_assets.asset_id IS 'Primary key of the fixed asset';
COMMENT ON COLUMN fixed_assets.description IS 'Description';
COMMENT ON COLUMN fixed_assets.asset_category_id IS 'Asset category; references asset_categories';
COMMENT ON COLUMN fixed_assets.location_id IS 'Office location; references office_locations';
COMMENT ON COLUMN fixed_assets.cc_id IS 'Cost center; references cost_centers';
COMMENT ON COLUMN fixed_assets.supplier_id IS 'Supplier; references suppliers';
COMMENT ON COLUMN fixed_assets.condition IS 'Condition';
COMMENT ON COLUMN asset_depreciation.asset_id IS 'Fixed asset; references fixed_assets';
COMMENT ON COLUMN asset_depreciation.period_end IS 'End of the depreciation year';
COMMENT ON COLUMN asset_assignments.assignment_id IS 'Primary key of the asset assignment';
COMMENT ON COLUMN asset_assignments.asset_id IS 'Fixed asset; references fixed_assets';
COMMENT ON COLUMN asset_assignments.emp_id IS 'Employee; references employees';
COMMENT ON COLUMN asset_assignments.assigned_on IS 'Hand-over date';
COMMENT ON COLUMN asset_assignments.returned_on IS 'Date returned';
COMMENT ON COLUMN maintenance_orders.mo_id IS 'Primary key of the maintenance order';
COMMENT ON COLUMN maintenance_orders.asset_id IS 'Fixed asset; references fixed_assets';
COMMENT ON COLUMN maintenance_orders.opened_on IS 'Date opened';
COMMENT ON COLUMN maintenance_orders.closed_on IS 'Date closed';
COMMENT ON COLUMN maintenance_orders.priority IS 'Priority';
COMMENT ON COLUMN maintenance_orders.technician_emp_id IS 'Technician (employee); references employees';
COMMENT ON COLUMN maintenance_orders.cost IS 'Cost';
COMMENT ON COLUMN asset_disposals.disposal_id IS 'Primary key of the asset disposal';
COMMENT ON COLUMN asset_disposals.asset_id IS 'Fixed asset; references fixed_assets';
COMMENT ON COLUMN asset_disposals.disposed_on IS 'Disposal date';
COMMENT ON COLUMN asset_disposals.proceeds IS 'Sale proceeds in USD';
COMMENT ON COLUMN asset_disposals.approved_by IS 'Employee who approved; references employees';
COMMENT ON COLUMN vehicles.asset_id IS 'Fixed asset; references fixed_assets';
COMMENT ON COLUMN vehicles.plate_no IS 'License plate';
COMMENT ON COLUMN vehicles.make IS 'Vehicle make';
COMMENT ON COLUMN vehicles.model IS 'Vehicle model';
COMMENT ON COLUMN vehicles.odometer_km IS 'Odometer reading in km';
COMMENT ON COLUMN software_licenses.license_id IS 'Primary key of the software license';
COMMENT ON COLUMN software_licenses.product_name IS 'Product name';
COMMENT ON COLUMN software_licenses.supplier_id IS 'Supplier; references suppliers';
COMMENT ON COLUMN software_licenses.seats IS 'Number of licensed seats';
COMMENT ON COLUMN software_licenses.annual_cost IS 'Yearly cost in USD';
COMMENT ON COLUMN software_licenses.renewal_date IS 'Next renewal date';
COMMENT ON COLUMN software_licenses.owner_dept_id IS 'Department; references departments';

-- ===================== Views =====================
CREATE VIEW v_employee_directory AS
SELECT e.emp_id, e.emp_no, e.first_name || ' ' || e.last_name AS full_name, e.email,
       d.dept_name, j.title AS job_title, l.city AS office_city, e.status
FROM employees e
JOIN departments d ON d.dept_id = e.dept_id
JOIN job_titles j ON j.job_title_id = e.job_title_id
LEFT JOIN office_locations l ON l.location_id = e.location_id;
COMMENT ON VIEW v_employee_directory IS 'Employee directory: name, department, title, office';

CREATE VIEW v_customer_revenue AS
SELECT c.customer_id, c.customer_name, c.segment, c.country_code,
       count(so.so_id) AS order_count, coalesce(sum(so.total_amount), 0) AS revenue
FROM customers c
LEFT JOIN sales_orders so ON so.customer_id = c.customer_id AND so.status <> 'Cancelled'
GROUP BY c.customer_id, c.customer_name, c.segment, c.country_code;
COMMENT ON VIEW v_customer_revenue IS 'Revenue per customer over all non-cancelled sales orders';

CREATE VIEW v_inventory_valuation AS
SELECT w.wh_cd, w.wh_name, p.sku, p.product_name, ib.qty_oh, p.std_cost,
       ib.qty_oh * p.std_cost AS stock_value
FROM inventory_balances ib
JOIN warehouses w ON w.wh_id = ib.wh_id
JOIN products p ON p.product_id = ib.prod_id;
COMMENT ON VIEW v_inventory_valuation IS 'Stock value (on hand x standard cost) per warehouse and product';
