package validate_test

import (
	"strings"
	"testing"

	"github.com/nl2sqlgo/nl2sql/validate"
)

// TestSeriesSizeWithoutOverflow: generate_series spans are counted in rows
// with float arithmetic: 2000 years in steps of 2 seconds used to overflow
// time.Duration, collapse both bounds and count about one row; date plus
// or minus an integer of days counts too. Every spelling is refused (V021)
// by the configured and the zero-config validator.
func TestSeriesSizeWithoutOverflow(t *testing.T) {
	for _, sql := range []string{
		`SELECT count(*) FROM generate_series(now() - interval '1000 years', now() + interval '1000 years', interval '2 seconds')`,
		`SELECT count(*) FROM generate_series(now() - interval '300 years', now(), interval '1 second')`,
		`SELECT count(*) FROM pg_catalog.generate_series(pg_catalog.now() - '1000 years'::interval, pg_catalog.now() + '1000 years'::interval, '2 seconds'::interval)`,
		`SELECT count(*) FROM "generate_series"(NOW() - INTERVAL '1000 YEARS', NOW() + INTERVAL '1000 YEARS', INTERVAL '2 SECONDS')`,
		`SELECT count(*) FROM U&"\0067enerate_series"(now() - interval '1000 years', now() + interval '1000 years', interval '2 seconds')`,
		`SELECT count(*) FROM generate_series('0001-01-01'::timestamp, '9999-12-31'::timestamp, interval '1 minute')`,
		`SELECT count(*) FROM generate_series(current_timestamp - interval '2 millennia', current_timestamp, interval '1 hour')`,
		`SELECT count(*) FROM generate_series(current_date - 100000, current_date, interval '1 day')`,
		`SELECT count(*) FROM generate_series('2020-01-01'::date, '2020-01-01'::date + 1000000, interval '1 day')`,
		`SELECT count(*) FROM generate_series('2020-01-01'::date, 1000000 + '2020-01-01'::date, '1 day')`,
		`SELECT count(*) FROM generate_series(DATE '2020-01-01' - 200000, DATE '2020-01-01', '1 day'::interval)`,
		`SELECT count(*) FROM generate_series((SELECT min(created_at) FROM orders) - interval '1000 years', (SELECT max(created_at) FROM orders), interval '1 day')`,
		`SELECT count(*) FROM generate_series(date_trunc('day', (SELECT min(created_at) FROM orders)), (SELECT max(created_at) FROM orders) + 500000, interval '1 day')`,
		// nested: CTE, subquery, sublink, LATERAL, VALUES, window frame
		`WITH s AS (SELECT generate_series(now() - interval '1000 years', now() + interval '1000 years', interval '2 seconds') AS d) SELECT count(*) FROM s`,
		`SELECT (SELECT count(*) FROM generate_series(now() - interval '1000 years', now() + interval '1000 years', interval '2 seconds'))`,
		`SELECT * FROM users u, LATERAL (SELECT count(*) FROM generate_series(current_date - 100000, current_date, interval '1 day')) g`,
		`SELECT * FROM (VALUES ((SELECT count(*) FROM generate_series(current_date - 100000, current_date, interval '1 day')))) v(n)`,
		`SELECT count(*) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM generate_series(current_date - 100000, current_date, interval '1 day')`,
	} {
		for name, v := range map[string]*validate.Validator{"strict": shopValidator(), "zero-config": validate.New()} {
			_, err := v.Validate(sql)
			if err == nil || !strings.Contains(err.Error(), validate.CodeSeries) {
				t.Errorf("%s: %s: got %v, want %s", name, sql, err, validate.CodeSeries)
			}
		}
	}
	v := shopValidator()
	for _, sql := range []string{
		`SELECT d FROM generate_series(now() - interval '1 year', now(), interval '1 day') d`,
		`SELECT d FROM generate_series(current_date - 365, current_date, interval '1 day') d`,
		`SELECT d FROM generate_series('2020-01-01'::date, '2020-01-01'::date + 1000, '1 day') d`,
		`SELECT d FROM generate_series(now() - interval '1000 years', now() + interval '1000 years', interval '1 year') d`,
		`SELECT d FROM generate_series((SELECT min(created_at) FROM orders) - interval '1 month', (SELECT max(created_at) FROM orders), interval '1 day') d`,
	} {
		mustValidate(t, v, sql)
	}
}
