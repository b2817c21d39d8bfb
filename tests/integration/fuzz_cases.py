"""Generators of the differential fuzzer (tests/integration/fuzz_differential.py).

Every case is built from the harvested catalog of its major (knowledge/pg<N>.json) and a
seeded random.Random, so (major, seed, index) names a case for good. A case is a list of
*items* (lines of a configuration file, or SQL statements over an initial
postgresql.auto.conf) that the shrinker may drop one by one.

Two families:

* file: a postgresql.conf of 1-6 lines (settings with values around each parameter's
  bounds, every unit in every case and spacing, booleans by prefix, enum values in any
  case, hidden values, quoting and escapes, duplicates, old names, removed names, custom
  names valid and invalid, an included file, recovery targets) and the NAME `postgres -C`
  reads back;
* sql: an initial postgresql.auto.conf of 0-2 lines (now and then including a file) and a
  script of 1-5 statements
  (ALTER SYSTEM SET/RESET/RESET ALL, SET, ALTER ROLE/DATABASE ... SET, transaction
  blocks) whose values are written as SQL writes them: plain, E'' with escapes, U&'' with
  and without UESCAPE, dollar quotes, bare numbers and words, lists.
"""
import dataclasses
import json
import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Parameters the harness cannot let a case set: they move the files the server reads.
UNSETTABLE = {"data_directory", "config_file", "hba_file", "ident_file", "include_dir",
              "external_pid_file"}
# Read back by -C, they start half the server (GUC_RUNTIME_COMPUTED): never the NAME.
RUNTIME_COMPUTED = {"shared_memory_size", "shared_memory_size_in_huge_pages", "num_os_semaphores",
                    "data_checksums", "data_directory_mode", "wal_segment_size"}
RECOVERY_TARGETS = ("recovery_target", "recovery_target_lsn", "recovery_target_name",
                    "recovery_target_time", "recovery_target_xid")
MEMORY_UNITS = ("B", "kB", "MB", "GB", "TB")
TIME_UNITS = ("us", "ms", "s", "min", "h", "d")
BOOL_WORDS = ("on", "off", "true", "false", "yes", "no", "1", "0")
CUSTOM_VALID = ("myapp.x", "MyApp.Setting", "a.b.c", "my_app.x$1", "_x.y")
CUSTOM_INVALID = ("myapp.1x", "my-app.x", "myapp.", ".x", "a..b", "myapp.$x")
ROLE = "app"
# Modules a script LOADs, and names under their prefixes (defined ones and not).
MODULES = ("plpgsql", "auto_explain")
MODULE_NAMES = {"plpgsql": ("variable_conflict", "print_strict_params", "unknown_thing"),
                "auto_explain": ("log_analyze", "log_min_duration", "nope")}
# Not SET in a script: they change what the oracle's own session may do next (who it is,
# how its messages are encoded, whether its statements time out), not what is checked.
# exit_on_error = on ends the oracle's session at the next error.
SESSION_CHANGING = {"role", "session_authorization", "client_encoding", "statement_timeout", "lock_timeout",
                    "idle_in_transaction_session_timeout", "idle_session_timeout", "transaction_timeout",
                    "exit_on_error"}


# The oracle's server does not load a case's initial postgresql.auto.conf (a reload would
# leave placeholders behind for the next cases), while pgconflint takes the cluster to run
# with it: a parameter there that changes what the statements do is not generated.
# allow_alter_system = off makes every ALTER SYSTEM fail on a server that loaded it.
NOT_LOADED_BY_THE_ORACLE = {"allow_alter_system"}


@dataclasses.dataclass
class Param:
    name: str
    vartype: str
    unit: str
    min: str
    max: str
    enumvals: tuple
    hidden: tuple
    boot: str
    context: str
    in_pg_settings: bool


@dataclasses.dataclass
class Case:
    family: str          # "file", "sql", "hba" or "ident"
    index: int
    items: list          # file, hba, ident: lines; sql: statements
    name: str = ""       # file: the NAME -C reads back
    auto_conf: list = dataclasses.field(default_factory=list)  # sql: initial lines
    included: list = dataclasses.field(default_factory=list)   # lines of included.conf (hba, ident: AUTH_EXTRA)

    def text(self):
        return "".join(line + "\n" for line in self.items)

    def describe(self):
        out = [f"[{self.family} #{self.index}]" + (f" NAME {self.name}" if self.name else "")]
        out += [f"  auto.conf: {line}" for line in self.auto_conf]
        out += [f"  | {line}" for line in self.items]
        extra = AUTH_EXTRA if self.family in ("hba", "ident") else "included.conf"
        out += [f"  {extra}: {line}" for line in self.included]
        return "\n".join(out)


