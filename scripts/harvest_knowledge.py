#!/usr/bin/env python3
"""Harvests the facts pgconflint knows about PostgreSQL from the real server binaries.

For every major version (by default those of knowledge/majors.json) this script runs the
binaries installed by scripts/fetch-postgres.sh (.cache/postgres/<major>) and writes
knowledge/pg<major>.json.
Nothing about PostgreSQL is typed in here: every default, context, range, unit, enum
value and alias comes from the server itself, through

  * pg_settings on a running server (the parameter table);
  * SHOW / current_setting() probes of every identifier found in the postgres binary
    (parameters hidden from pg_settings, and old names the server maps to new ones);
  * `postgres -C` probes on an initdb'd data directory (hidden and build-dependent enum
    values, the keywords list parameters accept, what the configuration-file reader does
    with each parameter);
  * ALTER SYSTEM on a running server (what ALTER SYSTEM refuses, which parameters take lists).

The only hand-written lists below are *probe inputs and parsing aids* (extra spellings and
keywords to try, English filler words to skip in postgresql.conf.sample comments); they never end up
in the output unless the server confirmed them. See knowledge/README.md for the schema.

The output is deterministic: parameters sorted by lower-cased name, dictionaries with
sorted keys, 2-space indent, trailing newline, written atomically.

Usage: scripts/harvest_knowledge.py [MAJOR...]      (default: the majors of knowledge/majors.json)
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
import pgtools  # noqa: E402  (needs the path above)

SCHEMA = 1
KNOWLEDGE_DIR = os.path.join(ROOT, "knowledge")
THREADS = 4
# Probe input: a value no parameter type accepts.
OTHER_PROBE_VALUE = "pgcprobe-value"

# Probe input, not facts: spellings tried on every enum parameter in addition to every
# enum value of every parameter of the major.  Whatever the server accepts is recorded.
EXTRA_ENUM_PROBES = ("true", "false", "yes", "no", "on", "off", "1", "0", "debug", "info")

# Probe input, not facts: a keyword no list parameter accepts.  A string parameter that takes
# a list (list_input) and refuses it alone in a file refuses unknown keywords.
UNKNOWN_KEYWORD_PROBE = "pgconflint_probe"

# Probe input, not facts: keywords tried on every such list parameter, in addition to the
# words of its postgresql.conf.sample entry, of its pg_settings descriptions, and
# EXTRA_ENUM_PROBES.  restrict_nonsystem_relation_kind and debug_io_direct have no sample
# entry and their descriptions name no keyword, hence these.  Only what the server accepts
# is written.
EXTRA_LIST_PROBES = ("view", "foreign-table", "data", "wal", "wal_init")

# Parsing aid, not facts: English filler and descriptive words that occur in the comments
# of enum lines of postgresql.conf.sample.  Without it, words such as "level" or "system"
# (rejected by the server, being no values at all) would be mistaken for values that only
# other builds accept.  Parenthesised prose ("(change requires restart)", "(default on
# Linux and FreeBSD)") is dropped before this list applies, and enum values of the
# parameter itself are excluded before probing, so listing a real value here could only
# hide a build-dependent value, never invent one.
SAMPLE_STOPWORDS = frozenset("""
    a and archiving at by compression decreasing default detail enables errors first
    full-page given in is level locale messages of operating option or order pages
    prefetch referenced report supported synchronization system the usually validation
    values writes
""".split())

# Message that closes every refused configuration file; the line before it is the reason.
CONTAINS_ERRORS = re.compile(r'^configuration file ".*" contains errors')
LOG_LINE = re.compile(r"\b(DEBUG\d?|LOG|INFO|NOTICE|WARNING|ERROR|FATAL|PANIC|DETAIL|HINT):  (.*)$")


# ---------------------------------------------------------------------------------------
# Talking to the server

def run_psql(srv, script, tuples_only=True):
    """Feeds `script` to psql on stdin (no ON_ERROR_STOP: probes are expected to fail).

    Server.psql passes SQL with -c, which is limited to one argv string (128 kB) and
    stops at the first error; the probes here need neither limitation.
    """
    argv = ["psql", "-X", "-q", "-A", "-P", "footer=off", "-h", srv.sockdir, "-p", str(srv.port),
            "-U", "postgres", "-d", "postgres", "-f", "-"]
    if tuples_only:
        argv.insert(1, "-t")
    r = subprocess.run(argv, input=script, capture_output=True, encoding="utf-8", errors="replace")
    return r.stdout, r.stderr


def query_json(srv, sql):
    """One SQL query returning a single json value."""
    return json.loads(srv.psql(sql))


def echoed_literal(e_prefix, body):
    """The text of an SQL literal psql's \\echo :'VAR' printed (without its
    quotes): '' is one quote; after an E prefix a doubled backslash is one."""
    text = body.replace("''", "'")
    return text.replace("\\\\", "\\") if e_prefix else text


def sql_literal(text):
    return "'" + text.replace("'", "''") + "'"


def read_pg_settings(srv):
    """All pg_settings rows of a fresh session, as dicts, sorted by lower-cased name."""
    rows = query_json(srv, """
        select json_agg(row_to_json(s) order by lower(name)) from (
          select name, vartype, unit, context, category, short_desc, extra_desc,
                 min_val, max_val, enumvals, boot_val from pg_settings) s""")
    return rows


def read_build(srv, datadir, major, by_lower):
    """Compile-time sizes, in bytes (max_identifier_length is a byte count too).

    pg_size_bytes() converts the SHOW text ("1GB", "8192") with the server's own unit
    rules, so no unit multiplier is typed here.
    """
    names = ["block_size", "wal_block_size", "max_identifier_length", "segment_size"]
    sql = "select json_build_object(" + ", ".join(
        f"{sql_literal(n)}, pg_size_bytes(current_setting({sql_literal(n)}))" for n in names) + ")"
    build = query_json(srv, sql)
    # wal_segment_size is chosen by initdb; `postgres -C` prints it in its base unit.
    ok, printed, err = pgtools.postgres_C(major, datadir, None, "wal_segment_size")
    if not ok:
        raise RuntimeError(f"postgres -C wal_segment_size failed: {err}")
    from_sql = query_json(srv, "select to_json(pg_size_bytes(current_setting('wal_segment_size')))")
    # Equal only if -C prints bytes (its base unit), which is what the schema wants.
    if int(printed) != from_sql:
        raise RuntimeError(f"wal_segment_size: -C says {printed}, SHOW says {from_sql} bytes")
    build["wal_segment_size"] = int(printed)
    # MAX_IO_COMBINE_LIMIT is the upper bound of io_combine_limit (17) and of
    # io_max_combine_limit (18+); absent before 17.
    for name in ("io_max_combine_limit", "io_combine_limit"):
        rec = by_lower.get(name)
        if rec:
            build["max_io_combine_limit"] = query_json(
                srv, f"select to_json({int(rec['max_val'])} * pg_size_bytes({sql_literal(rec['unit'])}))")
            break
    return build


# ---------------------------------------------------------------------------------------
# Hidden parameters and aliases

def binary_name_candidates(major):
    """Every identifier-like token (optionally one dot) in the printable runs of `postgres`.

    GUC names are string literals in the binary, so this is a superset of all names the
    server knows, including those hidden from pg_settings and the old-name aliases.
    """
    with open(pgtools.pg_bin(major), "rb") as f:
        data = f.read()
    tokens = set()
    for run in re.findall(rb"[\x20-\x7e]{2,}", data):
        for tok in re.findall(rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)?", run):
            tokens.add(tok.decode("ascii").lower())
    return sorted(tokens)


def names_known_to_server(srv, candidates):
    """The candidates for which current_setting(name, missing_ok) is not null."""
    array = "array[" + ",".join(sql_literal(c) for c in candidates) + "]::text[]"
    out, err = run_psql(srv, f"select coalesce(json_agg(n order by n), '[]') from unnest({array}) n "
                             f"where current_setting(n, true) is not null;\n")
    if not out.strip():
        raise RuntimeError(f"name probe failed: {err}")
    return json.loads(out)


def show_column_name(srv, name):
    """The column title of SHOW <name>: the server's canonical spelling of the parameter."""
    out, err = run_psql(srv, f"SHOW {name};\n", tuples_only=False)
    if not out:
        raise RuntimeError(f"SHOW {name} failed: {err}")
    return out.splitlines()[0]


