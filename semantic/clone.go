package semantic

import "slices"

// Clone returns a deep copy of m with nothing resolved: Check resolves a
// model in place, so a holder that checks it again on every catalog change
// (the Engine does on each Refresh) checks its own copy while questions in
// flight keep reading the one it replaces.
func (m *Model) Clone() *Model {
	if m == nil {
		return nil
	}
	c := &Model{Version: m.Version, File: m.File}
	for _, e := range m.Entities {
		ce := *e
		ce.table = nil
		ce.Synonyms = slices.Clone(e.Synonyms)
		ce.Dimensions = cloneEach(e.Dimensions, func(d Dimension) Dimension { d.Synonyms = slices.Clone(d.Synonyms); return d })
		ce.TimeDimensions = cloneEach(e.TimeDimensions, func(d TimeDimension) TimeDimension { d.Synonyms = slices.Clone(d.Synonyms); return d })
		ce.Measures = cloneEach(e.Measures, func(d Measure) Measure { d.Synonyms = slices.Clone(d.Synonyms); return d })
		ce.Filters = cloneEach(e.Filters, func(d Filter) Filter { d.Synonyms = slices.Clone(d.Synonyms); return d })
		for _, ms := range ce.Measures {
			ms.entity = &ce
		}
		for _, f := range ce.Filters {
			f.entity = &ce
		}
		c.Entities = append(c.Entities, &ce)
	}
	c.Relationships = cloneEach(m.Relationships, func(r Relationship) Relationship {
		r.FromColumns, r.ToColumns = slices.Clone(r.FromColumns), slices.Clone(r.ToColumns)
		r.from, r.to = nil, nil
		return r
	})
	c.Metrics = cloneEach(m.Metrics, func(d Metric) Metric { d.Synonyms = slices.Clone(d.Synonyms); return d })
	c.VerifiedQuestions = cloneEach(m.VerifiedQuestions, func(q VerifiedQuestion) VerifiedQuestion {
		q.Parameters = cloneEach(q.Parameters, func(p Parameter) Parameter { p.Examples = slices.Clone(p.Examples); return p })
		return q
	})
	return c
}

// cloneEach copies every element of list through copyOf.
func cloneEach[T any](list []*T, copyOf func(T) T) []*T {
	if list == nil {
		return nil
	}
	out := make([]*T, len(list))
	for i, p := range list {
		v := copyOf(*p)
		out[i] = &v
	}
	return out
}
