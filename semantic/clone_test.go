package semantic

import (
	"reflect"
	"testing"
)

func TestCloneIsDeep(t *testing.T) {
	m, err := Load("../examples/erp/semantic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c := m.Clone()
	if !reflect.DeepEqual(m, c) {
		t.Fatal("a clone of a model read from a file differs from it")
	}
	c.Entities[0].Synonyms = append(c.Entities[0].Synonyms[:0:0], "changed")
	c.Entities[0].Measures[0].Expr = "changed"
	c.VerifiedQuestions[0].Question = "changed"
	if m.Entities[0].Measures[0].Expr == "changed" || m.VerifiedQuestions[0].Question == "changed" {
		t.Fatal("changing the clone changed the original")
	}
	for _, e := range c.Entities {
		for _, ms := range e.Measures {
			if ms.entity != nil && ms.entity != e {
				t.Fatalf("measure %s of the clone points at another entity", ms.Name)
			}
		}
	}
	if (*Model)(nil).Clone() != nil {
		t.Fatal("the clone of nil is not nil")
	}
}