def alias_probe_value(rec):
    """A value for `rec` different from its boot value, to watch an alias move it (probe)."""
    if rec["vartype"] in ("integer", "real"):
        return rec["max_val"] if rec["max_val"] != rec["boot_val"] else rec["min_val"]
    if rec["vartype"] == "enum":
        return next(v for v in rec["enumvals"] if v != rec["boot_val"])
    if rec["vartype"] == "bool":
        return "off" if rec["boot_val"] == "on" else "on"
    return "pgconflint_probe"


def verify_alias(major, datadir, alias, rec):
    """Checks with `postgres -C` that setting `alias` really sets parameter `rec`."""
    target = rec["name"]
    value = alias_probe_value(rec)
    _, base, _ = pgtools.postgres_C(major, datadir, None, target)
    ok_t, via_target, _ = pgtools.postgres_C(major, datadir, None, target, [f"{target}={value}"])
    ok_a, via_alias, err = pgtools.postgres_C(major, datadir, None, target, [f"{alias}={value}"])
    if not (ok_t and ok_a and via_alias == via_target != base):
        raise RuntimeError(f"pg{major}: {alias} -> {target} not confirmed by postgres -C "
                           f"({base!r}, {via_target!r}, {via_alias!r}, {err})")


def classify_extra_names(srv, major, datadir, settings):
    """Splits names the server knows beyond pg_settings into aliases and hidden parameters."""
    by_lower = {s["name"].lower(): s for s in settings}
    extra = [n for n in names_known_to_server(srv, binary_name_candidates(major)) if n not in by_lower]
    aliases, hidden = {}, []
    for name in extra:
        canonical = show_column_name(srv, name)
        if canonical.lower() == name:
            hidden.append(canonical)
        elif canonical.lower() in by_lower:
            verify_alias(major, datadir, name, by_lower[canonical.lower()])
            aliases[name] = by_lower[canonical.lower()]["name"]
        else:
            raise RuntimeError(f"pg{major}: {name} shows as {canonical}, which is not in pg_settings")
    return aliases, hidden


def describe_config(major):
    """`postgres --describe-config` rows by lower-cased name (it skips GUC_NO_SHOW_ALL ones)."""
    r = subprocess.run(pgtools.as_user([pgtools.pg_bin(major), "--describe-config"]),
                       capture_output=True, text=True, check=True)
    rows = {}
    for line in r.stdout.splitlines():
        f = line.split("\t")
        if len(f) >= 9:
            rows[f[0].lower()] = f
    return rows


def hidden_parameter_record(major, datadir, name, described):
    """What can be harvested about a parameter pg_settings does not show.

    boot_val is what `postgres -C` prints on a fresh data directory (the file does not
    mention these parameters, so it is the built-in value, printed raw like -C does for
    every parameter).  --describe-config is used when it lists the name; in 14..18 it
    lists none of them (it skips GUC_NO_SHOW_ALL), so those fields are null.
    """
    ok, printed, err = pgtools.postgres_C(major, datadir, None, name)
    rec = {"name": name, "vartype": None, "unit": None, "context": None, "category": None,
           "short_desc": None, "extra_desc": None, "min_val": None, "max_val": None,
           "enumvals": None, "boot_val": printed if ok else None, "in_pg_settings": False}
    row = described.get(name.lower())
    if row:
        # --describe-config: name, context, group, TYPE, reset value (unreliable), min, max, short, long
        rec.update(context=row[1], category=row[2], vartype={"BOOLEAN": "bool"}.get(row[3], row[3].lower()),
                   min_val=row[5] or None, max_val=row[6] or None, short_desc=row[7] or None,
                   extra_desc=row[8] or None)
    return rec


