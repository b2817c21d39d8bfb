"""Case generation for the differential test (tests/integration/differential.py).

A case is a small configuration tree (a main file plus optional included files)
and the NAME of one parameter to read back.  Both pgconflint and `postgres -C NAME`
judge it; the harness compares their fatal verdicts and values.

Cases come in four families, every one deterministic for a given seed and catalog:

* parameter cases: every parameter of the live `pg_settings` catalog crossed with
  edge values chosen by type (integer, real, bool, enum, string, internal), each
  written unquoted and single-quoted;
* file cases: lexer, grammar, include, duplicate, name and alias rules
  (docs/postgresql-semantics.md#lexing to #duplicates), written by hand;
* version cases: names that exist in one major but not in the other;
* random cases: seeded files of 1-8 lines mixing every token class.

A case whose answer depends on the machine or the build rather than on the file
(a locale the host may lack, the stack rlimit, an optional library) carries an
`env` reason; the harness counts such cases apart from the agreement rate.
"""
import dataclasses
import random
import re

# --- the case model ---------------------------------------------------------------

CASE_DIR = "@CASEDIR@"          # replaced by the absolute case directory when written


@dataclasses.dataclass(frozen=True)
class Symlink:
    """An extra file that is a symbolic link to `target` (relative to its directory)."""
    target: str


@dataclasses.dataclass
class Case:
    cls: str                     # family/class, used for counting
    name: str                    # the parameter to read back (`postgres -C NAME`)
    text: str                    # contents of the main file, postgresql.conf
    what: str = ""               # human description of the probe
    files: dict = dataclasses.field(default_factory=dict)  # relpath -> text | Symlink | None (dir)
    env: str = ""                # non-empty: answer depends on the host/build, counted apart
    id: str = ""                 # assigned by build_cases


@dataclasses.dataclass(frozen=True)
class Param:
    name: str
    vartype: str                 # bool, integer, real, enum, string
    unit: str                    # '', 'B', 'kB', 'MB', '8kB', 'ms', 's', 'min'
    min: str
    max: str
    enumvals: tuple
    boot: str
    context: str


CATALOG_SQL = ("select name, vartype, coalesce(unit, ''), coalesce(min_val, ''), "
               "coalesce(max_val, ''), coalesce(array_to_string(enumvals, chr(1)), ''), "
               "coalesce(boot_val, ''), context from pg_settings order by name")


def parse_catalog(psql_output):
    """pg_settings rows (CATALOG_SQL through `psql -A -t`) -> {name: Param}."""
    cat = {}
    for line in psql_output.splitlines():
        if not line:
            continue
        name, vartype, unit, lo, hi, enumvals, boot, context = line.split("|")
        cat[name] = Param(name, vartype, unit, lo, hi,
                          tuple(enumvals.split("\x01")) if enumvals else (), boot, context)
    return cat


# --- parameters left out, and host/build dependence -----------------------------------

# Parameters never set or read by the parameter matrix, with the reason.
SKIPPED = {
    "data_directory": "a file value moves DataDir (and which postgresql.auto.conf is read); "
                      "-C prints it made absolute against the server's cwd",
    "config_file": "the harness passes it as -c config_file (command line beats the file); "
                   "its value is the host path of the case (one file case sets it in a file)",
    "hba_file": "default is <data dir>/pg_hba.conf, a host path; an empty value is replaced "
                "by a host path too",
    "ident_file": "default is <data dir>/pg_ident.conf, a host path; same as hba_file",
}

# Internal parameters that `-C` computes at run time (GUC_RUNTIME_COMPUTED): reading them
# starts half the server (and loads shared_preload_libraries); their value comes from the
# data directory and shared memory sizing, not from the file.  Cases that set them read
# work_mem instead.
RUNTIME_COMPUTED = {"shared_memory_size", "shared_memory_size_in_huge_pages",
                    "num_os_semaphores", "data_checksums", "data_directory_mode",
                    "wal_segment_size"}

# Old spellings mapped by map_old_guc_names[] (guc.c), per major.
def aliases(major):
    a = {"sort_mem": "work_mem", "vacuum_mem": "maintenance_work_mem"}
    if major >= 18:
        a["ssl_ecdh_curve"] = "ssl_groups"
    return a


# Enum values whose acceptance depends on compile-time options or the platform.
BUILD_ENUM_VALUES = {
    "io_method": {"io_uring"},
    "wal_compression": {"lz4", "zstd"},
    "default_toast_compression": {"lz4"},
    "recovery_init_sync_method": {"syncfs"},
    "file_copy_method": {"clone"},
    "wal_sync_method": {"fsync_writethrough", "open_datasync", "fdatasync", "open_sync"},
    "shared_memory_type": {"windows", "sysv", "mmap"},
    "dynamic_shared_memory_type": {"windows", "sysv", "mmap", "posix"},
}
# Booleans whose `on` only works when compiled in.
BUILD_BOOLS = {"ssl": "needs a build with SSL (USE_SSL)",
               "bonjour": "needs a build with Bonjour (USE_BONJOUR)"}
LOCALE_PARAMS = {"lc_messages", "lc_monetary", "lc_numeric", "lc_time"}
# POSIX TZ strings that name no file of a tz database: the server's own parser judges them
# (an empty standard name, offsets at their limits, rules, seconds in January's offset).
POSIX_TZ_SPECS = ("1x", "1\u00e9", "<>1", "A 1", "X167", "X168", "X1:60", "X1:00:60", "X0:00:30", "A1:00:30B",
                  "A1B0:00:30", "x1y,m3.2.0", "x1y,m3.2.0,m11.1.0/-3", "A1B,0,366", "A1B2,")


def bool_value(text):
    """parse_bool_with_len (bool.c): True/False, or None when not a boolean."""
    t = text.lower()
    if not t:
        return None
    for word, val in (("true", True), ("false", False), ("yes", True), ("no", False)):
        if word.startswith(t):
            return val
    if t == "on":
        return True
    if t in ("of", "off"):
        return False
    return {"1": True, "0": False}.get(t)


def env_reason(param, raw):
    """Why the server's verdict for `param = raw` depends on the host or build, or ''."""
    if param == "max_stack_depth":
        return "max_stack_depth is capped by the stack rlimit (ulimit -s) of the host"
    if param in LOCALE_PARAMS and raw not in ("C", "POSIX"):
        return "locale names are checked with setlocale() against the host's locales"
    if param in BUILD_BOOLS and bool_value(raw):
        return BUILD_BOOLS[param]
    if raw.lower() in BUILD_ENUM_VALUES.get(param, ()):
        return f"{param}: {', '.join(sorted(BUILD_ENUM_VALUES[param]))} exist only in some builds"
    if param == "log_destination" and "eventlog" in raw.lower():
        return "eventlog exists only on Windows"
    if param.lower() in ("timezone", "log_timezone") and raw not in ("UTC", "GMT", "") + POSIX_TZ_SPECS:
        return "time zone names are looked up in the tz database of the server's host or build"
    return ""


# --- writing values -----------------------------------------------------------------------

