package semantic

import "github.com/nl2sqlgo/nl2sql/schema"

// Model is a semantic model: what the business has defined over the tables
// of one database. Read it with Load or Read, then Check it against the
// catalog before using its definitions.
type Model struct {
	Version           int                 `yaml:"version"`
	Entities          []*Entity           `yaml:"entities"`
	Relationships     []*Relationship     `yaml:"relationships"`
	Metrics           []*Metric           `yaml:"metrics"`
	VerifiedQuestions []*VerifiedQuestion `yaml:"verified_questions"`

	// File is the name the model was read from ("" for a reader).
	File string `yaml:"-"`
}

// Entity is a table (or a logical entity over one table) and what is
// defined on it.
type Entity struct {
	Name string `yaml:"name"`
	// Table is the relation, "table" or "schema.table"; empty means Name.
	Table          string           `yaml:"table"`
	Description    string           `yaml:"description"`
	Synonyms       []string         `yaml:"synonyms"`
	Dimensions     []*Dimension     `yaml:"dimensions"`
	TimeDimensions []*TimeDimension `yaml:"time_dimensions"`
	Measures       []*Measure       `yaml:"measures"`
	Filters        []*Filter        `yaml:"filters"`
	Line           int              `yaml:"-"`

	table *schema.Table // resolved by Check
}

// Dimension is a column or expression to group or filter by.
type Dimension struct {
	Name string `yaml:"name"`
	// Expr is a SQL expression over the entity's columns; empty means Name.
	Expr        string   `yaml:"expr"`
	Description string   `yaml:"description"`
	Synonyms    []string `yaml:"synonyms"`
	Line        int      `yaml:"-"`
}

// TimeDimension is a date or timestamp dimension with its finest grain.
type TimeDimension struct {
	Name        string   `yaml:"name"`
	Expr        string   `yaml:"expr"`
	Grain       Grain    `yaml:"grain"`
	Description string   `yaml:"description"`
	Synonyms    []string `yaml:"synonyms"`
	Line        int      `yaml:"-"`
}

// Grain is the finest granularity of a time dimension.
type Grain string

// Grains.
const (
	GrainDay     Grain = "day"
	GrainWeek    Grain = "week"
	GrainMonth   Grain = "month"
	GrainQuarter Grain = "quarter"
	GrainYear    Grain = "year"
)

// Measure is an aggregation of an expression over the entity's rows, with
// an optional filter ("revenue": sum of total_amount where the order was
// not cancelled).
type Measure struct {
	Name string `yaml:"name"`
	// Expr is the aggregated expression; empty means Name, except for
	// count, where empty counts rows.
	Expr string      `yaml:"expr"`
	Agg  Aggregation `yaml:"agg"`
	// Filter is a boolean SQL expression over the entity's columns, or the
	// name of a named filter of the same entity.
	Filter      string   `yaml:"filter"`
	Description string   `yaml:"description"`
	Synonyms    []string `yaml:"synonyms"`
	Line        int      `yaml:"-"`

	entity *Entity
}

// Aggregation is how a measure aggregates its expression.
type Aggregation string

// Aggregations.
const (
	AggSum           Aggregation = "sum"
	AggCount         Aggregation = "count"
	AggCountDistinct Aggregation = "count_distinct"
	AggAvg           Aggregation = "avg"
	AggMin           Aggregation = "min"
	AggMax           Aggregation = "max"
	AggMedian        Aggregation = "median"
)

// Filter is a named boolean condition ("active customer").
type Filter struct {
	Name        string   `yaml:"name"`
	Expr        string   `yaml:"expr"`
	Description string   `yaml:"description"`
	Synonyms    []string `yaml:"synonyms"`
	Line        int      `yaml:"-"`

	entity *Entity
}

// Metric is built from measures: a ratio of two, or an expression over
// several (derived).
type Metric struct {
	Name string     `yaml:"name"`
	Type MetricType `yaml:"type"`
	// Numerator and Denominator name measures or metrics (ratio).
	Numerator   string `yaml:"numerator"`
	Denominator string `yaml:"denominator"`
	// Expr is an arithmetic expression whose identifiers name measures or
	// metrics (derived), e.g. "revenue - cost".
	Expr        string   `yaml:"expr"`
	Description string   `yaml:"description"`
	Synonyms    []string `yaml:"synonyms"`
	Line        int      `yaml:"-"`
}

// MetricType is the kind of a metric.
type MetricType string

// Metric types.
const (
	MetricRatio   MetricType = "ratio"
	MetricDerived MetricType = "derived"
)

// Relationship is a join path no foreign key declares: From's columns
// equal To's, pairwise.
type Relationship struct {
	Name        string   `yaml:"name"`
	From        string   `yaml:"from"`
	FromColumns []string `yaml:"from_columns"`
	To          string   `yaml:"to"`
	ToColumns   []string `yaml:"to_columns"`
	// Kind is many_to_one (default), one_to_one or one_to_many.
	Kind        string `yaml:"kind"`
	Description string `yaml:"description"`
	Line        int    `yaml:"-"`

	from, to *schema.Table
}

// VerifiedQuestion is a question with SQL the business has checked. Its
// parameters are slots ({name}) in both the question and the SQL.
type VerifiedQuestion struct {
	Question   string       `yaml:"question"`
	SQL        string       `yaml:"sql"`
	Parameters []*Parameter `yaml:"parameters"`
	Line       int          `yaml:"-"`
}

// Parameter is a slot of a verified question.
type Parameter struct {
	Name string    `yaml:"name" json:"name"`
	Kind ParamKind `yaml:"kind" json:"kind"`
	// Column is the "table.column" whose stored values the slot takes
	// (kind value).
	Column string `yaml:"column" json:"column,omitempty"`
	// Examples are values the slot takes, as text: "2024" (year),
	// "2024-01-01/2024-04-01" (date range, end exclusive), "10" (top_n), a
	// stored value (value). At least one is required.
	Examples []string `yaml:"examples" json:"examples"`
	Line     int      `yaml:"-" json:"-"`
}

// ParamKind is what a parameter stands for.
type ParamKind string

// Parameter kinds.
const (
	ParamYear      ParamKind = "year"
	ParamDateRange ParamKind = "date_range"
	ParamValue     ParamKind = "value"
	ParamTopN      ParamKind = "top_n"
)