# ---------------------------------------------------------------------------------------
# Enum values: hidden spellings and values only other builds accept

def _elf_sections(data):
    """[(name, type, vaddr, file offset, size)] of a little-endian x86-64 ELF64 file, else None."""
    if data[:4] != b"\x7fELF" or data[4:6] != b"\x02\x01" or struct.unpack_from("<H", data, 0x12)[0] != 62:
        return None
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    raw = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = raw[shstrndx][4]
    return [(data[names + n:data.index(b"\0", names + n)].decode(), typ, addr, off, size)
            for n, typ, _flags, addr, off, size in raw]


def binary_enum_table_strings(major, known_values):
    """Lower-case strings of the enum option tables compiled into `postgres` (probe input).

    The basic probe list (every enumval plus EXTRA_ENUM_PROBES) cannot find hidden
    spellings that are no enum value anywhere (wal_level's archive/hot_standby).
    Those live in the same option tables as the visible values: arrays of
    {const char *name; int val; bool hidden} (16 bytes on x86-64) ending with a zeroed
    entry.  In this PIE binary each name pointer is an R_X86_64_RELATIVE relocation.  So:
    find the relocated slots that point to a known enum value, walk the 16-byte entries
    around them, keep the runs that end with a zeroed entry.  Every string found is only
    a candidate for `postgres -C`; only lower-case value-like strings are kept (in 18 a
    run of upper-case command tags follows a table that lacks the terminator).  Returns an empty set for other binaries.
    """
    with open(pgtools.pg_bin(major), "rb") as f:
        data = f.read()
    sections = _elf_sections(data)
    if sections is None:
        print(f"pg{major}: postgres is not an x86-64 ELF file, enum tables not scanned", file=sys.stderr)
        return set()
    loaded = [(addr, off, size) for _n, typ, addr, off, size in sections if addr and typ != 8]  # 8: NOBITS
    relative = {}
    for _n, typ, _addr, off, size in sections:
        if typ == 4:  # SHT_RELA: (r_offset, r_info, r_addend); type 8 = R_X86_64_RELATIVE
            for o in range(off, off + size, 24):
                r_offset, r_info, addend = struct.unpack_from("<QQq", data, o)
                if r_info & 0xffffffff == 8:
                    relative[r_offset] = addend

    def file_offset(vaddr):
        for addr, off, size in loaded:
            if addr <= vaddr < addr + size:
                return off + vaddr - addr
        return None

    def string_at(vaddr):
        o = file_offset(vaddr)
        if o is None:
            return None
        end = data.find(b"\0", o, o + 256)
        text = data[o:end] if end > o else b""
        return text.decode() if text and all(0x20 <= c < 0x7f for c in text) else None

    def entry_name(slot):
        """The name of a {pointer, 8 bytes of data} entry at `slot`, else None."""
        return string_at(relative[slot]) if slot in relative and slot + 8 not in relative else None

    def zeroed_entry(slot):
        o = file_offset(slot)
        return slot not in relative and o is not None and data[o:o + 16] == bytes(16)

    found, visited = set(), set()
    for slot in sorted(relative):
        name = entry_name(slot)
        if slot in visited or name is None or name.lower() not in known_values:
            continue
        start = slot
        while entry_name(start - 16) is not None:
            start -= 16
        run, end = [], start
        while entry_name(end) is not None:
            run.append(entry_name(end))
            visited.add(end)
            end += 16
        if zeroed_entry(end):
            found.update(n for n in run if re.fullmatch(r"[a-z0-9][a-z0-9_ .-]*", n))
    return found


def probe_enum_values(major, datadir, name, values):
    """{value: printed or None} for `postgres -c name=value -C name`; None = rejected."""
    def one(v):
        ok, printed, _ = pgtools.postgres_C(major, datadir, None, name, [f"{name}={v}"])
        return v, (printed if ok else None)
    with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
        return dict(pool.map(one, values))


# A lower-case identifier word of prose, hyphens allowed inside (scram-sha-256,
# foreign-table); capitalised words such as Linux, OS, WAL are prose.
VALUE_WORD = re.compile(r"(?<![\w.-])[a-z][a-z0-9_]*(?:-[a-z0-9_]+)*(?![\w-])")


def sample_value_words(major, stopwords=SAMPLE_STOPWORDS):
    """{lower-cased parameter name: candidate value words of its postgresql.conf.sample entry}.

    An entry is `#name = value   # comment` plus the indented comment-only lines that
    follow it.  The value is one candidate (quoted values such as 'read committed' stay
    whole).  From the comment, parenthesised prose is dropped, then the VALUE_WORDs are
    kept minus `stopwords`.
    """
    path = os.path.join(pgtools.pg_home(major), "share", "postgresql", "postgresql.conf.sample")
    with open(path) as f:
        lines = f.read().splitlines()
    entry = re.compile(r"^#?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*('(?:[^']|'')*'|[^\s#]*)\s*(?:#(.*))?$")
    entries, i = {}, 0
    while i < len(lines):
        m = entry.match(lines[i])
        i += 1
        if not m:
            continue
        value = m.group(2)
        if value.startswith("'"):
            value = value[1:-1].replace("''", "'")
        comment = m.group(3) or ""
        while i < len(lines) and re.match(r"^\s+#", lines[i]):
            comment += " " + lines[i].split("#", 1)[1]
            i += 1
        comment = re.sub(r"\([^()]*\)", " ", comment)
        words = [value.lower()] if value else []
        words += [w for w in VALUE_WORD.findall(comment) if w not in stopwords]
        known = entries.setdefault(m.group(1).lower(), [])
        for w in words:
            if w not in known:
                known.append(w)
    return entries


