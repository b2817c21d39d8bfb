#!/usr/bin/env python3
"""The release artifacts (scripts/release.sh), made from the binary under test.

scripts/release.sh --binary x86_64=PGCONFLINT packages the built binary as a release does
(the builds themselves, x86_64 and the aarch64 cross build under qemu, are the script's
own; README "Releases"):
  * dist/ holds the tarball, the .deb and SHA256SUMS, and SHA256SUMS matches each file;
  * the tarball holds the binary, the man page and the bash, zsh and fish completions the
    binary writes, and README.md, under one top folder, with fixed owners and times;
  * the binary alone in an empty directory used as a chroot (no C library, no loader)
    checks a postgresql.conf with a syntax error: PGC001, exit 1 (as root);
  * the .deb puts everything in Debian's places, and lintian reports no error;
  * packaging the same binary twice gives the same SHA256SUMS.

Usage: python3 tests/integration/test_release.py [-v]
Environment: PGCONFLINT (a Release binary: linked statically).
"""
import gzip
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
RELEASE = os.path.join(ROOT, "scripts", "release.sh")
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
from release_server import project_version  # noqa: E402

VERSION = project_version()
NAME = f"pgconflint-{VERSION}-linux-x86_64"
DEB = f"pgconflint_{VERSION}_amd64.deb"


