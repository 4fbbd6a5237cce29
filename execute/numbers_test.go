package execute

import (
	"encoding/json"
	"testing"
)

// TestJSONNumbers: integers beyond ±2^53 and numerics a float64 cannot read
// back unchanged come out as strings; the rest stay JSON numbers.
func TestJSONNumbers(t *testing.T) {
	_, pool := fixture(t, 0)
	ex := New(pool)
	res := mustQuery(t, ex, `SELECT 9007199254740993::bigint, -9007199254740993::bigint, 9223372036854775807::bigint,
		9007199254740992::bigint, -9007199254740992::bigint, 42::bigint, 12345678901234567890::numeric,
		0.1::numeric, 1.25::numeric, 9007199254740993::numeric, 9007199254740992::numeric,
		3.14159265358979323846::numeric, 12345678901234.5::numeric, 1234567890123456.7::numeric,
		1.5::float8, 0.1::float8, ARRAY[9007199254740993, 1]::int8[], ARRAY[0.1, 12345678901234567890]::numeric[],
		'NaN'::numeric, 2147483647::int4`)
	want := []string{`"9007199254740993"`, `"-9007199254740993"`, `"9223372036854775807"`,
		`9007199254740992`, `-9007199254740992`, `42`, `"12345678901234567890"`,
		`0.1`, `1.25`, `"9007199254740993"`, `9007199254740992`,
		`"3.14159265358979323846"`, `12345678901234.5`, `"1234567890123456.7"`,
		`1.5`, `0.1`, `["9007199254740993",1]`, `[0.1,"12345678901234567890"]`,
		`"NaN"`, `2147483647`}
	for i, w := range want {
		b, err := json.Marshal(res.Rows[0][i])
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != w {
			t.Errorf("column %d: %s (%T), want %s", i+1, b, res.Rows[0][i], w)
		}
	}
}

func TestSafeDecimal(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-0": true, "9007199254740992": true, "-9007199254740992": true, "9007199254740993": false,
		"0.1": true, "0.10": true, "-0.000001": true, "123456789012345": true, "1234567890123456.0": false,
		"999999999999999.9": false, "99999999999999.9": true, "1.000000000000000000": true, "abc": false,
	} {
		if got := safeDecimal(s); got != want {
			t.Errorf("safeDecimal(%q) = %v, want %v", s, got, want)
		}
	}
}