def harvest_enumval_output(major, datadir, settings):
    """{name: {enumval: printed}} where `postgres -C` prints another spelling for a listed value.

    Values that share an internal number print as the first of them in the server's
    table: wal_compression = on prints pglz.
    """
    result = {}
    for s in settings:
        if s["vartype"] != "enum":
            continue
        outcome = probe_enum_values(major, datadir, s["name"], list(s["enumvals"]))
        differing = {v: printed for v, printed in outcome.items() if printed is not None and printed != v}
        result[s["name"]] = dict(sorted(differing.items()))
    return result


def harvest_encodings(srv, major):
    """{cleaned name: canonical encoding name} for every name the server accepts.

    The server cleans an encoding name (lower-case, only letters and digits) and looks
    it up in its alias table; candidates are the identifier-like tokens of the binary,
    cleaned the same way, and one SQL query keeps those that resolve.
    """
    cleaned = sorted({re.sub(r"[^a-z0-9]", "", c) for c in binary_name_candidates(major)} - {""})
    array = "array[" + ",".join(sql_literal(c) for c in cleaned) + "]::text[]"
    out, err = run_psql(srv, "select coalesce(json_object_agg(n, pg_encoding_to_char(pg_char_to_encoding(n)) "
                             "order by n), '{}') from unnest(" + array + ") n where pg_char_to_encoding(n) >= 0;\n")
    if not out.strip():
        raise RuntimeError(f"encoding probe failed: {err}")
    return dict(sorted(json.loads(out).items()))


def harvest_timezone_sets(major, datadir):
    """The timezone_abbreviations values this installation accepts (files it ships, probed)."""
    base = os.path.join(pgtools.pg_home(major), "share", "postgresql", "timezonesets")
    names = sorted(os.listdir(base)) if os.path.isdir(base) else []
    outcome = probe_enum_values(major, datadir, "timezone_abbreviations", names)
    return sorted(n for n, printed in outcome.items() if printed is not None)


def harvest_file_value_ignored(major, datadir, params):
    """{name: bool}: does a non-default bool/enum value in a file leave `postgres -C` at the default?

    transaction_isolation = serializable in postgresql.conf is accepted and does nothing.
    """
    def other_value(rec):
        if rec["vartype"] == "bool":
            return "off" if rec["boot_val"] == "on" else "on"
        for v in rec["enumvals"] or []:
            if v != rec["boot_val"]:
                return v
        return None

    todo = [(p, other_value(p)) for p in params if p.get("vartype") in ("bool", "enum") and p.get("in_pg_settings")]
    todo = [(p, v) for p, v in todo if v is not None and p["file_setting"]["accepted"]]
    outcome = probe_file_settings(major, datadir, [(p["name"], v) for p, v in todo])
    return {p["name"]: bool(ok and printed == p["boot_val"] and printed != v)
            for (p, v), (ok, printed, _) in zip(todo, outcome)}


def harvest_enum_extras(major, datadir, settings):
    """{name: (hidden_enumvals, build_dependent_enumvals)} for every enum parameter."""
    enums = [s for s in settings if s["vartype"] == "enum"]
    known_values = {v.lower() for s in enums for v in s["enumvals"]}
    probes = sorted(known_values | set(EXTRA_ENUM_PROBES) | binary_enum_table_strings(major, known_values))
    sample = sample_value_words(major)
    result = {}
    for s in enums:
        known = {v.lower() for v in s["enumvals"]}
        from_sample = [w for w in sample.get(s["name"].lower(), []) if w not in known]
        todo = sorted(({p for p in probes if p not in known}) | set(from_sample))
        outcome = probe_enum_values(major, datadir, s["name"], todo)
        hidden = {v: printed for v, printed in outcome.items() if printed is not None}
        build_dependent = sorted(w for w in from_sample if outcome[w] is None)
        result[s["name"]] = (dict(sorted(hidden.items())), build_dependent)
    return result


# ---------------------------------------------------------------------------------------
# What the configuration-file reader and ALTER SYSTEM do with each parameter

def server_message(stderr, paths):
    """The line of `stderr` that explains a refusal, without timestamp, pid and severity.

    The closing "configuration file ... contains errors" line is skipped when there is a
    more specific one.  Temporary paths are replaced by placeholders for determinism.
    """
    messages = []
    for line in stderr.splitlines():
        m = LOG_LINE.search(line)
        if m and m.group(1) not in ("DETAIL", "HINT"):
            messages.append(m.group(2))
    specific = [t for t in messages if not CONTAINS_ERRORS.match(t)]
    text = (specific or messages or [stderr.strip()])[0]
    for path, placeholder in paths:
        text = text.replace(path, placeholder)
    return text


def config_file_quote(value):
    """A configuration-file string literal: ' doubled, and \\ doubled (it is an escape)."""
    return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'"


def probe_file_settings(major, datadir, settings):
    """[(accepted, printed, message)] for each (name, value) of `settings`, in order.

    Each is `postgres -D <datadir> -c config_file=F -C name` where F holds only
    `name = '<value>'` (THREADS at a time).  message is the server's reason
    (server_message) when refused, else None.
    """
    workdir = pgtools.make_tempdir(f"pgconflint-harvest{major}-")

    def one(item):
        i, (name, value) = item
        path = os.path.join(workdir, f"{i}.conf")
        with open(path, "w") as f:
            f.write(f"{name} = {config_file_quote(value)}\n")
        pgtools.share_with_user(path)
        ok, printed, err = pgtools.postgres_C(major, datadir, path, name)
        message = None if ok else server_message(err, [(path, "<config_file>"), (datadir, "<data_directory>")])
        return ok, printed, message

    try:
        with concurrent.futures.ThreadPoolExecutor(THREADS) as pool:
            return list(pool.map(one, enumerate(settings)))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def harvest_file_settings(major, datadir, params):
    """{name: {"accepted", "message"}} for `name = '<boot_val>'` alone in a config file."""
    outcome = probe_file_settings(major, datadir, [(p["name"], p["boot_val"] or "") for p in params])
    return {p["name"]: {"accepted": ok, "message": message} for p, (ok, _, message) in zip(params, outcome)}


