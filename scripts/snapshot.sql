-- pgconflint snapshot with psql alone, for servers where pgconflint cannot run
-- (managed services): the same JSON document as `pgconflint snapshot`.
--
--   psql -X -q -f scripts/snapshot.sql "CONNINFO" > snap.json
--   pgconflint check --snapshot snap.json
--
-- Read-only: one READ ONLY transaction with a statement_timeout. Each query is
-- word for word one of pgconflint's own (src/live/queries.cc; a unit test holds
-- this file to them); a section the role may not read is null, as in
-- `pgconflint snapshot`. Needs psql 10 or later (\if, \gset).
\set ON_ERROR_STOP on
\pset format unaligned
\pset tuples_only on
\pset pager off
SET application_name = 'pgconflint';
BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;
SET LOCAL statement_timeout = 30000;
SET LOCAL default_transaction_read_only = on;
SELECT (SELECT json_build_object('server_version_num', current_setting('server_version_num')::int, 'server_version', current_setting('server_version'), 'user', current_user, 'database', current_database(), 'superuser', (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user), 'pg_read_all_settings', pg_has_role('pg_read_all_settings', 'USAGE'), 'pg_monitor', pg_has_role('pg_monitor', 'USAGE'), 'taken_at', now())) AS pgc_info \gset
SELECT (SELECT coalesce(json_agg(json_build_object('name', name, 'setting', setting, 'unit', unit, 'vartype', vartype, 'context', context, 'source', source, 'sourcefile', sourcefile, 'sourceline', sourceline, 'pending_restart', pending_restart, 'boot_val', boot_val, 'reset_val', reset_val) ORDER BY name), '[]') FROM pg_catalog.pg_settings) AS pgc_settings \gset
SELECT (SELECT has_table_privilege('pg_catalog.pg_file_settings', 'SELECT') AND has_function_privilege('pg_catalog.pg_show_all_file_settings()', 'EXECUTE')) AS pgc_visible \gset
\if :pgc_visible
SELECT (SELECT coalesce(json_agg(json_build_object('sourcefile', sourcefile, 'sourceline', sourceline, 'seqno', seqno, 'name', name, 'setting', setting, 'applied', applied, 'error', error) ORDER BY seqno), '[]') FROM pg_catalog.pg_file_settings) AS pgc_file_settings \gset
\else
\set pgc_file_settings null
\endif
SELECT (SELECT coalesce(json_agg(json_build_object('database', d.datname, 'role', r.rolname, 'settings', s.setconfig) ORDER BY d.datname NULLS FIRST, r.rolname NULLS FIRST), '[]') FROM pg_catalog.pg_db_role_setting s LEFT JOIN pg_catalog.pg_database d ON d.oid = s.setdatabase LEFT JOIN pg_catalog.pg_roles r ON r.oid = s.setrole) AS pgc_db_role_settings \gset
SELECT (SELECT coalesce(json_agg(json_build_object('name', spcname, 'options', spcoptions) ORDER BY spcname), '[]') FROM pg_catalog.pg_tablespace) AS pgc_tablespaces \gset
SELECT (SELECT coalesce(json_agg(json_build_object('name', d.datname, 'tablespace', t.spcname) ORDER BY d.datname), '[]') FROM pg_catalog.pg_database d JOIN pg_catalog.pg_tablespace t ON t.oid = d.dattablespace WHERE d.datallowconn) AS pgc_databases \gset
SELECT (SELECT coalesce(json_agg(json_build_object('name', rolname, 'login', rolcanlogin) ORDER BY rolname), '[]') FROM pg_catalog.pg_roles) AS pgc_roles \gset
SELECT (SELECT has_table_privilege('pg_catalog.pg_hba_file_rules', 'SELECT') AND has_function_privilege('pg_catalog.pg_hba_file_rules()', 'EXECUTE')) AS pgc_visible \gset
\if :pgc_visible
SELECT (SELECT coalesce(json_agg(row_to_json(h)), '[]') FROM pg_catalog.pg_hba_file_rules h) AS pgc_hba_rules \gset
\else
\set pgc_hba_rules null
\endif
SELECT (SELECT CASE WHEN to_regclass('pg_catalog.pg_ident_file_mappings') IS NULL THEN false ELSE has_table_privilege('pg_catalog.pg_ident_file_mappings', 'SELECT') AND has_function_privilege('pg_catalog.pg_ident_file_mappings()', 'EXECUTE') END) AS pgc_visible \gset
\if :pgc_visible
SELECT (SELECT coalesce(json_agg(row_to_json(m)), '[]') FROM pg_catalog.pg_ident_file_mappings m) AS pgc_ident_mappings \gset
\else
\set pgc_ident_mappings null
\endif
COMMIT;
SELECT (SELECT coalesce(json_agg(t ORDER BY t.bytes DESC, t.schema, t.name), '[]') FROM (SELECT n.nspname AS schema, c.relname AS name, pg_catalog.pg_table_size(c.oid) AS bytes, c.reltuples::float8 AS reltuples, s.n_live_tup AS live, s.n_dead_tup AS dead, s.n_tup_ins AS inserted, s.n_tup_upd AS updated, s.n_tup_del AS deleted, s.n_ins_since_vacuum AS inserted_since_vacuum, s.n_mod_since_analyze AS modified_since_analyze, c.reloptions AS options FROM pg_catalog.pg_stat_user_tables s JOIN pg_catalog.pg_class c ON c.oid = s.relid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' ORDER BY pg_catalog.pg_table_size(c.oid) DESC, n.nspname, c.relname LIMIT 100) t) AS pgc_tables \gset
-- The server as libpq names it: user@host:port/database.
SELECT json_build_object('pgconflint_snapshot', 1, 'server', :'USER' || '@' || :'HOST' || ':' || :'PORT' || '/' || :'DBNAME', 'info', :'pgc_info'::json, 'settings', :'pgc_settings'::json, 'file_settings', :'pgc_file_settings'::json, 'db_role_settings', :'pgc_db_role_settings'::json, 'tablespaces', :'pgc_tablespaces'::json, 'databases', :'pgc_databases'::json, 'roles', :'pgc_roles'::json, 'hba_rules', :'pgc_hba_rules'::json, 'ident_mappings', :'pgc_ident_mappings'::json, 'tables', :'pgc_tables'::json);
