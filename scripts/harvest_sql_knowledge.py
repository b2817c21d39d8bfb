#!/usr/bin/env python3
"""Harvests what pgconflint knows about PostgreSQL's SQL side from the real servers.

For every major (by default those of knowledge/majors.json) a fresh server of
.cache/postgres/<major> is asked, and knowledge/sql.json is written with, per major:

  * keywords: pg_get_keywords(), by category (unreserved, col_name, type_func_name,
    reserved): which words need quoting as identifiers, which cannot be a bare value;
  * context_refused: for every parameter of knowledge/pg<major>.json, what
    `ALTER DATABASE postgres SET p = v`, `ALTER ROLE postgres SET p = v` and `SET p = v`
    (superuser, rolled back) answer when they refuse the parameter whatever its value
    (the three agree; the script fails if a major makes them differ);
  * scoped_value_refused: the values of bool and enum parameters that ALTER DATABASE/ROLE
    ... SET refuse while accepting the parameter (transaction_isolation = 'serializable'
    "must be called before any query");
  * session_list_keywords: list parameters a file takes with any word while a session
    checks each word (15+: wal_consistency_checking's resource managers), with the words;
  * list_quote: the list parameters whose items ALTER SYSTEM writes as quoted
    identifiers (GUC_LIST_QUOTE): `ALTER SYSTEM SET p = 'Xy'` writes "Xy";
  * tablespace_options: the parameter names ALTER TABLESPACE accepts (every catalog name
    is tried), their type and range from the server's own refusals;
  * table_options: the storage parameters ALTER TABLE ... SET accepts on a table (every
    catalog name and the table-only names of CREATE TABLE's documentation are tried, each
    also as toast.NAME), their type, and the range (or enum values) from the server's own
    refusals: what `recommend --live` checks its per-table statements against, and what
    an ALTER TABLE ... SET (...) in a script can be checked against;
  * lexer facts: whether `64MB` is "trailing junk" (15+) or two tokens (14), whether
    0x10 and 1_000 are numbers (16+);
  * messages: the server's wording for each refusal pgconflint reports, as templates
    ({name}, {value}, {token}) made from probes whose names and values are replaced.

Nothing about PostgreSQL is typed here: the probe names and values are inputs, and only
the server's answers are recorded. Output: sorted keys, 2-space indent, written atomically.

Usage: scripts/harvest_sql_knowledge.py [MAJOR...]      (default: the majors of knowledge/majors.json)
"""
import argparse
import json
import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import pgtools  # noqa: E402
from harvest_knowledge import echoed_literal, run_psql, sql_literal, write_json_atomic  # noqa: E402

SCHEMA = 1
OUT = os.path.join(ROOT, "knowledge", "sql.json")
# Probe inputs (never recorded themselves): a custom name, an unknown name, a value.
CUSTOM = "pgcprobe.setting"
UNKNOWN = "pgcprobe_unknown"
LIST_PROBE = "Xy"
OTHER_VALUE = "pgcprobe-value"
CUSTOM_BAD = "pgcprobe.1x"  # a custom name whose second part is no identifier


def outcomes(srv, probes):
    """Runs each (tag, statements) in one psql session; returns {tag: (failed, message)}.

    The outcome is that of the first statement; the rest undo it (RESET, ROLLBACK)."""
    lines = []
    for tag, stmts in probes:
        lines.append(stmts[0])
        lines.append(f"\\echo @@{tag} :ERROR :'LAST_ERROR_MESSAGE'")
        lines.extend(stmts[1:])
    out, _ = run_psql(srv, "\n".join(lines) + "\n")
    result = {}
    for line in out.splitlines():
        m = re.match(r"^@@(\S+) (true|false) +(E?)'(.*)'$", line)
        if m:
            result[m.group(1)] = (m.group(2) == "true", echoed_literal(m.group(3), m.group(4)))
    missing = [t for t, _ in probes if t not in result]
    if missing:
        raise RuntimeError(f"no outcome for probes {missing[:5]}")
    return result