def harvest_refused_values(major, datadir, params, alter):
    """{name: {value: message}}: values the server refuses for a parameter it lets a file
    and ALTER SYSTEM set, where the type and range do not say so.

    * The boot value, when setting it explicitly fails for a reason other than "cannot be
      changed" (lc_messages = '' is only valid as the built-in default).
    * For parameters hidden from pg_settings, whose type is not harvested: a value no type
      accepts shows whether the parameter is a Boolean ("requires a Boolean value"); if so,
      its type is recorded and on and off are each tried (default_with_oids refuses on).
      A number shows its type and range in the refusal of a value too large (seed, -1 .. 1).
    """
    out = {}
    for p in params:
        fs, (alter_rec, _) = p["file_setting"], alter[p["name"]]
        for probe in (fs, alter_rec):
            if not probe["accepted"] and "cannot be changed" not in (probe["message"] or ""):
                out.setdefault(p["name"], {})[p["boot_val"] or ""] = probe["message"]
                break
    hidden = [p for p in params if not p["in_pg_settings"] and p["vartype"] is None]
    probes = (OTHER_PROBE_VALUE, "on", "off", "1e30", "2147483647")
    todo = [(p["name"], v) for p in hidden for v in probes]
    outcome = probe_file_settings(major, datadir, todo)
    for i, p in enumerate(hidden):
        got = dict(zip(probes, outcome[len(probes) * i:len(probes) * (i + 1)]))
        typed = got[OTHER_PROBE_VALUE][2]
        if typed and "requires a Boolean value" in typed:
            p["vartype"] = "bool"
            for value in ("on", "off"):
                if not got[value][0]:
                    out.setdefault(p["name"], {})[value] = got[value][2]
        else:
            # A number names its range when a value is too large: 1e30 is a real's, an
            # integer refuses it as no integer and names its range for 2147483647.
            for value, vartype in (("1e30", "real"), ("2147483647", "integer")):
                m = re.search(r"outside the valid range for parameter \"[^\"]+\" \((\S+) \.\. (\S+)\)",
                              got[value][2] or "")
                if m:
                    p["vartype"], p["min_val"], p["max_val"] = vartype, m.group(1), m.group(2)
                    break
    return out


def resource_manager_names():
    """Probe input: the WAL resource managers' names, from pg_get_wal_resource_managers() of
    the newest major (14 has no such function; what 14 accepts of them is what is recorded)."""
    newest = max(pgtools.MAJORS)
    with pgtools.Server(newest) as srv:
        return srv.psql("select string_agg(rm_name, ',' order by rm_id) from pg_get_wal_resource_managers()").strip().split(",")


def harvest_list_keywords(major, datadir, params):
    """{name: sorted keywords accepted} for every string parameter whose check refuses
    unknown keywords in its list.

    Those are the parameters that take a list (list_input) and refuse
    UNKNOWN_KEYWORD_PROBE alone in a file.  Their candidates, each probed alone in a file
    as a quoted value: the words of the parameter's postgresql.conf.sample entry (its
    value split at commas, and every VALUE_WORD of its comment, stopwords included), the
    VALUE_WORDs of its pg_settings descriptions, EXTRA_LIST_PROBES, EXTRA_ENUM_PROBES and the
    WAL resource managers' names (wal_consistency_checking, which 14 checks in a file).
    """
    lists = [p for p in params if p.get("vartype") == "string" and p["list_input"] and p["file_setting"]["accepted"]]
    unknown = probe_file_settings(major, datadir, [(p["name"], UNKNOWN_KEYWORD_PROBE) for p in lists])
    keyword_lists = [p for p, (ok, _, _) in zip(lists, unknown) if not ok]
    sample = sample_value_words(major, stopwords=frozenset())
    rmgrs = resource_manager_names() if keyword_lists else []
    todo = []
    for p in keyword_lists:
        words = set(EXTRA_LIST_PROBES) | set(EXTRA_ENUM_PROBES) | set(rmgrs)
        for w in sample.get(p["name"].lower(), []):
            words.update(part.strip() for part in w.split(","))
        for text in (p["short_desc"], p["extra_desc"]):
            words.update(VALUE_WORD.findall(text or ""))
        words.discard("")
        todo += [(p["name"], w) for w in sorted(words)]
    outcome = probe_file_settings(major, datadir, todo)
    result = {p["name"]: [] for p in keyword_lists}
    for (name, word), (ok, _, _) in zip(todo, outcome):
        if ok:
            result[name].append(word)
    return result


def harvest_alter_system(srv, params):
    """{name: (alter_system outcome, list_input)} probed in one psql session.

    ALTER SYSTEM cannot run in a transaction block, so every statement is its own
    top-level command; psql's ERROR / LAST_ERROR_MESSAGE variables report each outcome.
    The list probe relies on flatten_set_variable_args() rejecting several values with
    "SET <name> takes only one argument" before any other check, even for parameters
    ALTER SYSTEM then refuses.
    """
    lines = []
    for rec in params:
        n = rec["name"]
        for tag, value in (("as", sql_literal(rec["boot_val"] or "")), ("li", "'a', 'b'")):
            lines += [f"ALTER SYSTEM SET {n} = {value};",
                      f"\\echo @@{tag} {n} :ERROR :'LAST_ERROR_MESSAGE'",
                      f"ALTER SYSTEM RESET {n};"]
    out, _ = run_psql(srv, "\n".join(lines) + "\n")
    outcome = {}
    for line in out.splitlines():
        # :'VAR' is an SQL literal, written E'...' (backslashes doubled) when needed.
        m = re.match(r"^@@(as|li) (\S+) (true|false) +(E?)'(.*)'$", line)
        if m:
            message = echoed_literal(m.group(4), m.group(5))
            failed = m.group(3) == "true"
            outcome[(m.group(1), m.group(2))] = (failed, message)
    result = {}
    for rec in params:
        failed, message = outcome[("as", rec["name"])]
        li_failed, li_message = outcome[("li", rec["name"])]
        list_input = not (li_failed and "takes only one argument" in li_message)
        result[rec["name"]] = ({"accepted": not failed, "message": message if failed else None}, list_input)
    # Every accepted probe was reset: postgresql.auto.conf must be empty again.
    left = srv.psql("select count(*) from pg_file_settings where sourcefile like '%postgresql.auto.conf'")
    if int(left) != 0:
        raise RuntimeError(f"ALTER SYSTEM probes left {left.strip()} settings in postgresql.auto.conf")
    return result


