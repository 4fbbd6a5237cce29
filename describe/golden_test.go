package describe_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/describe"
	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/gentest"
)

var update = flag.Bool("update", false, "rewrite testdata/erp.golden")

// TestERPGolden describes the gold SQL of every question of the demo ERP
// exam. The golden file puts each question above the description of its
// query, so that a reader can check that one answers the other; review
// the diff after -update as you would review the descriptions themselves.
func TestERPGolden(t *testing.T) {
	qs, err := erp.Exam()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, q := range qs {
		d, err := describe.SQL(q.GoldSQL)
		if err != nil {
			t.Fatalf("%s: %v", q.QID, err)
		}
		fmt.Fprintf(&b, "== %s\nQ: %s\nA: %s\n\n", q.QID, q.Question, d.Text)
	}
	gentest.UpToDate(t, filepath.Join("testdata", "erp.golden"), []byte(b.String()), *update,
		"go test ./describe -run TestERPGolden -update")
	if len(qs) != 82 {
		t.Errorf("%d exam questions, want 82", len(qs))
	}
}
