package semantic

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"go.yaml.in/yaml/v3"

	"github.com/nl2sqlgo/nl2sql/schema"
)

// MaxDBTFiles is the most YAML files ImportDBT reads.
const MaxDBTFiles = 1000

// ErrDBT is returned (wrapped) when a dbt project cannot be read at all.
var ErrDBT = errors.New("semantic: dbt import failed")

// DBTReport says what ImportDBT read and what it could not map.
type DBTReport struct {
	Files    []string   // the YAML files read, sorted
	Unmapped []Unmapped // sorted by file and line
}

// Unmapped is a part of a dbt project ImportDBT left out, and why.
type Unmapped struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Kind   string `json:"kind"` // "semantic_model", "entity", "dimension", "measure", "metric", "saved_query", "model"
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

func (u Unmapped) String() string {
	return fmt.Sprintf("%s:%d: %s %s: %s", u.File, u.Line, u.Kind, u.Name, u.Reason)
}

// The dbt MetricFlow YAML (the standalone spec of dbt 1.6 onwards:
// top-level semantic_models and metrics). Only the fields that carry over
// are read; the others are ignored, as dbt's own keys evolve.
type dbtFile struct {
	SemanticModels []*dbtSemanticModel `yaml:"semantic_models"`
	Metrics        []*dbtMetric        `yaml:"metrics"`
	SavedQueries   []*dbtNamed         `yaml:"saved_queries"`
	// Models is a list in a properties file, a mapping of configs in
	// dbt_project.yml.
	Models yaml.Node `yaml:"models"`
}

type dbtNamed struct {
	Name string `yaml:"name"`
	Line int    `yaml:"-"`
}

type dbtModel struct {
	Name          string    `yaml:"name"`
	SemanticModel yaml.Node `yaml:"semantic_model"`
	Line          int       `yaml:"-"`
}

type dbtSemanticModel struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Model       string `yaml:"model"`
	Entities    []*struct {
		Name string `yaml:"name"`
		Type string `yaml:"type"`
		Expr string `yaml:"expr"`
	} `yaml:"entities"`
	Dimensions []*dbtDimension `yaml:"dimensions"`
	Measures   []*dbtMeasure   `yaml:"measures"`
	Line       int             `yaml:"-"`
}

type dbtDimension struct {
	Name        string `yaml:"name"`
	Type        string `yaml:"type"`
	Expr        string `yaml:"expr"`
	Description string `yaml:"description"`
	Label       string `yaml:"label"`
	TypeParams  struct {
		TimeGranularity string `yaml:"time_granularity"`
	} `yaml:"type_params"`
	Line int `yaml:"-"`
}

type dbtMeasure struct {
	Name        string `yaml:"name"`
	Agg         string `yaml:"agg"`
	Expr        string `yaml:"expr"`
	Description string `yaml:"description"`
	Label       string `yaml:"label"`
	AggParams   struct {
		Percentile            float64 `yaml:"percentile"`
		UseDiscretePercentile bool    `yaml:"use_discrete_percentile"`
	} `yaml:"agg_params"`
	NonAdditiveDimension yaml.Node `yaml:"non_additive_dimension"`
	Line                 int       `yaml:"-"`
}

type dbtMetric struct {
	Name        string    `yaml:"name"`
	Description string    `yaml:"description"`
	Label       string    `yaml:"label"`
	Type        string    `yaml:"type"`
	Filter      yaml.Node `yaml:"filter"`
	TypeParams  struct {
		Measure     *dbtRef   `yaml:"measure"`
		Numerator   *dbtRef   `yaml:"numerator"`
		Denominator *dbtRef   `yaml:"denominator"`
		Expr        string    `yaml:"expr"`
		Metrics     []*dbtRef `yaml:"metrics"`
	} `yaml:"type_params"`
	Line int `yaml:"-"`
}

