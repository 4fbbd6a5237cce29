package validate

import (
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
)

// defaultFunctions is the allow-list of functions a query may call without
// configuration: pure computations over their arguments (aggregates, window
// functions, math, strings, date/time, JSON, arrays, regular expressions,
// casts) and common extension functions (pg_trgm, fuzzystrmatch, unaccent,
// pgvector). Names are matched unqualified or qualified with pg_catalog.
var defaultFunctions = setOf(
	// aggregates
	"count", "sum", "avg", "min", "max", "array_agg", "string_agg", "bool_and", "bool_or", "every",
	"bit_and", "bit_or", "bit_xor", "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg",
	"json_agg_strict", "jsonb_agg_strict", "json_object_agg_strict", "jsonb_object_agg_strict",
	"json_object_agg_unique", "jsonb_object_agg_unique", "json_object_agg_unique_strict", "jsonb_object_agg_unique_strict",
	"stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "corr", "covar_pop", "covar_samp",
	"regr_avgx", "regr_avgy", "regr_count", "regr_intercept", "regr_r2", "regr_slope", "regr_sxx", "regr_sxy", "regr_syy",
	"percentile_cont", "percentile_disc", "mode", "rank", "dense_rank", "percent_rank", "cume_dist",
	"range_agg", "range_intersect_agg", "any_value", "grouping",
	// window
	"row_number", "ntile", "lag", "lead", "first_value", "last_value", "nth_value",
	// math
	"abs", "ceil", "ceiling", "floor", "round", "trunc", "sign", "sqrt", "cbrt", "power", "pow", "exp", "ln", "log",
	"log10", "mod", "pi", "degrees", "radians", "div", "gcd", "lcm", "width_bucket", "random", "random_normal",
	"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "cot", "sind", "cosd", "tand", "asind", "acosd", "atand",
	"atan2d", "cotd", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "factorial", "scale", "trim_scale", "min_scale",
	"num_nulls", "num_nonnulls", "erf", "erfc",
	// formatting and conversion
	"to_char", "to_number", "to_date", "to_timestamp", "to_hex", "to_oct", "to_bin",
	"int2", "int4", "int8", "float4", "float8", "numeric", "text", "bool", "varchar", "bpchar", "char",
	"date", "time", "timetz", "timestamp", "timestamptz", "interval", "money",
	// strings
	"length", "char_length", "character_length", "octet_length", "bit_length", "lower", "upper", "initcap",
	"concat", "concat_ws", "substr", "substring", "left", "right", "lpad", "rpad", "ltrim", "rtrim", "btrim", "trim",
	"replace", "reverse", "repeat", "split_part", "strpos", "position", "translate", "format", "quote_ident",
	"quote_literal", "quote_nullable", "md5", "sha224", "sha256", "sha384", "sha512", "encode", "decode", "ascii",
	"chr", "starts_with", "string_to_array", "array_to_string", "string_to_table", "overlay", "normalize",
	"is_normalized", "textcat", "unistr", "casefold", "crc32", "crc32c",
	"regexp_match", "regexp_matches", "regexp_replace", "regexp_split_to_array", "regexp_split_to_table",
	"regexp_count", "regexp_instr", "regexp_like", "regexp_substr", "similar_escape", "similar_to_escape", "like_escape",
	// date and time
	"now", "clock_timestamp", "statement_timestamp", "transaction_timestamp", "timeofday", "date_trunc", "date_part",
	"extract", "age", "make_date", "make_time", "make_timestamp", "make_timestamptz", "make_interval", "justify_days",
	"justify_hours", "justify_interval", "isfinite", "date_bin", "timezone", "overlaps", "date_add", "date_subtract",
	"generate_series", // guarded: see checkSeries
	// JSON
	"json_build_object", "jsonb_build_object", "json_build_array", "jsonb_build_array", "to_json", "to_jsonb",
	"json_object", "jsonb_object", "array_to_json", "row_to_json", "json_array_length", "jsonb_array_length",
	"json_each", "jsonb_each", "json_each_text", "jsonb_each_text", "json_extract_path", "jsonb_extract_path",
	"json_extract_path_text", "jsonb_extract_path_text", "json_object_keys", "jsonb_object_keys",
	"json_array_elements", "jsonb_array_elements", "json_array_elements_text", "jsonb_array_elements_text",
	"json_typeof", "jsonb_typeof", "jsonb_set", "jsonb_set_lax", "jsonb_insert", "jsonb_strip_nulls", "json_strip_nulls",
	"jsonb_pretty", "jsonb_path_query", "jsonb_path_exists", "jsonb_path_match", "jsonb_path_query_array",
	"jsonb_path_query_first", "json_to_record", "jsonb_to_record", "json_to_recordset", "jsonb_to_recordset",
	"json_populate_record", "jsonb_populate_record", "json_populate_recordset", "jsonb_populate_recordset",
	"json_scalar", "json_serialize",
	// arrays
	"array_length", "array_upper", "array_lower", "cardinality", "array_append", "array_prepend", "array_cat",
	"array_position", "array_positions", "array_remove", "array_replace", "unnest", "array_dims", "array_ndims",
	"trim_array", "array_reverse", "array_sort", "array_shuffle", "array_sample",
	// ranges
	"lower_inc", "upper_inc", "lower_inf", "upper_inf", "isempty", "range_merge", "int4range", "int8range",
	"numrange", "daterange", "tsrange", "tstzrange", "multirange",
	// misc pure functions
	"coalesce", "nullif", "greatest", "least", "pg_typeof", "pg_collation_for", "gen_random_uuid", "uuidv4", "uuidv7",
	"host", "family", "masklen", "network", "broadcast", "netmask",
	// text search (pure forms; ts_stat and ts_rewrite run SQL and are denied)
	"to_tsvector", "to_tsquery", "plainto_tsquery", "phraseto_tsquery", "websearch_to_tsquery", "ts_rank",
	"ts_rank_cd", "ts_headline", "setweight", "numnode", "querytree", "strip", "tsvector_to_array", "array_to_tsvector",
	// extensions: pg_trgm, fuzzystrmatch, unaccent, pgvector, earthdistance
	"similarity", "word_similarity", "strict_word_similarity", "show_trgm", "levenshtein",
	"levenshtein_less_equal", "soundex", "difference", "metaphone", "dmetaphone", "dmetaphone_alt", "unaccent",
	"l2_distance", "cosine_distance", "inner_product", "l1_distance", "vector_dims", "vector_norm", "l2_normalize",
	"earth_distance", "ll_to_earth",
)

