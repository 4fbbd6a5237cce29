// Package semantic reads a semantic model: what a business has defined over
// the tables of its database, so that "revenue" or "active customer" is
// computed the same way every time and the questions analysts ask again
// are answered from SQL someone has verified.
//
//	m, err := semantic.Load("semantic.yaml")       // the file's shape; errors with file:line
//	err = m.Check(catalog, validator)              // names against the catalog, expressions through the policy
//	d, err := m.Definition("revenue")              // SQL to reuse: d.Expr, d.Tables, d.Query
//	sql, args, err := q.Bind(map[string]string{"year": "2024"}) // a verified question, $n and args
//	m, report, err := semantic.ImportDBT(catalog, "path/to/dbt/project")
//
// # The file
//
// YAML, version 1. Unknown keys are errors (a misspelt key would otherwise
// silently drop a definition). Names of measures, filters and metrics are
// lower-case identifiers and share one namespace; dimension names are
// unique within their entity. A complete example (the demo ERP ships a
// larger one, examples/erp/semantic.yaml):
//
//	version: 1
//	entities:
//	  - name: sales_orders             # a logical name
//	    table: sales_orders            # "table" or "schema.table"; default: name
//	    description: Customer sales orders, totals in USD.
//	    synonyms: [orders, bookings]
//	    dimensions:                    # to group or filter by
//	      - name: status               # expr defaults to the name
//	      - name: currency
//	        expr: currency_code
//	    time_dimensions:
//	      - name: order_date
//	        grain: day                 # day, week, month, quarter, year
//	    filters:                       # named conditions
//	      - name: not_cancelled_order
//	        expr: status <> 'Cancelled'
//	        synonyms: [valid order]
//	    measures:                      # agg(expr) FILTER (WHERE filter)
//	      - name: revenue
//	        expr: total_amount
//	        agg: sum                   # sum, count, count_distinct, avg, min, max, median
//	        filter: not_cancelled_order  # a named filter of the entity, or an expression
//	        synonyms: [turnover]
//	      - name: order_count
//	        agg: count                 # no expr: count(*)
//	        filter: not_cancelled_order
//	relationships:                     # join paths no foreign key declares
//	  - name: order_calendar
//	    from: sales_orders
//	    from_columns: [order_date]
//	    to: calendar_dates
//	    to_columns: [cal_date]
//	    kind: many_to_one              # default; or one_to_one, one_to_many
//	metrics:
//	  - name: average_order_value
//	    type: ratio                    # numerator / NULLIF(denominator, 0)
//	    numerator: revenue
//	    denominator: order_count
//	  - name: revenue_per_order_k
//	    type: derived                  # identifiers name measures or metrics
//	    expr: round(average_order_value / 1000, 1)
//	verified_questions:
//	  - question: What is our total revenue?
//	    sql: SELECT sum(total_amount) FROM sales_orders WHERE status <> 'Cancelled'
//	  - question: Top {n} customers by revenue in {year}
//	    sql: |
//	      SELECT c.customer_name, sum(o.total_amount) AS revenue
//	      FROM sales_orders o JOIN customers c USING (customer_id)
//	      WHERE o.status <> 'Cancelled' AND extract(year FROM o.order_date) = {year}
//	      GROUP BY c.customer_id, c.customer_name ORDER BY revenue DESC LIMIT {n}
//	    parameters:
//	      - {name: n, kind: top_n, examples: ["5", "10"]}
//	      - {name: year, kind: year, examples: ["2024"]}
//	  - question: How many {segment} customers ordered between {period}?
//	    sql: |
//	      SELECT count(DISTINCT o.customer_id) FROM sales_orders o JOIN customers c USING (customer_id)
//	      WHERE c.segment = {segment} AND o.order_date >= {period.from} AND o.order_date < {period.to}
//	    parameters:
//	      - {name: segment, kind: value, column: customers.segment, examples: [Enterprise]}
//	      - {name: period, kind: date_range, examples: ["2024-01-01/2024-04-01"]}
//
// # Parameters
//
// A slot is {name} in the question and in the SQL; a date range is
// {name} in the question and {name.from}, {name.to} in the SQL (to is
// exclusive). Kinds and the values they take (examples are text): year
// ("2024", bound as an int), date_range ("2024-01-01/2024-04-01", two
// dates), value (a stored value of column "table.column", bound as text),
// top_n (1..MaxTopN, an int). Every parameter declares at least one
// example; every slot names a parameter and every parameter has its slots
// in both texts. Slots stand where a value goes, never inside a string
// literal, a quoted name or a comment (Check scans the SQL to make sure),
// and Bind turns them into query parameters ($1, $2, ...): a value is
// never spliced into the SQL text.
//
// Match reads a question as a verified question: the same words,
// lower-case without surrounding punctuation, apart from the slots, each
// taking one to eight words of its kind (ParseDateRange for periods,
// "q1 2024", "march 2024", "2024-01-01 and 2024-03-31"; number words up
// to twenty for N; a Values callback for stored values); it returns every
// reading, so that a caller can refuse to guess between two. CheckShape
// checks a verified question without a catalog (a template taught at run
// time).
//
// # What Check decides
//
// Every name resolves against the catalog: the entities' and
// relationships' tables and columns, the columns of value parameters, the
// tables and columns of every expression and verified query (a validator
// built from the catalog's tables and columns: an unknown column is L009,
// an unknown table V012, reported as ErrUnknownName), and the measures and
// metrics a metric names. Every expression must be exactly one SQL
// expression, decided on the parse tree: a text that closes its
// parenthesis, adds a clause, a UNION or a statement, or holds a comment
// would change the queries it is pasted into (ErrInvalid). Then the
// caller's validator, the same safety policy the engine applies, judges
// each expression wrapped in the query that uses it (a measure as SELECT
// agg(expr) FILTER (WHERE filter) FROM its table, a filter as a WHERE, a
// dimension as a SELECT item, a metric over its measures' tables) and each
// verified query with every declared example inlined as literals: a
// refusal is ErrUnsafe with the validator's code (a pg_sleep in a measure
// is V010, however it is spelt). Check does not touch the database; the
// server's own resolution is checked when the engine runs a query
// (validate.CheckPlan).
//
// # How the engine uses the model
//
// nl2sql.WithSemantic gives an Engine a model; the engine checks its own
// copy at every build and then uses it at each stage of a question:
//
//   - Retrieval and linking: Vocabulary's terms join the glossary. An
//     entity's synonyms mean its table; a measure's, named filter's and
//     metric's name and synonyms mean the columns its expression reads (its
//     table for count(*)); a dimension's synonyms its columns. "turnover"
//     retrieves sales_orders and links to total_amount, though no name of
//     the schema says it.
//   - Links: the measures, filters, dimensions and metrics the question
//     names, by name (as words: "order count") or synonym, singular or
//     plural, are SchemaContext.Semantic (Model.Links, each a Link). Of overlapping phrases the
//     longest wins ("average order value" is the metric, not the measure
//     inside it); a dimension counts when its table is in the context
//     ("status" is a dimension of many entities), and any definition only
//     when every table it reads is (a scoped request never hears of
//     another tenant's measure).
//   - The prompt: a Definitions section shows exactly those (Link.Line),
//     as SQL to reuse ("measure revenue on public.sales_orders: sum(total_amount)
//     FILTER (WHERE status <> 'Cancelled') -- description"), and a rule
//     asks the model to compute them as defined. A question naming none
//     gets neither.
//   - Scoring and confidence: Deviations judges each candidate, on its
//     parse tree, against every measure the question names: does some
//     aggregate apply the measure's aggregation to its expression over its
//     table, with every conjunct of its filter among its conditions (the
//     aggregate's FILTER, a CASE WHEN inside it, the WHERE or a JOIN's ON
//     of its SELECT, a CTE or subquery narrowing the table)? Aliases,
//     qualification, quoting, case, commuted terms and the like do not
//     matter. A candidate that deviates (score.Candidate.Deviations) loses
//     as much score as a fan-out trap, more than two votes of three give,
//     so one that follows the definition wins when a sample offers it; the
//     answer's Reasons name the measure ("the query computes revenue
//     without its filter status <> 'Cancelled'") and its confidence is at
//     most 0.5 (uncertain at the default threshold): the definition is
//     what the question means.
//
// What it does not judge: metrics and named filters (only measures are
// compared; a metric's or filter's definition is in the prompt), queries
// that aggregate nothing (a list of rows computes no measure), and
// conditions written otherwise than the definition's conjuncts (status
// IN ('Draft', 'Shipped', ...) for status <> 'Cancelled' is a deviation).
// A question that overrides a definition on purpose ("revenue including
// cancelled orders") is flagged too: the reason says why.
//
// # Errors
//
// Read and Check return Errors, every problem found, sorted by line; each
// is an *Error with File, Line, Where (the item), Code (the validator's,
// when it decided) and a sentinel for errors.Is: ErrTooLarge (over
// MaxFileSize, checked before parsing), ErrSyntax, ErrInvalid,
// ErrUnknownName, ErrUnsafe, ErrParameter.
//
// # dbt
//
// ImportDBT reads a dbt project's MetricFlow YAML, the standalone spec of
// dbt 1.6 onwards (top-level semantic_models with model: ref('...'),
// entities, dimensions and measures; metrics of type simple, ratio and
// derived), for the semantic models whose table is in the catalog. A
// semantic model becomes an entity, a categorical or time dimension a
// dimension, a measure a measure (average as avg, sum_boolean as a sum of
// CASE, a 0.5 continuous percentile as median), a simple metric a measure
// with the metric's filter (Jinja {{ Dimension('entity__dim') }} and
// TimeDimension of the same semantic model translated to the column), a
// ratio or derived metric a metric (input aliases renamed), a foreign
// entity whose column has no foreign key to the primary entity's table a
// relationship. What cannot carry over is reported in DBTReport.Unmapped
// with file, line and reason, and left out: semantic models over tables
// the catalog lacks, semi-additive (non_additive_dimension) and other
// percentile measures, cumulative and conversion metrics, inputs with an
// offset or a filter of their own, filters naming another semantic model's
// dimensions, saved queries, the model-attached semantic_model blocks of
// dbt 1.12, and metrics depending on anything left out. Check the result:
// the import maps names, the policy judges the expressions.
//
// # The YAML library
//
// Files are read with go.yaml.in/yaml/v3, the maintained home of go-yaml
// (the YAML organisation took it over when gopkg.in/yaml.v3 was
// archived): the same decoder most Go YAML users already trust, with
// yaml.Node for line numbers, strict keys, and a guard against alias
// expansion bombs. The v4 line is newer and changes the API; v3 is the
// stable one.
package semantic
