package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/nl2sqlgo/nl2sql"
)

const knowledgeUsage = `usage: nl2sql knowledge list|export|forget [ID...] [flags]

What the engine was taught (nl2sql learn), in --index FILE or --store DSN:
  list          a table of kind, ID, question (term, table) and text; --json: an array
  export        one JSON object per line, re-importable by 'nl2sql learn --jsonl'
  forget ID...  removes these (an unknown ID changes nothing: exit 1)`

func runKnowledge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	s := newSub("knowledge", knowledgeUsage, stdout, stderr)
	pos, err := s.parse(args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageErr("knowledge needs list, export or forget ID...")
	}
	action, ids := pos[0], pos[1:]
	switch {
	case action != "list" && action != "export" && action != "forget":
		return usageErr("knowledge: unknown action %q (list, export, forget ID...)", action)
	case action == "forget" && len(ids) == 0:
		return usageErr("knowledge forget needs the IDs to forget (see nl2sql knowledge list)")
	case action != "forget" && len(ids) > 0:
		return usageErr("knowledge %s takes no arguments", action)
	}
	if err := s.knowledgeHome("knowledge"); err != nil {
		return err
	}
	eng, err := s.open(ctx, nil)
	if err != nil {
		return err
	}
	defer s.close()
	ks, err := eng.Knowledge(ctx)
	if err != nil {
		return failed(err)
	}
	switch action {
	case "export":
		enc := json.NewEncoder(stdout)
		for _, k := range ks {
			if err := enc.Encode(k); err != nil {
				return err
			}
		}
		return nil
	case "forget":
		return forget(ctx, s, eng, ks, ids)
	}
	if s.json {
		if ks == nil {
			ks = []nl2sql.Knowledge{}
		}
		return writeJSON(stdout, ks)
	}
	if len(ks) == 0 {
		fmt.Fprintln(stdout, "no knowledge yet (nl2sql learn QUESTION SQL teaches an example)")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tID\tSUBJECT\tTEXT")
	for _, k := range ks {
		subject, text := k.Question, k.SQL
		switch k.Kind {
		case nl2sql.KnowledgeDoc:
			subject, text = strings.TrimSuffix(k.Table+"."+k.Column, "."), k.Text
		case nl2sql.KnowledgeTerm:
			subject, text = k.Term, strings.Join(k.Targets, ", ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", k.Kind, k.ID, short(subject, 50), short(text, 60))
	}
	return tw.Flush()
}

// forget removes the knowledge of ids, all or none: an unknown ID is exit
// 1 before anything is removed. With --index, each Forget rewrites the file
// (nl2sql.LoadIndexFile).
func forget(ctx context.Context, s *sub, eng *nl2sql.Engine, ks []nl2sql.Knowledge, ids []string) error {
	known := map[string]bool{}
	for _, k := range ks {
		known[k.ID] = true
	}
	var unknown []string
	for _, id := range ids {
		if !known[id] {
			unknown = append(unknown, fmt.Sprintf("%q", id))
		}
	}
	if len(unknown) > 0 {
		return &exitError{code: 1, err: fmt.Errorf("no knowledge has the ID %s (see nl2sql knowledge list); nothing was forgotten", strings.Join(unknown, ", "))}
	}
	var done []string
	var ferr error
	for _, id := range ids {
		if known[id] {
			if ferr = eng.Forget(ctx, id); ferr != nil {
				break
			}
			known[id] = false // named twice: forgotten once
			done = append(done, id)
		}
	}
	if s.json {
		if err := writeJSON(s.stdout, map[string][]string{"forgotten": append([]string{}, done...)}); err != nil {
			return err
		}
	} else {
		for _, id := range done {
			fmt.Fprintln(s.stdout, "forgot "+id)
		}
	}
	return failed(ferr)
}

// short is s on one line, cut to n runes with "..." when longer.
func short(s string, n int) string {
	s = oneLine(s)
	if s == "" {
		return "-"
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n-3]) + "..."
	}
	return s
}
