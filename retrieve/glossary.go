package retrieve

import (
	"sort"
	"strings"

	"github.com/nl2sqlgo/nl2sql/gloss"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// glossaryKeys maps each table or column a glossary names (WithGlossary) to
// its terms, sorted. Documents are keyed by qualified names, and the terms
// become words of those documents.
func glossaryKeys(cat *schema.Catalog, glossary map[string][]string) map[string][]string {
	out := map[string][]string{}
	for term, targets := range glossary {
		for _, tg := range targets {
			// Targets may be bare or qualified tables or columns; documents
			// are keyed by qualified names. A bare name means every schema.
			parts := strings.Split(tg, ".")
			for _, t := range cat.Tables {
				var key string
				switch {
				case len(parts) == 1 && t.Name == parts[0]:
					key = t.QualifiedName()
				case len(parts) == 2 && t.Schema == parts[0] && t.Name == parts[1]:
					key = t.QualifiedName()
				case len(parts) == 2 && t.Name == parts[0] && t.Column(parts[1]) != nil:
					key = t.QualifiedName() + "." + parts[1]
				case len(parts) == 3 && t.Schema == parts[0] && t.Name == parts[1]:
					key = tg
				}
				if key != "" {
					out[key] = append(out[key], term)
				}
			}
		}
	}
	for k := range out {
		sort.Strings(out[k])
	}
	return out
}

// addGlossary gives the tables of the glossary terms a question uses a
// bonus: an explicit business term outweighs any single ranking.
func (ix *Retriever) addGlossary(cands candidates, r request) {
	terms := " " + strings.Join(r.words.terms, " ") + " "
	var gterms []string
	for term := range ix.cfg.glossary {
		gterms = append(gterms, term)
	}
	sort.Strings(gterms)
	for _, term := range gterms {
		if !strings.Contains(terms, " "+strings.Join(gloss.Terms(term), " ")+" ") {
			continue
		}
		for _, target := range ix.cfg.glossary[term] {
			table := ix.tableOf(target, r.scopes)
			if table != "" && ix.inScope(table, r.scopes) {
				// An explicit business term outweighs any single ranking.
				cands.add(table, "glossary", 2.0/float64(rrfK+1))
			}
		}
	}
}

// tableOf maps a glossary target (table or column, qualified or bare) to a
// qualified table, resolving bare names along the scope.
func (ix *Retriever) tableOf(target string, scopes []string) string {
	parts := strings.Split(target, ".")
	try := func(schemaName, table string) string {
		if t := ix.cat.Lookup(schemaName, table); t != nil {
			return t.QualifiedName()
		}
		return ""
	}
	switch len(parts) {
	case 1:
		for _, s := range append(scopes, ix.cfg.sharedSchemas...) {
			if q := try(s, parts[0]); q != "" {
				return q
			}
		}
		for _, t := range ix.cat.Tables {
			if t.Name == parts[0] {
				return t.QualifiedName()
			}
		}
	case 2:
		if q := try(parts[0], parts[1]); q != "" {
			return q
		}
		return ix.tableOf(parts[0], scopes) // bare table.column
	default:
		return try(parts[0], parts[1])
	}
	return ""
}