# Token rules of guc-file.l (docs/grammar.md#1-tokens), for the unquoted spellings.
_LETTER = r"[A-Za-z_\x80-\U0010ffff]"
_LETTER_OR_DIGIT = r"[A-Za-z_0-9\x80-\U0010ffff]"
_ID = rf"{_LETTER}{_LETTER_OR_DIGIT}*"
TOKEN_QUALIFIED_ID = re.compile(rf"{_ID}\.{_ID}")
TOKEN_VALUE = re.compile(rf"{_ID}|{_LETTER}({_LETTER_OR_DIGIT}|[-._:/])*"
                         r"|[-+]?([0-9]+|0x[0-9a-fA-F]+)[a-zA-Z]*"
                         r"|[-+]?[0-9]*\.[0-9]*([Ee][-+]?[0-9]+)?")


def lexes_as_one_value(raw):
    """Whether `raw`, written unquoted, is exactly one value token (comments and blanks
    aside), i.e. not a syntax error."""
    text = raw.split("#", 1)[0].strip(" \t\r")
    return bool(TOKEN_VALUE.fullmatch(text)) and not TOKEN_QUALIFIED_ID.fullmatch(text)


def quote(raw):
    """A single-quoted config literal whose unescaped value is `raw`."""
    return "'" + raw.replace("\\", "\\\\").replace("'", "''") + "'"


def value_forms(raw):
    """The unquoted and the quoted spelling of a value (the unquoted one may not lex as one
    token: that probes the syntax-error path).  Values with a newline are only quoted."""
    forms = [("q", quote(raw))]
    if "\n" not in raw and "\r" not in raw:
        forms.insert(0, ("u", raw))
    return forms


def setting_cases(cls, p, raws, read_name=None, literals=()):
    """Cases `p.name = <form>` for every raw value (both forms) and every literal."""
    seen = set()
    read = read_name or p.name
    for raw in raws:
        for form, lit in value_forms(raw):
            key = lit.strip() if form == "u" else lit
            if key in seen:
                continue
            seen.add(key)
            env = env_reason(p.name, raw) if form == "q" or lexes_as_one_value(raw) else ""
            yield Case(cls, read, f"{p.name} = {lit}\n", what=f"{p.name} {form}:{raw!r}",
                       env=env)
    for lit in literals:
        if lit in seen:
            continue
        seen.add(lit)
        yield Case(cls, read, f"{p.name} = {lit}\n", what=f"{p.name} literal {lit}",
                   env=env_reason(p.name, lit.strip("'")))


def dedupe(values):
    out = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


# --- integers ---------------------------------------------------------------------------

MEM_FACTOR = {"B": 1, "kB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3, "TB": 1024 ** 4,
              "8kB": 8192, "16MB": 16 * 1024 ** 2}
TIME_FACTOR = {"us": 1, "ms": 1000, "s": 1000 ** 2, "min": 60 * 1000 ** 2,
               "h": 3600 * 1000 ** 2, "d": 86400 * 1000 ** 2}
MEM_UNITS = ["B", "kB", "MB", "GB", "TB"]
TIME_UNITS = ["us", "ms", "s", "min", "h", "d"]
BAD_MEM_UNITS = ["KB", "kb", "Mb", "mb", "gb", "b", "k", "KiB", "kBs"]
BAD_TIME_UNITS = ["H", "m", "sec", "S", "MS", "Min", "hr", "D", "ns"]


def unit_class(unit):
    if unit in MEM_FACTOR:
        return "mem"
    if unit in TIME_FACTOR:
        return "time"
    return ""


def in_range_value(lo, hi):
    """A small valid value, preferring 64 or the minimum."""
    for v in (64, 8, 1, lo):
        if lo <= v <= hi and v >= 0:
            return v
    return lo


# Parameters that also get the parameter-independent lexical variants (one or more per
# unit: the variants only depend on the unit class, so repeating them everywhere adds
# nothing but time).
INT_REPRESENTATIVES = {"work_mem", "shared_buffers", "wal_buffers", "max_wal_size",
                       "track_activity_query_size", "vacuum_buffer_usage_limit",
                       "statement_timeout", "checkpoint_timeout", "log_rotation_age",
                       "autovacuum_naptime", "max_connections", "extra_float_digits",
                       "max_pred_locks_per_relation", "log_file_mode"}


def int_range_values(p):
    """Edge numbers that depend on the parameter's range and default."""
    lo, hi = int(p.min), int(p.max)
    v = in_range_value(lo, hi)
    even = v - (v % 2)
    plus_boot = p.boot[1:] if p.boot.startswith("-") else "+" + p.boot
    return [str(lo), str(hi), str(lo - 1), str(hi + 1), "0", "-1", "1", p.boot, plus_boot,
            hex(v), "0X" + format(hi, "X"), hex(hi + 1), "0" + format(v, "o"), "08", "099",
            f"{even}.5", f"{even + 1}.5", f"{lo - 1}.5", f"{lo - 1}.4", f"{hi}.5",
            "1e3", "1E3", "1e", "2e9", "NaN", "inf", f" {v} "]


def int_lexical_values(p):
    """Numbers whose fate does not depend on the range (representatives only)."""
    v = in_range_value(int(p.min), int(p.max))
    return ["-0x10", "0x", "0xg", "010", "017", "00", ".5", "-.5", "1.", ".", "5e", "1e+2",
            "1e-1", "1.5e2", "1e400", "-2e9", "nan", "-inf", "Infinity", "", "abc", f"{v} ",
            f"{v} x", f"{v},0", "2147483648", "-2147483649", "9223372036854775808", "+0"]


def mem_unit_values(p, lexical):
    lo, hi = int(p.min), int(p.max)
    f = MEM_FACTOR[p.unit]
    vals = ["1" + u for u in MEM_UNITS] + ["1" + u for u in BAD_MEM_UNITS]
    vals += ["8kB", "100kB", "65537B", "1.5MB", "0.1GB", "2TB", "1e3kB", "1 MB", " 1MB ",
             "1s"]
    if lo > 0:
        vals += [f"{lo * f}B", f"{lo * f - 1}B"]
    vals += [f"{hi * f // 1024}kB", f"{hi * f // 1024 + 1}kB"]
    if lexical:
        vals += ["64kB", "1024kB", "0.5MB", "30.1GB", "1024TB", "1E3kB", "1.5e3kB", "-1MB",
                 "+1MB", "0x10MB", "010MB", "1MB x", "1MB1", "1ms", "1.5 GB", "1kB "]
    return vals


def time_unit_values(p, lexical):
    lo, hi = int(p.min), int(p.max)
    f = TIME_FACTOR[p.unit]
    vals = ["1" + u for u in TIME_UNITS] + ["1" + u for u in BAD_TIME_UNITS]
    vals += ["100us", "1500us", "0.5s", "1.5min", "25d", "1e3ms", "1 s", " 1s ", "1kB"]
    if lo > 0:
        vals += [f"{lo * f}us", f"{lo * f - 1}us"]
    vals += [f"{hi * f // 1000}ms", f"{hi * f // 1000 + 1000}ms", f"{hi * f // 10 ** 6 + 1}s"]
    if lexical:
        vals += ["500us", "0.5ms", "1.5s", "0.5h", "24d", "1E3s", "1.5e3ms", "-1s", "+1s",
                 "0x10s", "010s", "1s x", "1s1", "1MB", "1.5 s", "1min "]
    return vals


