// Package provision sets up the database side of nl2sql's least
// privilege: ReaderRole creates or updates a login role that may only
// read the chosen schemas (its password sent as a SCRAM-SHA-256 verifier,
// never in clear), and ReadPrivileges reports what a role can do beyond
// reading (the Engine warns about its own connection's at Prepare).
package provision