// dbtRef is a measure or metric input: a name, or a mapping with a filter,
// an alias or an offset.
type dbtRef struct {
	Name          string    `yaml:"name"`
	Filter        yaml.Node `yaml:"filter"`
	Alias         string    `yaml:"alias"`
	OffsetWindow  string    `yaml:"offset_window"`
	OffsetToGrain string    `yaml:"offset_to_grain"`
}

func (r *dbtRef) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		r.Name = n.Value
		return nil
	}
	type plain dbtRef
	return n.Decode((*plain)(r))
}

// dbtFiles lists the YAML files under paths (files or directories),
// skipping what dbt writes or installs (target, dbt_packages, logs) and
// hidden directories.
func dbtFiles(paths []string) ([]string, error) {
	var out []string
	for _, root := range paths {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "target" || name == "dbt_packages" || name == "logs") {
					return filepath.SkipDir
				}
				return nil
			}
			if ext := filepath.Ext(path); ext == ".yml" || ext == ".yaml" {
				out = append(out, path)
			}
			if len(out) > MaxDBTFiles {
				return fmt.Errorf("more than %d YAML files", MaxDBTFiles)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrDBT, err)
		}
	}
	sort.Strings(out)
	return out, nil
}

// ImportDBT reads the dbt MetricFlow semantic models and metrics under
// paths (a project directory or YAML files) into a Model, for the tables
// that exist in catalog, and reports what it could not map: a semantic
// model over a table the catalog lacks, a semi-additive or percentile
// measure, cumulative and conversion metrics, offsets, filters naming
// another semantic model's dimensions, Jinja it cannot translate, saved
// queries, and the semantic_model blocks of dbt's newer model-attached
// spec. Check the returned model before using it: ImportDBT maps names,
// it does not judge the expressions.
func ImportDBT(catalog *schema.Catalog, paths ...string) (*Model, *DBTReport, error) {
	if catalog == nil {
		return nil, nil, fmt.Errorf("%w: ImportDBT needs a catalog", ErrDBT)
	}
	files, err := dbtFiles(paths)
	if err != nil {
		return nil, nil, err
	}
	im := &importer{catalog: catalog, report: &DBTReport{Files: files}, model: &Model{Version: 1, File: "dbt"},
		measures: map[string]*Measure{}, dims: map[string]dbtDim{}, primary: map[string]dbtKey{}}
	var parsed []struct {
		file string
		f    *dbtFile
	}
	for _, file := range files {
		f, err := readDBTFile(file)
		if err != nil {
			return nil, nil, err
		}
		parsed = append(parsed, struct {
			file string
			f    *dbtFile
		}{file, f})
	}
	for _, p := range parsed { // primary entities first: foreign ones point at them
		for _, sm := range p.f.SemanticModels {
			im.keys(p.file, sm)
		}
	}
	for _, p := range parsed {
		for _, sm := range p.f.SemanticModels {
			im.semanticModel(p.file, sm)
		}
		for _, q := range p.f.SavedQueries {
			im.unmapped(p.file, q.Line, "saved_query", q.Name, "saved queries are not imported; write them as verified questions")
		}
		var models struct {
			List []*dbtModel `yaml:"models"`
		}
		if p.f.Models.Kind == yaml.SequenceNode {
			// A model this cannot read has no semantic_model to report.
			decodeNode(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "models"}, &p.f.Models}}, reflect.ValueOf(&models).Elem(), false, new([]string))
		}
		for _, m := range models.List {
			if m.SemanticModel.Kind != 0 {
				im.unmapped(p.file, m.Line, "model", m.Name, "the model-attached semantic_model spec (dbt 1.12) is not imported; use top-level semantic_models")
			}
		}
	}
	for _, p := range parsed {
		for _, mt := range p.f.Metrics {
			im.metric(p.file, mt)
		}
	}
	im.dropBroken()
	sort.SliceStable(im.report.Unmapped, func(i, j int) bool {
		a, b := im.report.Unmapped[i], im.report.Unmapped[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	pr := &problems{file: "dbt"}
	im.model.shape(pr)
	if err := pr.err(); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrDBT, err)
	}
	return im.model, im.report, nil
}