def load_catalog(major):
    with open(os.path.join(ROOT, "knowledge", f"pg{major}.json")) as f:
        doc = json.load(f)
    params = []
    for p in doc["parameters"]:
        params.append(Param(p["name"], p.get("vartype") or "string", p.get("unit") or "",
                            p.get("min_val") or "", p.get("max_val") or "",
                            tuple(p.get("enumvals") or ()), tuple((p.get("hidden_enumvals") or {}).keys()),
                            p.get("boot_val") or "", p.get("context") or "", p.get("in_pg_settings", True)))
    return params, dict(doc.get("aliases") or {})


class Generator:
    def __init__(self, major, majors):
        self.major = major
        self.params, self.aliases = load_catalog(major)
        names = {p.name.lower() for p in self.params}
        others = set()
        for m in majors:
            if m != major and os.path.exists(os.path.join(ROOT, "knowledge", f"pg{m}.json")):
                others |= {p.name for p in load_catalog(m)[0] if p.name.lower() not in names}
        self.removed = sorted(others)   # names other majors have and this one lacks
        self.settable = [p for p in self.params if p.name not in UNSETTABLE]
        self.readable = [p for p in self.params if p.in_pg_settings and p.name not in RUNTIME_COMPUTED
                         and p.name not in UNSETTABLE]

    # --- names -------------------------------------------------------------------------

    def param(self, rng):
        return rng.choice(self.settable)

    def spelling(self, rng, name):
        r = rng.random()
        if r < 0.15:
            return name.upper()
        if r < 0.25:
            return "".join(c.upper() if rng.random() < 0.5 else c for c in name)
        return name

    def any_name(self, rng):
        """A name to set: mostly catalog names, else old, removed and custom ones."""
        r = rng.random()
        if r < 0.06 and self.aliases:
            return rng.choice(sorted(self.aliases))
        if r < 0.10 and self.removed:
            return rng.choice(self.removed)
        if r < 0.15:
            return rng.choice(CUSTOM_VALID)
        if r < 0.19:
            return rng.choice(CUSTOM_INVALID)
        return self.spelling(rng, self.param(rng).name)

    def find(self, name):
        n = self.aliases.get(name.lower(), name).lower()
        for p in self.params:
            if p.name.lower() == n:
                return p
        return None

    # --- values (the text the server reads, before quoting) ----------------------------

    def number_forms(self, rng, x, integer):
        forms = [str(int(x)) if integer else repr(float(x))]
        if integer and x >= 0 and x < 1 << 31:
            forms += [hex(int(x)), "0" + oct(int(x))[2:] if x else "0"]
        forms += [f"{x:e}", f"+{int(x)}" if integer else f"{x}", f"{x}.5"]
        return rng.choice(forms)

    def around_bounds(self, rng, p, integer):
        try:
            lo, hi = float(p.min), float(p.max)
        except ValueError:
            lo, hi = 0.0, 1000.0
        picks = [lo, hi, lo - 1, hi + 1, 0, -1, 1, (lo + hi) / 2, rng.uniform(lo, min(hi, lo + 1e6))]
        x = rng.choice(picks)
        if integer:
            x = int(max(min(x, 2 ** 62), -2 ** 62))
        return x

    def with_unit(self, rng, p, text):
        units = MEMORY_UNITS if p.unit in ("B", "kB", "MB", "8kB", "16MB") else TIME_UNITS if p.unit in TIME_UNITS else ()
        if not units or rng.random() < 0.4:
            return text
        unit = rng.choice(units)
        r = rng.random()
        if r < 0.15:
            unit = unit.lower()
        elif r < 0.25:
            unit = unit.upper()
        space = rng.choice(("", "", " ", "  ", "\t"))
        return f"{text}{space}{unit}"

    def value(self, rng, p):
        if p is None:
            return rng.choice(("1", "x", "on", "", "a, b"))
        if rng.random() < 0.05:
            return rng.choice(("", " ", "x", "-", "0", "1e400", "nan"))
        if p.vartype == "bool":
            w = rng.choice(BOOL_WORDS + ("t", "tr", "f", "y", "n", "of", "o", "maybe", "2", "On", "TRUE"))
            return w
        if p.vartype in ("integer", "real"):
            integer = p.vartype == "integer"
            x = self.around_bounds(rng, p, integer)
            return self.with_unit(rng, p, self.number_forms(rng, x, integer))
        if p.vartype == "enum":
            vals = list(p.enumvals) + list(p.hidden)
            v = rng.choice(vals) if vals else "x"
            r = rng.random()
            if r < 0.1:
                v = v.upper()
            elif r < 0.15:
                v = v[: max(1, len(v) - 1)]
            elif r < 0.2:
                v = v + "x"
            return v
        if p.name in RECOVERY_TARGETS:
            return rng.choice(("", "immediate", "1000", "0/16B6C50", "x", "2026-01-01 00:00:00+00"))
        return rng.choice((p.boot, "", "x", "a, b", "'x'", "C", "UTC", "$libdir/x", "a b", "é", "1"))

    # --- files ---------------------------------------------------------------------------

    def conf_literal(self, rng, text):
        """How a file writes `text`: bare when it may lex as one token, else quoted with
        '' or \\' for quotes and, now and then, an escape for a letter."""
        if text and rng.random() < 0.4 and all(c.isalnum() or c in "._-:/+" for c in text):
            return text
        out = []
        for c in text:
            if c == "'":
                out.append(rng.choice(("''", "\\'")))
            elif c == "\\":
                out.append("\\\\")
            elif c.isalpha() and c.isascii() and rng.random() < 0.03:
                out.append("\\" + oct(ord(c))[2:].rjust(3, "0"))
            else:
                out.append(c)
        return "'" + "".join(out) + "'"

    def conf_line(self, rng, names_so_far):
        """(line, the name it sets or None)."""
        r = rng.random()
        if r < 0.05:
            return rng.choice(("# a comment", "", "   ", "include_if_exists 'missing.conf'")), None
        if r < 0.12:
            name = rng.choice(RECOVERY_TARGETS)
        elif r < 0.2 and names_so_far:
            name = rng.choice(names_so_far)
        else:
            name = self.any_name(rng)
        sep = rng.choice((" = ", "=", " ", " =  "))
        line = f"{name}{sep}{self.conf_literal(rng, self.value(rng, self.find(name)))}"
        if rng.random() < 0.1:
            line += " # trailing"
        return line, name

    def file_case(self, rng, index):
        lines, names = [], []
        for _ in range(rng.randint(1, 6)):
            line, name = self.conf_line(rng, names)
            lines.append(line)
            if name:
                names.append(name)
        included = []
        if rng.random() < 0.15:
            for _ in range(rng.randint(1, 2)):
                line, name = self.conf_line(rng, names)
                included.append(line)
                if name:
                    names.append(name)
            lines.insert(rng.randint(0, len(lines)), rng.choice(("include 'included.conf'",
                                                                  "include_if_exists 'included.conf'")))
        known = [self.find(n) for n in names if self.find(n) in self.readable]
        p = rng.choice(known) if known and rng.random() < 0.8 else rng.choice(self.readable)
        return Case("file", index, lines, name=p.name, included=included)

    # --- SQL -----------------------------------------------------------------------------

    def sql_literal(self, rng, text):
        r = rng.random()
        if r < 0.1 and text and all(c.isdigit() for c in text):
            return text                                          # a bare integer
        if r < 0.15 and text.isidentifier() and text.isascii() and text.lower() == text:
            return text                                          # a bare word
        if r < 0.3:
            esc = "".join("\\\\" if c == "\\" else "\\'" if c == "'" else
                          (f"\\x{ord(c):02x}" if c.isascii() and c.isalpha() and rng.random() < 0.2 else c)
                          for c in text)
            if rng.random() < 0.05:
                esc += rng.choice(("\\377", "\\303\\251", "\\xc3", "\\n"))
            return f"E'{esc}'"
        if r < 0.4 and text.isascii():
            body = "".join(f"!{ord(c):04X}" if c.isalpha() and rng.random() < 0.3 else
                           ("!!" if c == "!" else "''" if c == "'" else c) for c in text)
            if "!" in body:
                return f"U&'{body}' UESCAPE '!'"
            return f"U&'{text.replace(chr(39), chr(39) * 2)}'"
        if r < 0.47 and "$" not in text:
            return f"$${text}$$"
        return "'" + text.replace("'", "''") + "'"

    def sql_statement(self, rng):
        name = self.any_name(rng)
        p = self.find(name)
        value = self.sql_literal(rng, self.value(rng, p))
        if p and p.vartype == "string" and rng.random() < 0.1:
            value = f"{self.sql_literal(rng, 'a')}, {self.sql_literal(rng, 'b')}"
        qname = f'"{name}"' if (rng.random() < 0.1 or not all(c.isalnum() or c in "._" for c in name)) else name
        r = rng.random()
        if r < 0.45:
            return f"ALTER SYSTEM SET {qname} {rng.choice(('=', 'TO'))} {value};"
        if r < 0.55:
            return f"ALTER SYSTEM RESET {qname};"
        if r < 0.57:
            return "ALTER SYSTEM RESET ALL;"
        if r < 0.7:
            if name.lower() in SESSION_CHANGING:
                return f"ALTER SYSTEM SET {qname} = {value};"
            return f"SET {qname} = {value};"
        if r < 0.82:
            return f"ALTER ROLE {ROLE} SET {qname} = {value};"
        if r < 0.9:
            return f"ALTER DATABASE postgres SET {qname} = {value};"
        if r < 0.93:
            return f"ALTER SYSTEM SET {qname} = DEFAULT;"
        if r < 0.95:
            module = rng.choice(MODULES)
            if rng.random() < 0.5:
                return f"LOAD '{module}';"
            return f"SET {module}.{rng.choice(MODULE_NAMES[module])} = {self.sql_literal(rng, rng.choice(('on', '1', 'x')))};"
        return rng.choice(("BEGIN;", "COMMIT;", "ROLLBACK;"))

    def sql_case(self, rng, index):
        auto = []
        for _ in range(rng.choice((0, 0, 1, 2))):
            param = self.param(rng)
            while param.name.lower() in NOT_LOADED_BY_THE_ORACLE:
                param = self.param(rng)
            name = self.spelling(rng, param.name)
            auto.append(f"{name} = {self.conf_literal(rng, self.value(rng, self.find(name)))}")
        included = []
        if rng.random() < 0.05:
            auto.insert(rng.randint(0, len(auto)), rng.choice(("include 'included.conf'",
                                                               "include_if_exists 'included.conf'")))
            if rng.random() < 0.7:
                name = self.param(rng).name
                while name.lower() in NOT_LOADED_BY_THE_ORACLE:
                    name = self.param(rng).name
                included = [f"{name} = {self.conf_literal(rng, self.value(rng, self.find(name)))}"]
        stmts = [self.sql_statement(rng) for _ in range(rng.randint(1, 5))]
        return Case("sql", index, stmts, auto_conf=auto, included=included)

    def case(self, seed, index):
        rng = random.Random(f"{seed}:{self.major}:{index}")
        r = rng.random()
        if r < 0.4:
            return self.file_case(rng, index)
        if r < 0.8:
            return self.sql_case(rng, index)
        return auth_case(rng, index, self.major)


