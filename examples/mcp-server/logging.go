package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"unicode/utf8"

	"github.com/nl2sqlgo/nl2sql"
)

// logFailed logs a failed question. INFO, where logs are kept and
// shipped, gets its length, a hash (to group the failures of one
// question) and the error's class and code, never its text: a question
// can hold what its user would not have written to a log (a name, an
// amount). DEBUG gets the question and the error as they are. With
// --identity, both name the caller (its name in the file, never its
// token).
func logFailed(ctx context.Context, log *slog.Logger, who caller, question string, err error) {
	attrs := []any{"question_chars", utf8.RuneCountInString(question), "question_sha256", questionHash(question)}
	if who.name != "" {
		attrs = append(attrs, "caller", who.name)
	}
	var ne *nl2sql.Error
	if errors.As(err, &ne) {
		attrs = append(attrs, "class", string(ne.Class), "code", ne.Code)
	}
	log.InfoContext(ctx, "nl_query failed", attrs...)
	log.DebugContext(ctx, "nl_query failed", "caller", who.name, "question", question, "err", err)
}

// questionHash is the first 12 hex digits of the question's SHA-256.
func questionHash(question string) string {
	sum := sha256.Sum256([]byte(question))
	return hex.EncodeToString(sum[:6])
}