// alwaysDenied are functions no option can allow: they have side effects
// (sleep, locks, settings, sequences, signals, files, WAL, replication,
// notifications, transaction ids), run SQL given as a string, or read the
// server's state and catalogs around the relation checks (version(),
// pg_get_*, pg_stat_*, has_*_privilege, sizes of relations by name).
var alwaysDenied = setOf(
	"pg_sleep", "pg_sleep_for", "pg_sleep_until", "set_config", "current_setting", "setseed",
	"pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf", "pg_rotate_logfile",
	"pg_read_file", "pg_read_binary_file", "pg_stat_file", "pg_file_write", "pg_file_rename", "pg_file_unlink",
	"pg_file_sync", "pg_logdir_ls",
	"txid_current", "txid_current_if_assigned", "pg_current_xact_id", "pg_current_xact_id_if_assigned",
	"txid_current_snapshot", "pg_current_snapshot", "pg_export_snapshot",
	"nextval", "setval", "currval", "lastval", "pg_sequence_last_value",
	"query_to_xml", "query_to_xmlschema", "query_to_xml_and_xmlschema", "cursor_to_xml", "cursor_to_xmlschema",
	"table_to_xml", "table_to_xmlschema", "table_to_xml_and_xmlschema", "schema_to_xml", "schema_to_xmlschema",
	"schema_to_xml_and_xmlschema", "database_to_xml", "database_to_xmlschema", "database_to_xml_and_xmlschema",
	"ts_stat", "ts_rewrite", "xpath", "xpath_exists", "xmlexists", "xml_is_well_formed",
	"pg_notify", "pg_switch_wal", "pg_switch_xlog", "pg_promote", "pg_start_backup", "pg_stop_backup",
	"pg_backup_start", "pg_backup_stop", "pg_wal_replay_pause", "pg_wal_replay_resume", "pg_import_system_collations",
	"pg_drop_replication_slot", "pg_copy_physical_replication_slot", "pg_copy_logical_replication_slot",
	"pg_log_backend_memory_contexts", "pg_truncate_visibility_map", "pg_prewarm", "pg_stat_statements_reset",
	"pg_log_standby_snapshot", "pg_sync_replication_slots", "pg_walfile_name", "pg_xact_commit_timestamp",
	"version", "inet_server_addr", "inet_server_port", "pg_postmaster_start_time", "pg_conf_load_time",
	"pg_backend_pid", "pg_blocking_pids", "pg_safe_snapshot_blocking_pids",
	"pg_get_functiondef", "pg_get_viewdef", "pg_get_userbyid", "has_table_privilege", "pg_has_role",
	"to_regclass", "to_regproc", "to_regprocedure", "to_regrole", "to_regnamespace", "to_regtype",
	"to_regcollation", "to_regoper", "to_regoperator",
	"pg_relation_filepath", "pg_relation_filenode", "pg_filenode_relation",
	"dblink", "dblink_exec", "dblink_connect", "dblink_connect_u", "dblink_send_query", "dblink_get_result",
	"array_fill", "pg_total_relation_size", "pg_relation_size", "pg_database_size",
	"pg_tablespace_size", "pg_indexes_size", "pg_table_size",
	"make_aclitem", "makeaclitem", "aclexplode", "aclinsert", "aclremove", "pg_event_trigger_ddl_commands",
)