def unitless_unit_values(p, lexical):
    vals = ["5ms", "5kB", "5 kB", "5x"]
    return vals + (["5B", "5min", "5 ", "5 x"] if lexical else [])


def int_values(p):
    lexical = p.name in INT_REPRESENTATIVES
    vals = int_range_values(p) + (int_lexical_values(p) if lexical else [])
    units = {"mem": mem_unit_values, "time": time_unit_values}.get(unit_class(p.unit),
                                                                    unitless_unit_values)
    return dedupe(vals + units(p, lexical))


# --- reals -----------------------------------------------------------------------------

def fmt_real(x):
    return format(x, "g")


def real_values(p):
    lo, hi = float(p.min), float(p.max)
    d_lo = max(abs(lo) * 0.01, 0.001)
    d_hi = max(abs(hi) * 0.01, 0.001)
    above = ["1.8e308", "1e309"] if hi > 1e300 else [fmt_real(hi + d_hi)]
    vals = [p.min, p.max, fmt_real(lo - d_lo), *above, p.boot, "0", "-0", "1", "-1",
            ".5", "1.5e0", "  2", "2 ", " 2 ", "+.5", "1.", ".", "-.", "+", "1e", "5e", "1e-1",
            "1e-400", "0x10", "0x1p3", "010", "1,5", "1.5.", "1_000", "Infinity", "-Infinity",
            "inf", "NaN", "nan", "", "abc", "1.5 x"]
    if unit_class(p.unit) == "time":
        vals += ["1.5ms", "150us", "0.5us", "1us", "1ms", "1s", "0.1s", "1min", "1 ms", "1MS",
                 "1sec", "1kB", "1e1ms", "2.5e-1ms"]
    else:
        vals += ["2ms", "1kB", "1 s", "5x"]
    return dedupe(vals)


# --- booleans --------------------------------------------------------------------------

CORE_BOOLS = ["on", "off", "true", "false", "TRUE", "Of", "yes", "no", "1", "0", "o", "2",
              " on", "", "tr", "fals"]

# Every parse_bool spelling, used for a few representative booleans.
def full_bool_values():
    vals = []
    for word in ("true", "false", "yes", "no"):
        for i in range(1, len(word) + 1):
            pre = word[:i]
            vals += [pre, pre.upper(), pre.capitalize()]
        vals += [word[0].upper() + word[1:-1] + word[-1].upper(), word + "x", word + "s"]
    vals += ["on", "ON", "On", "oN", "off", "OFF", "Off", "of", "OF", "oF", "o", "O", "onn",
             "offf", "1", "0", "2", "-1", "00", "01", "1.0", "0x1", " on", "on ", " off",
             "\ton", "", "t rue", "yes please", "nope", "enable", "disabled"]
    return dedupe(vals)


FULL_BOOL_PARAMS = {"enable_seqscan", "log_disconnections", "log_connections", "hot_standby",
                    "transaction_read_only", "ssl"}


def bool_values(p):
    return full_bool_values() if p.name in FULL_BOOL_PARAMS else list(CORE_BOOLS)


# --- enums -----------------------------------------------------------------------------

HIDDEN_CANDIDATES = ["true", "false", "yes", "no", "1", "0", "on", "off", "debug", "info",
                     "archive", "hot_standby"]


def mixed_case(s):
    return "".join(c.upper() if i % 2 == 0 else c.lower() for i, c in enumerate(s))


def enum_values(p):
    vals = []
    for v in p.enumvals:
        vals += [v, v.upper(), mixed_case(v), " " + v, v + " "]
    vals += HIDDEN_CANDIDATES + ["TRUE", "Debug", "Hot_Standby", "bogus", "", "t", "of", "2",
                                 "default", p.enumvals[0] + "x" if p.enumvals else "x"]
    return dedupe(vals)


# --- strings ---------------------------------------------------------------------------

GENERIC_STRINGS = ["abc", "", " abc ", "a b", "it's", "a\\b", "a,b", "a, b", '"a,b"', "\u00fcml",
                   "x" * 70, "DEFAULT", "1", "a.b", "a.b.c", "a-b", "/path/x", "*", "a#b"]
# Literals written as-is: escapes of DeescapeQuotedString.
ESCAPE_LITERALS = ["'it''s \\'q\\' \\\\ b\\tc \\101'", "'\\x41'", "'a\\0b'", "'\\303\\274'",
                   "'a\\nb'", "'\\'", "'a''''b'", "''''"]
LIST_STRINGS = ["a,b", "a, b", '"a,b"', "a,,b", '"unterminated', '"a""b"', "A,B"]

