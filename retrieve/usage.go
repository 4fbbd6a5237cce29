package retrieve

import "math"

// WithUsage gives table usage counts (qualified name -> count, as
// workload.Knowledge.TableUsage returns) as a mild prior: a table the
// question's rankings already found gains at most usageWeight, scaled by
// log(1+count) over the largest; tables no ranking found are not added.
// It breaks near-ties in favour of the tables a workload reads.
func WithUsage(counts map[string]int) Option {
	top := 0
	for _, n := range counts {
		top = max(top, n)
	}
	return optionFunc(func(c *config) { c.usage, c.usageTop = counts, top })
}

// usageWeight is a tenth of a first-rank RRF vote.
const usageWeight = 0.1 / (rrfK + 1)

// usagePrior returns the prior of a table (0 without WithUsage).
func (ix *Retriever) usagePrior(table string) float64 {
	n := ix.cfg.usage[table]
	if n <= 0 {
		return 0
	}
	return usageWeight * math.Log1p(float64(n)) / math.Log1p(float64(ix.cfg.usageTop))
}
