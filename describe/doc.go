// Package describe says in plain English what a SQL query returns, so that
// a person can check that the query answers their question without
// reading SQL. It is deterministic: the words come from the query's parse
// tree and the identifiers' glosses, never from a model.
//
//	d, err := describe.SQL(`SELECT d.dept_name, count(*) FROM employees e
//		JOIN departments d ON d.dept_id = e.dept_id
//		WHERE e.status = 'Active' GROUP BY d.dept_name ORDER BY 2 DESC LIMIT 3`)
//	fmt.Println(d.Text)
//	// For each department name, counts employees, joined with departments,
//	// where employee status is 'Active', sorted by the number of employees
//	// (highest first), top 3.
//
// # What the sentence says
//
// The sentence follows the query's clauses in the order a reader checks
// them: what is grouped ("for each department name"), what is computed
// ("counts employees", "computes the sum of total amount", "lists the
// name and email of customers"), from which tables and joins, which rows
// count ("where order date is in 2024"), which groups are kept ("keeping
// only groups where..."), the order ("sorted by ... (highest first)") and
// the limit ("top 5"). Output aliases are not trusted: a column named
// active_employees that counts every employee reads "the number of
// employees", so that a wrong query cannot hide behind a right name.
//
// Identifiers become words with a gloss.Glosser (default gloss.Words, so
// "tot_amt" reads "total amount"; WithGlosser changes it), and an
// abbreviation the glosser expands reads as the word of the column's
// table it begins: doc_id of doctors is the "doctor id", of documents
// the "document id". A generic
// column of a query over several tables is qualified by its table
// ("region name", "sales order status"), and a table read twice is named
// by the column it is joined on ("employees m ON m.emp_id = e.manager_id"
// is the manager, so m.first_name reads "manager first name").
//
// Conditions read as clauses: comparisons ("is", "is not", "is less
// than", "is before" for dates), IN lists ("is 'Open' or 'Overdue'",
// "is neither ... nor ..."), LIKE ("starts with", "contains"), IS NULL
// ("is not set"), boolean columns ("active is true"), AND, OR and NOT.
// A lower and an upper date bound on one column make one range: order_date
// >= DATE '2024-01-01' AND order_date < DATE '2025-01-01' reads "order
// date is in 2024" (also a month or a quarter). Subqueries are said
// briefly: "there is no sales order with the same customer id whose order
// date is in 2025", "stock value is greater than the average stock value
// of "value per warehouse"", "customer id is among the customer ids of
// ...". Aggregates read "the number of", "the number of distinct", "the
// total", "the average", "the lowest", "the highest"; FILTER adds "where
// ..."; 100 * a / b reads "a as a percentage of b"; window functions read
// "the rank by base salary (highest first) within each department id".
//
// WITH steps are named in quotes and described after the final query,
// one sentence each; UNION, INTERSECT and EXCEPT describe each branch.
//
// # A help, not a gate
//
// SQL fails only on SQL that does not parse or is not one query
// (ErrInvalid). Anything it has no words for is described generally ("an
// expression", "the results of a subquery"), never refused: a description
// helps a reader, the validator decides what runs.
//
// Besides Text, a Description has the same parts as fields (Columns,
// Measures, Tables, Joins, Filters, GroupBy, Having, Order, Limit...), for
// a program that lays them out its own way; they marshal to JSON.
//
// The golden file testdata/erp.golden holds the question and the
// description of the gold SQL of every question of the demo ERP exam
// (examples/erp); review its diff after
//
//	go test ./describe -run TestERPGolden -update
package describe
