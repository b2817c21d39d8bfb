"""Cases for the pg_hba.conf / pg_ident.conf differential test (test_hba_differential.py).

A case is the text of pg_hba.conf or pg_ident.conf plus files beside it (@files,
included files and directories). The real server reads it through pg_hba_file_rules /
pg_ident_file_mappings; pgconflint reads it with the server's rows given (--server-hba,
--server-ident) and must report no difference, and must refuse the file exactly when the
server does. Cases are written by hand, family by family, from hba.c's rules
(docs/postgresql-semantics.md#hba-files), plus a seeded random family that mixes the
tokens of every family.

`majors` restricts a case to the majors it means something for (include records exist
from 16: `since(16)`); a case without it runs on every major the runner tests, where the
older majors read the same text their own way (a regex is a plain name in 14 and 15, an
include line is a bad record).
"""
import dataclasses
import random
import time


def since(first):
    """The majors from `first` on (a case's `majors`; `major in since(16)`)."""
    return range(first, 100)


EVERY_MAJOR = since(1)


def reload_log(srv, log):
    """Reloads `srv` (a pgtools.Server logging to `log`), with a second reload marking the
    end, and returns what the log says after the first."""
    with open(log, errors="replace") as f:
        start = len(f.read())
    srv.psql("select pg_reload_conf()")
    time.sleep(0.2)
    srv.psql("select pg_reload_conf()")
    # Both reloads must be in the log before the next case rewrites the files: a reload
    # the postmaster handles late (a busy machine) would read the next case's pg_hba.conf.
    deadline = time.monotonic() + 60
    while True:
        with open(log, errors="replace") as f:
            text = f.read()[start:]
        if text.count("received SIGHUP") >= 2:
            # The postmaster logs the line before it rereads the files: a connection it
            # accepts after the line is accepted after the reload (it does both in turn).
            srv.psql("select 1")
            return text.split("received SIGHUP")[1]
        if time.monotonic() > deadline:
            raise AssertionError(f"the server did not log two reloads within 60 s:\n{text[-2000:]}")
        time.sleep(0.05)


@dataclasses.dataclass
class Case:
    cls: str                   # family, for counting
    kind: str                  # "hba" or "ident"
    text: str                  # the main file
    files: dict = dataclasses.field(default_factory=dict)  # relpath -> text, or None for a directory
    majors: object = EVERY_MAJOR   # the majors it is for: a tuple, or since(N)
    id: str = ""


def _hba(cls, *lines, files=None, majors=None):
    return Case(cls, "hba", "".join(l + "\n" for l in lines), files or {}, majors or EVERY_MAJOR)


def _ident(cls, *lines, files=None, majors=None):
    return Case(cls, "ident", "".join(l + "\n" for l in lines), files or {}, majors or EVERY_MAJOR)


def tokenizer_cases():
    long = lambda n: "x" * n  # noqa: E731
    c = [
        _hba("tokens", "local all all trust"),
        _hba("tokens", "local\tall\tall\ttrust   "),
        _hba("tokens", "  local all all trust # comment"),
        _hba("tokens", "local all all trust#comment"),
        _hba("tokens", "local all all#comment trust"),
        _hba("tokens", "local \"all\" all trust"),
        _hba("tokens", "local al\"l\" all trust"),
        _hba("tokens", "local \"\" all trust"),
        _hba("tokens", "local \"a b\" \"c,d\" trust"),
        _hba("tokens", "local \"a\"\"b\" all trust"),
        _hba("tokens", "local \"unterminated all trust"),
        _hba("tokens", "local \"a#b\" all trust"),
        _hba("tokens", "local a,b,c all trust"),
        _hba("tokens", "local a, b all trust"),
        _hba("tokens", "local a ,b all trust"),
        _hba("tokens", "local a,,b all trust"),
        _hba("tokens", "local ,a all trust"),
        _hba("tokens", "local a, all trust"),
        _hba("tokens", "local all all trust,"),
        _hba("tokens", "local,host all all trust"),
        _hba("tokens", "local all \\", "  all trust"),
        _hba("tokens", "local all all \\", "trust"),
        _hba("tokens", "local all all trust \\"),
        _hba("tokens", "local all all trust \\\\", "local all all reject"),
        _hba("tokens", "local all \\", "", "all trust"),
        _hba("tokens", "# local all all trust \\", "local all all trust"),
        _hba("tokens", "local all all trust\r", "host all all 127.0.0.1/32 trust\r"),
        _hba("tokens", "local all all trust\rlocal"),
        _hba("tokens", "local " + long(254) + " all trust"),
        _hba("tokens", "local " + long(255) + " all trust"),
        _hba("tokens", "local " + long(256) + " all trust"),
        _hba("tokens", "local " + long(255) + ",a all trust"),
        _hba("tokens", "local \"" + long(254) + "\" all trust"),
        _hba("tokens", "local all all trust map=" + long(300)),
        _hba("tokens", "local all " + long(2000) + " trust"),
        _hba("tokens", "local all all trust", "", "   ", "#", "local all all reject"),
        _hba("tokens", "LOCAL all all trust"),
        _hba("tokens", "local ALL all trust"),
        _hba("tokens", "local all all TRUST"),
        _hba("empty", "# nothing here"),
        _hba("empty", ""),
        _hba("empty", "   ", "\t"),
    ]
    return c