# ---------------------------------------------------------------------------------------
# Extension modules: the loadable libraries of the build and the parameters they define

EXT_PROBE = "pgconflint_probe"  # probe input: a parameter name no module defines
CUSTOM_FIELDS = ("name", "vartype", "unit", "context", "category", "short_desc", "extra_desc",
                 "min_val", "max_val", "enumvals", "boot_val")


def library_modules(major):
    """The loadable modules of the build: every *.so in lib/postgresql (names without .so)."""
    libdir = os.path.join(pgtools.pg_home(major), "lib", "postgresql")
    return sorted(f[:-3] for f in os.listdir(libdir) if f.endswith(".so"))


def extensions_loading(major):
    """{module: [extension names whose control file or SQL scripts load it]}, from share/extension.

    A control file's module_pathname ('$libdir/x') is what MODULE_PATHNAME means in its
    scripts; scripts may also name '$libdir/x' directly.  Such modules are loaded on demand,
    when a session calls one of the extension's functions.
    """
    base = os.path.join(pgtools.pg_home(major), "share", "postgresql", "extension")
    loads = {}
    pathname = {}
    for f in sorted(os.listdir(base)):
        if f.endswith(".control"):
            with open(os.path.join(base, f)) as fh:
                m = re.search(r"^\s*module_pathname\s*=\s*'\$libdir/([^']+)'", fh.read(), re.M)
            if m:
                pathname[f[:-len(".control")]] = m.group(1)
    for f in sorted(os.listdir(base)):
        if not f.endswith(".sql"):
            continue
        ext = f.split("--")[0]
        with open(os.path.join(base, f), errors="replace") as fh:
            text = fh.read()
        mods = set(re.findall(r"'\$libdir/([A-Za-z0-9_]+)'", text))
        if "MODULE_PATHNAME" in text and ext in pathname:
            mods.add(pathname[ext])
        for mod in mods:
            loads.setdefault(mod, set()).add(ext)
    for ext, mod in pathname.items():
        loads.setdefault(mod, set()).add(ext)
    return {mod: sorted(exts) for mod, exts in loads.items()}


def psql_error(stderr):
    """The server's ERROR/FATAL text of a failed psql run, without psql's location prefix."""
    for line in stderr.splitlines():
        m = re.search(r"\b(ERROR|FATAL):  (.*)$", line)
        if m:
            return m.group(2)
    return stderr.strip().splitlines()[-1] if stderr.strip() else "failed"


def custom_rows_sql():
    return ("select coalesce(json_agg(row_to_json(s) order by lower(name)), '[]') from (select "
            + ", ".join(CUSTOM_FIELDS) + " from pg_settings where name like '%.%') s")


def session_load(srv, module):
    """(ok, message, rows): LOAD 'module' in a fresh session, then its custom pg_settings rows."""
    argv = ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", srv.sockdir, "-p", str(srv.port),
            "-U", "postgres", "-d", "postgres", "-f", "-"]
    r = subprocess.run(argv, input=f"LOAD {sql_literal(module)};\n{custom_rows_sql()};\n", capture_output=True,
                       encoding="utf-8", errors="replace")
    if r.returncode != 0:
        return False, psql_error(r.stderr), []
    return True, None, json.loads(r.stdout)


class Restartable:
    """One initdb'd data directory started again and again with other -c options."""

    def __init__(self, major):
        self.major = major
        self.base = pgtools.make_tempdir(f"pgconflint-harvest-ext{major}-")
        self.datadir = pgtools.initdb(major, parent=self.base)
        self.sockdir = os.path.join(self.base, "sock")
        os.mkdir(self.sockdir)
        os.chmod(self.sockdir, 0o777)
        self.port = pgtools.free_port()
        self.running = False
        self.n = 0

    def start(self, options):
        """(started, log text) with `-c k=v` for every option."""
        self.n += 1
        log = os.path.join(self.base, f"start{self.n}.log")
        opts = [f"-c port={self.port}", "-c listen_addresses=''", f"-c unix_socket_directories={self.sockdir}",
                "-c fsync=off"] + [f"-c {k}={v}" for k, v in options.items()]
        r = subprocess.run(pgtools.as_user([pgtools.pg_bin(self.major, "pg_ctl"), "-D", self.datadir, "-l", log,
                                            "-w", "-t", "60", "-o", " ".join(opts), "start"]),
                           capture_output=True, text=True)
        self.running = r.returncode == 0
        text = ""
        if os.path.exists(log):
            with open(log, errors="replace") as f:
                text = f.read()
        return self.running, text

    def stop(self):
        if self.running:
            subprocess.run(pgtools.as_user([pgtools.pg_bin(self.major, "pg_ctl"), "-D", self.datadir, "-m", "fast",
                                            "-w", "stop"]), capture_output=True)
            self.running = False

    def psql(self, sql):
        r = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-h", self.sockdir, "-p", str(self.port), "-U",
                            "postgres", "-d", "postgres", "-c", sql], capture_output=True, text=True, errors="replace")
        return r.returncode == 0, r.stdout.strip(), psql_error(r.stderr) if r.returncode else None

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.base, ignore_errors=True)


def log_messages(text, severity):
    """The `severity` messages of a server log, without prefixes."""
    return [m.group(2) for m in map(LOG_LINE.search, text.splitlines()) if m and m.group(1) == severity]


