package erp

import "slices"

// Module names. Common holds the shared reference tables, which stay in
// schema public in division mode.
const (
	ModuleCommon      = "Common"
	ModuleHR          = "HR"
	ModuleFinance     = "Finance"
	ModuleSales       = "Sales"
	ModuleInventory   = "Inventory"
	ModuleProcurement = "Procurement"
	ModuleProjects    = "Projects"
	ModuleAssets      = "Assets"
)

var modules = map[string][]string{
	ModuleCommon: {"regions", "currencies", "countries", "exchange_rates", "units_of_measure", "languages",
		"time_zones", "calendar_dates", "payment_terms", "tax_codes", "industries", "incoterms"},
	ModuleHR: {"office_locations", "job_titles", "departments", "employees", "salary_history", "payroll_runs",
		"payroll_lines", "leave_types", "leave_requests", "performance_reviews", "training_courses",
		"training_enrollments", "benefit_plans", "emp_bnft", "v_employee_directory"},
	ModuleFinance: {"cost_centers", "gl_accounts", "gl_account_map", "bank_accounts", "budgets", "journal_entries",
		"gl_journal_lines", "invoices", "invoice_lines", "customer_payments", "supplier_invoices",
		"supplier_payments", "expense_reports", "expense_lines"},
	ModuleSales: {"sales_territories", "sales_reps", "customers", "customer_contacts", "price_lists",
		"price_list_items", "leads", "opportunities", "quotes", "quote_lines", "sales_orders",
		"sales_order_lines", "shipments", "shipment_lines", "sales_returns", "v_customer_revenue"},
	ModuleInventory: {"product_categories", "products", "warehouses", "bin_locations", "inventory_balances",
		"product_lots", "stock_movements", "stock_counts", "v_inventory_valuation"},
	ModuleProcurement: {"suppliers", "supplier_contacts", "supplier_contracts", "supplier_evaluations",
		"product_suppliers", "purchase_requisitions", "requisition_lines", "purchase_orders",
		"purchase_order_lines", "goods_receipts", "goods_receipt_lines"},
	ModuleProjects: {"projects", "project_members", "project_milestones", "project_tasks", "timesheets",
		"project_expenses", "project_risks", "project_status_reports", "project_billing"},
	ModuleAssets: {"asset_categories", "fixed_assets", "asset_depreciation", "asset_assignments",
		"maintenance_orders", "asset_disposals", "vehicles", "software_licenses"},
}

// ModuleNames returns the eight module names, Common first.
func ModuleNames() []string {
	return []string{ModuleCommon, ModuleHR, ModuleFinance, ModuleSales, ModuleInventory,
		ModuleProcurement, ModuleProjects, ModuleAssets}
}

// Modules returns module name -> unqualified relation names (tables and
// views; the yearly partitions of gl_journal_lines are left out). Common
// relations live in public; the others in public (single mode) or in every
// division schema. The result is a fresh copy.
func Modules() map[string][]string {
	out := make(map[string][]string, len(modules))
	for m, ts := range modules {
		out[m] = slices.Clone(ts)
	}
	return out
}

// ModuleOf returns the module of a relation name (unqualified), or "".
func ModuleOf(table string) string {
	for m, ts := range modules {
		if slices.Contains(ts, table) {
			return m
		}
	}
	return ""
}