STRING_EXTRAS = {
    "DateStyle": ["ISO, MDY", "iso,dmy", "German", "SQL, DMY", "Postgres, YMD", "ISO, Euro",
                  "US", "ISO, MDY, DMY", "ymd", "bogus", "iso german"],
    "TimeZone": ["UTC", "utc", "Europe/Paris", "europe/paris", "EST5EDT", "America/New_York",
                 "+03", "UTC+3", "<+03>-3", "Bogus/Zone", "GMT", "Z", "posixrules",
                 "localtime", "Etc/GMT-14", "Etc/GMT+15", "PST8PDT", "-1", "10", *POSIX_TZ_SPECS],
    "timezone_abbreviations": ["Default", "default", "Australia", "India", "Bogus", "Asia"],
    "search_path": ['"$user", public', "$user", "public,,x", "pg_catalog"],
    "client_encoding": ["UTF8", "utf8", "utf-8", "LATIN1", "SQL_ASCII", "sql_ascii", "bogus",
                        "unicode", "win1252", "euc_jp", "SJIS", "mule_internal"],
    "listen_addresses": ["*", "localhost", "0.0.0.0", "::", "127.0.0.1, ::1"],
    "log_destination": ["stderr", "csvlog", "jsonlog", "syslog", "eventlog", "stderr,csvlog",
                        "STDERR", "stderr csvlog", "bogus"],
    "log_connections": ["on", "off", "t", "true", "TRUE", "receipt", "receipt,authentication",
                        "all", "all,receipt", "yes", "1", "0", "setup_durations", "on,receipt",
                        "authorization", "Receipt", "bogus"],
    "synchronous_standby_names": ["s1", "FIRST 2 (s1, s2)", "ANY 1 (s1,s2)", "2 (s1, s2)",
                                  "first (s1)", "bogus(", '"s 1"', "ANY 0 (s1)"],
    "synchronized_standby_slots": ["s1", "s1,s2", "S1", "1bad", "s-1"],
    "wal_consistency_checking": ["all", "heap", "heap,btree", "Heap", "bogus"],
    "debug_io_direct": ["data", "wal", "wal_init", "data,wal", "DATA", "bogus"],
    "createrole_self_grant": ["set", "inherit", "set, inherit", "SET", "bogus"],
    "restrict_nonsystem_relation_kind": ["view", "foreign-table", "view, foreign-table",
                                         "VIEW", "bogus"],
    "recovery_target": ["immediate", "Immediate", "bogus"],
    "recovery_target_timeline": ["latest", "current", "Latest", "0", "-1", "0x10",
                                 "4294967295", "4294967296", "12abc"],
    "recovery_target_xid": ["1234", "3:1234", "-1", "0x10", "abc", "4294967296"],
    "recovery_target_lsn": ["0/0", "16/B374D848", "0/", "bogus", "FFFFFFFF/FFFFFFFF"],
    "recovery_target_time": ["2024-01-01 00:00:00", "2024-01-01", "2024-01-01 00:00:00+02",
                             "now", "tomorrow", "epoch", "2024-13-01", "bogus"],
    "default_table_access_method": ["heap", "bogus", "y" * 64],
    "default_text_search_config": ["pg_catalog.english", "english", "bogus.cfg"],
    "lc_messages": ["C", "POSIX", "en_US.UTF-8", "C.UTF-8", "xx_YY", "c"],
    "lc_monetary": ["C", "POSIX", "en_US.UTF-8", "C.UTF-8", "xx_YY", "c"],
    "lc_numeric": ["C", "POSIX", "en_US.UTF-8", "C.UTF-8", "xx_YY", "c"],
    "lc_time": ["C", "POSIX", "en_US.UTF-8", "C.UTF-8", "xx_YY", "c"],
    "dynamic_library_path": ["$libdir", "$libdir:/opt/x", "/opt/x:$libdir"],
    "extension_control_path": ["$system", "$system:/opt/x"],
    "log_line_prefix": ["%m [%p] ", "%", "%q%u@%d "],
    "log_filename": ["postgresql-%Y-%m-%d.log", "x%"],
    "primary_conninfo": ["host=x port=5432", "host='a b'", "bogus"],
    "backtrace_functions": ["errfinish", "a,b", "a b", "bad-name", "a, b"],
    "unix_socket_directories": ["/tmp", "/tmp, /var/run", "@abstract"],
    "application_name": ["app\u00e9", "a\tb"],
    "cluster_name": ["main", "\u00e9t\u00e9"],
    "jit_provider": ["llvmjit", "none"],
    "ssl_groups": ["prime256v1", "X25519:prime256v1"],
    "ssl_ecdh_curve": ["prime256v1", "X25519"],
    "archive_command": ["cp %p /x/%f", "%"],
    "archive_library": ["basic_archive"],
    "temp_tablespaces": ["ts1", "pg_default"],
    "default_tablespace": ["ts1", "pg_default"],
}
LIST_PARAMS = {"search_path", "shared_preload_libraries", "local_preload_libraries",
               "session_preload_libraries", "temp_tablespaces", "unix_socket_directories",
               "oauth_validator_libraries", "DateStyle", "listen_addresses", "log_destination",
               "log_connections", "synchronous_standby_names", "synchronized_standby_slots",
               "wal_consistency_checking", "debug_io_direct", "createrole_self_grant",
               "restrict_nonsystem_relation_kind"}


def string_values(p):
    vals = [p.boot] + GENERIC_STRINGS + STRING_EXTRAS.get(p.name, [])
    if p.name in LIST_PARAMS:
        vals += LIST_STRINGS
    return dedupe(vals)


# --- parameter cases ---------------------------------------------------------------------

def internal_values(p):
    return dedupe([p.boot, "1", "x", "on"])


def param_cases(catalog, major):
    """The catalog x edge-value matrix."""
    for p in catalog.values():
        if p.name in SKIPPED:
            continue
        if p.context == "internal":
            read = "work_mem" if p.name in RUNTIME_COMPUTED else p.name
            yield from setting_cases("internal", p, internal_values(p), read_name=read)
        elif p.vartype == "integer":
            yield from setting_cases("integer", p, int_values(p))
        elif p.vartype == "real":
            yield from setting_cases("real", p, real_values(p))
        elif p.vartype == "bool":
            yield from setting_cases("bool", p, bool_values(p))
        elif p.vartype == "enum":
            yield from setting_cases("enum", p, enum_values(p))
        elif p.vartype == "string":
            yield from setting_cases("string", p, string_values(p), literals=ESCAPE_LITERALS)


# --- file cases (syntax, structure, includes, duplicates, names) --------------------------

def fc(cls, name, text, what, files=None, env=""):
    return Case(cls, name, text, what=what, files=dict(files or {}), env=env)


