package nl2sql

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/nl2sqlgo/nl2sql/provision"
	"github.com/nl2sqlgo/nl2sql/schema"
)

// privilegeCheckTimeout bounds the privilege check, so a slow catalog does
// not hold up Prepare.
const privilegeCheckTimeout = 10 * time.Second

// checkPrivileges logs one warning when the engine's database role can do
// more than read: it is a superuser, has CREATEROLE, REPLICATION or
// BYPASSRLS, is a member (directly or through other roles) of a predefined
// role that reads or writes server files, runs programs, signals other
// sessions, reads or writes every table or reads other sessions' queries and
// every setting, may write a table of the catalog's schemas, or may CREATE
// in one of them or in a schema of its search path. A failure of the check
// itself is logged at debug level and never fails the caller. Call it once
// per Engine, after the first catalog is read.
func (e *Engine) checkPrivileges(ctx context.Context, cat *schema.Catalog) {
	var schemas []string
	if cat != nil {
		for _, s := range cat.Schemas {
			schemas = append(schemas, s.Name)
		}
	}
	schemas = append(schemas, e.cfg.shared...)
	if e.cfg.scope != "" {
		schemas = append(schemas, e.cfg.scope)
	}
	slices.Sort(schemas)
	schemas = slices.Compact(schemas)
	if schemas == nil {
		schemas = []string{} // the search path only, not every schema
	}
	ctx, cancel := context.WithTimeout(ctx, privilegeCheckTimeout)
	defer cancel()
	p, err := provision.ReadPrivileges(ctx, e.db, "", schemas, nil)
	if err != nil {
		e.cfg.logger.DebugContext(ctx, "nl2sql: checking the database role's privileges failed", "err", err)
		return
	}
	found := p.Findings()
	if len(found) == 0 {
		e.cfg.logger.DebugContext(ctx, "nl2sql: the database role can only read", "role", p.Role)
		return
	}
	attrs := []any{"role", p.Role, "found", strings.Join(found, "; ")}
	if e.cfg.role != "" {
		attrs = append(attrs, "query_role", e.cfg.role)
	}
	e.cfg.logger.WarnContext(ctx, "nl2sql: the database role can do more than read; "+
		"connect as a role with SELECT on the indexed schemas only (create one with 'nl2sql role')", attrs...)
}
