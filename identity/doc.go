// Package identity is who a request reads the database as: a role (SET
// LOCAL ROLE), custom settings that row-level security policies read
// (current_setting('app.tenant_id')) and a scope (a tenant's schema). The
// CLI takes one Identity from its flags (cliflags.Identity); a server (the
// web console, the MCP server) maps each authenticated caller to one from a
// config file (Load), so that a caller gets exactly its own identity and
// cannot choose another's.
//
// # The config file
//
// YAML (or JSON, which YAML reads too):
//
//	# Callers behind a proxy that authenticates users and sets a header.
//	# Only requests from these addresses may use the header.
//	trusted_header: X-Forwarded-User
//	trusted_proxies: [127.0.0.1, 10.0.0.0/8]
//	callers:
//	  - name: acme-analyst
//	    # sha256 of the bearer token (openssl rand -hex 32), hex:
//	    #   printf %s "$TOKEN" | sha256sum
//	    token_sha256: 2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b
//	    user: alice@acme.example   # the trusted header's value
//	    role: acme_reader
//	    scope: acme
//	    settings:
//	      app.tenant_id: "1"
//
// Every caller has a unique name and at least one of token_sha256 and user;
// user needs trusted_header, which needs trusted_proxies (addresses or
// CIDR prefixes). Setting names are custom dotted names only
// (validate.CustomSetting). A mistake fails Load with the file and the
// line.
//
// # Authentication
//
// Map.Authenticate identifies a request's caller: by its trusted header
// when the request comes from a trusted proxy (the header of any other
// address is ignored: a client reaching the server directly could set it),
// else by its bearer token. Tokens are stored as SHA-256 hashes and
// compared in constant time against every caller's; a token is never
// logged or put in an error. Bearer tokens should be long random strings
// (32 bytes from a CSPRNG): an unsalted hash protects them only because
// they cannot be guessed.
package identity