def catalog(major):
    with open(os.path.join(ROOT, "knowledge", f"pg{major}.json")) as f:
        return json.load(f)["parameters"]


def keywords(srv):
    rows = json.loads(srv.psql("select json_agg(json_build_array(word, catcode) order by word) "
                               "from pg_get_keywords()"))
    names = {"U": "unreserved", "C": "col_name", "T": "type_func_name", "R": "reserved"}
    out = {v: [] for v in names.values()}
    for word, code in rows:
        out[names[code]].append(word)
    return out


def refusals(srv, params):
    """{statement kind: {name: message}} of ALTER DATABASE / ALTER ROLE / SET refusals.

    Each statement is tried with the boot value and with another value; only a refusal
    that both give with the same message is the parameter's (its context), not the value's.
    """
    kinds = (("db", "alter_database", "ALTER DATABASE postgres SET {n} = {v};", "ALTER DATABASE postgres RESET ALL;"),
             ("role", "alter_role", "ALTER ROLE postgres SET {n} = {v};", "ALTER ROLE postgres RESET ALL;"),
             ("set", "set", "BEGIN; SET {n} = {v};", "ROLLBACK;"))
    probes = []
    for i, p in enumerate(params):
        for j, v in enumerate((sql_literal(p["boot_val"] or ""), sql_literal(OTHER_VALUE))):
            for tag, _, stmt, undo in kinds:
                probes.append((f"{tag}{i}v{j}", [stmt.format(n=p["name"], v=v), undo]))
    got = outcomes(srv, probes)
    out = {kind: {} for _, kind, _, _ in kinds}
    for i, p in enumerate(params):
        for tag, kind, _, _ in kinds:
            first, second = got[f"{tag}{i}v0"], got[f"{tag}{i}v1"]
            if first[0] and first == second:
                out[kind][p["name"]] = first[1]
    left = srv.psql("select setconfig from pg_db_role_setting")
    if left.strip():
        raise RuntimeError(f"the probes left settings in pg_db_role_setting: {left}")
    # One table serves the three statements as long as the server treats them alike.
    if not out["alter_database"] == out["alter_role"] == out["set"]:
        raise RuntimeError("ALTER DATABASE, ALTER ROLE and SET refuse different parameters: "
                           "record them apart (and teach src/core/knowledge/sql_knowledge.cc)")
    return out["set"]


def scoped_value_refusals(srv, params, context_refused):
    """{name: {value: message}}: the values of bool and enum parameters that ALTER ROLE and
    ALTER DATABASE ... SET refuse although they accept the parameter (a check hook that
    judges the value against the running session: transaction_isolation, ...).

    Every enum value and on/off is tried with both statements; the script fails when the
    two disagree."""
    kinds = (("db", "ALTER DATABASE postgres SET {n} = {v};", "ALTER DATABASE postgres RESET ALL;"),
             ("role", "ALTER ROLE postgres SET {n} = {v};", "ALTER ROLE postgres RESET ALL;"))
    todo = []
    for p in params:
        if p["name"] in context_refused or not p.get("in_pg_settings"):
            continue
        values = p["enumvals"] if p.get("vartype") == "enum" else ["on", "off"] if p.get("vartype") == "bool" else []
        todo += [(p["name"], v) for v in values or []]
    probes = [(f"{tag}{i}", [stmt.format(n=n, v=sql_literal(v)), undo])
              for i, (n, v) in enumerate(todo) for tag, stmt, undo in kinds]
    got = outcomes(srv, probes)
    out = {}
    for i, (n, v) in enumerate(todo):
        if got[f"db{i}"] != got[f"role{i}"]:
            raise RuntimeError(f"ALTER DATABASE and ALTER ROLE judge {n} = {v} differently: record them apart")
        if got[f"db{i}"][0]:
            out.setdefault(n, {})[v] = got[f"db{i}"][1]
    return out


