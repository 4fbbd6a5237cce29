package retrieve

// Result is the schema context packet: the tables a question needs, best
// first, each with the reasons it is there.
type Result struct {
	Tables  []TableHit  `json:"tables"`
	Modules []ModuleHit `json:"modules"`
	// Match grades how well the question's words meet the schema's; with
	// MatchNone, Tables is empty.
	Match Match `json:"match"`
	// Known is the share of the question's content words the schema
	// knows (directly or through the thesaurus), 0 to 1.
	Known float64 `json:"known"`
}

// TableHit is a retrieved table.
type TableHit struct {
	Name  string  `json:"name"` // qualified
	Score float64 `json:"score"`
	// Reasons: "vector", "bm25", "column", "module", "glossary", "fk", or
	// "small" (the whole scope fits in the limit).
	Reasons []string `json:"reasons"`
	// Via names the table an "fk" hit was reached from.
	Via string `json:"via,omitempty"`
}

// ModuleHit is a module the question was routed to.
type ModuleHit struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

// Names returns the qualified names of the result's tables in order.
func (r *Result) Names() []string {
	out := make([]string, len(r.Tables))
	for i, t := range r.Tables {
		out[i] = t.Name
	}
	return out
}

// reasonOrder is the order a TableHit lists its reasons in: how the table
// was named or ranked first, how it was pulled in last.
var reasonOrder = []string{"name", "thesaurus", "vector", "bm25", "column", "module", "glossary", "fk", "bridge", "header", "lines", "child", "small"}

// hits turns the kept tables into the result's, in order; Via is set only
// for a table an expansion reached.
func (cs candidates) hits(kept []string) []TableHit {
	var out []TableHit
	for _, t := range kept {
		c := cs[t]
		var reasons []string
		for _, r := range reasonOrder {
			if c.reasons[r] {
				reasons = append(reasons, r)
			}
		}
		hit := TableHit{Name: t, Score: c.score, Reasons: reasons}
		if c.reasons["fk"] || c.reasons["bridge"] || c.reasons["header"] || c.reasons["lines"] || c.reasons["child"] {
			hit.Via = c.via
		}
		out = append(out, hit)
	}
	return out
}