def preload(cluster, module, probe_prefixes):
    """What a start with shared_preload_libraries = module does.

    Returns {"ok", "message", "rows", "prefixes"}: the custom pg_settings rows of a fresh
    session, and for each probed prefix whether SET of an unknown name under it is
    refused (a reserved prefix) and whether `-c prefix.pgconflint_probe=1` given at start
    survives as a placeholder, with the server's messages.
    """
    options = {"shared_preload_libraries": module}
    options.update({f"{p}.{EXT_PROBE}": "1" for p in probe_prefixes})
    started, log = cluster.start(options)
    try:
        if not started:
            fatal = log_messages(log, "FATAL")
            return {"ok": False, "message": fatal[0] if fatal else log.strip()[-200:], "rows": [], "prefixes": {}}
        ok, out, err = cluster.psql(custom_rows_sql())
        rows = json.loads(out) if ok else []
        rows = [r for r in rows if not r["name"].endswith("." + EXT_PROBE)]
        prefixes = {}
        for p in sorted({r["name"].split(".")[0] for r in rows} | set(probe_prefixes)):
            set_ok, _, set_err = cluster.psql(f"SET {p}.{EXT_PROBE} = '1'")
            kept_ok, kept, _ = cluster.psql(f"select current_setting('{p}.{EXT_PROBE}', true) is not null")
            warning = [w for w in log_messages(log, "WARNING") if f'"{p}.{EXT_PROBE}"' in w or f'"{p}"' in w]
            prefixes[p] = {"set_refused": not set_ok, "set_message": set_err,
                           "file_placeholder_kept": kept == "t" if p in probe_prefixes else None,
                           "file_warning": warning[0] if warning and p in probe_prefixes else None}
        return {"ok": True, "message": None, "rows": rows, "prefixes": prefixes}
    finally:
        cluster.stop()


def shared_memory_points(major, datadir, module, rec):
    """[[value, shared_memory_size in MB], ...] of `postgres -C shared_memory_size` (15+) with
    `module` preloaded and postmaster-context integer parameter `rec` at its boot value and
    100000 above it (capped at max_val); None when the server cannot tell."""
    if major < 15:
        return None
    low = int(rec["boot_val"])
    high = min(int(rec["max_val"]), low + 100000)
    if high == low:
        return None
    points = []
    for v in (low, high):
        ok, printed, _ = pgtools.postgres_C(major, datadir, None, "shared_memory_size",
                                            [f"shared_preload_libraries={module}", f"{rec['name']}={v}"])
        if not ok:
            return None
        points.append([v, int(printed)])
    return points


def libdir_placeholder(major, text):
    """`text` with this checkout's library directory (as given and resolved) written $libdir."""
    libdir = os.path.join(pgtools.pg_home(major), "lib", "postgresql")
    for path in (os.path.realpath(libdir), libdir):
        text = text.replace(path, "$libdir")
    return text


def harvest_extensions(major):
    """The knowledge/extensions/pg<major>.json document: every module of the build, what
    loading it does, and the parameters it defines."""
    t0 = time.time()
    on_demand = extensions_loading(major)
    modules, params = [], []
    with pgtools.Server(major) as srv:
        loaded = {m: session_load(srv, m) for m in library_modules(major)}
    cluster = Restartable(major)
    try:
        for name, (load_ok, load_msg, load_rows) in loaded.items():
            probe = sorted({r["name"].split(".")[0] for r in load_rows} | {name})
            pre = preload(cluster, name, probe) if load_ok else {"ok": False, "message": load_msg, "rows": [],
                                                                   "prefixes": {}}
            by_name = {r["name"]: dict(r) for r in load_rows}
            for r in pre["rows"]:
                by_name.setdefault(r["name"], dict(r))
            load_names = {r["name"] for r in load_rows}
            preload_names = {r["name"] for r in pre["rows"]}
            defined = [p for p in by_name.values()]
            # Prefixes the module's parameters use, and what the server does with other names under them.
            used = sorted({p["name"].split(".")[0] for p in defined})
            modules.append({
                "name": name,
                "session_load": {"accepted": load_ok, "message": load_msg},
                "shared_preload": {"accepted": pre["ok"], "message": pre["message"]},
                "extensions": on_demand.get(name, []),
                "prefixes": {p: pre["prefixes"].get(p) for p in used},
            })
            for p in sorted(defined, key=lambda r: r["name"].lower()):
                rec = dict(p)
                rec["module"] = name
                rec["defined_by_load"] = p["name"] in load_names
                rec["defined_by_preload"] = p["name"] in preload_names
                rec["shared_memory_points"] = (
                    shared_memory_points(major, cluster.datadir, name, p)
                    if p["context"] == "postmaster" and p["vartype"] == "integer" and p["name"] in preload_names
                    else None)
                params.append(rec)
    finally:
        cluster.cleanup()
    params.sort(key=lambda p: (p["name"].lower(), p["name"]))
    # Messages name the library's path in this checkout: write it as the server's $libdir.
    for m in modules:
        for outcome in (m["session_load"], m["shared_preload"]):
            if outcome["message"]:
                outcome["message"] = libdir_placeholder(major, outcome["message"])
    doc = {"schema": SCHEMA, "major": major, "package": package_version(major), "modules": modules,
           "parameters": params}
    print(f"pg{major}: extensions harvested in {time.time() - t0:.1f}s", file=sys.stderr)
    return doc


def extensions_summary(doc):
    defining = [m for m in doc["modules"] if m["prefixes"]]
    refused = [m["name"] for m in doc["modules"] if not m["session_load"]["accepted"]]
    reserved = sorted(p for m in doc["modules"] for p, v in m["prefixes"].items() if v and v["set_refused"])
    return "\n".join([
        f"pg{doc['major']} extensions: {len(doc['modules'])} modules, {len(defining)} define "
        f"{len(doc['parameters'])} parameters: "
        + ", ".join(f"{m['name']} ({sum(p['module'] == m['name'] for p in doc['parameters'])})" for m in defining),
        f"  not loadable here ({len(refused)}): " + ", ".join(refused),
        f"  reserved prefixes ({len(reserved)}): " + ", ".join(reserved),
        f"  only defined when preloaded: " + ", ".join(p["name"] for p in doc["parameters"]
                                                        if not p["defined_by_load"]),
    ])