def session_list_keywords(srv, params):
    """{name: sorted keywords}: list parameters that a file takes with any word but a session
    checks (SET of an unknown word fails): 15+ defers wal_consistency_checking's check of
    resource-manager names until modules are loaded, which a backend has done. Candidates:
    "all" and the names pg_get_wal_resource_managers() lists, each tried with SET."""
    lists = [p for p in params if p.get("vartype") == "string" and p.get("list_input") and p.get("in_pg_settings")
             and not p.get("list_keywords")]
    unknown = outcomes(srv, [(f"u{i}", [f"BEGIN; SET {p['name']} = {sql_literal(UNKNOWN)};", "ROLLBACK;"])
                             for i, p in enumerate(lists)])
    checked = [p for i, p in enumerate(lists) if unknown[f"u{i}"][0] and "invalid value" in unknown[f"u{i}"][1]]
    if not checked:
        return {}
    rc, out, _ = srv.psql("select string_agg(rm_name, ',') from pg_get_wal_resource_managers()", check=False)
    words = ["all"] + (out.strip().split(",") if rc == 0 and out.strip() else [])
    result = {}
    for p in checked:
        got = outcomes(srv, [(f"w{j}", [f"BEGIN; SET {p['name']} = {sql_literal(w)};", "ROLLBACK;"])
                             for j, w in enumerate(words)])
        result[p["name"]] = sorted(w.lower() for j, w in enumerate(words) if not got[f"w{j}"][0])
    return result


def list_quote(srv, params, datadir):
    """Names of list parameters whose items ALTER SYSTEM writes double-quoted."""
    quoted = []
    for p in params:
        if not p["list_input"]:
            continue
        n = p["name"]
        r = outcomes(srv, [("ls", [f"ALTER SYSTEM SET {n} = '{LIST_PROBE}';"])])
        if r["ls"][0]:
            continue
        with open(os.path.join(datadir, "postgresql.auto.conf")) as f:
            text = f.read()
        srv.psql(f"ALTER SYSTEM RESET {n}")
        if f"'\"{LIST_PROBE}\"'" in text:
            quoted.append(n)
    return sorted(quoted)


def tablespace_options(srv, params):
    """[{name, type, min, max}] of the options ALTER TABLESPACE accepts."""
    probes = [(f"ts{i}", [f"ALTER TABLESPACE pg_default SET ({p['name']} = 1);",
                          f"ALTER TABLESPACE pg_default RESET ({p['name']});"])
              for i, p in enumerate(params) if "." not in p["name"]]
    got = outcomes(srv, probes)
    options = []
    for i, p in enumerate(params):
        if f"ts{i}" not in got or got[f"ts{i}"][0]:
            continue
        n = p["name"].lower()
        bad = outcomes(srv, [("t", [f"ALTER TABLESPACE pg_default SET ({n} = 'abc');"])])["t"][1]
        kind = re.match(r"invalid value for (.*) option", bad).group(1)
        rng = range_of(srv, n)
        options.append({"name": n, "type": "real" if kind == "floating point" else kind,
                        "min": rng[0], "max": rng[1]})
    return sorted(options, key=lambda o: o["name"])


def refusal_detail(srv, statement):
    """The DETAIL line of the server's refusal of `statement` ('' if it has none)."""
    sql = (f"DO $$ DECLARE d text; BEGIN "
           f"EXECUTE '{statement}'; "
           f"EXCEPTION WHEN OTHERS THEN GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL; "
           f"RAISE EXCEPTION 'DETAIL=%', d; END $$")
    _, _, err = srv.psql(sql, check=False)
    m = re.search(r"DETAIL=(.*)", err)
    return m.group(1) if m else ""


def range_of(srv, name, target="TABLESPACE pg_default", below="-1"):
    """The bounds the server names when a value is below them."""
    detail = refusal_detail(srv, f"ALTER {target} SET ({name} = {below})")
    m = re.match(r'Valid values are between "([^"]*)" and "([^"]*)"', detail)
    if not m:
        raise RuntimeError(f"no range for option {name} of {target}: {detail}")
    return m.group(1), m.group(2)


