package nl2sql

import (
	"context"
	"fmt"
)

// PickResult is the outcome of scoring SQL written elsewhere.
type PickResult struct {
	// Chosen indexes the winning input candidate; -1 when none validated.
	Chosen int `json:"chosen"`
	// SQL is the chosen candidate with its fixes (dialect rewrites and
	// deterministic repairs) and nothing else: the row cap is applied when
	// it runs, not written into it.
	SQL string `json:"sql"`
	// Scores has one entry per input candidate; failed ones score null.
	Scores []*float64 `json:"scores"`
	// Candidates is the trace of each input candidate.
	Candidates []Candidate `json:"candidates"`
	// Confidence is the probability that the chosen candidate answers the
	// question, and Assessment what the engine makes of it, as for Result
	// (the same calibrated probability, whoever wrote the SQL). Pick does
	// not run the chosen query for its rows (it runs cheap candidates to
	// compare their results, and the chosen one's tie probe), so it never
	// abstains: below WithMinConfidence the verdict is abstained and the
	// pick is still returned.
	Confidence float64 `json:"confidence"`
	Assessment
}

// Pick evaluates candidate queries for a question without a model: each is
// normalized, validated, EXPLAINed and deterministically repaired, the
// survivors are scored with the engine's Scorer against the question's
// schema context, and the best is returned (not run). It lets other systems
// reuse the scoring stage.
func (e *Engine) Pick(ctx context.Context, question string, sqls []string, opts ...AskOption) (_ *PickResult, err error) {
	defer finish(ctx, &err)
	rq, err := e.newRequest(ctx, opts, func(ac askConfig) error {
		if err := e.checkQuestion(question, ac.evidence); err != nil {
			return err
		}
		if len(sqls) == 0 {
			return &Error{Class: ClassInput, Message: "no candidate SQL to pick from"}
		}
		for i, s := range sqls {
			if err := checkSQL(fmt.Sprintf("candidate %d", i), s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	cx, err := e.context(ctx, rq, rq.read(question))
	if err != nil {
		return nil, err
	}
	cands := make([]*candidate, len(sqls))
	for i, s := range sqls {
		cands[i] = &candidate{Candidate: Candidate{SQL: s, Origin: OriginInput, Votes: 1}}
	}
	e.check(ctx, rq.scope, cands)
	res := &PickResult{Chosen: -1, Scores: make([]*float64, len(sqls))}
	var ok []*candidate
	var idx []int
	for i, c := range cands {
		if c.Status == StatusOK {
			ok = append(ok, c)
			idx = append(idx, i)
		}
	}
	if len(ok) > 0 {
		var tables []string
		for _, t := range cx.Tables {
			tables = append(tables, t.Name)
		}
		sc := e.score(ctx, rq, cx, ok, tables)
		for j, i := range idx {
			s := sc.scores[j]
			res.Scores[i] = &s
		}
		res.Chosen, res.SQL = idx[sc.best], ok[sc.best].validated.SQL
		ok[sc.best].Chosen = true
		res.Confidence, res.Assessment = e.assess(sc, ok, rq.ac)
	}
	for _, c := range cands {
		res.Candidates = append(res.Candidates, c.Candidate)
	}
	if res.Chosen < 0 {
		return res, classify(cands)
	}
	return res, nil
}