def syntax_cases():
    S = "syntax"
    yield fc(S, "work_mem", "a.b.c = 1\n", "name with two dots")
    yield fc(S, "work_mem", "foo-bar = 1\n", "name with -")
    yield fc(S, "work_mem", "foo$bar = 1\n", "name with $")
    yield fc(S, "work_mem", "my.ext$x = 1\n", "qualified name with $")
    yield fc(S, "work_mem", "1abc = 1\n", "name with leading digit")
    yield fc(S, "work_mem", "_x.y = 1\nwork_mem = 2MB\n", "name with leading underscore")
    yield fc(S, "work_mem", "work_mem 8MB\n", "no equals sign")
    yield fc(S, "work_mem", "work_mem=8MB\n", "no blanks")
    yield fc(S, "work_mem", "work_mem == 8MB\n", "double equals")
    yield fc(S, "work_mem", "work_mem = = 8MB\n", "equals twice with blank")
    yield fc(S, "work_mem", "= 8MB\n", "no name")
    yield fc(S, "work_mem", "work_mem\n", "name only")
    yield fc(S, "work_mem", "work_mem =\n", "name and equals only")
    yield fc(S, "work_mem", "work_mem = 8MB # comment\n", "trailing comment")
    yield fc(S, "work_mem", "work_mem = 8MB#comment\n", "comment glued to value")
    yield fc(S, "work_mem", "# work_mem = 8MB\n", "commented out")
    yield fc(S, "work_mem", "", "empty file")
    yield fc(S, "work_mem", "\n\n   \n\t\n", "blank lines only")
    yield fc(S, "work_mem", "work_mem = 8MB\r\nstatement_timeout = 5s\r\n", "CRLF")
    yield fc(S, "statement_timeout", "work_mem = 8MB\r\nstatement_timeout = 5s\r\n", "CRLF 2")
    yield fc(S, "application_name", "application_name = 'a\r'\n", "CR inside quotes")
    yield fc(S, "work_mem", "work_mem = 8MB", "no final newline")
    yield fc(S, "work_mem", "work_mem = 8MB\r", "CR and no final newline")
    yield fc(S, "work_mem", "\twork_mem\t=\t8MB\t\n", "tabs")
    yield fc(S, "work_mem", "work_mem = 8MB x\n", "trailing junk word")
    yield fc(S, "work_mem", "work_mem = 8MB;\n", "trailing semicolon")
    yield fc(S, "work_mem", "work_mem = 8MB 8MB\n", "two values")
    yield fc(S, "work_mem", "work_mem = 8MB = 9MB\n", "two assignments")
    yield fc(S, "work_mem", "work_mem = 8MB\nwork_mem = 64 MB\n", "second line multi-token")
    yield fc(S, "application_name", 'application_name = "dq"\n', "double quotes")
    yield fc(S, "application_name", "application_name = 'unterminated\n", "unterminated quote")
    yield fc(S, "application_name", "application_name = 'a\\\nb'\n", "backslash-newline")
    yield fc(S, "application_name", "application_name = 'abc' x\n", "junk after string")
    yield fc(S, "application_name", "application_name = 'a''b'\n", "doubled quote")
    yield fc(S, "application_name", "application_name = ''\n", "empty string")
    yield fc(S, "application_name", "application_name = 'a#b'\n", "hash in quotes")
    yield fc(S, "application_name", "application_name = a#b\n", "hash unquoted")
    yield fc(S, "application_name", "application_name = x.y\n", "qualified id value")
    yield fc(S, "application_name", "application_name = x.y.z\n", "two-dot unquoted value")
    yield fc(S, "application_name", "application_name = x.\n", "trailing dot value")
    yield fc(S, "application_name", "application_name = x.1\n", "dot digit value")
    yield fc(S, "application_name", "application_name = a-b:c/d\n", "unquoted string chars")
    yield fc(S, "application_name", "application_name = -x\n", "leading minus")
    yield fc(S, "application_name", "application_name = .\n", "lone dot (REAL)")
    yield fc(S, "application_name", "application_name = 1.2.3\n", "two-dot number")
    yield fc(S, "application_name", "application_name = 0x1g\n", "hex with letters")
    yield fc(S, "application_name", "application_name = \u00fcber\n", "UTF-8 unquoted")
    yield fc(S, "search_path", "search_path = a.b.c\n", "unquoted two dots")
    yield fc(S, "default_text_search_config",
             "default_text_search_config = pg_catalog.english\n", "qualified id value (tsc)")
    yield fc(S, "listen_addresses", "listen_addresses = *\n", "unquoted star")
    yield fc(S, "listen_addresses", "listen_addresses = 0.0.0.0\n", "unquoted address")
    yield fc(S, "shared_preload_libraries", "shared_preload_libraries = a,b\n", "unquoted list")
    yield fc(S, "work_mem", "data_directory = /srv/x\n", "unquoted path")
    yield fc(S, "cluster_name", "cluster_name = .\n", "cluster_name dot")
    yield fc(S, "work_mem", "work_mem = +5MB\n", "plus sign")
    yield fc(S, "work_mem", "work_mem = 0x10\n", "unquoted hex")
    yield fc(S, "work_mem", "work_mem = 0100\n", "unquoted octal")
    yield fc(S, "work_mem", "work_mem = '70 MB'\n", "quoted blank before unit")
    yield fc(S, "work_mem", "work_mem = 1e3\n", "unquoted exponent")
    yield fc(S, "work_mem", "work_mem = 1.5GB\n", "unquoted fraction with unit")
    yield fc(S, "statement_timeout", "statement_timeout = 1.5s\n", "unquoted fraction s")
    yield fc(S, "work_mem", "WORK_MEM = 8MB\n", "upper-case name")
    yield fc(S, "work_mem", "Work_Mem = 8MB\n", "mixed-case name")
    yield fc(S, "work_mem", "'work_mem' = 8MB\n", "quoted name")
    yield fc(S, "work_mem", "work_mem = 8MB\n\x00\n", "NUL byte")
    yield fc(S, "work_mem", "work_mem = 8MB\n\x0c\n", "form feed line")
    yield fc(S, "work_mem", "\ufeffwork_mem = 8MB\n", "UTF-8 BOM")
    yield fc(S, "work_mem", "work_mem = 8MB\n" * 3 + "x y z\n", "junk last line")
    yield fc(S, "work_mem", "".join(f"bad line {i}\n" for i in range(120)),
             "more than 100 syntax errors")
    yield fc(S, "work_mem", "work_mem = '8MB'#c\n#\n##x\n", "comment variants")


def name_cases(major):
    N = "names"
    yield fc(N, "myext.x", "myext.x = 'a'\n", "custom name")
    yield fc(N, "myext.x", "myext.x = a\n", "custom name unquoted")
    yield fc(N, "myext.x", "MyExt.X = 'a'\n", "custom name mixed case")
    yield fc(N, "myext.x", "myext.x = 'a'\nmyext.x = 'b'\n", "custom duplicate")
    yield fc(N, "myext.x", "myext.x = 'a'\nMYEXT.X = 'b'\n", "custom duplicate other case")
    yield fc(N, "myext.x", "myext.x = a.b\n", "custom qualified value")
    yield fc(N, "myext.x", "myext.x = 1.5GB\n", "custom multi-token")
    yield fc(N, "myext.x", "myext.x = 64MB\n", "custom unit value kept raw")
    yield fc(N, "myext.x", "myext.x = 0x10\n", "custom hex kept raw")
    yield fc(N, "myext.x", "myext.x = ''\n", "custom empty")
    yield fc(N, "myext.x", "myext.x = 'it''s \\101'\n", "custom escapes")
    yield fc(N, "work_mem", "my_ext._x9 = 1\n", "custom name digits underscore")
    yield fc(N, "work_mem", "myext.1x = 1\n", "custom part with leading digit")
    yield fc(N, "work_mem", "myext. = 1\n", "custom name empty part")
    yield fc(N, "work_mem", ".x = 1\n", "name starting with dot")
    yield fc(N, "work_mem", "\u00fcmlaut.x = 1\n", "UTF-8 custom name")
    yield fc(N, "work_mem", "\u00fcmlaut = 1\n", "UTF-8 name without dot")
    yield fc(N, "work_mem", "wrok_mem = 1\n", "unknown name")
    yield fc(N, "work_mem", "wrok_mem = 1\nwork_mem = 2MB\n", "unknown name then valid")
    yield fc(N, "work_mem", "plpgsql.variable_conflict = use_column\n", "plpgsql custom")
    yield fc(N, "work_mem", "plpgsql.bogus = 1\n", "unknown plpgsql name")
    yield fc(N, "work_mem", "auto_explain.bogus = 1\n", "unknown auto_explain name")
    yield fc(N, "work_mem", "server_version = '1'\n", "internal server_version")
    yield fc(N, "work_mem", "block_size = 8192\n", "internal block_size, same value")
    yield fc(N, "work_mem", "integer_datetimes = on\n", "internal integer_datetimes")
    yield fc(N, "work_mem", "SERVER_VERSION = 'x'\n", "internal upper case")
    yield fc(N, "work_mem", "sort_mem = 4MB\n", "alias sort_mem read canonical")
    yield fc(N, "work_mem", "sort_mem = 4MB\nmaintenance_work_mem = 64MB\n", "alias among others")
    yield fc(N, "sort_mem", "sort_mem = 4MB\n", "alias sort_mem read alias")
    yield fc(N, "sort_mem", "work_mem = 4MB\n", "canonical read via alias")
    yield fc(N, "work_mem", "SORT_MEM = 4MB\n", "alias upper case")
    yield fc(N, "work_mem", "sort_mem = 10\n", "alias out of range")
    yield fc(N, "maintenance_work_mem", "vacuum_mem = 64MB\n", "alias vacuum_mem")
    yield fc(N, "maintenance_work_mem", "vacuum_mem = 'x'\n", "alias vacuum_mem invalid")
    yield fc(N, "ssl_groups" if major >= 18 else "ssl_ecdh_curve",
             "ssl_ecdh_curve = 'prime256v1'\n", "alias ssl_ecdh_curve")
    yield fc(N, "work_mem", "config_file = '/nonexistent/x.conf'\nwork_mem = 2MB\n",
             "config_file in a file (command line wins)")
    yield fc(N, "role", "role = 'none'\n", "hidden role = none")
    yield fc(N, "role", "role = 'bob'\n", "hidden role = bob")
    yield fc(N, "seed", "seed = 0.5\n", "hidden seed")
    yield fc(N, "seed", "seed = 2\n", "hidden seed out of range")
    yield fc(N, "work_mem", "session_authorization = 'bob'\n", "hidden session_authorization")
    yield fc(N, "work_mem", "is_superuser = on\n", "hidden internal is_superuser")
    yield fc(N, "work_mem", "default_with_oids = off\n", "hidden default_with_oids off")
    yield fc(N, "work_mem", "default_with_oids = on\n", "hidden default_with_oids on")
    yield fc(N, "work_mem", "ssl_renegotiation_limit = 0\n", "hidden ssl_renegotiation_limit")
    yield fc(N, "work_mem", "ssl_renegotiation_limit = 1\n", "ssl_renegotiation_limit = 1")
    yield fc(N, "transaction_isolation", "transaction_isolation = serializable\n",
             "transaction_isolation in file")
    yield fc(N, "work_mem", "wal_level = minimal\n", "wal_level minimal (startup-only check)")


