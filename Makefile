# Two commands matter on a fresh machine (see README):
#   make demo   load the demo ERP into a throwaway PostgreSQL, run the main job on it (with its
#               semantic model, examples/erp/semantic.yaml), serve the web console
#   make test   run every test against a throwaway PostgreSQL
#   (make test-short: the fast tier, go test -short, needs no PostgreSQL)
SHELL := /bin/bash
GO    ?= go
PGDIR ?= /tmp/nl2sql-pg-$(shell id -u)
# Where make demo serves the web console (loopback).
CONSOLE_ADDR ?= 127.0.0.1:8080
# make demo RLS=1 loads the row-level tenancy layout (erp.Options.RLS) and
# serves the console as the login role erp_app for tenant TENANT (1 Aurora,
# 2 Borealis; docs/deployment.md#row-level-security).
RLS    ?=
TENANT ?= 1
# The packages with concurrent code (the Engine, stores, executor, model
# clients, parallel EXPLAIN and generation, the web console): run again under
# the race detector.
RACE_PKGS ?= . ./retrieve ./execute ./link ./plan ./generate ./validate ./llm/... ./console

.PHONY: demo test test-short bench pg-start pg-stop vet

demo:
	@set -euo pipefail; \
	dsn=$$(scripts/pg start $(PGDIR)); \
	echo "PostgreSQL: $$dsn" >&2; \
	PGOPTIONS=--client-min-messages=warning psql "$$dsn" -qc "DROP DATABASE IF EXISTS erp WITH (FORCE)" -c "CREATE DATABASE erp" >/dev/null; \
	erp=$${dsn/\/postgres\?/\/erp?}; \
	$(GO) run ./examples/erp/cmd/erp-load --dsn "$$erp" $(if $(RLS),--rls); \
	mkdir -p .cache; $(GO) build -o bin/nl2sql ./cmd/nl2sql; \
	export NL2SQL_SEMANTIC=examples/erp/semantic.yaml; \
	bin/nl2sql exam --dsn "$$erp" --verified > .cache/exam-verified.json; \
	echo "semantic model: every verified question runs (.cache/exam-verified.json); one answered without a model:" >&2; \
	bin/nl2sql ask --dsn "$$erp" --llm none "Top 5 customers by revenue"; \
	if [ -n "$${NL2SQL_LLM:-}" ] && [ "$${NL2SQL_LLM}" != none ]; then \
		bin/nl2sql ask --dsn "$$erp" "Which sales rep has won the most deals?" --evidence "won means stage Closed Won; the rep is the opportunity owner"; \
		bin/nl2sql exam --dsn "$$erp" --exam examples/erp/exam.csv --out .cache/exam.jsonl; \
	else \
		echo "No LLM configured (set NL2SQL_LLM=ollama:MODEL, openai:MODEL or anthropic:MODEL): running the retrieval-only exam." >&2; \
		bin/nl2sql exam --dsn "$$erp" --exam examples/erp/exam.csv --llm none --out .cache/exam-retrieval.jsonl; \
	fi; \
	echo "per-question results in .cache/; demo database left running: $$erp (stop with: scripts/pg stop $(PGDIR))" >&2; \
	echo "web console: http://$(CONSOLE_ADDR)/ (Ctrl-C stops it; the database keeps running)" >&2; \
	$(if $(RLS),erp="$${erp/postgres@/erp_app@}"; echo "row-level tenancy: serving tenant $(TENANT) as erp_app" >&2;) \
	bin/nl2sql serve --dsn "$$erp" --llm "$${NL2SQL_LLM:-none}" --addr "$(CONSOLE_ADDR)" $(if $(RLS),--set app.tenant_id=$(TENANT))

# scripts/test: a header per phase (vet, the fast tier without PostgreSQL,
# every test on PostgreSQL, the race detector on RACE_PKGS, every benchmark
# once, the MCP server example, the otel module), a line per package, and one last line
# "N passed, N failed".
test:
	@GO="$(GO)" RACE_PKGS="$(RACE_PKGS)" scripts/test

# The fast tier alone: no PostgreSQL, no network (about two minutes).
test-short:
	@$(GO) test -short -count=1 ./... && (cd examples/mcp-server && $(GO) test -short -count=1 ./...) && cd otel && $(GO) test -short -count=1 ./...

bench:
	@set -euo pipefail; mkdir -p .cache; \
	dir=$$(mktemp -d /tmp/nl2sql-bench-XXXXXX); \
	trap '$(CURDIR)/scripts/pg destroy "$$dir"' EXIT; \
	export NL2SQL_TEST_DSN=$$(scripts/pg start "$$dir"); \
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $${BENCHTIME:-1s} -timeout 60m ./... | tee .cache/bench.txt | scripts/benchtable

pg-start:
	@scripts/pg start $(PGDIR)

pg-stop:
	@scripts/pg stop $(PGDIR)