# Table storage parameters that are no configuration parameter: probe names from the
# documentation of CREATE TABLE (Storage Parameters). Whether each exists in a major, and
# its type and range, is the server's answer.
TABLE_ONLY_OPTIONS = ("fillfactor", "toast_tuple_target", "parallel_workers", "autovacuum_enabled",
                      "vacuum_index_cleanup", "vacuum_truncate", "user_catalog_table", "autovacuum_freeze_min_age",
                      "autovacuum_freeze_table_age", "autovacuum_multixact_freeze_min_age",
                      "autovacuum_multixact_freeze_table_age")
PROBE_TABLE = "pgcprobe_table"


def table_options(srv, params):
    """[{name, type, min, max | values}] of the storage parameters ALTER TABLE ... SET accepts
    on a plain table: every configuration parameter's name and the table-only names above are
    tried, each also as toast.NAME; the type is the one the server names when it refuses
    'abc', the range the one it names when it refuses a value below it (booleans have none,
    enums list their values)."""
    srv.psql(f"DROP TABLE IF EXISTS {PROBE_TABLE}; CREATE TABLE {PROBE_TABLE} (id int, t text)")
    names = sorted({p["name"].lower() for p in params if "." not in p["name"]} | set(TABLE_ONLY_OPTIONS))
    names += ["toast." + n for n in names]
    got = outcomes(srv, [(f"tab{i}", [f"ALTER TABLE {PROBE_TABLE} SET ({n} = 'abc');"])
                         for i, n in enumerate(names)])
    options = []
    for i, n in enumerate(names):
        failed, message = got[f"tab{i}"]
        if not failed:
            raise RuntimeError(f"table option {n} accepted 'abc': a string option, teach this script")
        if message.startswith("unrecognized parameter"):
            continue
        m = re.match(r'invalid value for (boolean|integer|floating point|enum) option "([^"]+)"', message)
        if not m:
            raise RuntimeError(f"table option {n}: unexpected refusal of 'abc': {message}")
        kind = {"floating point": "real"}.get(m.group(1), m.group(1))
        option = {"name": n, "type": kind}
        if kind in ("integer", "real"):
            option["min"], option["max"] = range_of(srv, n, f"TABLE {PROBE_TABLE}",
                                                    "-2147483648" if kind == "integer" else "-1e308")
        elif kind == "enum":
            option["values"] = enum_values(srv, n)
        options.append(option)
    srv.psql(f"DROP TABLE {PROBE_TABLE}")
    return options


def enum_values(srv, name):
    """The values the server lists when it refuses one of an enum table option."""
    detail = refusal_detail(srv, f"ALTER TABLE {PROBE_TABLE} SET ({name} = pgcprobe)")
    m = re.match(r"Valid values are (.*)\.", detail)
    if not m:
        raise RuntimeError(f"no values for enum table option {name}: {detail}")
    return re.findall(r'"([^"]*)"', m.group(1))


def direct(srv, sql):
    """(failed, message) of one statement sent with psql -c."""
    rc, _, err = srv.psql(sql, check=False)
    m = re.search(r"ERROR:  (.*)", err)
    return rc != 0, m.group(1) if m else ""


def template(message, replacements):
    for text, placeholder in replacements:
        message = message.replace(text, placeholder)
    return message


def lexer_facts(srv):
    probes = [("junk", ["SELECT 64MB;"]), ("hex", ["SELECT 0x10 = 16;"]), ("under", ["SELECT 1_000 = 1000;"])]
    got = outcomes(srv, probes)
    return {"numeric_junk": got["junk"][1].startswith("trailing junk"),
            "non_decimal_integers": not got["hex"][0],
            "numeric_underscores": not got["under"][0]}, got["junk"][1]


