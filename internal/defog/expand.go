package defog

import "strings"

// maxExpansions bounds the concrete queries one alternative expands to.
const maxExpansions = 32

// Expand turns gold SQL in sql-eval notation into concrete queries.
//
// Alternatives are separated by ';' (outside quotes). In each alternative,
// "{a.name, a.aid}" means any non-empty subset of those columns may be
// selected, and a later "{}" (as in "GROUP BY {}") repeats the chosen
// subset. Expand yields, per alternative, each single column and then the
// full list (in written order), deduplicated; with several brace groups the
// choices combine, bounded to a few dozen queries. Queries are trimmed and
// lose the trailing ';'.
func Expand(gold string) []string {
	var out []string
	seen := map[string]bool{}
	for _, alt := range splitStatements(gold) {
		for _, q := range expandOne(alt) {
			q = strings.TrimSpace(q)
			if q != "" && !seen[q] {
				seen[q] = true
				out = append(out, q)
			}
		}
	}
	return out
}

// splitStatements splits at ';' outside string literals, quoted identifiers
// and comments.
func splitStatements(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'', '"':
			q := s[i]
			for i++; i < len(s); i++ {
				if s[i] == q {
					if i+1 < len(s) && s[i+1] == q {
						i++
						continue
					}
					break
				}
			}
		case '-':
			if i+1 < len(s) && s[i+1] == '-' {
				for i < len(s) && s[i] != '\n' {
					i++
				}
			}
		case ';':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// braceGroup is one "{...}" occurrence: its byte span and columns (nil for
// "{}").
type braceGroup struct {
	start, end int
	cols       []string
}

func braceGroups(s string) []braceGroup {
	var gs []braceGroup
	inQuote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inQuote != 0 {
			if c == inQuote {
				inQuote = 0
			}
			continue
		}
		if c == '\'' || c == '"' {
			inQuote = c
			continue
		}
		if c != '{' {
			continue
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		g := braceGroup{start: i, end: i + j + 1}
		for _, col := range strings.Split(s[i+1:i+j], ",") {
			if col = strings.TrimSpace(col); col != "" {
				g.cols = append(g.cols, col)
			}
		}
		gs = append(gs, g)
		i += j
	}
	return gs
}

// choices are the subsets tried for a column group: each column alone, then
// all of them.
func choices(cols []string) [][]string {
	var out [][]string
	for _, c := range cols {
		out = append(out, []string{c})
	}
	if len(cols) > 1 {
		out = append(out, cols)
	}
	return out
}

func expandOne(q string) []string {
	gs := braceGroups(q)
	var groups []int // indexes of non-empty groups
	for i, g := range gs {
		if g.cols != nil {
			groups = append(groups, i)
		}
	}
	if len(groups) == 0 {
		return []string{q}
	}
	// Enumerate the combinations of choices (odometer), bounded.
	picks := make([]int, len(groups))
	var out []string
	for len(out) < maxExpansions {
		chosen := map[int][]string{}
		for k, gi := range groups {
			chosen[gi] = choices(gs[gi].cols)[picks[k]]
		}
		var b strings.Builder
		prev, last := 0, []string(nil)
		for i, g := range gs {
			b.WriteString(q[prev:g.start])
			if g.cols != nil {
				last = chosen[i]
			}
			b.WriteString(strings.Join(last, ", "))
			prev = g.end
		}
		b.WriteString(q[prev:])
		out = append(out, b.String())
		k := len(picks) - 1
		for ; k >= 0; k-- {
			picks[k]++
			if picks[k] < len(choices(gs[groups[k]].cols)) {
				break
			}
			picks[k] = 0
		}
		if k < 0 {
			break
		}
	}
	return out
}
