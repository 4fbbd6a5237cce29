// Package schema is the vocabulary every nl2sql stage speaks: a Catalog of
// schemas, tables, columns, keys and comments read from PostgreSQL, its
// rendering as M-Schema text for prompts, and a fingerprint that tells an
// index when it is stale.
//
// Introspect reads pg_catalog directly (information_schema is slow on large
// catalogs and hides comments) with a fixed number of set-based queries:
//
//	cat, err := schema.Introspect(ctx, pool, schema.WithoutSchemas("audit"))
//	if err != nil { ... }
//	t := cat.Table("sales.orders")          // "schema.table"; bare names mean public
//	fmt.Println(t.PrimaryKey, t.ForeignKeys)
//	fmt.Print(schema.MSchema(cat.Subset([]string{"sales.orders", "sales.customers"}).Tables))
//	stale := cat.Fingerprint() != savedFingerprint
//
// Tables are keyed by their unquoted qualified name ("Legacy.CustomerNotes");
// QuoteIdent and Table.QuoteQualified give the SQL spelling. Leaf partitions
// are folded into their partitioned parent (whose row estimate sums them)
// unless WithPartitions(true) is given. A Catalog is immutable once built and
// may be shared between goroutines; it round-trips through encoding/json.
package schema