def messages(srv, major):
    """Message templates of the refusals pgconflint reports."""
    probes = [
        ("syntax", ["SELECT 1 );"]),
        ("junk", ["SELECT 64MB;"]),
        ("in_transaction", ["BEGIN; ALTER SYSTEM SET work_mem = '1MB';", "ROLLBACK;"]),
        ("unknown", [f"ALTER SYSTEM SET {UNKNOWN} = 1;"]),
        ("custom_alter_system", [f"ALTER SYSTEM SET {CUSTOM} = 1;", f"ALTER SYSTEM RESET {CUSTOM};"]),
        ("custom_reset", [f"ALTER SYSTEM RESET {CUSTOM};"]),
        ("one_argument", ["SET work_mem = 1, 2;"]),
        ("newline", ["ALTER SYSTEM SET application_name = E'a\\nb';", "ALTER SYSTEM RESET application_name;"]),
        ("ts_unknown", [f"ALTER TABLESPACE pg_default SET ({UNKNOWN} = 1);"]),
        ("ts_namespace", [f"ALTER TABLESPACE pg_default SET ({CUSTOM} = 1);"]),
        ("ts_twice", ["ALTER TABLESPACE pg_default SET (seq_page_cost = 1, seq_page_cost = 2);"]),
        ("ts_int", ["ALTER TABLESPACE pg_default SET (effective_io_concurrency = 'abc');"]),
        ("ts_real", ["ALTER TABLESPACE pg_default SET (seq_page_cost = 'abc');"]),
        ("ts_range", ["ALTER TABLESPACE pg_default SET (seq_page_cost = -1);"]),
    ]
    # Probes with their own placeholders.
    own = [
        ("invalid_custom_name", [f'SET "{CUSTOM_BAD}" = 1;'], [(CUSTOM_BAD, "{name}")]),
        ("reserved_prefix", [f"LOAD 'plpgsql'; SET plpgsql.{UNKNOWN} = 1;", f"RESET plpgsql.{UNKNOWN};"],
         [(f"plpgsql.{UNKNOWN}", "{name}")]),
        ("ts_in_transaction", ["BEGIN; CREATE TABLESPACE pgcprobe LOCATION '/pgcprobe-none';",
                                              "ROLLBACK;"], []),
        # A table's boolean and enum storage parameters (the integer and real ones
        # share the tablespace options' messages).
        ("tbl_bool", [f"CREATE TABLE {PROBE_TABLE} (a int); ALTER TABLE {PROBE_TABLE} SET (autovacuum_enabled = 'abc');",
                      f"DROP TABLE {PROBE_TABLE};"], [("autovacuum_enabled", "{name}"), (": abc", ": {value}")]),
        ("tbl_enum", [f"CREATE TABLE {PROBE_TABLE} (a int); ALTER TABLE {PROBE_TABLE} SET (vacuum_index_cleanup = 'abc');",
                      f"DROP TABLE {PROBE_TABLE};"], [("vacuum_index_cleanup", "{name}"), (": abc", ": {value}")]),
        ("invalid_byte_sequence", ["SELECT E'\\377';"], [("0xff", "{bytes}")]),
        ("read_only", ["SET default_transaction_read_only = on; ALTER ROLE postgres SET work_mem = '1MB';",
                       "RESET default_transaction_read_only;"], [("ALTER ROLE", "{command}")]),
        ("unicode_unsafe", ["SET standard_conforming_strings = off; SELECT U&'a';",
                            "RESET standard_conforming_strings;"], []),
        ("backslash_quote", ["SET backslash_quote = off; SELECT E'\\'';", "RESET backslash_quote;"], []),
        # LOAD of a bare name searches the session's dynamic_library_path.
        ("library_path_relative", ["SET dynamic_library_path = 'pgcprobe'; LOAD 'plpgsql';",
                                   "RESET dynamic_library_path;"], []),
        ("library_path_empty", ["SET dynamic_library_path = '$libdir::pgcprobe'; LOAD 'plpgsql';",
                                "RESET dynamic_library_path;"], []),
        ("library_path_macro", ["SET dynamic_library_path = '$pgcprobe'; LOAD 'plpgsql';",
                                "RESET dynamic_library_path;"], [("$pgcprobe", "{value}")]),
        ("library_missing", [f"SET dynamic_library_path = ''; LOAD '{UNKNOWN}';", "RESET dynamic_library_path;"],
         [(UNKNOWN, "{name}")]),
    ]
    own_got = outcomes(srv, [(tag, stmts) for tag, stmts, _ in own])
    got = outcomes(srv, probes)
    subs = [(UNKNOWN, "{name}"), (CUSTOM, "{name}"), ('"64MB"', '"{token}"'), ('")"', '"{token}"'),
            ("work_mem", "{name}"), ("seq_page_cost", "{name}"),
            ("effective_io_concurrency", "{name}"), ("pgcprobe", "{namespace}"), (": abc", ": {value}"),
            ("value -1", "value {value}")]
    # Statements psql would not send as they stand: one -c each.
    for tag, sql in (("syntax_end", "SELECT (1"), ("unterminated_string", "SELECT 'abc"),
                     ("unterminated_identifier", 'SELECT "abc'), ("unterminated_dollar", "SELECT $$abc"),
                     ("unterminated_comment", "SELECT 1 /* abc"), ("zero_length_identifier", 'SELECT ""')):
        got[tag] = direct(srv, sql)
    subs += [("\"'abc\"", '"{token}"'), ('""abc"', '"{token}"'), ('"$$abc"', '"{token}"'), ('"/* abc"', '"{token}"')]
    out = {}
    for tag, (failed, message) in got.items():
        out[tag] = template(message, subs) if failed else None
    for tag, _, own_subs in own:
        failed, message = own_got[tag]
        out[tag] = template(message, own_subs) if failed else None
    # 17+: ALTER SYSTEM refused altogether by allow_alter_system = off.
    if major >= 17:
        with open(os.path.join(srv.datadir, "postgresql.conf"), "a") as f:
            f.write("\nallow_alter_system = off\n")
        srv.psql("SELECT pg_reload_conf()")
        time.sleep(1)
        failed, message = outcomes(srv, [("off", ["ALTER SYSTEM SET work_mem = '1MB';"])])["off"]
        out["alter_system_disabled"] = message if failed else None
        with open(os.path.join(srv.datadir, "postgresql.conf"), "a") as f:
            f.write("\nallow_alter_system = on\n")
        srv.psql("SELECT pg_reload_conf()")
    else:
        out["alter_system_disabled"] = None
    return out