# ---------------------------------------------------------------------------------------
# Putting it together

def package_version(major):
    with open(os.path.join(pgtools.pg_home(major), "VERSION")) as f:
        return pgtools.NPM_PACKAGE + "@" + f.read().strip()


def harvest(major):
    t0 = time.time()
    datadir = pgtools.initdb(major)
    with pgtools.Server(major) as srv:
        settings = read_pg_settings(srv)
        by_lower = {s["name"].lower(): s for s in settings}
        server_version = srv.psql("SHOW server_version").strip()
        build = read_build(srv, datadir, major, by_lower)
        aliases, hidden_names = classify_extra_names(srv, major, datadir, settings)
        described = describe_config(major)
        params = [dict(s, in_pg_settings=True) for s in settings]
        params += [hidden_parameter_record(major, datadir, n, described) for n in hidden_names]
        params.sort(key=lambda p: (p["name"].lower(), p["name"]))
        alter = harvest_alter_system(srv, params)
        build["encodings"] = harvest_encodings(srv, major)
    build["timezone_sets"] = harvest_timezone_sets(major, datadir)
    enum_extras = harvest_enum_extras(major, datadir, settings)
    enum_output = harvest_enumval_output(major, datadir, settings)
    file_settings = harvest_file_settings(major, datadir, params)
    for p in params:
        p["file_setting"] = file_settings[p["name"]]
    refused = harvest_refused_values(major, datadir, params, alter)
    ignored = harvest_file_value_ignored(major, datadir, params)

    out_params = []
    for p in params:
        hidden_enums, build_dep = enum_extras.get(p["name"], (None, None))
        rec = dict(p)
        rec["hidden_enumvals"] = hidden_enums
        rec["build_dependent_enumvals"] = build_dep
        rec["file_setting"] = file_settings[p["name"]]
        rec["alter_system"], rec["list_input"] = alter[p["name"]]
        rec["enumval_output"] = enum_output.get(p["name"])
        rec["file_value_ignored"] = ignored.get(p["name"], False)
        rec["refused_values"] = refused.get(p["name"])
        out_params.append(rec)
    keywords = harvest_list_keywords(major, datadir, out_params)
    for rec in out_params:
        rec["list_keywords"] = keywords.get(rec["name"])
    doc = {"schema": SCHEMA, "major": major, "server_version": server_version,
           "package": package_version(major), "build": build,
           "aliases": dict(sorted(aliases.items())), "parameters": out_params}
    print(f"pg{major}: harvested in {time.time() - t0:.1f}s", file=sys.stderr)
    return doc


def write_json_atomic(path, doc):
    text = json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def summary(doc):
    params = doc["parameters"]
    shown = [p for p in params if p["in_pg_settings"]]
    hidden_enum = {p["name"]: p["hidden_enumvals"] for p in params if p["hidden_enumvals"]}
    build_dep = {p["name"]: p["build_dependent_enumvals"] for p in params if p["build_dependent_enumvals"]}
    lines = [
        f"pg{doc['major']} ({doc['server_version']}): {len(shown)} in pg_settings, "
        f"{len(params) - len(shown)} hidden: {[p['name'] for p in params if not p['in_pg_settings']]}",
        f"  build: {doc['build']}",
        f"  aliases: {doc['aliases']}",
        f"  hidden enum values ({sum(map(len, hidden_enum.values()))} in {len(hidden_enum)} parameters): "
        + "; ".join(f"{k}: {','.join(f'{a}={b}' for a, b in v.items())}" for k, v in hidden_enum.items()),
        f"  build-dependent enum values: {build_dep}",
        f"  file_setting refusals ({sum(not p['file_setting']['accepted'] for p in params)}): "
        + ", ".join(p["name"] for p in params if not p["file_setting"]["accepted"]),
        f"  alter_system refusals ({sum(not p['alter_system']['accepted'] for p in params)}): "
        + ", ".join(p["name"] for p in params if not p["alter_system"]["accepted"]),
        f"  list_input ({sum(p['list_input'] for p in params)}): "
        + ", ".join(p["name"] for p in params if p["list_input"]),
        f"  list_keywords ({sum(p['list_keywords'] is not None for p in params)} parameters): "
        + "; ".join(f"{p['name']}: {','.join(p['list_keywords'])}" for p in params if p["list_keywords"] is not None),
    ]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("majors", nargs="*", type=int, default=list(pgtools.MAJORS),
                    help="major versions to harvest (default: %(default)s)")
    ap.add_argument("--out", default=KNOWLEDGE_DIR, help="output directory (default: knowledge/)")
    ap.add_argument("--part", choices=("all", "core", "extensions"), default="all",
                    help="core parameters (pg<major>.json), extension modules (extensions/pg<major>.json), or both")
    args = ap.parse_args(argv)
    # Untranslated messages and UTF-8 text whatever the caller's locale (determinism).
    os.environ.update(LC_ALL="C", LANG="C", PGCLIENTENCODING="UTF8")
    os.makedirs(args.out, exist_ok=True)
    for major in args.majors:
        if args.part in ("all", "core"):
            doc = harvest(major)
            path = os.path.join(args.out, f"pg{major}.json")
            write_json_atomic(path, doc)
            print(summary(doc))
            print(f"  -> {os.path.relpath(path, ROOT)}")
        if args.part in ("all", "extensions"):
            doc = harvest_extensions(major)
            os.makedirs(os.path.join(args.out, "extensions"), exist_ok=True)
            path = os.path.join(args.out, "extensions", f"pg{major}.json")
            write_json_atomic(path, doc)
            print(extensions_summary(doc))
            print(f"  -> {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()
