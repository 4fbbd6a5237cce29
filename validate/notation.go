package validate

import "strings"

// notationDenied are the always-denied functions that can be called with
// one argument, and so in functional notation (t.f is f(t), (x).f is f(x)):
// pg_catalog's (TestNotationDeniedOnServer keeps the list complete against
// pg_proc) and dblink's. Where the validator cannot tell whether a field is
// a column (a table given without its columns), a field of one of these
// names is refused; fields named like denied functions that take no or
// several arguments (version, lastval, has_table_privilege) are columns.
var notationDenied = setOf(strings.Fields(
	"aclexplode binary_upgrade_set_next_array_pg_type_oid binary_upgrade_set_next_heap_pg_class_oid " +
		"binary_upgrade_set_next_heap_relfilenode binary_upgrade_set_next_index_pg_class_oid " +
		"binary_upgrade_set_next_index_relfilenode binary_upgrade_set_next_multirange_array_pg_type_oid " +
		"binary_upgrade_set_next_multirange_pg_type_oid binary_upgrade_set_next_pg_authid_oid " +
		"binary_upgrade_set_next_pg_enum_oid binary_upgrade_set_next_pg_tablespace_oid " +
		"binary_upgrade_set_next_pg_type_oid binary_upgrade_set_next_toast_pg_class_oid " +
		"binary_upgrade_set_next_toast_relfilenode binary_upgrade_set_record_init_privs brin_bloom_opcinfo " +
		"brin_bloom_options brin_bloom_summary_in brin_bloom_summary_out brin_bloom_summary_recv " +
		"brin_bloom_summary_send brin_inclusion_opcinfo brin_minmax_multi_opcinfo brin_minmax_multi_options " +
		"brin_minmax_multi_summary_in brin_minmax_multi_summary_out brin_minmax_multi_summary_recv " +
		"brin_minmax_multi_summary_send brin_minmax_opcinfo brin_summarize_new_values current_setting currval " +
		"gin_clean_pending_list lo_close lo_creat lo_create lo_get lo_import lo_tell lo_tell64 lo_unlink " +
		"nextval pg_advisory_lock pg_advisory_lock_shared pg_advisory_unlock pg_advisory_unlock_shared " +
		"pg_advisory_xact_lock pg_advisory_xact_lock_shared pg_backup_start pg_backup_stop pg_blocking_pids " +
		"pg_cancel_backend pg_create_physical_replication_slot pg_create_restore_point pg_current_logfile " +
		"pg_database_size pg_drop_replication_slot pg_get_constraintdef pg_get_function_arguments " +
		"pg_get_function_identity_arguments pg_get_function_result pg_get_function_sqlbody pg_get_functiondef " +
		"pg_get_indexdef pg_get_multixact_members pg_get_partition_constraintdef pg_get_partkeydef " +
		"pg_get_publication_tables pg_get_replica_identity_index pg_get_ruledef pg_get_statisticsobjdef " +
		"pg_get_statisticsobjdef_columns pg_get_statisticsobjdef_expressions pg_get_triggerdef " +
		"pg_get_userbyid pg_get_viewdef pg_import_system_collations pg_indexes_size pg_is_other_temp_schema " +
		"pg_log_backend_memory_contexts pg_ls_dir pg_ls_replslotdir pg_ls_tmpdir pg_options_to_table " +
		"pg_partition_ancestors pg_partition_root pg_partition_tree pg_promote pg_read_binary_file " +
		"pg_read_file pg_relation_filenode pg_relation_filepath pg_relation_size pg_replication_origin_create " +
		"pg_replication_origin_drop pg_replication_origin_oid pg_replication_origin_session_progress " +
		"pg_replication_origin_session_setup pg_safe_snapshot_blocking_pids pg_sequence_last_value " +
		"pg_sequence_parameters pg_sleep pg_sleep_for pg_sleep_until pg_snapshot_in pg_snapshot_out " +
		"pg_snapshot_recv pg_snapshot_send pg_snapshot_xip pg_snapshot_xmax pg_snapshot_xmin pg_stat_file " +
		"pg_stat_get_activity pg_stat_get_analyze_count pg_stat_get_autoanalyze_count " +
		"pg_stat_get_autovacuum_count pg_stat_get_backend_activity pg_stat_get_backend_activity_start " +
		"pg_stat_get_backend_client_addr pg_stat_get_backend_client_port pg_stat_get_backend_dbid " +
		"pg_stat_get_backend_pid pg_stat_get_backend_start pg_stat_get_backend_userid " +
		"pg_stat_get_backend_wait_event pg_stat_get_backend_wait_event_type pg_stat_get_backend_xact_start " +
		"pg_stat_get_blocks_fetched pg_stat_get_blocks_hit pg_stat_get_db_active_time " +
		"pg_stat_get_db_blk_read_time pg_stat_get_db_blk_write_time pg_stat_get_db_blocks_fetched " +
		"pg_stat_get_db_blocks_hit pg_stat_get_db_checksum_failures pg_stat_get_db_checksum_last_failure " +
		"pg_stat_get_db_conflict_all pg_stat_get_db_conflict_bufferpin pg_stat_get_db_conflict_lock " +
		"pg_stat_get_db_conflict_snapshot pg_stat_get_db_conflict_startup_deadlock " +
		"pg_stat_get_db_conflict_tablespace pg_stat_get_db_deadlocks pg_stat_get_db_idle_in_transaction_time " +
		"pg_stat_get_db_numbackends pg_stat_get_db_session_time pg_stat_get_db_sessions " +
		"pg_stat_get_db_sessions_abandoned pg_stat_get_db_sessions_fatal pg_stat_get_db_sessions_killed " +
		"pg_stat_get_db_stat_reset_time pg_stat_get_db_temp_bytes pg_stat_get_db_temp_files " +
		"pg_stat_get_db_tuples_deleted pg_stat_get_db_tuples_fetched pg_stat_get_db_tuples_inserted " +
		"pg_stat_get_db_tuples_returned pg_stat_get_db_tuples_updated pg_stat_get_db_xact_commit " +
		"pg_stat_get_db_xact_rollback pg_stat_get_dead_tuples pg_stat_get_function_calls " +
		"pg_stat_get_function_self_time pg_stat_get_function_total_time pg_stat_get_ins_since_vacuum " +
		"pg_stat_get_last_analyze_time pg_stat_get_last_autoanalyze_time pg_stat_get_last_autovacuum_time " +
		"pg_stat_get_last_vacuum_time pg_stat_get_live_tuples pg_stat_get_mod_since_analyze " +
		"pg_stat_get_numscans pg_stat_get_progress_info pg_stat_get_replication_slot pg_stat_get_subscription " +
		"pg_stat_get_subscription_stats pg_stat_get_tuples_deleted pg_stat_get_tuples_fetched " +
		"pg_stat_get_tuples_hot_updated pg_stat_get_tuples_inserted pg_stat_get_tuples_returned " +
		"pg_stat_get_tuples_updated pg_stat_get_vacuum_count pg_stat_get_xact_blocks_fetched " +
		"pg_stat_get_xact_blocks_hit pg_stat_get_xact_function_calls pg_stat_get_xact_function_self_time " +
		"pg_stat_get_xact_function_total_time pg_stat_get_xact_numscans pg_stat_get_xact_tuples_deleted " +
		"pg_stat_get_xact_tuples_fetched pg_stat_get_xact_tuples_hot_updated pg_stat_get_xact_tuples_inserted " +
		"pg_stat_get_xact_tuples_returned pg_stat_get_xact_tuples_updated pg_stat_reset_replication_slot " +
		"pg_stat_reset_shared pg_stat_reset_single_function_counters pg_stat_reset_single_table_counters " +
		"pg_stat_reset_slru pg_stat_reset_subscription_stats pg_table_is_visible pg_table_size " +
		"pg_tablespace_size pg_terminate_backend pg_total_relation_size pg_try_advisory_lock " +
		"pg_try_advisory_lock_shared pg_try_advisory_xact_lock pg_try_advisory_xact_lock_shared " +
		"pg_walfile_name pg_xact_commit_timestamp setseed to_regclass to_regcollation to_regnamespace " +
		"to_regoper to_regoperator to_regproc " +
		"to_regprocedure to_regrole to_regtype ts_stat txid_snapshot_in txid_snapshot_out txid_snapshot_recv " +
		"txid_snapshot_send txid_snapshot_xip txid_snapshot_xmax txid_snapshot_xmin txid_status " +
		"xml_is_well_formed dblink dblink_exec dblink_connect dblink_connect_u dblink_disconnect " +
		"dblink_get_result dblink_send_query dblink_is_busy dblink_cancel_query dblink_error_message ")...)
