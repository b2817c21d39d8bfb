#!/usr/bin/env python3
"""The machine running pgconflint does not leak into the verdict.

The real-world corpus (../shared/corpus) and a few cases of our own are checked twice
under the corpus' acceptance profile: on this machine as it is (Debian's locales-all and
tzdata installed), and in a mount namespace where empty file systems hide the locale data
(/usr/lib/locale) and the time zone database (/usr/share/zoneinfo), as on a slim CI image.
The findings must be the same but for the host-dependent warnings themselves ("... depends
on the server's host"): such a value is taken as written, so derived values (the resolved
io_max_concurrency behind PGC404) and the other rules keep the file's other settings.
With --server-host yes the machine is the server's host: the value is refused (an error).

Needs root for the mount namespace (unshare -m), as CI runs the suites.
Usage: python3 tests/integration/test_host_independence.py [-v]
"""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "real-world")
PROFILE = ["--ram", "16GB", "--cpus", "4", "--storage", "sata-ssd", "--workload", "mixed"]
HIDDEN = ["/usr/lib/locale", "/usr/share/zoneinfo"]

# Our own: the PGC404 that an unknown lc_messages used to turn into PGC701, a time zone.
CASES = {
    "locale.conf": "lc_messages = 'en_US.UTF-8'\nlc_monetary = 'de_DE.UTF-8'\neffective_io_concurrency = 200\n"
                   "autovacuum_max_workers = 8\n",
    "zone.conf": "timezone = 'Europe/Paris'\nlog_timezone = 'America/New_York'\nwork_mem = '256MB'\n"
                 "max_connections = 400\n",
}


def hidden_command(argv):
    """argv run where the locale data and the time zone database are empty directories."""
    mounts = " && ".join(f"mount -t tmpfs -o size=1m tmpfs {d}" for d in HIDDEN)
    quoted = " ".join("'" + a.replace("'", "'\\''") + "'" for a in argv)
    return ["unshare", "-m", "--propagation", "private", "sh", "-c", f"{mounts} && exec {quoted}"]


def findings(out):
    """FILE:LINE: CODE for every finding but the host-dependent warnings."""
    keep = [d for d in out["diagnostics"] if "depends on the server's host" not in d["message"]]
    return sorted(f"{os.path.basename(d['file'])}:{d['line']}: {d['code']}" for d in keep)


class HostIndependenceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.isdir(CORPUS):
            raise RuntimeError(f"corpus not found at {CORPUS}")
        if os.geteuid() != 0 or shutil.which("unshare") is None:
            raise RuntimeError("this suite hides the locale data in a mount namespace: run it as root")
        probe = subprocess.run(hidden_command(["locale", "-a"]), capture_output=True, text=True)
        if probe.returncode != 0:
            raise RuntimeError(f"cannot hide the locale data (unshare -m): {probe.stderr}")
        cls.installed = sorted(set(probe.stdout.split()))
        cls.dir = tempfile.mkdtemp(prefix="pgconflint-host-")
        for name, text in CASES.items():
            with open(os.path.join(cls.dir, name), "w") as f:
                f.write(text)
        cls.inputs = sorted(os.path.join(CORPUS, f) for f in os.listdir(CORPUS) if not f.endswith((".tsv", ".md")))
        cls.inputs += sorted(os.path.join(cls.dir, f) for f in CASES)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def check(self, *args, hidden=False):
        argv = [PGCONFLINT, "check", "--no-config", "--format", "json", "--fail-on", "never", *PROFILE, *args]
        r = subprocess.run(hidden_command(argv) if hidden else argv, capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        return json.loads(r.stdout)

    def test_the_hidden_host_has_no_locales(self):
        # Only what glibc has built in remains (C, POSIX, C.utf8).
        self.assertTrue(all(name.lower().startswith(("c", "posix")) for name in self.installed), self.installed)

    def test_findings_do_not_depend_on_the_locales_installed(self):
        here = self.check(*self.inputs)
        bare = self.check(*self.inputs, hidden=True)
        self.assertEqual(findings(bare), findings(here))
        warned = [d for d in bare["diagnostics"] if "depends on the server's host" in d["message"]]
        self.assertGreater(len(warned), 20, "the corpus sets locales and time zones this host lacks")
        for d in warned:
            self.assertEqual((d["severity"], d["outcome"]), ("warning", "advisory"), d)
        # The derived values keep the file's other settings.
        case = [f for f in findings(bare) if f.startswith("locale.conf")]
        self.assertIn("locale.conf:3: PGC404", case)

    def test_on_the_servers_host_an_unknown_locale_is_refused(self):
        out = self.check("--server-host", "yes", os.path.join(self.dir, "locale.conf"), hidden=True)
        refused = [d for d in out["diagnostics"] if d["code"] in ("PGC201",)]
        self.assertEqual([(d["line"], d["outcome"]) for d in refused], [(1, "refuses-start"), (2, "refuses-start")])


if __name__ == "__main__":
    unittest.main()