def at_file_cases():
    return [
        _hba("at-file", "local @dbs all trust", files={"dbs": "a b\nc,d\n"}),
        _hba("at-file", "local @dbs,x all trust", files={"dbs": "a\n# comment\nb # c\n"}),
        _hba("at-file", "local all @users trust", files={"users": "alice\n\"bob smith\"\n+admins\n"}),
        _hba("at-file", "local @missing all trust"),
        _hba("at-file", "local @ all trust"),
        _hba("at-file", "local \"@dbs\" all trust", files={"dbs": "a\n"}),
        _hba("at-file", "local @\"dbs\" all trust", files={"dbs": "a\n"}),
        _hba("at-file", "local @sub/dbs all trust", files={"sub": None, "sub/dbs": "a\n@more\n", "sub/more": "b\n"}),
        _hba("at-file", "local @empty all trust", files={"empty": ""}),
        _hba("at-file", "local @dbs all trust", files={"dbs": "a \"unterminated\n"}),
        _hba("at-file", "local @dbs all trust", files={"dbs": "a\n@missing2\n"}),
        _hba("at-file", "local @dir all trust", files={"dir": None}),
        _hba("at-file", "local all all trust @opts", files={"opts": "map=x\n"}),
        _hba("at-file", "@type all all trust", files={"type": "local\n"}),
        _hba("at-file", "local @dbs all trust", files={"dbs": "a \\\nb\n"}),
    ]


def field_cases():
    c = []
    for t in ("local", "host", "hostssl", "hostnossl", "hostgssenc", "hostnogssenc", "hostx", "hosts", "Local"):
        c.append(_hba("types", f"{t} all all 127.0.0.1/32 trust" if t != "local" else "local all all trust"))
        c.append(_hba("types", f"{t} all all trust"))
    c += [
        _hba("fields", "local"),
        _hba("fields", "local all"),
        _hba("fields", "local all all"),
        _hba("fields", "host all all"),
        _hba("fields", "host all all 127.0.0.1/32"),
        _hba("fields", "host all all 127.0.0.1"),
        _hba("fields", "host all all 127.0.0.1 255.255.255.255"),
        _hba("fields", "local,host all all trust"),
        _hba("fields", "host all all 127.0.0.1/32,::1/128 trust"),
        _hba("fields", "host all all 127.0.0.1 255.255.255.255,255.0.0.0 trust"),
        _hba("fields", "local all all trust,md5"),
        _hba("fields", "local all all trust extra"),
        _hba("fields", "local all all all trust"),
        _hba("fields", "host all all all trust"),
        _hba("fields", "host all all \"all\" trust"),
        _hba("fields", "host all all samehost trust"),
        _hba("fields", "host all all samenet trust"),
        _hba("fields", "host all all \"samenet\" trust"),
        _hba("fields", "host replication all 127.0.0.1/32 trust"),
        _hba("fields", "host sameuser,samerole,samegroup +admins,all 127.0.0.1/32 trust"),
    ]
    return c