func readDBTFile(file string) (*dbtFile, error) {
	fh, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDBT, err)
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrDBT, file, err)
	}
	if len(data) > MaxFileSize {
		return nil, Errors{{File: file, Msg: fmt.Sprintf("more than %d bytes", MaxFileSize), Err: ErrTooLarge}}
	}
	f := &dbtFile{}
	if err := decodeDocument(data, f, false); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDBT, yamlErrors(file, err))
	}
	return f, nil
}

// dbtDim is a dimension as a filter of the same semantic model can name it.
type dbtDim struct {
	sm   string // semantic model
	expr string
}

// dbtKey is a primary entity: its semantic model, table and column.
type dbtKey struct {
	sm     string
	table  *schema.Table
	column string
}

type importer struct {
	catalog  *schema.Catalog
	report   *DBTReport
	model    *Model
	measures map[string]*Measure // dbt measure name -> imported measure
	dims     map[string]dbtDim   // "entity__dimension" -> expression
	primary  map[string]dbtKey   // primary entity name -> its key
	tables   map[string]*schema.Table
	files    map[*Metric]string // where each imported metric was declared
}

func (im *importer) unmapped(file string, line int, kind, name, reason string) {
	im.report.Unmapped = append(im.report.Unmapped, Unmapped{File: file, Line: line, Kind: kind, Name: name, Reason: reason})
}

var refRE = regexp.MustCompile(`^\s*ref\(\s*['"]([^'"]+)['"](?:\s*,\s*['"]([^'"]+)['"])?\s*(?:,\s*v(?:ersion)?\s*=\s*[^)]*)?\)\s*$`)

// table resolves a semantic model's ref('model') to a catalog table: in
// public, or the only schema that has it.
func (im *importer) table(sm *dbtSemanticModel) (*schema.Table, string) {
	g := refRE.FindStringSubmatch(sm.Model)
	if g == nil {
		return nil, fmt.Sprintf("model %q is not a ref('...')", sm.Model)
	}
	name := g[1]
	if g[2] != "" {
		name = g[2] // ref('package', 'model')
	}
	if t := im.catalog.Table(name); t != nil {
		return t, ""
	}
	var found *schema.Table
	for _, t := range im.catalog.Tables {
		if t.Name == name {
			if found != nil {
				return nil, fmt.Sprintf("table %q is in several schemas", name)
			}
			found = t
		}
	}
	if found == nil {
		return nil, fmt.Sprintf("table %q is not in the catalog", name)
	}
	return found, ""
}

func (im *importer) keys(file string, sm *dbtSemanticModel) {
	t, _ := im.table(sm)
	if t == nil {
		return
	}
	if im.tables == nil {
		im.tables = map[string]*schema.Table{}
	}
	im.tables[sm.Name] = t
	for _, e := range sm.Entities {
		if e.Type != "primary" && e.Type != "unique" && e.Type != "natural" {
			continue
		}
		if col := orName(e.Expr, e.Name); t.Column(col) != nil {
			im.primary[e.Name] = dbtKey{sm: sm.Name, table: t, column: col}
		}
		// A filter names a dimension through its model's primary entity.
		for _, d := range sm.Dimensions {
			im.dims[e.Name+"__"+d.Name] = dbtDim{sm: sm.Name, expr: orName(d.Expr, d.Name)}
		}
	}
}

