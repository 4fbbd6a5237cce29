package retrieve

import (
	"sort"
	"strings"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// ModuleSource says where modules come from when none are configured.
type ModuleSource int

const (
	// ModulesByCommunity groups tables into FK communities (label
	// propagation over the FK graph without hub edges). Tables with the same
	// name in different schemas (multi-tenant copies) share one module.
	ModulesByCommunity ModuleSource = iota
	// ModulesBySchema makes every schema a module.
	ModulesBySchema
)

// assignModules fills ix.modules (module -> qualified tables, sorted) and
// ix.moduleOf.
func (ix *Retriever) assignModules(cat *schema.Catalog) {
	ix.modules = map[string][]string{}
	ix.moduleOf = map[string]string{}
	add := func(m, q string) {
		if _, ok := ix.moduleOf[q]; ok {
			return
		}
		ix.moduleOf[q] = m
		ix.modules[m] = append(ix.modules[m], q)
	}
	if len(ix.cfg.modules) > 0 {
		// Configured modules list bare or qualified table names; a bare
		// name matches that table in every schema. A table listed by
		// several modules goes to the first by name (qualified names
		// first), not to whichever map order brings first.
		names := make([]string, 0, len(ix.cfg.modules))
		for m := range ix.cfg.modules {
			names = append(names, m)
		}
		sort.Strings(names)
		bare := map[string]string{}
		for _, m := range names {
			for _, name := range ix.cfg.modules[m] {
				if t := cat.Table(name); t != nil && strings.Contains(name, ".") {
					add(m, t.QualifiedName())
				} else if _, ok := bare[name]; !ok {
					bare[name] = m
				}
			}
		}
		for _, t := range cat.Tables {
			if m, ok := bare[t.Name]; ok {
				add(m, t.QualifiedName())
			}
		}
	} else if ix.cfg.moduleSource == ModulesBySchema {
		for _, t := range cat.Tables {
			add(t.Schema, t.QualifiedName())
		}
	} else {
		for name, m := range communities(cat, ix.cfg.hubDegree) {
			for _, t := range cat.Tables {
				if t.Name == name {
					add(m, t.QualifiedName())
				}
			}
		}
	}
	for _, t := range cat.Tables { // tables no configuration mentions
		add("other", t.QualifiedName())
	}
	for m := range ix.modules {
		sort.Strings(ix.modules[m])
	}
}

// communities runs deterministic label propagation over the FK graph of bare
// table names, ignoring edges to hubs (degree > hubDegree), and names each
// community after its most connected member.
func communities(cat *schema.Catalog, hubDegree int) map[string]string {
	adj := map[string]map[string]int{}
	link := func(a, b string) {
		if a == b {
			return
		}
		if adj[a] == nil {
			adj[a] = map[string]int{}
		}
		if adj[b] == nil {
			adj[b] = map[string]int{}
		}
		adj[a][b]++
		adj[b][a]++
	}
	var names []string
	seen := map[string]bool{}
	for _, t := range cat.Tables {
		if !seen[t.Name] {
			seen[t.Name] = true
			names = append(names, t.Name)
		}
		for _, fk := range t.ForeignKeys {
			link(t.Name, fk.RefTable)
		}
	}
	sort.Strings(names)
	hub := func(n string) bool { return len(adj[n]) > hubDegree }
	label := map[string]string{}
	for _, n := range names {
		label[n] = n
	}
	for iter := 0; iter < 20; iter++ {
		changed := false
		for _, n := range names {
			if hub(n) {
				continue
			}
			votes := map[string]int{}
			for nb, w := range adj[n] {
				if hub(nb) || !seen[nb] {
					continue
				}
				votes[label[nb]] += w
			}
			best, bestW := label[n], votes[label[n]]
			for l, w := range votes {
				if w > bestW || (w == bestW && l < best) {
					best, bestW = l, w
				}
			}
			if best != label[n] {
				label[n] = best
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	// Hubs join the community most of their neighbours are in.
	for _, n := range names {
		if !hub(n) {
			continue
		}
		votes := map[string]int{}
		for nb := range adj[n] {
			if !hub(nb) && seen[nb] {
				votes[label[nb]]++
			}
		}
		best, bestW := n, 0
		for l, w := range votes {
			if w > bestW || (w == bestW && l < best) {
				best, bestW = l, w
			}
		}
		label[n] = best
	}
	// Name each community after its member with the highest degree.
	members := map[string][]string{}
	for _, n := range names {
		members[label[n]] = append(members[label[n]], n)
	}
	out := map[string]string{}
	for _, ms := range members {
		head := ms[0]
		for _, m := range ms {
			if len(adj[m]) > len(adj[head]) || (len(adj[m]) == len(adj[head]) && m < head) {
				head = m
			}
		}
		for _, m := range ms {
			out[m] = head
		}
	}
	return out
}
