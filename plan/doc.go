// Package plan finds how to join tables: it turns a catalog's foreign keys
// into a graph and answers "which joins connect these tables?" with the
// cheapest tree of joins, and renders it as the FROM clause a prompt can
// show the model.
//
//	g := plan.NewGraph(cat) // once per catalog; safe for concurrent use
//	tree, err := g.Connect([]string{"school.students", "school.courses"})
//	if err != nil { ... }    // *plan.UnknownTableError or *plan.NoPathError
//	tree.Added()             // [school.enrollments]: the junction it needed
//	tree.Skeleton()          // FROM school.students s JOIN school.enrollments e ON e.student_id = s.id JOIN ...
//	tree.Edges()             // [{school.students.id school.enrollments.student_id} ...]
//
// # The graph
//
// Tables are nodes. Every foreign key (multi-column ones included) is an
// Edge in both directions: from the referencing table (Forward, many-to-one,
// or one-to-one when the key columns are unique) and back (one-to-many).
// Two keys between the same tables (orders.billing_addr_id and
// orders.shipping_addr_id) stay two edges; self-references are kept in
// Graph.Edges but never used to connect distinct tables.
//
// An edge costs about one hop, a little less when the column names match
// (customer_id = customer_id) and a little more against the key's direction,
// so among equally long paths the natural one wins; remaining ties are
// broken by name, and results are deterministic. Hubs, tables joined to more
// than a threshold of others (users, referenced by everything), cost an extra
// penalty when a path passes through them, so they are not used as a
// shortcut between unrelated tables; a hub that is itself requested costs
// nothing extra (WithHubThreshold, WithHubPenalty).
//
// Databases that declare few keys can ask for edges guessed from column
// names with WithInferredEdges(true); the guesses are marked Inferred, cost
// more than declared keys, and follow the rules documented there: same-named
// key columns, <table>_id columns, shared-prefix names.
// Joins learned from a query workload (package workload) are added with
// WithLearnedEdges: marked Learned with their Count, they cost more than
// declared keys and less than guesses.
//
// # Searches
//
// ShortestPath and KShortestPaths (Yen's algorithm: loopless, distinct,
// non-decreasing cost) link two tables. Connect links any number with the
// shortest-path Steiner heuristic and reports the bridge and junction
// tables it had to add. MaxHops bounds path length, Exclude keeps tables
// out, Within keeps paths inside schemas and Among inside a set of tables
// (a question's context: the skeleton then only names tables the prompt
// shows). When tables cannot all be connected, Connect returns the forest of
// what can be, with a *NoPathError naming the rest (errors.Is(err,
// plan.ErrNoPath)); its Skeleton shows them as CROSS JOINs with a comment.
//
// # Fan-outs
//
// A join from a table's key to the rows that reference it repeats the
// table's rows: Tree.FanOuts lists those joins with the tables each one
// multiplies, the fan trap of SUM(orders.total) over orders JOIN
// order_lines (the validator's lint L010 finds it in a query).
// Tree.Prune drops the tables a question does not need that only hang off
// the tree, so a many side wanted optionally does not fan the rows out, and
// the FanOutNotes skeleton option marks each such join with a comment.
//
// # A question's plan
//
// Graph.PlanQuestion draws the plan the Engine shows the model for one
// question (Question: the tables it needs, the context's tables, its
// column links, its search path): it joins the needed tables and those of
// the strongest column links (at most MaxJoined) only through the
// context's tables, and, when the question asks for a sum or an average
// of a measure on the repeated side of a one-to-many join, returns a
// warning for the prompt (QuestionPlan.Warnings).
//
// Junctions lists the many-to-many link tables (its doc gives the rule).
// Searches allocate only for what they visit, from a per-graph pool, so a
// Graph of 10,000 tables serves many concurrent questions.
package plan