def duplicate_cases():
    D = "duplicates"
    yield fc(D, "work_mem", "work_mem = 1MB\nwork_mem = 2MB\n", "last wins")
    yield fc(D, "work_mem", "work_mem = 1MB\nwork_mem = 10\n", "last invalid")
    yield fc(D, "work_mem", "work_mem = 10\nwork_mem = 2MB\n", "earlier invalid ignored")
    yield fc(D, "work_mem", "work_mem = 'abc'\nwork_mem = 1MB\n", "earlier garbage ignored")
    yield fc(D, "work_mem", "WORK_MEM = 10\nwork_mem = 2MB\n", "other case, first invalid")
    yield fc(D, "work_mem", "work_mem = 2MB\nWORK_MEM = 1MB\n", "other case, last wins")
    yield fc(D, "work_mem", "work_mem = 2MB\nWORK_MEM = 10\n", "other case, last invalid")
    yield fc(D, "work_mem", "sort_mem = 1MB\nwork_mem = 2MB\n", "alias then canonical")
    yield fc(D, "work_mem", "work_mem = 2MB\nsort_mem = 1MB\n", "canonical then alias")
    yield fc(D, "work_mem", "sort_mem = 10\nwork_mem = 2MB\n", "alias invalid then canonical")
    yield fc(D, "work_mem", "work_mem = 1MB\nwork_mem = 2MB\nwork_mem = 3MB\n", "three")
    yield fc(D, "work_mem", "work_mem = 10\nWORK_MEM = 2MB\nwork_mem = 3MB\n",
             "invalid line skipped for its spelling's later line, another spelling between")
    yield fc(D, "enable_seqscan", "enable_seqscan = maybe\nenable_seqscan = off\n",
             "earlier bad bool ignored")
    yield fc(D, "log_min_messages", "log_min_messages = bogus\nlog_min_messages = debug\n",
             "earlier bad enum ignored")
    yield fc(D, "work_mem", "server_version = '1'\nserver_version = '2'\n",
             "internal duplicate")
    yield fc(D, "work_mem", "work_mem = 1MB\ninclude 'a.conf'\n", "duplicate in include",
             {"a.conf": "work_mem = 3MB\n"})
    yield fc(D, "work_mem", "include 'a.conf'\nwork_mem = 1MB\n", "include then main",
             {"a.conf": "work_mem = 10\n"})
    yield fc(D, "work_mem", "work_mem = 1MB\ninclude 'a.conf'\n", "included invalid last",
             {"a.conf": "work_mem = 10\n"})
    yield fc(D, "work_mem", "work_mem = 64\nwork_mem = 63\n", "last below min")
    yield fc(D, "shared_buffers", "shared_buffers = 128MB\nshared_buffers = 1GB\n",
             "postmaster duplicate")
    yield fc(D, "myext.x", "myext.x = 'a'\nmyext.x = a.b\n", "custom then syntax error")
    # log_statement_stats and the per-stage switches: each check hook reads the other's value
    # as the lines before it left it (superseded lines are skipped).
    for name, text, what, files in (
            ("log_planner_stats", "log_statement_stats = on\nlog_planner_stats = on\n", "stage after statement", None),
            ("log_statement_stats", "log_parser_stats = yes\nLOG_STATEMENT_STATS = 'on'\n", "statement after stage",
             None),
            ("log_planner_stats", "log_planner_stats = on\nlog_statement_stats = on\nlog_planner_stats = off\n",
             "superseded stage skipped", None),
            ("log_planner_stats", "log_statement_stats = on\nlog_planner_stats = on\nlog_statement_stats = off\n",
             "superseded statement skipped", None),
            ("log_executor_stats", "log_statement_stats = on\nlog_executor_stats = off\n", "stage off after statement",
             None),
            ("log_planner_stats", "log_statement_stats = on\ninclude 'a.conf'\n", "stage in an include",
             {"a.conf": "log_planner_stats = 1\n"})):
        yield fc("stats switches", name, text, what, files)


def include_chain(n, name="n"):
    """Files n1..n<n> where each includes the next; the last sets work_mem."""
    files = {}
    for i in range(1, n + 1):
        files[f"{name}{i}.conf"] = (f"include '{name}{i + 1}.conf'\n" if i < n
                                    else "work_mem = 3MB\n")
    return files


