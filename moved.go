package nl2sql

import (
	"github.com/nl2sqlgo/nl2sql/provision"
	"github.com/nl2sqlgo/nl2sql/rewrite"
	"github.com/nl2sqlgo/nl2sql/semantic"
)

// Identifiers that moved out of the root into the packages named for what
// they are; each name here is the same value or type as its new home's.

// RuleTieOrder is rewrite.RuleTieOrder.
//
// Deprecated: use rewrite.RuleTieOrder.
const RuleTieOrder = rewrite.RuleTieOrder

// RuleStoredValue is rewrite.RuleStoredValue.
//
// Deprecated: use rewrite.RuleStoredValue.
const RuleStoredValue = rewrite.RuleStoredValue

// ReaderRole is provision.ReaderRole.
//
// Deprecated: use provision.ReaderRole.
type ReaderRole = provision.ReaderRole

// Beginner is provision.Beginner.
//
// Deprecated: use provision.Beginner.
type Beginner = provision.Beginner

// Defaults of ReaderRole, provision's.
//
// Deprecated: use provision.DefaultReaderName and the others.
const (
	DefaultReaderName              = provision.DefaultReaderName
	DefaultReaderConnectionLimit   = provision.DefaultReaderConnectionLimit
	DefaultReaderStatementTimeout  = provision.DefaultReaderStatementTimeout
	DefaultReaderIdleInTransaction = provision.DefaultReaderIdleInTransaction
	DefaultReaderWorkMem           = provision.DefaultReaderWorkMem
	DefaultReaderTempFileLimit     = provision.DefaultReaderTempFileLimit
)

// SemanticLink is semantic.Link.
//
// Deprecated: use semantic.Link.
type SemanticLink = semantic.Link