// operators are the operator symbols a query may use: those pg_catalog
// defines (PostgreSQL 15; TestOperatorsOnServer compares) and those of
// pg_trgm, pgvector, earthdistance and hstore. An operator runs a function
// like any call; one outside this set, or qualified with a schema other than
// pg_catalog (OPERATOR(public.===)), is a user-defined operator and refused.
var operators = setOf(
	"!!", "!~", "!~*", "!~~", "!~~*", "#", "##", "#-", "#>", "#>>", "%", "&", "&&", "&<", "&<|", "&>", "*", "*<",
	"*<=", "*<>", "*=", "*>", "*>=", "+", "-", "->", "->>", "-|-", "/", "<", "<->", "<<", "<<=", "<<|", "<=", "<>",
	"<@", "<^", "=", ">", ">=", ">>", ">>=", ">^", "?", "?#", "?&", "?-", "?-|", "?|", "?||", "@", "@-@", "@>", "@?",
	"@@", "@@@", "^", "^@", "|", "|&>", "|/", "|>>", "||", "||/", "~", "~*", "~<=~", "~<~", "~=", "~>=~", "~>~",
	"~~", "~~*", "!=",
	// pg_trgm, pgvector, earthdistance, hstore
	"<%", "%>", "<<%", "%>>", "<<->", "<->>", "<<<->", "<->>>", "<#>", "<=>", "<+>", "<~>", "<%>", "<@>", "#=",
)

// revealingValueFunctions are the SQL value functions that reveal who runs
// the query and where (CURRENT_USER, SESSION_USER, USER, CURRENT_ROLE,
// CURRENT_CATALOG, CURRENT_SCHEMA): what current_database() and
// current_user(), not on the allow-list, would tell. Like those they are
// refused unless WithFunctions names them (lower case). The date and time
// ones are always fine.
var revealingValueFunctions = map[pg.SQLValueFunctionOp]string{
	pg.SQLValueFunctionOp_SVFOP_CURRENT_ROLE:    "CURRENT_ROLE",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_USER:    "CURRENT_USER",
	pg.SQLValueFunctionOp_SVFOP_USER:            "USER",
	pg.SQLValueFunctionOp_SVFOP_SESSION_USER:    "SESSION_USER",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG: "CURRENT_CATALOG",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:  "CURRENT_SCHEMA",
}

// deniedPrefixes extends alwaysDenied to families of functions.
var deniedPrefixes = []string{
	"pg_advisory", "pg_try_advisory", "lo_", "dblink", "pg_ls_", "pg_logical_", "pg_create_", "pg_replication_",
	"pg_stat_", "pg_read_", "pg_file_", "binary_upgrade_", "pg_reload", "pg_wal_", "pg_xlog_", "pg_drop_",
	"pg_terminate", "pg_cancel", "pg_rotate", "pg_import", "pg_backup", "pg_snapshot", "txid_", "pg_current_",
	"pg_get_", "pg_catalog_", "pg_identify_", "pg_control_", "pg_sequence", "pg_visible_", "pg_last_",
	"pg_is_", "pg_describe_", "pg_options_", "pg_partition_", "pg_table_", "pg_indexam_",
	"has_", "pg_nextoid", "lo", "pg_walinspect", "gin_clean_pending_list", "brin_",
}

// funcDenied reports whether name (lower case, unqualified) is always denied.
func funcDenied(name string) bool {
	if alwaysDenied[name] {
		return true
	}
	for _, p := range deniedPrefixes {
		if strings.HasPrefix(name, p) {
			// "lower", "log", "log10", "lower_inc", ... share the "lo"
			// prefix with large-object functions; only lo_* and loread,
			// lowrite are large objects.
			if p == "lo" && !loFunction(name) {
				continue
			}
			return true
		}
	}
	return false
}

func loFunction(name string) bool {
	switch name {
	case "loread", "lowrite":
		return true
	}
	return strings.HasPrefix(name, "lo_")
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