# --- pg_hba.conf and pg_ident.conf ------------------------------------------------------------
# Tokens of every field, right and wrong (the server is the judge). A case is 1-4 lines of
# one file, and an extra file (AUTH_EXTRA) that @-references and include records name.

AUTH_EXTRA = "extra.conf"
# A directory that holds a copy of the extra file, for include_dir (the case's own directory
# holds the oracle's postgresql.conf and the case file itself: what `include_dir .` reads
# there is the harness's, and its fan-out runs into pgconflint's expansion budget).
AUTH_EXTRA_DIR = "conf.d"
HBA_TYPES = ("local", "host", "hostssl", "hostnossl", "hostgssenc", "hostnogssenc", "Host", "hots", '"host"')
HBA_DATABASES = ("all", "sameuser", "samerole", "samegroup", "replication", "db1", "DB1", '"all"', '"db 1"',
                 "db1,db2", "db1, db2", "db1,,db2", "db1,", "+g1", f"@{AUTH_EXTRA}", "@", '""', "/^db\\d+$",
                 '"/^db"', "/(", "a" * 70)
HBA_USERS = ("all", "u1", "+admins", '"+admins"', "+", '"all"', "u1,u2", "u1,+g", f"@{AUTH_EXTRA}", "/^u.*$",
             '"u""q"', "pg_read_all_data", "/[")