func (im *importer) semanticModel(file string, sm *dbtSemanticModel) {
	t, why := im.table(sm)
	if t == nil {
		im.unmapped(file, sm.Line, "semantic_model", sm.Name, why)
		return
	}
	e := &Entity{Name: sm.Name, Table: t.QualifiedName(), Description: strings.TrimSpace(sm.Description), Line: sm.Line}
	for _, en := range sm.Entities {
		if en.Type != "foreign" {
			continue
		}
		key, ok := im.primary[en.Name]
		col := orName(en.Expr, en.Name)
		switch {
		case !ok:
			im.unmapped(file, sm.Line, "entity", sm.Name+"."+en.Name, "no semantic model has it as its primary entity over a column")
		case t.Column(col) == nil:
			im.unmapped(file, sm.Line, "entity", sm.Name+"."+en.Name, fmt.Sprintf("expr %q is not a column of %s", col, t.QualifiedName()))
		case !hasForeignKey(t, col, key.table):
			im.model.Relationships = append(im.model.Relationships, &Relationship{Name: sm.Name + "_" + en.Name, From: t.QualifiedName(), FromColumns: []string{col},
				To: key.table.QualifiedName(), ToColumns: []string{key.column}, Kind: "many_to_one", Description: "dbt entity " + en.Name, Line: sm.Line})
		}
	}
	for _, d := range sm.Dimensions {
		expr := d.Expr
		if strings.Contains(expr, "{{") {
			im.unmapped(file, d.Line, "dimension", sm.Name+"."+d.Name, "Jinja in expr")
			continue
		}
		if expr == d.Name {
			expr = ""
		}
		syn := synonyms(d.Label, d.Name)
		switch d.Type {
		case "time":
			e.TimeDimensions = append(e.TimeDimensions, &TimeDimension{Name: d.Name, Expr: expr, Grain: grain(d.TypeParams.TimeGranularity), Description: d.Description, Synonyms: syn, Line: d.Line})
		case "categorical":
			e.Dimensions = append(e.Dimensions, &Dimension{Name: d.Name, Expr: expr, Description: d.Description, Synonyms: syn, Line: d.Line})
		default:
			im.unmapped(file, d.Line, "dimension", sm.Name+"."+d.Name, fmt.Sprintf("type %q is not categorical or time", d.Type))
		}
	}
	for _, ms := range sm.Measures {
		m, why := im.measure(sm.Name, ms)
		if m == nil {
			im.unmapped(file, ms.Line, "measure", sm.Name+"."+ms.Name, why)
			continue
		}
		m.entity = e
		e.Measures = append(e.Measures, m)
		im.measures[ms.Name] = m
	}
	im.model.Entities = append(im.model.Entities, e)
}

func hasForeignKey(t *schema.Table, col string, to *schema.Table) bool {
	for _, fk := range t.ForeignKeys {
		if len(fk.Columns) == 1 && fk.Columns[0] == col && fk.Ref() == to.QualifiedName() {
			return true
		}
	}
	return false
}

func grain(g string) Grain {
	switch Grain(g) {
	case GrainDay, GrainWeek, GrainMonth, GrainQuarter, GrainYear:
		return Grain(g)
	}
	return "" // hour, minute ...: the finest we know is a day
}

func synonyms(label, name string) []string {
	if label == "" || strings.EqualFold(strings.ReplaceAll(label, " ", "_"), name) {
		return nil
	}
	return []string{strings.ToLower(label)}
}

func (im *importer) measure(sm string, ms *dbtMeasure) (*Measure, string) {
	if im.measures[ms.Name] != nil {
		return nil, "another semantic model has a measure of this name"
	}
	if ms.NonAdditiveDimension.Kind != 0 {
		return nil, "semi-additive (non_additive_dimension): a sum over time would be wrong"
	}
	if strings.Contains(ms.Expr, "{{") {
		return nil, "Jinja in expr"
	}
	m := &Measure{Name: ms.Name, Expr: ms.Expr, Description: strings.TrimSpace(ms.Description), Synonyms: synonyms(ms.Label, ms.Name), Line: ms.Line}
	switch ms.Agg {
	case "sum", "min", "max", "count_distinct", "median":
		m.Agg = Aggregation(ms.Agg)
	case "count":
		m.Agg = AggCount
		if strings.TrimSpace(ms.Expr) == "1" || strings.TrimSpace(ms.Expr) == "*" {
			m.Expr = ""
		}
	case "average":
		m.Agg = AggAvg
	case "sum_boolean":
		m.Agg = AggSum
		m.Expr = "CASE WHEN (" + orName(ms.Expr, ms.Name) + ") THEN 1 ELSE 0 END"
	case "percentile":
		if ms.AggParams.Percentile != 0.5 || ms.AggParams.UseDiscretePercentile {
			return nil, fmt.Sprintf("percentile %g (discrete %t): only the continuous median maps", ms.AggParams.Percentile, ms.AggParams.UseDiscretePercentile)
		}
		m.Agg = AggMedian
	default:
		return nil, fmt.Sprintf("agg %q is not known", ms.Agg)
	}
	if m.Expr == ms.Name && m.Agg != AggCount {
		m.Expr = ""
	}
	return m, ""
}

