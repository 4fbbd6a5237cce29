package semantic_test

import (
	"os"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/semantic"
	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestDocExample reads the example of the package doc and checks it
// against the demo ERP, so the documented format stays true.
func TestDocExample(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	in := false
	for _, line := range strings.Split(string(src), "\n") {
		switch {
		case strings.HasPrefix(line, "//\tversion: 1"):
			in = true
		case in && !strings.HasPrefix(line, "//\t"):
			in = false
		}
		if in {
			b.WriteString(strings.TrimPrefix(line, "//\t") + "\n")
		}
	}
	m, err := semantic.Read(strings.NewReader(b.String()), "doc.go example")
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if len(m.VerifiedQuestions) != 3 || len(m.Metrics) != 2 {
		t.Fatalf("the example was not read whole: %d questions, %d metrics", len(m.VerifiedQuestions), len(m.Metrics))
	}
	if err := m.Check(erpCatalog(t), validate.New()); err != nil {
		t.Fatal(err)
	}
}