def include_cases():
    I = "include"
    sub = {"sub.conf": "work_mem = 2MB\n"}
    yield fc(I, "work_mem", "include 'missing.conf'\n", "missing include")
    yield fc(I, "work_mem", "include_if_exists 'missing.conf'\nwork_mem = 1MB\n",
             "missing include_if_exists")
    yield fc(I, "work_mem", "include 'sub.conf'\n", "include present", sub)
    yield fc(I, "work_mem", "include = 'sub.conf'\n", "include with equals", sub)
    yield fc(I, "work_mem", "INCLUDE 'sub.conf'\n", "upper-case include", sub)
    yield fc(I, "work_mem", "Include_If_Exists 'sub.conf'\n", "mixed-case include_if_exists", sub)
    yield fc(I, "work_mem", "include sub.conf\n", "unquoted qualified include", sub)
    yield fc(I, "work_mem", "include subconf\n", "unquoted include", {"subconf": "work_mem = 5MB\n"})
    yield fc(I, "work_mem", "include 'sub.conf' x\n", "include with junk", sub)
    yield fc(I, "work_mem", "include\n", "include without file")
    yield fc(I, "work_mem", "include ''\n", "include empty name")
    yield fc(I, "work_mem", "include '  '\n", "include blank name")
    yield fc(I, "work_mem", "include_if_exists ''\n", "include_if_exists empty name")
    yield fc(I, "work_mem", "include_dir ''\n", "include_dir empty name")
    yield fc(I, "work_mem", f"include '{CASE_DIR}/sub.conf'\n", "absolute include", sub)
    yield fc(I, "work_mem", "include 'postgresql.conf'\n", "self include")
    yield fc(I, "work_mem", "work_mem = 1MB\ninclude 'a.conf'\n", "indirect loop",
             {"a.conf": "include 'postgresql.conf'\n"})
    yield fc(I, "work_mem", "include 'a.conf'\n", "include self inside included file",
             {"a.conf": "include 'a.conf'\n"})
    yield fc(I, "work_mem", "include 'sub.conf'\ninclude 'sub.conf'\n", "include twice", sub)
    yield fc(I, "work_mem", "include 'd/a.conf'\n", "relative to including file",
             {"d/a.conf": "include 'b.conf'\n", "d/b.conf": "work_mem = 2MB\n",
              "b.conf": "work_mem = 3MB\n"})
    yield fc(I, "work_mem", "include 'd/a.conf'\n", "missing relative to including file",
             {"d/a.conf": "include 'b.conf'\n", "b.conf": "work_mem = 3MB\n"})
    yield fc(I, "work_mem", "include 'bad.conf'\n", "include with syntax error",
             {"bad.conf": "work_mem = 64 MB\n"})
    yield fc(I, "work_mem", "include_if_exists 'bad.conf'\n", "include_if_exists syntax error",
             {"bad.conf": "work_mem = 64 MB\n"})
    yield fc(I, "work_mem", "include 'bad.conf'\n", "include with unknown name",
             {"bad.conf": "wrok_mem = 1\n"})
    yield fc(I, "work_mem", "include 'bad.conf'\n", "include with bad value",
             {"bad.conf": "work_mem = 10\n"})
    yield fc(I, "work_mem", "include 'd'\n", "include a directory", {"d/x.conf": "work_mem = 2MB\n"})
    yield fc(I, "work_mem", "include_if_exists 'd'\n", "include_if_exists a directory",
             {"d/x.conf": "work_mem = 2MB\n"})
    yield fc(I, "work_mem", "include_dir 'sub.conf'\n", "include_dir on a file", sub)
    yield fc(I, "work_mem", "include_dir 'missing'\n", "include_dir missing")
    yield fc(I, "work_mem", "include_dir 'd'\n", "include_dir empty dir", {"d": None})
    yield fc(I, "work_mem", "include_dir = d\n", "include_dir unquoted", {"d/x.conf": "work_mem = 2MB\n"})
    yield fc(I, "work_mem", f"include_dir '{CASE_DIR}/d'\n", "include_dir absolute",
             {"d/x.conf": "work_mem = 2MB\n"})
    yield fc(I, "work_mem", "include_dir 'd'\nwork_mem = 1MB\n", "main after include_dir",
             {"d/x.conf": "work_mem = 2MB\n"})
    yield fc(I, "work_mem", "include_dir 'd'\n", "include_dir nested include relative to dir",
             {"d/x.conf": "include 'y.inc'\n", "d/y.inc": "work_mem = 2MB\n",
              "y.inc": "work_mem = 3MB\n"})
    yield fc(I, "work_mem", "include_dir 'd'\n", "include_dir one bad file",
             {"d/a.conf": "work_mem = 1MB\n", "d/b.conf": "work_mem = 64 MB\n",
              "d/c.conf": "work_mem = 3MB\n"})
    c_order = ("10", "9", "A", "_z", "b")       # byte order of the file names
    order = {f"d/{n}.conf": f"application_name = '{n}'\n" for n in c_order}
    for k in range(1, len(c_order)):
        files = {f"d/{n}.conf": order[f"d/{n}.conf"] for n in c_order[:k + 1]}
        yield fc(I, "application_name", "include_dir 'd'\n",
                 f"include_dir C order {' < '.join(c_order[:k + 1])}", files)
    # Pairs whose order differs between byte order and case-insensitive/natural orders.
    for a, b in (("A", "_z"), ("B", "a"), ("Z", "a"), ("a-b", "a_b"), ("a.b", "ab"),
                 ("2", "10"), ("\u00e9", "z")):
        yield fc(I, "application_name", "include_dir 'd'\n", f"include_dir order {a!r} {b!r}",
                 {f"d/{a}.conf": f"application_name = '{a}'\n",
                  f"d/{b}.conf": f"application_name = '{b}'\n"})
    yield fc(I, "application_name", "include_dir 'd'\n", "include_dir symlinked file",
             order | {"target.txt": "application_name = 'link'\n",
                      "d/zz-link.conf": Symlink("../target.txt")})
    bad = "wrok_mem = 1\n"      # fatal if read: proves the file is skipped
    for fname in (".hidden.conf", ".conf", "x.conf.bak", "d.CONF", "conf", "x.conf~",
                  "e.conf/x.conf", "sub/z.conf", "x.Conf", "x.conf "):
        yield fc(I, "application_name", "include_dir 'd'\n", f"include_dir filter {fname!r}",
                 {"d/a.conf": "application_name = 'a'\n", f"d/{fname}": bad})
    yield fc(I, "application_name", "include_dir 'd'\n", "include_dir 6-char name x.conf",
             {"d/x.conf": "application_name = 'x'\n"})
    for n in (9, 10, 11, 12):
        yield fc(I, "work_mem", "include 'n1.conf'\n", f"include chain to depth {n}",
                 include_chain(n))
    chain9 = include_chain(9)
    chain9["n9.conf"] = "include_dir 'dd'\n"
    yield fc(I, "work_mem", "include 'n1.conf'\n", "chain of 9 then include_dir (depth 10)",
             chain9 | {"dd/x.conf": "work_mem = 3MB\n"})
    chain9b = dict(chain9)
    chain9b["dd/x.conf"] = "include 'deep.conf'\n"
    yield fc(I, "work_mem", "include 'n1.conf'\n", "chain 9 + include_dir + include (depth 11)",
             chain9b | {"dd/deep.conf": "work_mem = 3MB\n"})
    yield fc(I, "work_mem", "include 'a.conf'\n", "indirect loop a->b->a",
             {"a.conf": "include 'b.conf'\n", "b.conf": "include 'a.conf'\n"})
    yield fc(I, "work_mem", "include_if_exists 'a.conf'\n", "include_if_exists nested missing",
             {"a.conf": "include 'missing.conf'\n"})
    yield fc(I, "work_mem", "include 'a.conf'\n", "nested include_if_exists missing",
             {"a.conf": "include_if_exists 'missing.conf'\nwork_mem = 5MB\n"})
    yield fc(I, "work_mem", "include 'sub.conf'\n", "include file without final newline",
             {"sub.conf": "work_mem = 2MB"})
    yield fc(I, "work_mem", "include 'sub.conf'\nwork_mem = 1MB\n", "included CRLF file",
             {"sub.conf": "work_mem = 2MB\r\n"})
    yield fc(I, "work_mem", "include 'sub dir/a b.conf'\n", "include path with blanks",
             {"sub dir/a b.conf": "work_mem = 2MB\n"})
    yield fc(I, "work_mem", "include 'it''s.conf'\n", "include path with quote",
             {"it's.conf": "work_mem = 2MB\n"})
    yield fc(I, "work_mem", "include './sub.conf'\n", "include ./", sub)
    yield fc(I, "work_mem", "include 'd/../sub.conf'\n", "include with ..", sub | {"d": None})


