package execute

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// binaryOIDs are the types read in the binary format and decoded by pgx; every
// other column is read as PostgreSQL's own text (pgx.QueryResultFormatsByOID
// defaults unlisted OIDs to text), which is exact and needs no Go type: numeric
// keeps all its digits, interval and enum values read as PostgreSQL prints
// them.
var binaryOIDs = pgx.QueryResultFormatsByOID{
	pgtype.BoolOID: pgx.BinaryFormatCode, pgtype.ByteaOID: pgx.BinaryFormatCode,
	pgtype.Int2OID: pgx.BinaryFormatCode, pgtype.Int4OID: pgx.BinaryFormatCode, pgtype.Int8OID: pgx.BinaryFormatCode,
	pgtype.OIDOID: pgx.BinaryFormatCode, pgtype.Float4OID: pgx.BinaryFormatCode, pgtype.Float8OID: pgx.BinaryFormatCode,
	pgtype.TextOID: pgx.BinaryFormatCode, pgtype.VarcharOID: pgx.BinaryFormatCode, pgtype.BPCharOID: pgx.BinaryFormatCode,
	pgtype.NameOID:      pgx.BinaryFormatCode,
	pgtype.TimestampOID: pgx.BinaryFormatCode, pgtype.TimestamptzOID: pgx.BinaryFormatCode,
	pgtype.BoolArrayOID: pgx.BinaryFormatCode, pgtype.Int2ArrayOID: pgx.BinaryFormatCode,
	pgtype.Int4ArrayOID: pgx.BinaryFormatCode, pgtype.Int8ArrayOID: pgx.BinaryFormatCode,
	pgtype.Float4ArrayOID: pgx.BinaryFormatCode, pgtype.Float8ArrayOID: pgx.BinaryFormatCode,
	pgtype.TextArrayOID: pgx.BinaryFormatCode, pgtype.VarcharArrayOID: pgx.BinaryFormatCode,
	pgtype.BPCharArrayOID: pgx.BinaryFormatCode, pgtype.NumericArrayOID: pgx.BinaryFormatCode,
	pgtype.DateArrayOID: pgx.BinaryFormatCode, pgtype.TimestampArrayOID: pgx.BinaryFormatCode,
	pgtype.TimestamptzArrayOID: pgx.BinaryFormatCode, pgtype.UUIDArrayOID: pgx.BinaryFormatCode,
}

// decodeValue converts one raw column value to a JSON-friendly Go value (see
// the Result.Rows documentation for the mapping).
func decodeValue(m *pgtype.Map, fd *pgconn.FieldDescription, raw []byte) (any, error) {
	if raw == nil {
		return nil, nil
	}
	if fd.Format == pgx.TextFormatCode {
		switch fd.DataTypeOID {
		case pgtype.NumericOID:
			return number(string(raw)), nil
		case pgtype.JSONOID, pgtype.JSONBOID:
			return json.RawMessage(append([]byte(nil), raw...)), nil
		}
		return string(raw), nil
	}
	if fd.DataTypeOID == pgtype.ByteaOID {
		return append([]byte(nil), raw...), nil
	}
	t, ok := m.TypeForOID(fd.DataTypeOID)
	if !ok {
		return nil, fmt.Errorf("no binary decoder for type OID %d", fd.DataTypeOID)
	}
	v, err := t.Codec.DecodeValue(m, fd.DataTypeOID, fd.Format, raw)
	if err != nil {
		return nil, fmt.Errorf("column %q: %w", fd.Name, err)
	}
	v = jsonValue(v, fd.DataTypeOID == pgtype.DateArrayOID)
	if flat, ok := v.([]any); ok {
		return reshape(flat, raw), nil
	}
	return v, nil
}