def harvest(major):
    t0 = time.time()
    params = catalog(major)
    with pgtools.Server(major) as srv:
        version = srv.psql("SHOW server_version").strip()
        doc = {"server_version": version, "keywords": keywords(srv)}
        lex, _ = lexer_facts(srv)
        doc.update(lex)
        doc["context_refused"] = refusals(srv, params)
        doc["scoped_value_refused"] = scoped_value_refusals(srv, params, doc["context_refused"])
        doc["list_quote"] = list_quote(srv, params, srv.datadir)
        doc["session_list_keywords"] = session_list_keywords(srv, params)
        doc["tablespace_options"] = tablespace_options(srv, params)
        doc["table_options"] = table_options(srv, params)
        doc["messages"] = messages(srv, major)
    print(f"pg{major}: harvested in {time.time() - t0:.1f}s", file=sys.stderr)
    return doc


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("majors", nargs="*", type=int, default=list(pgtools.MAJORS))
    ap.add_argument("--out", default=OUT, help="output file (default: knowledge/sql.json)")
    args = ap.parse_args(argv)
    os.environ.update(LC_ALL="C", LANG="C", PGCLIENTENCODING="UTF8")
    doc = {"schema": SCHEMA, "majors": {}}
    if os.path.exists(args.out):
        with open(args.out) as f:
            doc = json.load(f)
    for major in args.majors:
        doc["majors"][str(major)] = harvest(major)
        m = doc["majors"][str(major)]
        print(f"pg{major}: {sum(map(len, m['keywords'].values()))} keywords, "
              f"list_quote {m['list_quote']}, tablespace options {[o['name'] for o in m['tablespace_options']]}, "
              f"table options {len(m['table_options'])}, "
              f"context_refused: {len(m['context_refused'])}")
    write_json_atomic(args.out, doc)
    print(f"  -> {os.path.relpath(args.out, ROOT)}")


if __name__ == "__main__":
    main()
