package validate

import (
	"sort"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// secretRelations hold credentials, connection strings or column value
// samples; they stay denied even with WithSystemCatalogs(true).
var secretRelations = setOf(
	"pg_authid", "pg_shadow", "pg_user_mapping", "pg_user_mappings", "pg_statistic", "pg_statistic_ext_data",
	"pg_largeobject", "pg_largeobject_metadata", "pg_hba_file_rules", "pg_ident_file_mappings",
	"pg_file_settings", "pg_subscription", "pg_db_role_setting", "pg_foreign_server", "pg_stats",
	"pg_stats_ext", "pg_stats_ext_exprs", "user_mapping_options", "user_mappings", "pg_roles",
	"pg_settings", "pg_stat_activity", "pg_replication_origin_status",
)

func systemSchema(s string) bool {
	return s == "pg_catalog" || s == "information_schema" || strings.HasPrefix(s, "pg_")
}

func (c *checker) rangeVar(r *pg.RangeVar) {
	if r.Catalogname != "" {
		c.violation(CodeTableNotAllowed, "cross-database reference %s.%s.%s is not allowed; use the tables of the current database",
			r.Catalogname, r.Schemaname, r.Relname)
		return
	}
	if r.Schemaname == "" && c.isCTE(r.Relname) {
		if !c.plan {
			c.uses.rangeItem(r.Relname, r.Alias, true)
		}
		return
	}
	schema, ok := c.resolve(r.Schemaname, r.Relname)
	if schema == "" {
		return // violation reported
	}
	if !ok || !c.schemaAllowed(schema) {
		c.violation(CodeTableNotAllowed, "relation %s is not in the allowed tables%s; use only the tables of the schema you were given",
			qualified(r.Schemaname, r.Relname), c.allowedHint())
		return
	}
	c.tables[schema+"."+r.Relname] = true
	c.uses.rels[[2]string{schema, r.Relname}] = true
	if !c.plan {
		site := relSite{loc: int(r.Location), schema: r.Schemaname, name: r.Relname}
		if r.Schemaname == "" && c.cfg.tables != nil {
			site.checked = schema
		}
		c.uses.relSites = append(c.uses.relSites, site)
		c.uses.rangeItem(r.Relname, r.Alias, false)
	}
}

// resolve finds the schema of a relation. It returns "" after reporting a
// violation, and ok=false when the relation is outside the allowed set.
func (c *checker) resolve(schema, name string) (string, bool) {
	catalog := func(s string) (string, bool) {
		if !c.cfg.allowCatalogs || secretRelations[name] {
			c.violation(CodeSystemCatalog, "system catalog %s.%s cannot be read; query only the application tables", s, name)
			return "", false
		}
		return s, true
	}
	if schema != "" {
		if systemSchema(schema) {
			return catalog(schema)
		}
		if c.cfg.tables == nil {
			return schema, true
		}
		return schema, c.cfg.tables[schema][name] != nil
	}
	// pg_catalog is searched before the search path unless listed in it,
	// so an unqualified pg_* name means a catalog.
	if strings.HasPrefix(name, "pg_") {
		return catalog("pg_catalog")
	}
	if s := c.pathOutsideSchemas(); s != "" {
		// Without a table list the name may live in any schema of the
		// path: the server takes the first that has it, which may be s.
		c.violation(CodeTableNotAllowed, "relation %s must be qualified with its schema: the search path also lists schema %s, outside the allowed schemas", name, s)
		return "", false
	}
	for _, s := range c.cfg.searchPath {
		if systemSchema(s) {
			if c.cfg.tables == nil && !c.cfg.allowCatalogs {
				// Cannot tell whether the name is a catalog relation.
				c.violation(CodeSystemCatalog, "relation %s may resolve to system schema %s on the search path; qualify it with its schema", name, s)
				return "", false
			}
			continue
		}
		if c.cfg.tables == nil {
			return s, true
		}
		if c.cfg.tables[s][name] != nil {
			return s, true
		}
	}
	if len(c.cfg.searchPath) == 0 {
		c.violation(CodeTableNotAllowed, "relation %s must be qualified with its schema (the search path is empty)", name)
		return "", false
	}
	return c.cfg.searchPath[0], false
}

// pathOutsideSchemas returns a schema of the search path that WithSchemas
// does not allow, when there is no table list to tell which schema an
// unqualified name resolves in ("" otherwise).
func (c *checker) pathOutsideSchemas() string {
	if c.cfg.tables != nil || c.cfg.schemas == nil {
		return ""
	}
	for _, s := range c.cfg.searchPath {
		if !systemSchema(s) && !c.cfg.schemas[s] {
			return s
		}
	}
	return ""
}

// schemaAllowed reports whether WithSchemas (if given) allows schema.
// System schemas are decided by the catalog rules instead.
func (c *checker) schemaAllowed(schema string) bool {
	return c.cfg.schemas == nil || c.cfg.schemas[schema] || systemSchema(schema)
}

func (c *checker) allowedHint() string {
	if c.cfg.tables == nil {
		return ""
	}
	var names []string
	for s, m := range c.cfg.tables {
		for n := range m {
			names = append(names, qualified(s, n))
		}
	}
	sort.Strings(names)
	more := ""
	if len(names) > 12 {
		names, more = names[:12], ", ..."
	}
	return " (allowed: " + strings.Join(names, ", ") + more + ")"
}

func qualified(schema, name string) string {
	if schema == "" {
		return name
	}
	return schema + "." + name
}