ADDRESSES = [
    "127.0.0.1/32", "127.0.0.1/0", "127.0.0.1/33", "127.0.0.1/-1", "127.0.0.1/+8", "127.0.0.1/08",
    "127.0.0.1/", "127.0.0.1/a", "127.0.0.1/ 8", "10.1.2.3/8", "0.0.0.0/0", "127.1/32", "0x7f.0.0.1/32",
    "010.0.0.1/32", "1.2.3.4.5/32", "256.1.1.1", "256.1.1.1/32", "1.2.3/24", "4294967295/32", "4294967296/32",
    "0x/32", "08.1.1.1/32", "::1/128", "::1/129", "::/0", "1::/16", "::ffff:1.2.3.4/128", "::1.2.3.4/128",
    "fe80::1%1/64", "2001:db8::/32", "2001:DB8:0:0:0:0:0:1/128", "2001:db8:0:0:1:0:0:1/128", "1:2:3:4:5:6:7:8/128",
    "1:2:3:4:5:6:7:8:9/128", "::ffff:1.2.3.04/128", "1::2::3/128", ":::/0", "example.com", ".example.com",
    "example.com/24", "localhost", "*", "\"127.0.0.1/32\"", "/24", "127.0.0.1/32/8",
]
MASKS = ["255.255.255.0", "255.0.255.0", "0.0.0.0", "255.255.255.256", "ffff:ffff::", "md5", "255.255.255.0/8",
         "0xffffff00"]


def address_cases():
    c = [_hba("address", f"host all all {a} trust") for a in ADDRESSES]
    c += [_hba("mask", f"host all all 10.0.0.0 {m} trust") for m in MASKS]
    c += [_hba("mask", f"host all all ::1 {m} trust") for m in ("ffff:ffff:ffff:ffff::", "255.255.255.255")]
    c.append(_hba("mask", "host all all 235.84.86.65 md5"))
    return c


METHODS = ["trust", "reject", "scram-sha-256", "md5", "password", "peer", "ident", "gss", "sspi", "pam", "bsd",
           "ldap", "radius", "cert", "oauth", "scram-sha256", "krb5", "crypt", "Trust"]


def method_cases():
    c = []
    for m in METHODS:
        for t in ("local all all", "host all all 127.0.0.1/32", "hostssl all all 127.0.0.1/32"):
            c.append(_hba("method", f"{t} {m}"))
    return c


OPTIONS = [
    ("peer", "map=m"), ("peer", "map="), ("ident", "map=m"), ("trust", "map=m"), ("scram-sha-256", "map=m"),
    ("trust", "clientcert=verify-ca"), ("trust", "clientcert=verify-full"), ("trust", "clientcert=1"),
    ("trust", "clientcert=0"), ("cert", "clientcert=verify-ca"), ("cert", "clientcert=verify-full"),
    ("cert", "map=m"), ("trust", "clientname=CN"), ("trust", "clientname=DN"), ("trust", "clientname=cn"),
    ("trust", "pamservice=x"), ("trust", "ldapserver=x"), ("trust", "krb_realm=X"), ("trust", "include_realm=0"),
    ("trust", "compat_realm=1"), ("trust", "upn_username=1"), ("trust", "radiusservers=127.0.0.1"),
    ("trust", "bogus=1"), ("trust", "=1"), ("trust", "map"), ("trust", "map=a=b"), ("trust", "issuer=x"),
    ("trust", "scope=x"), ("trust", "delegate_ident_mapping=1"),
    ("radius", "radiusservers=127.0.0.1 radiussecrets=s"),
    ("radius", "radiusservers=127.0.0.1"),
    ("radius", "radiussecrets=s"),
    ("radius", "radiusservers= radiussecrets=s"),
    ("radius", "radiusservers=127.0.0.1,127.0.0.2 radiussecrets=a,b"),
    ("radius", "radiusservers=127.0.0.1,127.0.0.2 radiussecrets=a,b,c"),
    ("radius", "radiusservers=127.0.0.1,127.0.0.2 radiussecrets=a radiusports=1812,1813"),
    ("radius", "radiusservers=127.0.0.1,127.0.0.2 radiussecrets=a radiusports=1,2,3"),
    ("radius", "radiusservers=127.0.0.1 radiussecrets=a radiusports=0"),
    ("radius", "radiusservers=127.0.0.1 radiussecrets=a radiusports=abc"),
    ("radius", "radiusservers=127.0.0.1 radiussecrets=a radiusports=1812x"),
    ("radius", "radiusservers=127.0.0.1 radiussecrets=a radiusidentifiers=x,y"),
    ("radius", "radiusservers=127.0.0.1 radiussecrets=a radiusidentifiers=\"\"x"),
    ("radius", "\"radiusservers=127.0.0.1, 127.0.0.2\" radiussecrets=a"),
    ("radius", "radiusservers=127.0.0.1,,127.0.0.2 radiussecrets=a"),
    ("radius", "radiusservers=\"127.0.0.1 radiussecrets=a"),
    ("radius", "radiusservers=127.0.0.1 radiussecrets=a pamservice=x"),
    ("oauth", "issuer=https://x scope=openid"),
    ("oauth", "scope=openid"),
    ("oauth", "issuer=https://x"),
    ("oauth", "issuer=https://x scope=openid validator=v"),
    ("oauth", "issuer=https://x scope=openid map=m delegate_ident_mapping=1"),
]


