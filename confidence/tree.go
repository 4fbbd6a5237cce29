package confidence

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/nl2sqlgo/nl2sql/internal/pgparse"
)

// parseTree parses sql once for the signals read on its tree; nil when it
// does not parse (pgparse's tree is then not meaningful).
func parseTree(sql string) *pg_query.ParseResult {
	tree, err := pgparse.Parse(sql)
	if err != nil {
		return nil
	}
	return tree
}

// columnName is the name a column reference ends with, as written
// (orders.Total: "Total"); "" for a star or no fields.
func columnName(ref *pg_query.ColumnRef) string {
	if len(ref.GetFields()) == 0 {
		return ""
	}
	return ref.Fields[len(ref.Fields)-1].GetString_().GetSval()
}
