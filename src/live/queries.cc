// The queries. They run on PostgreSQL 14 to 18 as any role: what a role may
// not read is guarded by its visibility query, never attempted.
#include "live/queries.h"

namespace pgconflint::live {
namespace {

constexpr SnapshotQuery kQueries[] = {
    {"info",
     "SELECT json_build_object('server_version_num', current_setting('server_version_num')::int, "
     "'server_version', current_setting('server_version'), 'user', current_user, 'database', current_database(), "
     "'superuser', (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user), "
     "'pg_read_all_settings', pg_has_role('pg_read_all_settings', 'USAGE'), "
     "'pg_monitor', pg_has_role('pg_monitor', 'USAGE'), 'taken_at', now())",
     nullptr},
    {"settings",
     "SELECT coalesce(json_agg(json_build_object('name', name, 'setting', setting, 'unit', unit, "
     "'vartype', vartype, 'context', context, 'source', source, 'sourcefile', sourcefile, "
     "'sourceline', sourceline, 'pending_restart', pending_restart, 'boot_val', boot_val, "
     "'reset_val', reset_val) ORDER BY name), '[]') FROM pg_catalog.pg_settings",
     nullptr},
    {"file_settings",
     "SELECT coalesce(json_agg(json_build_object('sourcefile', sourcefile, 'sourceline', sourceline, "
     "'seqno', seqno, 'name', name, 'setting', setting, 'applied', applied, 'error', error) ORDER BY seqno), "
     "'[]') FROM pg_catalog.pg_file_settings",
     "SELECT has_table_privilege('pg_catalog.pg_file_settings', 'SELECT') AND "
     "has_function_privilege('pg_catalog.pg_show_all_file_settings()', 'EXECUTE')"},
    {"db_role_settings",
     "SELECT coalesce(json_agg(json_build_object('database', d.datname, 'role', r.rolname, "
     "'settings', s.setconfig) ORDER BY d.datname NULLS FIRST, r.rolname NULLS FIRST), '[]') "
     "FROM pg_catalog.pg_db_role_setting s LEFT JOIN pg_catalog.pg_database d ON d.oid = s.setdatabase "
     "LEFT JOIN pg_catalog.pg_roles r ON r.oid = s.setrole",
     nullptr},
    {"tablespaces",
     "SELECT coalesce(json_agg(json_build_object('name', spcname, 'options', spcoptions) ORDER BY spcname), "
     "'[]') FROM pg_catalog.pg_tablespace",
     nullptr},
    {"databases",
     "SELECT coalesce(json_agg(json_build_object('name', d.datname, 'tablespace', t.spcname) "
     "ORDER BY d.datname), '[]') FROM pg_catalog.pg_database d "
     "JOIN pg_catalog.pg_tablespace t ON t.oid = d.dattablespace WHERE d.datallowconn",
     nullptr},
    // pg_roles is readable by every role (passwords show as ********).
    {"roles",
     "SELECT coalesce(json_agg(json_build_object('name', rolname, 'login', rolcanlogin) ORDER BY rolname), '[]') "
     "FROM pg_catalog.pg_roles",
     nullptr},
    // The views list the lines in the order the server reads them, included
    // files in place (16+): no ORDER BY, which line_number would break.
    {"hba_rules", "SELECT coalesce(json_agg(row_to_json(h)), '[]') FROM pg_catalog.pg_hba_file_rules h",
     "SELECT has_table_privilege('pg_catalog.pg_hba_file_rules', 'SELECT') AND "
     "has_function_privilege('pg_catalog.pg_hba_file_rules()', 'EXECUTE')"},
    // 15+: before 15 the view does not exist, and the section is null.
    {"ident_mappings", "SELECT coalesce(json_agg(row_to_json(m)), '[]') FROM pg_catalog.pg_ident_file_mappings m",
     "SELECT CASE WHEN to_regclass('pg_catalog.pg_ident_file_mappings') IS NULL THEN false "
     "ELSE has_table_privilege('pg_catalog.pg_ident_file_mappings', 'SELECT') AND "
     "has_function_privilege('pg_catalog.pg_ident_file_mappings()', 'EXECUTE') END"},
    // The largest ordinary tables of the connected database, with the
    // statistics per-table autovacuum advice reads (recommend --live); at most
    // SnapshotTable::kMaxTables (core/server/snapshot.h). Every role sees its
    // database's pg_stat_user_tables and table sizes.
    {"tables",
     "SELECT coalesce(json_agg(t ORDER BY t.bytes DESC, t.schema, t.name), '[]') FROM (SELECT n.nspname AS "
     "schema, c.relname AS name, pg_catalog.pg_table_size(c.oid) AS bytes, c.reltuples::float8 AS "
     "reltuples, s.n_live_tup AS live, s.n_dead_tup AS dead, s.n_tup_ins AS inserted, s.n_tup_upd AS "
     "updated, s.n_tup_del AS deleted, s.n_ins_since_vacuum AS inserted_since_vacuum, "
     "s.n_mod_since_analyze AS modified_since_analyze, c.reloptions AS options FROM "
     "pg_catalog.pg_stat_user_tables s JOIN pg_catalog.pg_class c ON c.oid = s.relid JOIN "
     "pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' ORDER BY "
     "pg_catalog.pg_table_size(c.oid) DESC, n.nspname, c.relname LIMIT 100) t",
     nullptr},
};

}  // namespace

std::span<const SnapshotQuery> SnapshotQueries() { return kQueries; }

}  // namespace pgconflint::live