def option_cases():
    c = []
    for method, opts in OPTIONS:
        c.append(_hba("option", f"hostssl all all 127.0.0.1/32 {method} {opts}"))
        c.append(_hba("option", f"host all all 127.0.0.1/32 {method} {opts}"))
    c.append(_hba("option", "local all all peer map=m map=n"))
    c.append(_hba("option", "local all all ident map=m"))
    return c


REGEXES = ["^a", "^a.*$", "a|b", "(a", "a)", "a[", "[a-", "a{2}", "a{2,1}", "a{3", "a{256}", "a{x}", "*a", "a**",
           "a+?", "^*", "(?i)ab", "(?z)ab", "(?:a)", "(?=a)b", "(?#c)a", "\\d+", "\\q", "a\\", "\\1", "(a)\\1",
           "(a\\1)", "[[:alpha:]]", "[[:nope:]]", "[z-a]", "[a-z]", "[[.a.]]", "[[.ab.]]", "[[=a=]]", "***:a",
           "***=(", "***?", "***x", "\\x41", "\\x", "\\u12", "\\u0041", "a{,2}", "a{1,2}?", "()", "", "é+",
           "[é-a]", "\\y", "a\\yb", "[\\d]", "[\\y]", "\\cA", "\\c"]


def regex_cases():
    c = []
    for r in REGEXES:
        c.append(_hba("regex", f"local \"/{r}\" all trust" if " " in r or "," in r or "#" in r else
                      f"local /{r} all trust"))
        c.append(_hba("regex", f"local all /{r} trust" if not (" " in r or "," in r or "#" in r) else
                      f"local all \"/{r}\" trust"))
        c.append(_ident("ident-regex", f"m /{r} pguser"))
        c.append(_ident("ident-regex", f"m sys /{r}"))
    return c