HBA_ADDRESSES = ("127.0.0.1/32", "10.0.0.0/8", "10.0.0.1/8", "0.0.0.0/0", "::1/128", "::/0", "fe80::/10",
                 "1.2.3.4/33", "::1/129", "10.0.0.1", "10.0.0.1 255.255.255.0", "10.0.0.1 255.0.255.0",
                 "::1 ffff:ffff::", "all", "samehost", "samenet", "host.example.com", ".example.com",
                 "host.example.com/24", "256.1.1.1/32", "10.0.0.0/-1", '"127.0.0.1/32"', "10.0.0.0/8,10.1.0.0/16")
HBA_METHODS = ("trust", "reject", "scram-sha-256", "md5", "password", "gss", "sspi", "ident", "peer", "ldap",
               "radius", "cert", "pam", "bsd", "oauth", "krb5", "crypt", "SCRAM-SHA-256", "md6", '"trust"')
HBA_OPTIONS = ("map=m1", 'map="m 1"', "map=", "clientcert=verify-ca", "clientcert=verify-full",
               "clientcert=no-verify", "clientcert=1", "clientname=CN", "clientname=DN", "clientname=x",
               "include_realm=0", "include_realm=1", "krb_realm=EXAMPLE.COM", "compat_realm=1",
               "upn_username=1", "pamservice=postgresql", "pam_use_hostname=1", "ldapserver=ldap.example",
               "ldapport=389", "ldapport=x", "ldapscheme=ldaps", "ldapscheme=ftp", "ldaptls=1",
               "ldapprefix=cn=", "ldapsuffix=,dc=example", "ldapbasedn=dc=example", "ldapsearchattribute=uid",
               "ldapsearchfilter=(uid=$username)", "ldapurl=ldap://ldap.example/dc=example?uid?sub",
               "ldapurl=nope", "radiusservers=127.0.0.1", "radiussecrets=s", "radiusservers=127.0.0.1,127.0.0.2",
               "\"radiusservers=127.0.0.1,127.0.0.2\"",
               "radiussecrets=s,t", "radiusidentifiers=x", "radiusports=1812", "radiusports=x",
               "issuer=https://id.example", "scope=openid", "validator=v", "delegate_ident_mapping=1",
               "bad", "bad=1", "=x", "map")