def package(out):
    """Runs release.sh on the binary under test into `out`; its SHA256SUMS text."""
    r = subprocess.run([RELEASE, "--no-setup", "--no-vsix", "--arch", "x86_64", "--binary", f"x86_64={PGCONFLINT}",
                        "--out", out], capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        raise AssertionError(f"release.sh exited {r.returncode}:\n{r.stderr[-3000:]}")
    with open(os.path.join(out, "SHA256SUMS")) as f:
        return f.read()


def tool(*args):
    return subprocess.run([PGCONFLINT, *args], capture_output=True, check=True).stdout


class ReleaseTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pgconflint-release-")
        cls.dist = os.path.join(cls.tmp, "dist")
        cls.sums = package(cls.dist)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_sha256sums_match_every_file(self):
        files = sorted(os.listdir(self.dist))
        self.assertEqual(files, sorted([f"{NAME}.tar.gz", DEB, "SHA256SUMS"]))
        listed = {}
        for line in self.sums.splitlines():
            digest, name = line.split()
            listed[name] = digest
        self.assertEqual(sorted(listed), sorted([f"{NAME}.tar.gz", DEB]))
        for name, digest in listed.items():
            with open(os.path.join(self.dist, name), "rb") as f:
                self.assertEqual(hashlib.sha256(f.read()).hexdigest(), digest, name)

    def test_tarball_contents(self):
        with tarfile.open(os.path.join(self.dist, f"{NAME}.tar.gz")) as t:
            members = {m.name: m for m in t.getmembers()}
            files = sorted(n for n, m in members.items() if m.isfile())
            self.assertEqual(files, sorted(f"{NAME}/{p}" for p in (
                "pgconflint", "pgconflint.1.gz", "README.md", "completions/pgconflint.bash",
                "completions/_pgconflint", "completions/pgconflint.fish")))
            for m in members.values():
                self.assertEqual((m.uid, m.gid, m.uname, m.gname), (0, 0, "", ""), m.name)
                self.assertTrue(m.name == NAME or m.name.startswith(NAME + "/"), m.name)
            self.assertEqual(members[f"{NAME}/pgconflint"].mode, 0o755)
            man = gzip.decompress(t.extractfile(f"{NAME}/pgconflint.1.gz").read())
            self.assertEqual(man, tool("man"))
            for shell, path in (("bash", "pgconflint.bash"), ("zsh", "_pgconflint"), ("fish", "pgconflint.fish")):
                self.assertEqual(t.extractfile(f"{NAME}/completions/{path}").read(), tool("completions", shell))
            binary = t.extractfile(f"{NAME}/pgconflint").read()
        kind = subprocess.run(["file", "-b", "-"], input=binary, capture_output=True).stdout.decode()
        self.assertIn("statically linked", kind)
        self.assertIn("stripped", kind)
        self.assertNotIn("not stripped", kind)

    @unittest.skipUnless(os.geteuid() == 0, "chroot needs root")
    def test_binary_alone_in_an_empty_chroot(self):
        jail = os.path.join(self.tmp, "jail")
        os.makedirs(jail)
        with tarfile.open(os.path.join(self.dist, f"{NAME}.tar.gz")) as t:
            with open(os.path.join(jail, "pgconflint"), "wb") as f:
                f.write(t.extractfile(f"{NAME}/pgconflint").read())
        os.chmod(os.path.join(jail, "pgconflint"), 0o755)
        # At the chroot's "/": its data directory is "/" (workspace_test.cc has the case too).
        with open(os.path.join(jail, "postgresql.conf"), "w") as f:
            f.write("shared_buffers = '1GB'\nwork_mem = = 4MB\n")
        self.assertEqual(sorted(os.listdir(jail)), ["pgconflint", "postgresql.conf"])
        r = subprocess.run(["chroot", jail, "/pgconflint", "check", "--no-config", "--format", "concise",
                            "/postgresql.conf"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertRegex(r.stdout, r"^postgresql\.conf:2:12: error: syntax error near token \"=\" \[PGC001\]")
        # Live mode in the chroot: no libpq to load, said on one line, exit 3.
        r = subprocess.run(["chroot", jail, "/pgconflint", "check", "--no-config", "--live",
                            "host=127.0.0.1 port=1"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("libpq.so.5", r.stderr)

    def test_deb_layout_and_lintian(self):
        deb = os.path.join(self.dist, DEB)
        control = subprocess.run(["dpkg-deb", "-f", deb], capture_output=True, text=True, check=True).stdout
        self.assertIn(f"Version: {VERSION}\n", control)
        self.assertIn("Architecture: amd64\n", control)
        listing = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True, text=True, check=True).stdout
        paths = {line.split()[-1].lstrip(".") for line in listing.splitlines()}
        for p in ("/usr/bin/pgconflint", "/usr/share/man/man1/pgconflint.1.gz",
                  "/usr/share/bash-completion/completions/pgconflint", "/usr/share/zsh/vendor-completions/_pgconflint",
                  "/usr/share/fish/vendor_completions.d/pgconflint.fish", "/usr/share/doc/pgconflint/copyright",
                  "/usr/share/pgconflint/editors/vscode/package.json", "/usr/share/pgconflint/editors/emacs/pgconflint.el"):
            self.assertIn(p, paths)
        for line in listing.splitlines():
            self.assertIn(" root/root ", line)
        if not shutil.which("lintian"):
            self.skipTest("lintian is not installed (scripts/setup.sh --tests installs it)")
        r = subprocess.run(["lintian", "--no-tag-display-limit", deb], capture_output=True, text=True)
        errors = [line for line in r.stdout.splitlines() if line.startswith("E:")]
        self.assertEqual(errors, [], r.stdout)

    def test_packaging_is_reproducible(self):
        again = os.path.join(self.tmp, "again")
        self.assertEqual(package(again), self.sums)



class WorkflowsTest(unittest.TestCase):
    """.github/workflows: the release on a tag runs scripts/release.sh and publishes dist/; CI
    runs the README's test command. Parsed as YAML (PyYAML reads the key `on` as True)."""

    def load(self, name):
        import yaml
        with open(os.path.join(ROOT, ".github", "workflows", name)) as f:
            doc = yaml.safe_load(f)
        return doc, doc.get("on", doc.get(True))

    def runs(self, job):
        return "\n".join(step.get("run", "") for step in job["steps"])

    def test_release_workflow(self):
        doc, on = self.load("release.yml")
        self.assertEqual(on["push"]["tags"], ["v*"])
        self.assertEqual(doc["permissions"]["contents"], "write")
        job = doc["jobs"]["release"]
        self.assertEqual(job["container"], "debian:12")
        self.assertIn("scripts/release.sh", self.runs(job))
        uses = [step.get("uses", "") for step in job["steps"]]
        self.assertTrue(any(u.startswith("actions/checkout@") for u in uses), uses)
        publish = [step for step in job["steps"] if step.get("uses", "").startswith("softprops/action-gh-release@")]
        self.assertEqual(publish[0]["with"]["files"], "dist/*")

    def test_ci_workflow_runs_the_test_command(self):
        doc, on = self.load("ci.yml")
        self.assertIn("push", on)
        self.assertIn("pull_request", on)
        job = doc["jobs"]["test"]
        self.assertLessEqual(job["timeout-minutes"], 90)
        self.assertIn(".ci/run", self.runs(job))
        with open(os.path.join(ROOT, ".ci", "run")) as f:
            self.assertIn("scripts/test.sh", f.read())


if __name__ == "__main__":
    unittest.main()
