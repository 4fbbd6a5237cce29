package sqlrefs

import (
	"slices"
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// fanCatalog: students and dogs with keys; friend and treatments without
// (their repeats come from the data stub below); ships keyed by id.
func fanCatalog() *schema.Catalog {
	return schema.NewCatalog(nil, []*schema.Table{
		{Schema: "public", Name: "students", Columns: cols("id", "name", "grade"), PrimaryKey: []string{"id"}},
		{Schema: "public", Name: "friend", Columns: cols("student_id", "friend_id")},
		{Schema: "public", Name: "dogs", Columns: cols("dog_id", "age", "breed"), PrimaryKey: []string{"dog_id"}},
		{Schema: "public", Name: "treatments", Columns: cols("treatment_id", "dog_id", "cost")},
		{Schema: "public", Name: "visits", Columns: cols("visit_id", "dog_id", "kind"), PrimaryKey: []string{"visit_id"},
			Unique: [][]string{{"dog_id", "kind"}}},
		{Schema: "Clinic", Name: "Owner", Columns: cols("OwnerID", "Name"), PrimaryKey: []string{"OwnerID"}},
		{Schema: "Clinic", Name: "Pet", Columns: cols("PetID", "OwnerID", "Weight"), PrimaryKey: []string{"PetID"}},
	}, nil)
}

// repeatsIn answers from a fixed list of repeating column sets, recording
// what it was asked.
type repeatsIn struct {
	repeat []string // "schema.table:col,col"
	asked  []string
}

func (r *repeatsIn) repeats(t *schema.Table, cols []string) bool {
	k := t.QualifiedName() + ":" + strings.Join(cols, ",")
	r.asked = append(r.asked, k)
	return slices.Contains(r.repeat, k)
}

func TestFanOut(t *testing.T) {
	data := func() *repeatsIn {
		return &repeatsIn{repeat: []string{"public.friend:student_id", "public.treatments:dog_id", "public.friend:friend_id"}}
	}
	cases := []struct {
		name string
		sql  string
		want bool
	}{
		// Aggregates over rows a join repeats.
		{"avg over a join with a keyless table that repeats", "SELECT avg(s.grade) FROM students s JOIN friend f ON s.id = f.student_id", true},
		{"join in WHERE", "SELECT avg(grade) FROM students, friend WHERE students.id = friend.student_id", true},
		{"upper case, no alias", "SELECT AVG(DOGS.AGE) FROM TREATMENTS JOIN DOGS ON TREATMENTS.DOG_ID = DOGS.DOG_ID", true},
		{"sum over a declared one-to-many", `SELECT sum(o."Name") FROM "Clinic"."Owner" o JOIN "Clinic"."Pet" p ON p."OwnerID" = o."OwnerID"`, true},
		{"unicode escape", `SELECT avg(U&"gr\0061de") FROM students s JOIN friend f ON s.id = f.student_id`, true},
		// A plain list repeated by a table it shows nothing of.
		{"list of dogs joined to treatments", "SELECT d.age FROM dogs d JOIN treatments t ON t.dog_id = d.dog_id", true},
		// An anti-join keeps each row once, but only when the NULL test
		// is on a join column or a column that is never NULL, in the
		// WHERE's AND chain.
		{"an aggregate of one table's columns beside another's", "SELECT avg(d.age), sum(t.cost) FROM dogs d JOIN treatments t ON t.dog_id = d.dog_id", true},
		{"IS NULL on a column that may be NULL", "SELECT d.age FROM dogs d LEFT JOIN treatments t ON t.dog_id = d.dog_id WHERE t.cost IS NULL", true},
		{"IS NOT NULL", "SELECT d.age FROM dogs d LEFT JOIN treatments t ON t.dog_id = d.dog_id WHERE t.dog_id IS NOT NULL", true},
		{"IS NULL inside an OR", "SELECT d.age FROM dogs d LEFT JOIN treatments t ON t.dog_id = d.dog_id WHERE t.dog_id IS NULL OR d.age > 3", true},
		{"IS NULL on the other table", "SELECT d.age FROM dogs d JOIN treatments t ON t.dog_id = d.dog_id WHERE d.breed IS NULL", true},

		// Not repeated.
		{"a quoted key fixed by a constant", `SELECT o."Name" FROM "Clinic"."Owner" o JOIN "Clinic"."Pet" p ON p."OwnerID" = o."OwnerID" WHERE p."PetID" = 5`, false},
		{"an aggregate of both tables' columns", "SELECT avg(t.cost - d.age) FROM dogs d JOIN treatments t ON t.dog_id = d.dog_id", false},
		{"anti-join on the join column", "SELECT d.age FROM dogs d LEFT JOIN treatments t ON t.dog_id = d.dog_id WHERE t.dog_id IS NULL", false},
		{"anti-join, upper case and quoted", `SELECT D.AGE FROM DOGS D LEFT OUTER JOIN TREATMENTS T ON T.DOG_ID = D.DOG_ID WHERE T."dog_id" IS NULL AND D.AGE > 2`, false},
		{"anti-join on the joined table's key", "SELECT d.age FROM dogs d LEFT JOIN visits v ON v.dog_id = d.dog_id WHERE v.visit_id IS NULL", false},
		{"anti-join with an aggregate", "SELECT avg(d.age) FROM dogs d LEFT JOIN treatments t ON t.dog_id = d.dog_id WHERE t.dog_id IS NULL", false},
		{"semi-join with IN", "SELECT avg(grade) FROM students WHERE id IN (SELECT student_id FROM friend)", false},
		{"the many side's own rows", "SELECT sum(t.cost) FROM treatments t JOIN dogs d ON d.dog_id = t.dog_id", false},
		{"count of the many side", "SELECT count(*) FROM students s JOIN friend f ON s.id = f.student_id", false},
		{"avg distinct", "SELECT avg(DISTINCT s.grade) FROM students s JOIN friend f ON s.id = f.student_id", false},
		{"a key fixed by a constant", "SELECT sum(d.age) FROM dogs d JOIN visits v ON v.dog_id = d.dog_id WHERE v.kind = 'checkup'", false},
		{"a key fixed by grouping", "SELECT v.kind, avg(d.age) FROM dogs d JOIN visits v ON v.dog_id = d.dog_id GROUP BY v.kind", false},
		{"the list shows the other table", "SELECT d.age, t.cost FROM dogs d JOIN treatments t ON t.dog_id = d.dog_id", false},
		{"a limited list picks rows", "SELECT d.age FROM dogs d JOIN treatments t ON t.dog_id = d.dog_id ORDER BY t.cost DESC LIMIT 1", false},
		{"distinct list", "SELECT DISTINCT d.age FROM dogs d JOIN treatments t ON t.dog_id = d.dog_id", false},
		{"star", "SELECT * FROM dogs d JOIN treatments t ON t.dog_id = d.dog_id", false},
		{"self-join", "SELECT avg(a.grade) FROM students a JOIN students b ON a.id = b.id", false},
		{"set operation", "SELECT avg(grade) FROM students UNION SELECT avg(age) FROM dogs", false},
		{"one table", "SELECT avg(grade) FROM students", false},
		{"not SQL", "SELECT FROM WHERE", false},
	}
	for _, tc := range cases {
		r := data()
		if got := FanOut(tc.sql, fanCatalog(), nil, r.repeats); got != tc.want {
			t.Errorf("%s: FanOut = %v, want %v (asked %v)", tc.name, got, tc.want, r.asked)
		}
	}
	// Without a data check, a table that declares no key is taken not to
	// repeat rows.
	if FanOut("SELECT avg(s.grade) FROM students s JOIN friend f ON s.id = f.student_id", fanCatalog(), nil, nil) {
		t.Error("FanOut without a data check marked a keyless join")
	}
	// The data check is asked about the columns the query joins and fixes.
	r := data()
	FanOut("SELECT avg(d.age) FROM dogs d JOIN treatments t ON t.dog_id = d.dog_id WHERE t.cost = 5", fanCatalog(), nil, r.repeats)
	if !slices.Equal(r.asked, []string{"public.treatments:cost,dog_id"}) {
		t.Errorf("asked %v, want the joined and fixed columns of treatments", r.asked)
	}
}
