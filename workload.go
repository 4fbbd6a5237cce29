package nl2sql

import (
	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/retrieve"
	"github.com/nl2sqlgo/nl2sql/workload"
)

// WithWorkload gives the Engine what a workload taught (workload.Learn):
// its join edges complete the join graph where no foreign key is declared
// (plan.WithLearnedEdges), and its table usage is a mild prior of schema
// retrieval (retrieve.WithUsage). Its shapes are not examples: confirm one
// with Learn. nil means none.
func WithWorkload(k *workload.Knowledge) Option {
	return optionFunc(func(c *config) { c.workload = k })
}

// workloadOptions returns the graph and retriever options of cfg's workload.
func (c *config) workloadOptions() ([]plan.Option, []retrieve.Option) {
	if c.workload == nil {
		return nil, nil
	}
	return []plan.Option{plan.WithLearnedEdges(c.workload.Edges...)},
		[]retrieve.Option{retrieve.WithUsage(c.workload.TableUsage())}
}