def include_cases():
    m16 = since(16)
    return [
        _hba("include", "include inc.conf", files={"inc.conf": "local all all trust\n"}, majors=m16),
        _hba("include", "include missing.conf", majors=m16),
        _hba("include", "include_if_exists missing.conf", "local all all trust", majors=m16),
        _hba("include", "include_if_exists inc.conf", files={"inc.conf": "local all all trust\n"}, majors=m16),
        _hba("include", "include_dir d", files={"d": None, "d/b.conf": "local all all reject\n",
                                                "d/a.conf": "local all all trust\n", "d/c.txt": "junk\n",
                                                "d/.h.conf": "junk\n"}, majors=m16),
        _hba("include", "include_dir d", files={"d": None}, majors=m16),
        _hba("include", "include_dir d", "local all all trust", files={"d": None}, majors=m16),
        _hba("include", "include_dir missing", majors=m16),
        _hba("include", "include_dir d", files={"d": None, "d/a.conf": "bogus\n", "d/b.conf": "local\n"}, majors=m16),
        _hba("include", "include inc.conf", files={"inc.conf": "include inc2.conf\n", "inc2.conf": "local all all trust\n"},
             majors=m16),
        _hba("include", "include self.conf", files={"self.conf": "include self.conf\n"}, majors=m16),
        _hba("include", "local all all trust", "include pg_hba.conf", majors=m16),
        _hba("include", "include inc.conf extra", files={"inc.conf": "local all all trust\n"}, majors=m16),
        _hba("include", "\"include\" inc.conf", files={"inc.conf": "local all all trust\n"}, majors=m16),
        _hba("include", "include a.conf,b.conf", files={"a.conf": "local all all trust\n",
                                                        "b.conf": "local all all reject\n"}, majors=m16),
        _hba("include", "include inc.conf", files={"inc.conf": "local @dbs all trust\n", "dbs": "a\n"}, majors=m16),
        _hba("include", "include sub/inc.conf", files={"sub": None, "sub/inc.conf": "include more.conf\n",
                                                       "sub/more.conf": "local all all trust\n"}, majors=m16),
        _hba("include", "include inc.conf", "local all all md5", files={"inc.conf": "bogus line\n"}, majors=m16),
        _hba("include", "include inc.conf", files={"inc.conf": "# only a comment\n"}, majors=m16),
        _hba("include", "include"),
        _hba("include", "include inc.conf", files={"inc.conf": "local all all trust\n"}, majors=(14, 15)),
        _ident("include", "include inc.conf", files={"inc.conf": "m sys pg\n"}, majors=m16),
        _ident("include", "include_if_exists missing.conf", "m a b", majors=m16),
        _ident("include", "include inc.conf", majors=(15,)),
    ]


def ident_cases():
    return [
        _ident("ident", "m sys pg"),
        _ident("ident", "m sys"),
        _ident("ident", "m"),
        _ident("ident", "m a,b pg"),
        _ident("ident", "m,n a pg"),
        _ident("ident", "m a pg,x"),
        _ident("ident", "m a pg extra"),
        _ident("ident", "m \"a b\" \"p g\""),
        _ident("ident", "m a \\", "pg"),
        _ident("ident", "m @users pg", files={"users": "alice\n"}),
        _ident("ident", "m @users pg", files={"users": "alice bob\n"}),
        _ident("ident", "m @missing pg"),
        _ident("ident", "m a +group"),
        _ident("ident", "m a all"),
        _ident("ident", "# only comments"),
        _ident("ident", ""),
        _ident("ident", "m /^(.*)$ \\1"),
        _ident("ident", "m " + "y" * 300 + " pg"),
    ]


def random_cases(seed=13, count=120):
    """Seeded lines mixing the tokens of every family."""
    rng = random.Random(seed)
    types = ["local", "host", "hostssl", "hostnossl", "hostgssenc", "hostnogssenc", "hots"]
    dbs = ["all", "sameuser", "replication", "db1", "\"all\"", "db1,db2", "/^d", "+g", "@x"]
    users = ["all", "u1", "+admins", "\"all\"", "u1,u2", "/^u"]
    addrs = ["127.0.0.1/32", "10.0.0.0/8", "::1/128", "all", "samenet", "host.example", "10.0.0.1", "1.2.3.4/40"]
    methods = ["trust", "reject", "scram-sha-256", "md5", "peer", "ident", "cert", "password", "radius", "nope"]
    opts = ["", "map=m", "clientcert=verify-ca", "radiusservers=127.0.0.1", "radiussecrets=s", "bad", "ldapport=1"]
    cases = []
    for _ in range(count):
        lines = []
        for _ in range(rng.randint(1, 4)):
            t = rng.choice(types)
            parts = [t, rng.choice(dbs), rng.choice(users)]
            if t != "local" or rng.random() < 0.15:
                parts.append(rng.choice(addrs))
            if rng.random() > 0.05:
                parts.append(rng.choice(methods))
            parts += [o for o in (rng.choice(opts), rng.choice(opts)) if o]
            lines.append(" ".join(parts))
        cases.append(_hba("random", *lines, files={"x": "db3\n"}))
    return cases


def build_cases():
    cases = (tokenizer_cases() + at_file_cases() + field_cases() + address_cases() + method_cases() +
             option_cases() + regex_cases() + include_cases() + ident_cases() + random_cases())
    for i, c in enumerate(cases):
        c.id = f"{c.cls}-{i:04d}"
    return cases
