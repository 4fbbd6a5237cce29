package retrieve

import (
	"context"
	"fmt"
)

// KnowledgeVersioner is a SchemaStore that can say cheaply whether its
// knowledge documents (KnowledgeID) changed: engine replicas sharing the
// store poll it and read the knowledge again only when the version moved.
// A store without it is read whole at every poll.
type KnowledgeVersioner interface {
	// KnowledgeVersion is a digest of every knowledge document (ID, kind,
	// text, table, column, data): equal versions, equal knowledge.
	KnowledgeVersion(ctx context.Context) (string, error)
}

// KnowledgeVersion implements KnowledgeVersioner: one row computed in the
// database (the (ns, kind, scope) index finds the knowledge rows), so a
// poll moves a digest, not the documents.
func (s *PGVectorStore) KnowledgeVersion(ctx context.Context) (string, error) {
	var v string
	err := s.db.QueryRow(ctx, `
SELECT count(*)::text || ':' || coalesce(md5(string_agg(
         id || E'\x1f' || kind || E'\x1f' || tbl || E'\x1f' || col || E'\x1f' || md5(body) || E'\x1f' || md5(data),
         E'\x1e' ORDER BY id)), '')
FROM `+s.table+`
WHERE ns = $1 AND kind IN ('example', 'doc', 'term') AND starts_with(id, $2)`, s.cfg.namespace, KnowledgeID).Scan(&v)
	if err != nil {
		return "", fmt.Errorf("retrieve: pgvector knowledge version: %w", err)
	}
	return v, nil
}
