package validate_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nl2sqlgo/nl2sql/examples/erp"
	"github.com/nl2sqlgo/nl2sql/internal/erptest"
	"github.com/nl2sqlgo/nl2sql/internal/pgtest"
	"github.com/nl2sqlgo/nl2sql/validate"
)

const benchSimple = "SELECT u.name, sum(o.amount) AS total FROM users u JOIN orders o ON o.user_id = u.id WHERE o.created_at > now() - interval '30 days' GROUP BY u.name ORDER BY total DESC LIMIT 10"

const bench10Joins = `SELECT t1.id, t2.name, t3.amount, count(*) FROM t1
	JOIN t2 ON t2.t1_id = t1.id JOIN t3 ON t3.t2_id = t2.id JOIN t4 ON t4.t3_id = t3.id
	JOIN t5 ON t5.t4_id = t4.id JOIN t6 ON t6.t5_id = t5.id JOIN t7 ON t7.t6_id = t6.id
	JOIN t8 ON t8.t7_id = t7.id JOIN t9 ON t9.t8_id = t8.id JOIN t10 ON t10.t9_id = t9.id
	JOIN t11 ON t11.t10_id = t10.id
	WHERE t1.created_at >= '2024-01-01' AND t5.status IN ('a', 'b') AND t11.flag
	GROUP BY t1.id, t2.name, t3.amount HAVING count(*) > 1 ORDER BY 4 DESC LIMIT 50`

func benchValidate(b *testing.B, v *validate.Validator, sql string) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Validate(sql); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateSimple(b *testing.B) { benchValidate(b, shopValidator(), benchSimple) }

// BenchmarkValidateSimpleKeyed is BenchmarkValidateSimple with the tables'
// keys: the fan-trap lint (L010) judges the join (it warns about nothing).
func BenchmarkValidateSimpleKeyed(b *testing.B) {
	keyed := slices.Clone(shopTables)
	for i := range keyed {
		keyed[i].PrimaryKey = []string{"id"}
		if keyed[i].Name == "orders" {
			keyed[i].ForeignKeys = []validate.ForeignKey{{Columns: []string{"user_id"}, RefSchema: "public", RefTable: "users", RefColumns: []string{"id"}}}
		}
	}
	benchValidate(b, validate.New(validate.WithTables(keyed...), validate.WithMaxRows(1000)), benchSimple)
}

func BenchmarkValidate10Joins(b *testing.B) {
	var tables []validate.Table
	for i := 1; i <= 11; i++ {
		// t<i> references t<i-1> by t<i-1>_id.
		tables = append(tables, validate.Table{Schema: "public", Name: fmt.Sprintf("t%d", i),
			Columns: []string{"id", "name", "amount", "status", "flag", "created_at", fmt.Sprintf("t%d_id", i-1)}})
	}
	benchValidate(b, validate.New(validate.WithTables(tables...)), bench10Joins)
}

func BenchmarkValidateRejected(b *testing.B) {
	v := shopValidator()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Validate("WITH x AS (SELECT pg_sleep(1)) SELECT * FROM x, pg_authid"); err == nil {
			b.Fatal("accepted")
		}
	}
}

// BenchmarkExplain6 explains the six candidates of one question against a
// real server.
func BenchmarkExplain6(b *testing.B) {
	pool := shopPool(b)
	v := shopValidator()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res := v.Explain(ctx, pool, explainCandidates)
		if res[0].Err != nil {
			b.Fatal(res[0].Err)
		}
	}
}

// BenchmarkValidateERPExam validates the demo ERP exam's 82 gold queries in
// turn (the candidates a good model writes: joins, CTEs, windows,
// subqueries) against the ERP's 91 tables: ns/op is the mean per
// candidate; p50-µs and p95-µs are per query.
func BenchmarkValidateERPExam(b *testing.B) { benchERPExam(b, catalogTables) }

// BenchmarkValidateERPExamKeyed is BenchmarkValidateERPExam with the
// tables' keys, as the Engine passes them: the fan-trap lint (L010) runs.
func BenchmarkValidateERPExamKeyed(b *testing.B) { benchERPExam(b, catalogKeyedTables) }

func benchERPExam(b *testing.B, tables func(testing.TB, *pgxpool.Pool) []validate.Table) {
	exam, err := erp.Exam()
	if err != nil {
		b.Fatal(err)
	}
	dsn := pgtest.FromTemplate(b, "validate-erp-"+erp.Version(), func(ctx context.Context, conn *pgx.Conn) error {
		return erp.Load(ctx, conn, erp.Options{NoData: true})
	})
	v := validate.New(validate.WithTables(tables(b, pgtest.Pool(b, dsn))...), validate.WithSearchPath("public"), validate.WithMaxRows(1000))
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sql := exam[i%len(exam)].GoldSQL
		start := time.Now()
		if _, err := v.Validate(sql); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*95/100].Nanoseconds())/1e3, "p95-µs")
}

// BenchmarkCheckPlan checks verbose plans: a small one (shop schema), the
// plan of the ERP exam's gold query with the most joins (single layout,
// with data), and the exam's 82 gold plans in turn (ns/op: the mean).
func BenchmarkCheckPlan(b *testing.B) {
	exam, err := erp.Exam()
	if err != nil {
		b.Fatal(err)
	}
	erpPool := pgtest.Pool(b, erptest.Single(b))
	v := validate.New(validate.WithTables(catalogTables(b, erpPool)...), validate.WithMaxRows(1000))
	sqls := make([]string, len(exam))
	widest := 0
	for i, q := range exam {
		sqls[i] = q.GoldSQL
		if joins(q.GoldSQL) > joins(sqls[widest]) {
			widest = i
		}
	}
	var plans [][]byte
	for i, r := range v.Explain(context.Background(), erpPool, sqls) {
		if r.Err != nil {
			b.Fatalf("%s: %v", exam[i].QID, r.Err)
		}
		plans = append(plans, r.Plan)
	}
	small := shopValidator().Explain(context.Background(), shopPool(b), []string{"SELECT count(*) FROM orders WHERE amount > 10"})[0]
	if small.Err != nil {
		b.Fatal(small.Err)
	}
	run := func(name string, v *validate.Validator, plans ...[]byte) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if err := v.CheckPlan(plans[i%len(plans)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	run("small", shopValidator(), small.Plan)
	run(fmt.Sprintf("erp-%s-%djoins", exam[widest].QID, joins(sqls[widest])), v, plans[widest])
	run("erp-exam", v, plans...)
}

func joins(sql string) int { return len(joinWord.FindAllString(sql, -1)) }

var joinWord = regexp.MustCompile(`(?i)\bjoin\b`)