IDENT_SYSTEM = ("alice", "/^(.*)$", '"/^(.*)@example$"', "/(", '"bob"', "Bob", "all", "+g", "/^a\\d$")
IDENT_PG = ("alice", "\\1", '"\\1"', "all", '"all"', "+admins", '"+admins"', "/^x$", "bob,carol", "\\2")


def _hba_line(rng):
    kind = rng.choice(HBA_TYPES)
    parts = [kind, rng.choice(HBA_DATABASES), rng.choice(HBA_USERS)]
    if not kind.startswith("local") or rng.random() < 0.1:
        parts.append(rng.choice(HBA_ADDRESSES))
    if rng.random() < 0.95:
        parts.append(rng.choice(HBA_METHODS))
    parts += [rng.choice(HBA_OPTIONS) for _ in range(rng.choice((0, 0, 1, 1, 2, 3)))]
    return _auth_spacing(rng, parts)


def _ident_line(rng):
    parts = [rng.choice(("m1", "m2", '"m 1"', "M1")), rng.choice(IDENT_SYSTEM), rng.choice(IDENT_PG)]
    if rng.random() < 0.05:
        parts.append("extra")
    elif rng.random() < 0.05:
        parts.pop()
    return _auth_spacing(rng, parts)


def _auth_spacing(rng, parts):
    """Fields joined by blanks or tabs, now and then continued on the next line or commented."""
    line = ""
    for i, p in enumerate(parts):
        if i:
            line += " \\\n  " if rng.random() < 0.04 else rng.choice((" ", " ", "\t", "  "))
        line += p
    if rng.random() < 0.1:
        line += rng.choice(("  # comment", "#x", " \\"))
    return line


def auth_case(rng, index, major):
    """A pg_hba.conf (three cases in four) or pg_ident.conf case, with the extra file's lines."""
    kind = "hba" if rng.random() < 0.75 else "ident"
    line = _hba_line if kind == "hba" else _ident_line
    items = []
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if r < 0.08:
            items.append(rng.choice((f"include {AUTH_EXTRA}", f"include_if_exists {AUTH_EXTRA}",
                                     "include_if_exists missing.conf", f"include_dir {AUTH_EXTRA_DIR}", "include",
                                     f'include "{AUTH_EXTRA}"', "include_dir missing")))
        elif r < 0.12:
            items.append(rng.choice(("", "# a comment", "   ", "\t")))
        else:
            items.append(line(rng))
    r = rng.random()
    if r < 0.5:  # the extra file: names for @extra.conf, or lines for an include
        extra = [rng.choice(("db3", "u3", "db3 u3", "db3,db4", '"db 3"', "+g3", "# c", "/^x"))]
    elif r < 0.8:
        extra = [line(rng)]
    else:
        extra = []
    if kind == "hba" and not any(not x.startswith(("#", "include")) and x.strip() for x in items):
        items.append("local all all trust")  # a file of no rule is refused whole: mostly judge lines
    return Case(kind, index, items, included=extra)