func (im *importer) metric(file string, mt *dbtMetric) {
	fail := func(reason string) { im.unmapped(file, mt.Line, "metric", mt.Name, reason) }
	tp := mt.TypeParams
	if im.measures[mt.Name] != nil && (mt.Type != "simple" || tp.Measure == nil || tp.Measure.Name != mt.Name) || im.model.metric(mt.Name) != nil {
		fail("its name is already used by a measure or metric")
		return
	}
	add := func(m *Metric) {
		if im.files == nil {
			im.files = map[*Metric]string{}
		}
		im.files[m] = file
		im.model.Metrics = append(im.model.Metrics, m)
	}
	switch mt.Type {
	case "simple":
		if tp.Measure == nil {
			fail("a simple metric without type_params.measure")
			return
		}
		base := im.measures[tp.Measure.Name]
		if base == nil {
			fail(fmt.Sprintf("measure %q was not mapped", tp.Measure.Name))
			return
		}
		filter, why := im.filter(base.entity.Name, &mt.Filter, &tp.Measure.Filter)
		if why != "" {
			fail(why)
			return
		}
		if mt.Name == base.Name {
			if filter != "" {
				fail("has the name of its measure and adds a filter")
				return
			}
			base.Synonyms = appendNew(base.Synonyms, synonyms(mt.Label, mt.Name)...)
			return
		}
		if base.Filter != "" && filter != "" {
			filter = "(" + base.Filter + ") AND (" + filter + ")"
		} else if filter == "" {
			filter = base.Filter
		}
		m := *base
		m.Name, m.Filter, m.Line, m.Synonyms = mt.Name, filter, mt.Line, synonyms(mt.Label, mt.Name)
		if d := strings.TrimSpace(mt.Description); d != "" {
			m.Description = d
		}
		base.entity.Measures = append(base.entity.Measures, &m)
		im.measures[mt.Name] = &m
	case "ratio":
		if tp.Numerator == nil || tp.Denominator == nil {
			fail("a ratio without numerator and denominator")
			return
		}
		for _, r := range []*dbtRef{tp.Numerator, tp.Denominator} {
			if r.Filter.Kind != 0 || r.OffsetWindow != "" || r.OffsetToGrain != "" {
				fail(fmt.Sprintf("input %q has a filter or offset", r.Name))
				return
			}
		}
		if mt.Filter.Kind != 0 {
			fail("a filter on a ratio metric")
			return
		}
		add(&Metric{Name: mt.Name, Type: MetricRatio, Numerator: tp.Numerator.Name, Denominator: tp.Denominator.Name,
			Description: strings.TrimSpace(mt.Description), Synonyms: synonyms(mt.Label, mt.Name), Line: mt.Line})
	case "derived":
		alias := map[string]string{}
		for _, r := range tp.Metrics {
			if r.Filter.Kind != 0 || r.OffsetWindow != "" || r.OffsetToGrain != "" {
				fail(fmt.Sprintf("input %q has a filter or offset (offset_window, offset_to_grain)", r.Name))
				return
			}
			if r.Alias != "" {
				alias[r.Alias] = r.Name
			}
		}
		if mt.Filter.Kind != 0 {
			fail("a filter on a derived metric")
			return
		}
		expr, err := renameIdents(tp.Expr, alias)
		if err != nil {
			fail(err.Error())
			return
		}
		add(&Metric{Name: mt.Name, Type: MetricDerived, Expr: expr,
			Description: strings.TrimSpace(mt.Description), Synonyms: synonyms(mt.Label, mt.Name), Line: mt.Line})
	default:
		fail(fmt.Sprintf("%s metrics are not imported", mt.Type))
	}
}

