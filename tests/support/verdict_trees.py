"""The inputs of the one-verdict properties (tests/integration/test_verdicts.py and
tests/lsp/test_verdicts.py): every fixture tree of tests/fixtures and every file of the
real-world corpus, as (name, root or None, [files]) with paths relative to the repository.
A root is a data directory to check whole; a flat directory of root files has none."""
import glob
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "real-world")


def _rel(path):
    return os.path.relpath(path, ROOT)


def _files_below(d):
    return sorted(_rel(os.path.join(b, f)) for b, _, fs in os.walk(d) for f in fs)


def trees():
    out = []
    for d in sorted(glob.glob(os.path.join(FIXTURES, "golden", "*"))):
        out.append((_rel(d), _rel(d), _files_below(d)))
    for d in (sorted(glob.glob(os.path.join(FIXTURES, "rules", "*.datadir")))
              + sorted(glob.glob(os.path.join(FIXTURES, "sql", "*.cluster")))):
        out.append((_rel(d), _rel(d), _files_below(d)))
    verdicts = os.path.join(FIXTURES, "verdicts")
    for name, root in [("hba-includes", "hba-includes"), ("auto-conf-override", "auto-conf-override"),
                       ("included-tuning", "included-tuning/data"),
                       ("package-layout", "package-layout/etc/postgresql/16/main"),
                       ("any-name", "any-name/prod-postgresql.conf")]:
        out.append((_rel(os.path.join(verdicts, name)), _rel(os.path.join(verdicts, root)),
                    [f for f in _files_below(os.path.join(verdicts, name))]))
    flat = [_rel(p) for p in sorted(glob.glob(os.path.join(FIXTURES, "rules", "*.conf")))]
    flat += _files_below(os.path.join(FIXTURES, "rules", "includes.d"))
    out.append(("tests/fixtures/rules", None, flat))
    out.append(("tests/fixtures/sql", None, [_rel(p) for p in sorted(glob.glob(os.path.join(FIXTURES, "sql", "*.sql")))]))
    corpus = sorted(p for p in glob.glob(os.path.join(CORPUS, "*")) if not p.endswith((".tsv", ".md")))
    out.append(("corpus", None, [_rel(p) for p in corpus]))
    return out