def version_cases(catalog, other):
    """Names of another major that this one lacks (fatal here unless dotted), and back."""
    V = "version"
    for name in sorted(set(other) - set(catalog)):
        p = other[name]
        val = p.boot if p.vartype != "string" else quote(p.boot)
        yield fc(V, "work_mem", f"{name} = {val if val != '' else quote('')}\n",
                 f"{name} exists only in the other major")
    for name in sorted(set(catalog) - set(other)):
        if name in SKIPPED:
            continue
        p = catalog[name]
        val = p.boot if p.vartype != "string" else quote(p.boot)
        read = "work_mem" if name in RUNTIME_COMPUTED else name
        yield fc(V, read, f"{name} = {val if val != '' else quote('')}\n",
                 f"{name} exists only in this major")


def file_cases(major, catalog, other):
    yield from syntax_cases()
    yield from name_cases(major)
    yield from duplicate_cases()
    yield from include_cases()
    if other:
        yield from version_cases(catalog, other)


# --- random files ----------------------------------------------------------------------------

RANDOM_NAMES = {
    "work_mem": ["4MB", "'64kB'", "1GB", "65536", "0x100", "010", "'1.5MB'", "100", "64"],
    "statement_timeout": ["0", "5s", "'1min'", "100", "'1500us'", "2.5", "1h", "'25d'"],
    "shared_buffers": ["128MB", "'1GB'", "16384", "100kB", "'2TB'"],
    "search_path": ["'\"$user\", public'", "public", "'a,b'", "a.b.c", "''"],
    "application_name": ["'app'", "app", "'it''s'", "'\\101'", "x-y", "''"],
    "enable_seqscan": ["on", "off", "'TRUE'", "of", "'fals'", "1", "yes"],
    "log_min_messages": ["warning", "'DEBUG'", "info", "'Error'", "panic", "debug5"],
    "random_page_cost": ["4", "1.1", "'.5'", "1e2", "0", "'1.5e0'"],
    "checkpoint_timeout": ["5min", "'300'", "30s", "1h", "'1d'"],
    "max_connections": ["100", "'017'", "0x10", "1", "262143"],
}
RANDOM_JUNK = list("*;,!{}()[]<>?|&^%$\"`@~+-/\\:")


def random_token(rng):
    """One token of a random class."""
    kind = rng.randrange(12)
    if kind == 0:
        return rng.choice(["work_mem", "foo", "ON", "x_1", "\u00fcml"])
    if kind == 1:
        return rng.choice(["a.b", "myext.x", "pg_catalog.english"])
    if kind == 2:
        return rng.choice(["'abc'", "'it''s'", "'a\\tb'", "'\\101'", "''", "'a#b'", "'64 MB'"])
    if kind == 3:
        return rng.choice(["a-b", "x/y", "c:d", "a.b.c", "x.", "ab_c-1"])
    if kind == 4:
        return rng.choice(["64MB", "1kB", "0x1F", "010", "-5", "+3", "1e", "8kB", "5min", "2d"])
    if kind == 5:
        return rng.choice(["1.5", ".5", "1.", "1e3", "-2.5e-1", "."])
    if kind == 6:
        return "="
    if kind == 7:
        return "# " + rng.choice(["c", "x = 1", "'"])
    return rng.choice(RANDOM_JUNK)


def random_setting(rng, names):
    name = rng.choice(names)
    spelled = rng.choice([name, name, name, name.upper(), name.capitalize()])
    if name == "work_mem" and rng.random() < 0.1:
        spelled = "sort_mem"
    value = rng.choice(RANDOM_NAMES[name])
    eq = rng.choice([" = ", "=", " ", "\t=\t", " = "])
    line = f"{spelled}{eq}{value}"
    if rng.random() < 0.15:
        line += " # " + rng.choice(["comment", "x = y", "''"])
    return line


def clean_line(rng, names):
    """A line that lexes: a setting from the pool, a comment, a blank line, a custom name."""
    r = rng.random()
    if r < 0.75:
        return random_setting(rng, names)
    if r < 0.85:
        return rng.choice(["", "   ", "\t"])
    if r < 0.95:
        return "# " + rng.choice(["comment", "work_mem = 1", "'unterminated"])
    return rng.choice(["myext.x = 'v'", "myext.y = 1", "Myext.Z = a-b"])


def noisy_line(rng, names):
    """A line built from random tokens of every class (usually, not always, an error)."""
    r = rng.random()
    if r < 0.4:
        return " ".join(random_token(rng) for _ in range(rng.randint(1, 4)))
    name = rng.choice(names + ["myext.x", "a.b.c", "wrok_mem", "include_if_exists"])
    return f"{name} {rng.choice(['=', '', '=='])} {random_token(rng)}"


def random_file(rng, names):
    """1-8 lines; each file draws its own noise level so that both verdicts are common."""
    noise = rng.choice([0.0, 0.0, 0.05, 0.1, 0.2, 0.4])
    lines = [noisy_line(rng, names) if rng.random() < noise else clean_line(rng, names)
             for _ in range(rng.randint(1, 8))]
    eol = "\r\n" if rng.random() < 0.15 else "\n"
    text = eol.join(lines)
    if rng.random() < 0.85:
        text += eol
    return text


def random_cases(seed, catalog, count):
    rng = random.Random(seed)
    names = [n for n in RANDOM_NAMES if n in catalog]
    for i in range(count):
        text = random_file(rng, names)
        mentioned = [n for n in names if n in text.lower()]
        read = rng.choice(mentioned) if mentioned and rng.random() < 0.9 else rng.choice(names)
        yield Case("random", read, text, what=f"random file #{i}")


# --- all cases --------------------------------------------------------------------------------

def build_cases(major, catalog, other=None, seed=1, random_count=400):
    """Every case for `major`, with stable ids `<class>-<n>`."""
    cases = list(param_cases(catalog, major))
    cases += list(file_cases(major, catalog, other or {}))
    cases += list(random_cases(seed * 1000 + major, catalog, random_count))
    counters = {}
    for c in cases:
        counters[c.cls] = counters.get(c.cls, 0) + 1
        c.id = f"{c.cls}-{counters[c.cls]:05d}"
    return cases