func appendNew(list []string, add ...string) []string {
	for _, a := range add {
		found := false
		for _, x := range list {
			found = found || x == a
		}
		if !found {
			list = append(list, a)
		}
	}
	return list
}

// renameIdents replaces the identifiers of expr found in names.
func renameIdents(expr string, names map[string]string) (string, error) {
	if len(names) == 0 {
		return expr, nil
	}
	toks, err := pg.Scan(expr)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	last := 0
	for _, t := range toks.Tokens {
		if n, ok := names[expr[t.Start:t.End]]; ok {
			b.WriteString(expr[last:t.Start])
			b.WriteString(n)
			last = int(t.End)
		}
	}
	b.WriteString(expr[last:])
	return b.String(), nil
}

var jinjaRE = regexp.MustCompile(`\{\{\s*(Dimension|TimeDimension|Entity)\(\s*'([a-z0-9_]+)'\s*(?:,\s*'([a-z]+)'\s*)?\)\s*\}\}`)

// filter translates dbt's where filters (a string or a list, ANDed) into
// SQL over semantic model sm, or says why it cannot.
func (im *importer) filter(sm string, nodes ...*yaml.Node) (string, string) {
	var parts []string
	for _, n := range nodes {
		if n.Kind == 0 {
			continue
		}
		var list []string
		if n.Kind == yaml.ScalarNode {
			list = []string{n.Value}
		} else if err := n.Decode(&list); err != nil {
			return "", "filter is neither a string nor a list of strings"
		}
		for _, f := range list {
			why := ""
			sql := jinjaRE.ReplaceAllStringFunc(f, func(s string) string {
				g := jinjaRE.FindStringSubmatch(s)
				if g[1] == "Entity" {
					why = "a filter on an entity"
					return s
				}
				d, ok := im.dims[g[2]]
				if !ok || d.sm != sm {
					why = fmt.Sprintf("filter names %s, not a dimension of semantic model %s", g[2], sm)
					return s
				}
				if g[1] == "TimeDimension" && g[3] != "" {
					return "date_trunc('" + g[3] + "', " + d.expr + ")"
				}
				return d.expr
			})
			if why != "" {
				return "", why
			}
			if strings.Contains(sql, "{{") || strings.Contains(sql, "{%") {
				return "", "filter has Jinja that does not translate"
			}
			parts = append(parts, strings.TrimSpace(sql))
		}
	}
	if len(parts) <= 1 {
		return strings.Join(parts, ""), ""
	}
	return "(" + strings.Join(parts, ") AND (") + ")", ""
}

// dropBroken removes the metrics whose inputs were not mapped (repeatedly:
// a metric can depend on a dropped one).
func (im *importer) dropBroken() {
	for changed := true; changed; {
		changed = false
		kept := im.model.Metrics[:0]
		for _, mt := range im.model.Metrics {
			if missing := im.missing(mt); missing != "" {
				im.unmapped(im.files[mt], mt.Line, "metric", mt.Name, fmt.Sprintf("depends on %q, which was not mapped", missing))
				changed = true
				continue
			}
			kept = append(kept, mt)
		}
		im.model.Metrics = kept
	}
}

func (im *importer) missing(mt *Metric) string {
	known := func(n string) bool { return im.measures[n] != nil || im.model.metric(n) != nil }
	if mt.Type == MetricRatio {
		for _, n := range []string{mt.Numerator, mt.Denominator} {
			if !known(n) {
				return n
			}
		}
		return ""
	}
	toks, err := pg.Scan(mt.Expr)
	if err != nil {
		return mt.Expr
	}
	for i, t := range toks.Tokens {
		w := mt.Expr[t.Start:t.End]
		if t.Token == pg.Token_IDENT && (i+1 >= len(toks.Tokens) || toks.Tokens[i+1].Token != pg.Token_ASCII_40) && !known(w) {
			return w
		}
	}
	return ""
}
