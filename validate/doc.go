// Package validate decides whether a SQL text is one safe, read-only
// PostgreSQL query, lints it, rewrites its LIMIT, and asks the planner about
// candidates with EXPLAIN.
//
// Every decision is made on the libpg_query parse tree (pg_query_go), never
// on the text:
//
//	v := validate.New(
//		validate.WithTables(tables...),            // allowed relations (default: any non-system relation)
//		validate.WithSearchPath("div_01", "public"),
//		validate.WithMaxRows(1000),                // add/cap the outer LIMIT
//	)
//	res, err := v.Validate(sql)
//	if errors.Is(err, validate.ErrRejected) {
//		var ve *validate.Error
//		errors.As(err, &ve) // ve.Issues: every violation with Code, Message, Location
//	}
//	run(res.SQL) // always run res.SQL, never the input text
//
// # What is accepted
//
// Exactly one statement, a SELECT (WITH, set operations, VALUES, subqueries,
// LATERAL, window functions, ...). The whole tree is walked against an
// allow-list of node types: an unknown node type is rejected (CodeUnsupported),
// so new parser features fail closed. Data-modifying CTEs, SELECT INTO,
// locking clauses and utility statements anywhere are rejected.
//
// Functions must be on the allow-list (aggregates, window, math, string,
// date/time, JSON, arrays, regex, casts, pg_trgm/fuzzystrmatch/unaccent/pgvector
// functions), which WithFunctions extends and WithoutFunctions narrows.
// Functions with side effects or that run SQL from a string (pg_sleep,
// set_config, advisory locks, large objects, dblink, file access, signals,
// sequences, query_to_xml, ts_stat, ...) are denied whatever the options say,
// qualified or not, quoted or not. Operators must be built-in (or from
// pg_trgm, pgvector, earthdistance, hstore), never qualified with another
// schema than pg_catalog. CURRENT_USER, SESSION_USER, USER, CURRENT_ROLE,
// CURRENT_CATALOG and CURRENT_SCHEMA reveal the executing role and database
// and are refused unless WithFunctions names them.
//
// # Names are resolved, not matched
//
// PostgreSQL reads a field selection that names no column as a call of a
// one-argument function: t.f means f(t) and (x).f means f(x), so
// ('25 seconds'::interval).pg_sleep_for sleeps although the tree holds no
// function call. Every qualified column reference (t.c, s.t.c) and every
// field selection ((x).f) is therefore resolved against what it can name:
// the columns of the FROM items in scope (tables given WithTables with
// their Columns, CTEs with their column lists and SEARCH/CYCLE columns,
// subqueries, VALUES lists, joins with their aliases and USING columns, and
// functions in FROM, named as PostgreSQL names them: the alias, the
// function, OUT parameters or the column definition list), and the fields
// of rows whose fields are known (a whole-row reference, ROW(...),
// json_each(...), a cast to an allowed relation's row type). A name that is
// no column is refused: V010 when it names an always-denied function that
// takes one argument, V014 otherwise (its message reads like the server's
// 42703, so a misspelt column is repaired like one). A field selection on
// any other value is a function call and refused (V014). Where the columns
// are not known (a table given without Columns, or no WithTables at all),
// only the denied names are refused here, and the server's resolution
// decides (see CheckPlan): pass the columns for the static layer to decide.
//
// Every type name is checked too, in casts, typed literals, column
// definition lists and RETURNING clauses, scalar or array (T[] and _T),
// quoted, qualified or not: the types whose input looks names up in the
// catalogs (regclass, regproc, regprocedure, regoper, regoperator, regtype,
// regrole, regnamespace, regcollation) and aclitem are refused (V013;
// regconfig and regdictionary stay allowed for text search), so are the
// row types of system catalogs (V013) and of relations outside the allowed
// set or schemas (V012); with WithTables, a type that is neither built in,
// configured (WithTypes), a common extension type, nor an allowed relation's
// row type is refused (V016).
//
// A value can have a lookup type without any type name: pg_typeof returns a
// regtype, and PostgreSQL gives a string literal the type of what it is
// unified with, so in VALUES (pg_typeof(1)), ('div_02.bank_accounts') (or a
// UNION arm, a CASE or COALESCE branch, ARRAY[...], GREATEST, an IN list)
// the literal is read by regtype's input: it names another schema's
// relations and their OIDs and tells which exist. Rather than inferring the
// type of every VALUES column, CTE and subquery output, the rule is on where
// such a result may go: pg_typeof (and acldefault, where WithFunctions
// allows it) may only be the direct operand of a cast to text, varchar or
// char (pg_typeof(x)::text) or a direct argument of format, concat or
// concat_ws; anywhere else, t.pg_typeof and (x).pg_typeof included, it is
// refused (V013) unless WithSystemCatalogs(true). No other function of the
// default list returns a lookup type (checked against pg_proc).
//
// System columns are resolved like any column: xmin and xmax (the
// transaction ids of a row version: age(xmin) counts the transactions the
// cluster ran, what the denied txid_current() tells), cmin, cmax and
// tableoid are refused (V026) unless WithSystemColumns(true); ctid is
// allowed. Only a table or view reference has them: an unqualified name
// resolves level by level as PostgreSQL does (a CTE's, subquery's, VALUES
// list's or function's column named xmin is that column; a level with a
// table and no such column gives the system column), a qualified one
// (t.xmin, s.t.xmin, (t).xmin, (t.*).xmin) by its FROM item, and xmin(t)
// is functional notation for t.xmin; quoting and unicode escapes reach the
// tree as the plain name. ORDER BY xmin naming an output column is that
// column, as PostgreSQL reads it, and so is the column of a view given
// WithTables with a column named xmin (views may have one).
//
// Relations must be in the allowed set, with unqualified names resolved
// along the search path and CTE names shadowing tables in their scope only.
// WithSchemas keeps a request inside its schemas even without a table list.
// System catalogs, information_schema and statistics views are denied unless
// WithSystemCatalogs(true); relations holding secrets (pg_authid,
// pg_shadow, pg_user_mappings, pg_statistic, ...) always are.
//
// Resource guards prove a bound or refuse. generate_series needs bounds the
// validator can evaluate and may yield at most WithMaxGenerated rows,
// counted in float seconds (never time.Duration, which 2000 years in
// nanoseconds overflows), dates plus or minus integer days included; a date
// series over the data's range with a step of at least a day is allowed,
// with constant shifts of its bounds counted (V021). String-building calls
// (repeat, lpad, rpad, format with widths, replace, regexp_replace) may
// build at most WithMaxGenerated characters, computed through nested calls
// with constant counts, lengths and widths (a value from the data counts
// one); accumulating aggregates (string_agg, array_agg, json_agg,
// JSON_ARRAYAGG, ...) may collect built values of at most a hundredth of
// that, all of a query's together, a value of the data counting a
// thousandth (at most ten accumulating aggregates of data in one query).
// An aggregated value (an accumulating
// aggregate, ARRAY(subquery)) is as long as its rows wherever it flows
// (scalar subqueries, CTE and subquery columns, windows, repeat, format,
// concatenations): one may be wrapped, two in one value or an aggregate of
// aggregated values are refused, and an accumulating window aggregate needs
// a ROWS BETWEEN frame of constant bounds (V022). A recursive CTE needs a
// proof that it ends (V020): a column with a strictly monotone step (n + 1,
// n + -1 read as n - 1, d + INTERVAL '1 day', n * 2 from a positive literal
// seed; not abs(n) - 1, not a float seed) compared in the direction it
// moves, through casts to numbers and dates and unary minus (-n > -10 is
// n < 10), with a value fixed during the recursion, in WHERE or an inner
// join's ON (from a constant seed to a constant bound, both literals or
// both relative to now(), at most WithMaxGenerated steps); or a walk along a table's primary or unique key
// in which the key moves (ON t.id = r.parent_id with t.parent_id as the
// next parent_id, or ON t.parent_id = r.id with t.id as the next id). Every
// other relation of the recursive term must be joined on a unique key or
// yield one row, and the CTE must be a FROM item of its recursive term,
// not inside a subquery (WHERE true, ON true, random() >= 0, n = n, ...
// OR true, a join to VALUES or to a LATERAL copy of the column, a carried
// key bound nothing). More than WithMaxCrossJoin unconnected FROM groups
// are rejected, where only a join condition connects (not <>, not ON true,
// not ... OR true) and a LATERAL item is connected only to what its own
// conditions or arguments compare it with; accumulating aggregates over
// any product, or over a join without an equality of two relations'
// columns (a.id <= b.id), are rejected (V023). Residual: a float column of
// the data used as a counter's seed is not seen (1e300 + 1 is 1e300), and
// a key walk ends only on acyclic data; the executor's statement_timeout
// bounds both.
// Operators that do not check for interrupts (array && @> <@, jsonb @> <@
// ?| ?&, numeric % ^ * / and mod, power, div, factorial, gcd, lcm,
// pg_trgm's word_similarity and strict_word_similarity and their <% %>
// <<% %>> <<-> <->> <<<-> <->>> operators, translate, and btrim, ltrim,
// rtrim with a list of characters), which
// neither the statement timeout nor a cancel stops within one call, may not
// take a value the query collects or builds: an accumulating aggregate,
// ARRAY(subquery), a value of more than a hundredth of WithMaxGenerated
// characters, a power whose exponent is neither a constant of at most 1000
// nor a column of the data, or one of more than ten times that many digits
// (its base's times its exponent) (V028; operands.go).
// Beyond them, run the result with a statement_timeout (the executor does,
// and bounds memory and temporary files too).
//
// # Result SQL
//
// Result.SQL is always a text whose own parse tree passed every check:
//
//   - a query that needs no rewrite is returned as its own statement text
//     (without a trailing semicolon or what follows it), comments and
//     formatting kept;
//   - a query without LIMIT, when WithMaxRows is set, is parsed with
//     " LIMIT n" already appended (on a new line after a line comment), and
//     that text is what is checked and returned; the checks see the query
//     with the appended LIMIT detached, exactly as written;
//   - a LIMIT above the cap, LIMIT ALL or a non-constant LIMIT is rewritten
//     on the tree and deparsed; the deparsed text is parsed and walked again
//     (node, function and relation checks), and its tree, rewritten again,
//     must equal the one it was printed from, positions aside (failing
//     that, it must pass every check and print the same text), or the query
//     is rejected (CodeRewrite).
//   - a check that fails on a query (a bug: a panic) rejects it with
//     CodeRewrite too, instead of ending the caller's process.
//
// So validating Result.SQL again returns it unchanged, and the common cases
// cost one parse. Names are never qualified. The validator reads string
// literals as standard_conforming_strings = on does (the default since
// PostgreSQL 9.1); the executor and Explain pin that setting in their
// transactions, so the server reads the text the same way whatever the
// session says. Run Result.SQL under the same setting if you run it
// yourself.
//
// The walk over the tree is typed: nodes_gen.go, generated from the
// pg_query_go types (go generate ./validate; a test fails when it is
// stale), lists the children of every node type, so no protobuf reflection
// runs per query. A node type it does not know is rejected. The tree comes
// from libpg_query's JSON output through a strict generated decoder
// (internal/pgparse): the same tree pg_query_go's Parse returns, checked
// equal over every corpus and under fuzzing, at under half the cost.
//
// # Codes
//
// Violations (SeverityError): V001 syntax, V002 empty, V003 several
// statements, V004 not a SELECT, V005 data-modifying statement inside, V006
// SELECT INTO / CREATE TABLE AS, V007 locking clause, V008 unsupported
// construct, V009 $n parameter, V010 always-denied function (also in
// functional notation), V011 function, operator or value function not
// allowed, V012 relation (or its row type) not allowed, V013 system
// catalog, its row type or a catalog-lookup type (reg*, aclitem), V014 a
// field that names no column (functional notation), V015 the server's plan
// calls something the policy refuses (CheckPlan), V016 unknown type, V020
// recursive CTE without a proven bound, V021 generate_series bounds, V022
// string-building beyond the limit or an aggregated value built on, V023
// cross join of too many relations or an accumulating aggregate over one
// or over a non-equi join, V024 text over 64 KiB or a tree nested deeper
// than the parser allows, V025 look-alike (a name the query or its plan
// uses reaches a user's function, operator, cast or domain on the search
// path, or a view, policy or domain the query reaches calls what the
// policy refuses; see below), V026 system column (xmin, xmax, cmin, cmax, tableoid)
// without WithSystemColumns(true), V027 the server's plan is over the plan
// budget (CheckPlan, WithPlanBudget), V028 an operator that does not check
// for interrupts on a value the query builds or collects, V029 the query
// depends on what a role other than the database's owners can change after
// the check (Pin: a relation such a role owns, read as another role; a relation it cannot lock, a cast from or to such a
// role's type, an untyped literal beside a column of such a role's enum,
// composite, range or array type, a relation a policy reads that it cannot
// lock, a relation resolved elsewhere than checked), V030 rewrite did
// not re-validate.
//
// Lint (SeverityWarning unless noted; off with WithLint(false)): L001
// cartesian product, L002 column neither grouped nor aggregated, L003
// ambiguous column, L004 SELECT * on a wide table, L005 = NULL / <> NULL
// (SeverityError), L006 LIMIT without ORDER BY, L007 LIKE without wildcard,
// L008 HAVING without GROUP BY, L009 unknown column (needs Table.Columns),
// L010 fan trap (needs Table keys), L011 contradiction (one column equated
// to two constants in one AND chain), L012 unused ranking, L013
// count(DISTINCT k) grouped by k, L014 INTERSECT or EXCEPT of two rows of
// aggregates, L015 a count over groups of one row (needs
// Table.PrimaryKey).
//
// L013, L014 and L015 speak of aggregates a query's shape makes
// meaningless, each a mistake models make. L013: count(DISTINCT k) in a
// level grouped by the same column k (resolved, not matched by spelling:
// qualified or not, quoted, by GROUP BY position or output name) is 1 in
// every group, SELECT count(DISTINCT country) FROM car_makers GROUP BY
// country HAVING count(*) > 2 returns a column of ones where one number
// was asked; silent for grouping sets, ROLLUP and CUBE and for an
// expression of k on either side, a cast included (GROUP BY ts::date).
// L014: a statement SELECT count(*) ... INTERSECT SELECT count(*) ...
// compares two numbers, not the rows counted (count, sum and avg; UNION
// of such rows, a list of figures, is not flagged, nor is such a
// comparison inside a sublink, EXISTS (... INTERSECT ...) asking "as many
// as"). L015: a level that reads one table and
// nothing else, grouped by all the columns of its primary key (a unique
// constraint lets several rows hold null, which form one group), makes
// every group one row, so a count in its outputs, HAVING or ORDER BY is 1
// in every group (SELECT id FROM tv_channel GROUP BY id HAVING count(*) >
// 2 is never true). A table whose inheritance children repeat its key
// values is read with them (FROM parent without ONLY), and its groups may
// hold several rows: give such a parent no PrimaryKey.
//
// L012 warns about a ranking (row_number, rank, dense_rank, ntile,
// percent_rank, cume_dist; built-in, unqualified or pg_catalog) that a CTE
// or a FROM subquery returns and nothing reads: WITH r AS (SELECT ...,
// rank() OVER (PARTITION BY dept ORDER BY salary DESC) AS rnk ...) SELECT
// name FROM r returns every ranked row, the WHERE rnk = 1 it was written
// for missing. Silent whenever the ranking may be read unseen: a reference
// of its name anywhere, a star, a whole-row reference, a column alias
// list, USING or NATURAL, a set operation, a CTE nobody reads.
//
// L010 reads the join conditions of each query level (ON, WHERE, USING,
// NATURAL), resolved to FROM items like the column checks: a join that
// equates a whole key of one relation (its primary key, a unique set, or
// the columns another table's foreign key references) with columns of
// another that are not unique there repeats each row of the first once
// per matching row of the second. SUM, AVG and COUNT(expr) (not DISTINCT,
// not COUNT(*), MIN or MAX) whose columns all belong to the repeated side,
// or to relations joined through it, are then counted several times:
// SUM(o.total) FROM orders o JOIN order_lines l ON l.order_id = o.id. No
// warning when the many side's key is grouped (GROUP BY l.id) or fixed by
// constants, when the aggregate reads the many side too (SUM(l.qty *
// p.price)), or when the many side is a subquery or CTE (pre-aggregated).
// Relations without key data (Table.PrimaryKey, Unique, ForeignKeys),
// CTEs, subqueries and functions are never judged, and a join graph with a
// cycle around the join is left alone.
//
// Rewrite notes (SeverityInfo): R001 LIMIT added, R002 LIMIT capped.
//
// Codes are stable: a code never changes meaning; new checks get new codes.
//
// # EXPLAIN
//
// Validator.Explain validates each candidate and explains the accepted ones
// concurrently, each in its own READ ONLY transaction with SET LOCAL
// statement_timeout, always rolled back; it reports the SQLSTATE, message and
// position of planner errors and the estimated cost and rows otherwise. Only
// validated SQL ever reaches the server. Before the EXPLAIN, the same
// transaction runs the look-alike check (LookalikeQuery,
// LookalikeObjectsQuery, CheckLookalikes):
// a finding fails the candidate with V025 and nothing is planned. The plan
// is EXPLAIN (VERBOSE, FORMAT JSON), checked with CheckPlan: a plan it
// refuses fails the candidate with its *Error (code V015, V025, or V027
// over the plan budget) and no Validation.
//
// # The server's resolution
//
// PostgreSQL resolves some spellings to function calls the parse tree does
// not show as calls: functional notation (('1'::float8).pg_sleep and
// t.pg_sleep over a FROM item t are pg_sleep calls), views and inlined SQL
// functions (an operator's included). CheckPlan is a second layer that reads
// what the server resolved: every expression of the verbose plan (outputs,
// filters, join, index and recheck conditions, sort, group and cache keys,
// function scans, TABLESAMPLE arguments, window run conditions) is parsed
// with libpg_query and walked through the same function, operator and type
// policy as a query, without column resolution. So a function a view calls
// must be allowed too. Relations scanned in system schemas (views are
// expanded in plans) need WithSystemCatalogs(true), secret ones are always
// refused, and TABLESAMPLE must be BERNOULLI or SYSTEM. The deparser's
// plan-only notations (SubPlan references, OVER (?), PARTIAL) are rewritten
// on libpg_query's token stream, so string literals are never touched. It
// fails closed: malformed JSON, an expression that does not parse, a
// comment, or text under a plan property it does not know (the list is
// PostgreSQL 15's explain.c; a newer server's new properties refuse plans
// until listed). A plan costs about one parse of all its expressions.
//
// System columns are refused in the plan too (as V015 naming V026): EXPLAIN
// gives every range table entry a unique alias and qualifies column
// references with it (the Output of a plan over one relation excepted,
// unqualified), so a reference qualified with the alias of a scanned
// relation, or unqualified in a plan that scans one, is that relation's
// column; a view selecting xmin shows there as its table's xmin.
//
// The plan does not show everything: PostgreSQL 15 prints no LIMIT or
// OFFSET expressions, no VALUES lists, no window frame offsets, and not the
// left operand of an IN/ANY/ALL sublink planned as a SubPlan; there the
// static checks are the only guard. So for lookup values: the plan shows
// pg_typeof where it stands and a literal unified with it as a
// 'name'::regtype constant (both refused), but not a VALUES list holding
// them, and the server reads the literal while parsing, before any plan
// exists (an error for a name that does not exist is already an answer):
// the static rule is the guard. With
// WithSystemCatalogs(true), the information_schema views and pg_views
// compute functions the policy denies (pg_has_role, has_table_privilege,
// format_type, pg_get_viewdef, ...) and their plans are refused. The resource
// guards (V020-V023) judge the query as written and are not applied to the
// plan. EXPLAIN without ANALYZE runs no volatile function, but the planner
// evaluates immutable ones on constants (the statement timeout bounds that).
//
// # The plan budget
//
// CheckPlan also reads the planner's estimates (budget.go) and refuses a
// plan over the budget (V027, WithPlanBudget; DefaultPlanBudget): the rows
// any node produces, its rows × width, the size of any one hash table and
// the plan's total cost. It backs up the static guards on work_mem does
// not bound: a hash join on a key every row shares cannot split its hash
// table into batches, and a hashed SubPlan (x NOT IN (subquery)) or a
// hashed SetOp (INTERSECT, EXCEPT) never spills. A hash table counts rows
// × (width + 40 bytes), nodes under a Gather once per process, and a
// hashed SubPlan or SetOp, or the Hash of a join on an expression or a
// system column, at least at what the scans under it read (their cost ×
// 8 kB: the cost counts at least one unit per page read): the planner
// hashes the first two only when its estimate fits in memory, none of them
// can spill, and a filter it guessed too selective (a third per condition
// it has no statistics for) or the 200 groups or keys it assumes without
// statistics hide their real size. The same budget bounds what an
// Aggregate's accumulating aggregates (string_agg, array_agg, json_agg,
// ...) hold: each keeps every value it is given in a buffer that doubles,
// which no setting bounds, so the rows under the Aggregate × their width
// × 2 count once per such aggregate in its output (ten string_agg of a
// two-million-row table's column took a backend to 1.4 GiB).
// Estimates are estimates: on tables never analysed an equi-join may be
// guessed at millions of times its size (the planner assumes 200 distinct
// values), so run ANALYZE (autovacuum does) on the tables queries read.
// PlanFigures and ExplainResult.Figures give a plan's figures in a
// budget's terms; docs/benchmarks.md has those of the gold queries.
// ExplainResult.Relations names the relations the plan scans (a view's
// base tables), read with the plan's check (nil when it could not be
// read), so a caller asks about them (row-level security, say) without
// decoding the plan again.
//
// # Look-alikes
//
// PostgreSQL resolves a bare function or operator name to the best match
// among all schemas of the search path: an exact type match in a tenant's
// schema (div_01.lower(varchar), an = for varchar) wins over the built-in
// that needs a coercion, and the deparser then prints the call by its bare
// name, as it prints the built-in. A tenant that may create objects in its
// schema would run its code with the privileges of the role running the
// query, and an immutable look-alike already while the query is planned.
// Names alone cannot tell them apart; the catalog can. LookalikeQuery and,
// where the database holds any user function or operator, or a view,
// policy or domain constraint outside the system schemas,
// LookalikeObjectsQuery are queries the caller runs in the request's own
// transaction, with its search path and role, before EXPLAIN (Explain and
// the executor do); every name in them is qualified with pg_catalog (they
// run under the tenant's path). CheckLookalikes reads their rows and
// refuses (V025) a query when, among the schemas of the path other than
// pg_catalog, there is
//
//   - a function or aggregate named like a bare call of the query (or a
//     name functional notation may call), or an operator with a symbol the
//     query writes bare or looks up (IN, BETWEEN, CASE x WHEN, NULLIF, IS
//     DISTINCT FROM, JOIN USING or NATURAL, IN (subquery));
//
// or, for the relations the query reads and those their views (rules),
// policies and inheritance children reach, recursively,
//
//   - a user function or operator that a view's rule, a row-level security
//     policy, an index (the planner inlines SQL functions of index
//     expressions and folds constants in them), a constraint, extended
//     statistics or a partition key depends on;
//   - a cast whose function is a user function, from or to a type the
//     query handles: the relations' row and column types, the types the
//     query names, and their array, element, base and field types,
//     recursively (a cast AS IMPLICIT applies unseen);
//   - a domain among those types whose constraint calls one;
//   - what the policy refuses (a denied or unlisted function, operator or
//     type) in the text of those views' queries, policies' expressions
//     and domains' CHECK constraints (pg_get_viewdef, pg_get_expr), walked
//     like a plan's expressions (definitions.go): EXPLAIN prints no VALUES
//     list, LIMIT, OFFSET or frame offset and no domain check, and
//     pg_depend records no call of a built-in, so a view calling
//     query_to_xml there was seen by no other check.
//
// A user function or operator is one outside pg_catalog and
// information_schema that is not a member of an extension owned by a
// superuser (pg_depend deptype 'e'; a tenant may own a trusted extension
// but not a superuser's object), so pg_trgm, pgvector, citext, hstore and
// the like in public stay usable. A qualified call (pg_catalog.lower,
// OPERATOR(pg_catalog.=)) is resolved in pg_catalog only and passes; the
// message says so. Names added unqualified with WithFunctions are the
// configuration's own functions and are not checked (qualify them to pin
// their schema). The rules are conservative: a relation whose row type has
// a user cast to text is refused even when the query never converts a row.
// CheckPlan with Against(lookalikes) then refuses a plan that calls a
// look-alike's name the query does not write (a view's, an inlined
// function's): the deparser prints the built-in by its bare name whenever
// the look-alike would not win for its argument types, so the names the
// query writes are judged before the EXPLAIN only. What a trusted function
// runs inside is not judged.
//
// # Pinning
//
// Catalog lookups read the latest committed catalog, not the transaction's
// snapshot, so nothing a check finds holds when the server analyses the
// query a moment later: a tenant that holds a lock on its own table makes
// the engine wait after the check, creates div_01.reverse(varchar)
// meanwhile, and the query would resolve to it. Pin (PinQuery, Pin) closes
// that window; Explain and the executor run it first, in the request's
// transaction under its search path and role:
//
//   - the relations and the non-built-in types the query names are resolved
//     by the server (to_regclass, to_regtype) and written qualified into the
//     text that runs (Pin.SQL; a bare name resolving elsewhere than the
//     validator's table list says is refused, V029);
//   - the query then runs under Pin.SearchPath: pg_catalog, then the schemas
//     of the request's path in which only trusted roles (superusers, the
//     database's owner, pg_database_owner) can create anything, then
//     pg_temp; a tenant's function, aggregate or operator cannot be found
//     by its bare name, whenever it is created;
//   - a relation whose owner is not trusted is read only by a request
//     running as that owner: its owner can attach code to it (an index
//     expression the planner folds, statistics, a child table, a policy)
//     with no lock a read-only role may take stopping it, and that code
//     would run with the request role's privileges; as any other role the
//     query is refused (V029), also where a view or policy reaches it;
//   - the relations of an untrusted schema or owner are locked (Pin.Lock,
//     ACCESS SHARE, which CREATE OR REPLACE VIEW, CREATE POLICY and ALTER
//     TABLE wait for) before the objects query reads their definitions; a
//     role that may read only some columns of one cannot lock it, and the
//     query is refused (V029);
//   - CREATE CAST takes no lock, so an explicit cast from or to a type an
//     untrusted role other than the request's owns (an enum, a domain, a table's row type) is
//     refused (V029) in every spelling (x::t, CAST, text(x), through a
//     subquery or CTE column); a string literal cast to such an enum runs
//     its input function, not a cast, and is allowed, as are comparisons
//     and sorting on it. Implicit casts are not refused: where a tenant
//     adds one after the check, analysis either resolved without it (an
//     exact or polymorphic match, which the new cast does not outrank) or
//     failed at the EXPLAIN, so the query never ran.
//
// The look-alike query then runs under the pinned path, which holds only
// trusted schemas: its rows change only by what their owners create, and
// Explain and the executor keep them for LookalikeTTL. Not pinned: a query
// checked with the plan alone (no parse, no sites), and a function added
// by WithFunctions that lives in an untrusted schema (it is not on the
// pinned path; qualify it).
package validate