// reshape nests the flat elements pgx decodes a multi-dimensional array to,
// using the dimensions in the binary array header (ndim, flags, element OID,
// then size and lower bound per dimension).
func reshape(flat []any, raw []byte) any {
	if len(raw) < 12 {
		return flat
	}
	ndim := int(binary.BigEndian.Uint32(raw))
	if ndim < 2 || len(raw) < 12+8*ndim {
		return flat
	}
	dims := make([]int, ndim)
	total := 1
	for i := range dims {
		dims[i] = int(binary.BigEndian.Uint32(raw[12+8*i:]))
		total *= dims[i]
	}
	if total != len(flat) {
		return flat
	}
	var nest func(elems []any, dims []int) []any
	nest = func(elems []any, dims []int) []any {
		if len(dims) == 1 {
			return elems
		}
		out := make([]any, dims[0])
		step := len(elems) / dims[0]
		for i := range out {
			out[i] = nest(elems[i*step:(i+1)*step], dims[1:])
		}
		return out
	}
	return nest(flat, dims)
}

// maxSafeInt is 2^53: integers beyond ±maxSafeInt are not all exact in a
// float64, which is what JavaScript and most JSON readers parse numbers to.
const maxSafeInt = 1 << 53

// integer returns an integer as int64 when a float64 holds it exactly
// (|i| <= 2^53) and as its decimal string otherwise, so that no JSON reader
// gets a different number (9007199254740993 would read as ...992).
func integer(i int64) any {
	if i > maxSafeInt || i < -maxSafeInt {
		return strconv.FormatInt(i, 10)
	}
	return i
}

// number returns numeric text as a json.Number when any JSON reader gets
// its value back (an integer within ±2^53, or at most 15 significant digits
// in float64's normal range: every such decimal round-trips through a
// float64), and as the exact string otherwise: more digits than that, NaN
// and the infinities.
func number(s string) any {
	switch s {
	case "NaN", "Infinity", "-Infinity":
		return s
	}
	if safeDecimal(s) {
		return json.Number(s)
	}
	return s
}

// safeDecimal reports whether the numeric text s ([-]digits[.digits], as
// PostgreSQL and pgx print numeric) reads back as the same value from a
// float64: see number.
func safeDecimal(s string) bool {
	if !strings.ContainsAny(s, ".eE") {
		i, err := strconv.ParseInt(s, 10, 64)
		return err == nil && i <= maxSafeInt && i >= -maxSafeInt
	}
	intPart, frac, _ := strings.Cut(strings.TrimLeft(s, "+-"), ".")
	if strings.ContainsAny(frac, "eE") {
		return false // not PostgreSQL's form: keep it exact
	}
	digits := strings.Trim(intPart+frac, "0")
	if len(digits) > 15 {
		return false
	}
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && (f == 0 || math.Abs(f) >= 0x1p-1022) // normal: 15 digits round-trip
}

func float(f float64) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return f
}

// jsonValue normalises a value decoded by pgx. dates formats time.Time as a
// date (elements of a date[]).
func jsonValue(v any, dates bool) any {
	switch x := v.(type) {
	case nil, bool, string:
		return x
	case int64:
		return integer(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case uint32:
		return int64(x)
	case float32:
		return float(float64(x))
	case float64:
		return float(x)
	case time.Time:
		if dates {
			return x.Format(time.DateOnly)
		}
		return x
	case pgtype.InfinityModifier:
		return x.String()
	case pgtype.Numeric:
		if x.NaN {
			return "NaN"
		}
		if x.InfinityModifier != pgtype.Finite {
			return map[pgtype.InfinityModifier]string{pgtype.Infinity: "Infinity", pgtype.NegativeInfinity: "-Infinity"}[x.InfinityModifier]
		}
		b, err := x.MarshalJSON()
		if err != nil {
			return fmt.Sprint(x)
		}
		return number(string(b))
	case [16]byte:
		return fmt.Sprintf("%x-%x-%x-%x-%x", x[0:4], x[4:6], x[6:8], x[8:10], x[10:16])
	case []byte:
		return append([]byte(nil), x...)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e, dates)
		}
		return out
	}
	return fmt.Sprint(v)
}
