package execute

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
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

// number returns numeric text as a json.Number, except NaN and the
// infinities, which JSON has no number for.
func number(s string) any {
	switch s {
	case "NaN", "Infinity", "-Infinity":
		return s
	}
	return json.Number(s)
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
	case nil, bool, string, int64:
		return x
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
		return json.Number(b)
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
