package plan_test

import (
	"errors"
	"fmt"

	"github.com/nl2sqlgo/nl2sql/plan"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// exampleCatalog stands in for schema.Introspect, so the examples run
// without a database.
func exampleCatalog() *schema.Catalog {
	id := schema.Column{Name: "id", Type: "integer", PrimaryKey: true}
	ref := func(col, table string) schema.ForeignKey {
		return schema.ForeignKey{Name: col + "_fkey", Columns: []string{col}, RefSchema: "school", RefTable: table, RefColumns: []string{"id"}}
	}
	return schema.NewCatalog([]schema.Schema{{Name: "school"}}, []*schema.Table{
		{Schema: "school", Name: "students", Columns: []schema.Column{id, {Name: "name", Type: "text"}}, PrimaryKey: []string{"id"}},
		{Schema: "school", Name: "courses", Columns: []schema.Column{id, {Name: "teacher_id", Type: "integer"}}, PrimaryKey: []string{"id"},
			ForeignKeys: []schema.ForeignKey{ref("teacher_id", "teachers")}},
		{Schema: "school", Name: "teachers", Columns: []schema.Column{id}, PrimaryKey: []string{"id"}},
		{Schema: "school", Name: "enrollments",
			Columns:     []schema.Column{{Name: "student_id", Type: "integer"}, {Name: "course_id", Type: "integer"}},
			PrimaryKey:  []string{"student_id", "course_id"},
			ForeignKeys: []schema.ForeignKey{ref("student_id", "students"), ref("course_id", "courses")}},
		{Schema: "school", Name: "rooms", Columns: []schema.Column{id}, PrimaryKey: []string{"id"}},
	}, nil)
}

func ExampleGraph_Connect() {
	g := plan.NewGraph(exampleCatalog())
	tree, err := g.Connect([]string{"school.students", "school.teachers"})
	if err != nil {
		panic(err)
	}
	fmt.Println("added:", tree.Added())
	fmt.Println(tree.Skeleton(plan.SearchPath("school"), plan.Multiline(true)))
	for _, e := range tree.Edges() {
		fmt.Println(e.From, "=", e.To)
	}
	// Output:
	// added: [school.enrollments school.courses]
	// FROM students s
	// JOIN enrollments e ON e.student_id = s.id
	// JOIN courses c ON c.id = e.course_id
	// JOIN teachers t ON t.id = c.teacher_id
	// school.students.id = school.enrollments.student_id
	// school.enrollments.course_id = school.courses.id
	// school.courses.teacher_id = school.teachers.id
}

func ExampleGraph_Connect_noPath() {
	g := plan.NewGraph(exampleCatalog())
	tree, err := g.Connect([]string{"school.students", "school.rooms"})
	var np *plan.NoPathError
	if errors.As(err, &np) {
		fmt.Println("not connected:", np.Unconnected)
	}
	fmt.Println(tree.Skeleton())
	// Output:
	// not connected: [school.rooms]
	// FROM school.students s CROSS JOIN school.rooms r /* no join path */
}

func ExampleGraph_KShortestPaths() {
	g := plan.NewGraph(exampleCatalog())
	for _, p := range g.KShortestPaths("school.enrollments", "school.teachers", 3) {
		fmt.Printf("%.2f %s\n", p.Cost, p)
	}
	fmt.Println("junctions:", g.Junctions())
	// Output:
	// 2.00 school.enrollments -[course_id=id]-> school.courses -[teacher_id=id]-> school.teachers
	// junctions: [school.enrollments]
}

func ExampleTree_FanOuts() {
	g := plan.NewGraph(exampleCatalog())
	tree, err := g.Connect([]string{"school.students", "school.courses", "school.teachers"})
	if err != nil {
		panic(err)
	}
	for _, f := range tree.FanOuts() {
		fmt.Printf("one row per %s: %v repeat\n", f.Many, f.Multiplied)
	}
	// Output:
	// one row per school.enrollments: [school.students] repeat
	// one row per school.enrollments: [school.courses school.teachers] repeat
	// one row per school.courses: [school.teachers] repeat
}

func ExampleTree_Prune() {
	g := plan.NewGraph(exampleCatalog())
	// The question is about students; courses were retrieved too.
	tree, err := g.Connect([]string{"school.students", "school.courses"})
	if err != nil {
		panic(err)
	}
	fmt.Println(tree.Skeleton(plan.SearchPath("school"), plan.FanOutNotes(true)))
	fmt.Println(tree.Prune("school.students").Skeleton(plan.SearchPath("school")))
	// Output:
	// FROM students s JOIN enrollments e ON e.student_id = s.id /* one row per e: s repeats */ JOIN courses c ON c.id = e.course_id /* one row per e: c repeats */
	// FROM students s
}

func ExampleAmong() {
	g := plan.NewGraph(exampleCatalog())
	// The context retrieved students and teachers, not the tables between.
	_, err := g.Connect([]string{"school.students", "school.teachers"}, plan.Among("school.students", "school.teachers"))
	fmt.Println(errors.Is(err, plan.ErrNoPath))
	// Output:
	// true
}
