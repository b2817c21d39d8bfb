#!/usr/bin/env python3
"""The CI formats of `pgconflint check` against what their consumers require.

* SARIF: every golden fixture's report validates with Microsoft's SARIF multitool
  (`validate --rule-kind "Sarif;Gh"`: no error or warning, and no note but the two that
  need the network or the repository's URL), and against the SARIF 2.1.0 JSON schema the
  multitool's npm package ships.
* GitLab Code Quality and reviewdog rdjson/rdjsonl: the fields their documentation
  requires, on every fixture.
* Fingerprints (SARIF partialFingerprints, GitLab fingerprint) are unchanged after lines
  are inserted above the findings.
* `--output FMT[=PATH]`: several formats in one run; an unwritable PATH exits 3 and leaves
  nothing half-written; the github format appends the markdown summary to
  $GITHUB_STEP_SUMMARY.
* ci/problem-matcher.json matches every line of the golden concise outputs, with the
  fields the JSON goldens give.
* action.yml and ci/gitlab-template.yml parse, and their commands run on a fixture
  repository (GitHub's `gh` replaced by a recorder).

Usage: python3 tests/integration/test_ci_formats.py [-v]
Environment: PGCONFLINT (binary), SARIF_MULTITOOL_DIR (default build/sarif-multitool, where
scripts/setup.sh --tests installs the npm package).
Needs: /usr/bin/python3 with python3-jsonschema and python3-yaml (scripts/setup.sh --tests).
"""
import json
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import unittest
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "golden")
GOLDEN = os.path.join(ROOT, "tests", "golden")
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
from release_server import ReleaseServer, project_version  # noqa: E402
from scripted_repo import git  # noqa: E402

PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
MULTITOOL_DIR = os.environ.get("SARIF_MULTITOOL_DIR", os.path.join(ROOT, "build", "sarif-multitool"))
PACKAGE = os.path.join(MULTITOOL_DIR, "node_modules", "@microsoft", "sarif-multitool-linux")

sys.path.insert(0, HERE)
from test_golden import CASES  # noqa: E402

# The one multitool note that cannot pass here: SARIF2006 fetches every URI (the test
# machine has no network). SARIF2003 (versionControlProvenance) passes with the variables
# a GitHub Actions job sets (CI_ENV below).
ALLOWED_NOTES = {"SARIF2006"}
CI_ENV = {"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "pgconflint/pgconflint",
          "GITHUB_SHA": "0123456789abcdef0123456789abcdef01234567", "GITHUB_REF": "refs/heads/main"}
GITLAB_SEVERITIES = {"info", "minor", "major", "critical", "blocker"}
RDJSON_SEVERITIES = {"UNKNOWN_SEVERITY", "ERROR", "WARNING", "INFO"}


def check(args, cwd=FIXTURES, env=None, stdin=None, preexec=None):
    r = subprocess.run([PGCONFLINT, "check", "--fail-on", "never", "--color", "never"] + args, cwd=cwd,
                       capture_output=True, env=dict(os.environ, **(env or {})), timeout=120, input=stdin,
                       preexec_fn=preexec)
    return r


def render(fmt, name, env=None):
    args, paths = CASES[name]
    r = check(args + ["--format", fmt] + paths, env=env)
    if r.returncode != 0:
        raise AssertionError(f"{name} {fmt}: exit {r.returncode}: {r.stderr.decode()}")
    return r.stdout.decode("utf-8")




class SarifTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        tool = os.path.join(PACKAGE, "Sarif.Multitool")
        if not os.path.isfile(tool):
            raise RuntimeError(f"{tool} missing: run scripts/setup.sh --tests (npm @microsoft/sarif-multitool)")
        mode = os.stat(tool).st_mode
        if not mode & stat.S_IXUSR:
            os.chmod(tool, mode | stat.S_IXUSR)
        cls.tool = tool
        cls.work = tempfile.mkdtemp(prefix="pgconflint-sarif-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_multitool_reports_nothing(self):
        # One multitool run over every fixture's SARIF (its start-up is most of its time).
        files = {}
        for name in CASES:
            files[name] = os.path.join(self.work, f"{name}.sarif")
            with open(files[name], "w", encoding="utf-8") as f:
                f.write(render("sarif", name, env=CI_ENV))
        log = os.path.join(self.work, "validation.log.sarif")
        r = subprocess.run([self.tool, "validate", "--rule-kind", "Sarif;Gh", "--level", "Error;Warning;Note",
                            "-o", log, *files.values()], capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, DOTNET_CLI_TELEMETRY_OPTOUT="1"))
        # The multitool exits 0 even when it finds problems: its log is the verdict.
        self.assertTrue(os.path.exists(log), f"no validation log:\n{r.stdout}\n{r.stderr}")
        with open(log, encoding="utf-8") as f:
            run = json.load(f)["runs"][0]
        self.assertTrue(all(i.get("executionSuccessful") for i in run["invocations"]), r.stdout)
        results = run.get("results", [])
        for name, path in files.items():
            with self.subTest(fixture=name):
                uri = "file://" + urllib.parse.quote(path)
                problems = [f"{x['ruleId']} {x.get('level', 'warning')}: {x['message']}" for x in results
                            if x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uri
                            and not (x.get("level") == "note" and x["ruleId"] in ALLOWED_NOTES)]
                self.assertEqual(problems, [], f"{name}.sarif:\n{r.stdout}")

    def test_schema(self):
        import jsonschema
        with open(os.path.join(PACKAGE, "sarif-2.1.0.json"), encoding="utf-8") as f:
            schema = json.load(f)
        validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
        for name in CASES:
            with self.subTest(fixture=name):
                errors = [f"{'/'.join(map(str, e.path))}: {e.message}"
                          for e in validator.iter_errors(json.loads(render("sarif", name)))]
                self.assertEqual(errors, [])


class DocumentedFieldsTest(unittest.TestCase):
    def test_gitlab_code_quality(self):
        for name in CASES:
            with self.subTest(fixture=name):
                issues = json.loads(render("gitlab", name))
                self.assertIsInstance(issues, list)
                prints = [i["fingerprint"] for i in issues]
                self.assertEqual(len(prints), len(set(prints)), "fingerprints unique in the report")
                for i in issues:
                    for key in ("description", "check_name", "fingerprint", "severity", "location"):
                        self.assertIn(key, i)
                    self.assertTrue(i["description"].startswith(i["check_name"] + " "), i)
                    self.assertIn(i["severity"], GITLAB_SEVERITIES)
                    self.assertFalse(os.path.isabs(i["location"]["path"]), i)
                    self.assertIsInstance(i["location"]["lines"]["begin"], int)

    def test_rdjson(self):
        for name in CASES:
            with self.subTest(fixture=name):
                doc = json.loads(render("rdjson", name))
                lines = [json.loads(x) for x in render("rdjsonl", name).splitlines()]
                self.assertEqual(doc["diagnostics"], lines)
                for d in lines:
                    self.assertIsInstance(d["message"], str)
                    self.assertIsInstance(d["location"]["path"], str)
                    start = d["location"]["range"]["start"]
                    self.assertGreaterEqual(start["line"], 1)
                    self.assertGreaterEqual(start["column"], 1)
                    self.assertIn(d["severity"], RDJSON_SEVERITIES)
                    for s in d.get("suggestions", []):
                        self.assertIn("start", s["range"])
                        self.assertIsInstance(s["text"], str)

    def test_rdjson_columns_are_bytes(self):
        # Line 3 of the non-ASCII fixture: "extra" after 'été 🚀' is byte column 33.
        doc = json.loads(render("rdjson", "non-ascii"))
        syntax = [d for d in doc["diagnostics"] if d["code"]["value"] == "PGC001"]
        self.assertEqual(syntax[0]["location"]["range"]["start"], {"line": 3, "column": 33})


class FingerprintTest(unittest.TestCase):
    def test_stable_when_lines_are_inserted_above(self):
        with tempfile.TemporaryDirectory() as d:
            shutil.copytree(os.path.join(FIXTURES, "data-directory"), os.path.join(d, "data"))

            def prints():
                sarif = json.loads(check(["--format", "sarif", "data"], cwd=d).stdout)
                gitlab = json.loads(check(["--format", "gitlab", "data"], cwd=d).stdout)
                return (sorted(r["partialFingerprints"]["pgconflint/v1"] for r in sarif["runs"][0]["results"]),
                        sorted(i["fingerprint"] for i in gitlab))
            before = prints()
            self.assertTrue(before[0] and before[1])
            for rel in ("postgresql.conf", "conf.d/01-memory.conf", "postgresql.auto.conf"):
                path = os.path.join(d, "data", rel)
                with open(path, "rb") as f:
                    text = f.read()
                with open(path, "wb") as f:
                    f.write(b"# inserted above\n\n# and again\n" + text)
            self.assertEqual(prints(), before)


class OutputTest(unittest.TestCase):
    def test_several_formats_in_one_run(self):
        with tempfile.TemporaryDirectory() as d:
            sarif, junit = os.path.join(d, "r.sarif"), os.path.join(d, "r.xml")
            r = check(["--output", f"sarif={sarif}", "--output", "github", "--output", f"junit={junit}",
                       "oltp-tuned/postgresql.conf"])
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(json.load(open(sarif))["version"], "2.1.0")
            self.assertTrue(open(junit).read().startswith("<?xml"))
            out = r.stdout.decode()
            self.assertTrue(out.startswith("::"), out)
            self.assertEqual(out, render("github", "oltp-tuned"))

    def test_unwritable_path_is_exit_3(self):
        with tempfile.TemporaryDirectory() as d:
            open(os.path.join(d, "file"), "w").close()
            target = os.path.join(d, "file", "r.sarif")  # under a file: unwritable for root too
            r = check(["--output", f"sarif={target}", "oltp-tuned/postgresql.conf"])
            self.assertEqual(r.returncode, 3, r.stderr)
            self.assertIn(b"cannot write the sarif report", r.stderr)

    def test_a_write_failing_midway_keeps_the_previous_report(self):
        """A report is written to a temporary file that is renamed over the target: a write that
        fails once the temporary file exists (here at the file size limit, which binds root too)
        leaves the previous report whole and no temporary file beside it."""
        with tempfile.TemporaryDirectory() as d:
            target = os.path.join(d, "r.sarif")
            with open(target, "w") as f:
                f.write("previous report\n")

            def limit():
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of the signal
                resource.setrlimit(resource.RLIMIT_FSIZE, (256, 256))

            r = check(["--output", f"sarif={target}", "oltp-tuned/postgresql.conf"], preexec=limit)
            self.assertEqual(r.returncode, 3, r.stderr)
            self.assertIn(b"cannot write the sarif report", r.stderr)
            self.assertEqual(open(target).read(), "previous report\n")
            self.assertEqual(os.listdir(d), ["r.sarif"], "no temporary file left")
            full = check(["--output", f"sarif={target}", "oltp-tuned/postgresql.conf"])
            self.assertEqual(full.returncode, 0, full.stderr)
            self.assertGreater(os.path.getsize(target), 256, "the limit cut a report that is longer")

    def test_unknown_format_is_a_usage_error(self):
        r = check(["--output", "yaml=x", "oltp-tuned/postgresql.conf"])
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"unknown format", r.stderr)

    def test_github_step_summary(self):
        with tempfile.TemporaryDirectory() as d:
            summary = os.path.join(d, "summary.md")
            with open(summary, "w") as f:
                f.write("earlier step\n")
            r = check(["--format", "github", "oltp-tuned/postgresql.conf"], env={"GITHUB_STEP_SUMMARY": summary})
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(open(summary).read(), "earlier step\n" + render("markdown", "oltp-tuned"))


class ProblemMatcherTest(unittest.TestCase):
    def test_matches_the_concise_goldens(self):
        with open(os.path.join(ROOT, "ci", "problem-matcher.json")) as f:
            matcher = json.load(f)["problemMatcher"][0]
        pattern = matcher["pattern"][0]
        regexp = re.compile(pattern["regexp"])
        for name in CASES:
            with self.subTest(fixture=name):
                with open(os.path.join(GOLDEN, f"{name}.concise"), encoding="utf-8", errors="surrogateescape") as f:
                    lines = f.read().splitlines()
                with open(os.path.join(GOLDEN, f"{name}.json"), encoding="utf-8") as f:
                    diags = json.load(f)["diagnostics"]
                # Every diagnostic line matches, in order; other lines (a summary) do not.
                matched = [(line, regexp.match(line)) for line in lines if regexp.match(line)]
                self.assertEqual(len(matched), len(diags), lines)
                for (line, m), d in zip(matched, diags):
                    self.assertEqual(int(m.group(pattern["line"])), d["line"], line)
                    self.assertEqual(int(m.group(pattern["column"])), d["column"], line)
                    self.assertEqual(m.group(pattern["severity"]), d["severity"], line)
                    self.assertEqual(m.group(pattern["code"]), d["code"], line)
                    if "\\x" not in line:  # escaped control characters aside
                        self.assertEqual(m.group(pattern["file"]), d["file"], line)


def fixture_repository(d):
    """A git repository whose last commit is the data-directory golden fixture, and whose
    first one lacks the fixture's maintenance_work_mem line."""
    data = os.path.join(d, "data-directory")
    shutil.copytree(os.path.join(FIXTURES, "data-directory"), data)
    memory = os.path.join(data, "conf.d", "01-memory.conf")
    with open(memory) as f:
        text = f.read()
    with open(memory, "w") as f:
        f.write(text.replace("maintenance_work_mem = 1GB\n", ""))
    git(d, "init", "-q", "-b", "main")
    git(d, "add", "-A")
    git(d, "commit", "-qm", "base")
    with open(memory, "w") as f:
        f.write(text)
    git(d, "commit", "-qam", "change")


class ActionTest(unittest.TestCase):
    def test_action_steps_run_on_a_fixture_repository(self):
        import yaml
        with open(os.path.join(ROOT, "action.yml")) as f:
            action = yaml.safe_load(f)
        self.assertEqual(action["runs"]["using"], "composite")
        steps = {s["name"]: s for s in action["runs"]["steps"]}
        with tempfile.TemporaryDirectory() as d:
            fixture_repository(d)
            bindir = os.path.join(d, ".bin")
            os.mkdir(bindir)
            os.symlink(PGCONFLINT, os.path.join(bindir, "pgconflint"))
            # `gh` records its calls; listing comments finds none the first time.
            with open(os.path.join(bindir, "gh"), "w") as f:
                f.write("#!/bin/sh\necho \"$@\" >> \"$GH_LOG\"\n")
            os.chmod(os.path.join(bindir, "gh"), 0o755)
            env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"],
                       GITHUB_OUTPUT=os.path.join(d, ".out"), GITHUB_STEP_SUMMARY=os.path.join(d, ".summary"),
                       GITHUB_PATH=os.path.join(d, ".path"), GH_LOG=os.path.join(d, ".gh"),
                       GITHUB_ACTION_PATH=ROOT)
            inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
            inputs["paths"] = "data-directory"

            def run(name, extra):
                step = steps[name]
                step_env = dict(env)
                for k, v in (step.get("env") or {}).items():
                    m = re.fullmatch(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", str(v))
                    step_env[k] = inputs[m.group(1)] if m else extra.get(k, "")
                step_env.update(extra)
                return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                                      cwd=d, env=step_env, capture_output=True, text=True, timeout=300)
            r = run("Install pgconflint", {})
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("using ", r.stdout)
            r = run("Check", {})
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout, check(["--format", "github", "data-directory"], cwd=d).stdout.decode())
            self.assertIn("::warning file=data-directory/conf.d/01-memory.conf,line=5,", r.stdout)
            self.assertEqual(open(env["GITHUB_OUTPUT"]).read(), "exit-code=1\n")
            self.assertEqual(json.load(open(os.path.join(d, "pgconflint.sarif")))["version"], "2.1.0")
            self.assertIn("### pgconflint:", open(env["GITHUB_STEP_SUMMARY"]).read())
            base = git(d, "rev-parse", "HEAD~1").strip()
            r = run("Configuration plan", {"BASE_SHA": base, "PR_NUMBER": "7", "REPOSITORY": "o/r", "GH_TOKEN": "x"})
            self.assertEqual(r.returncode, 0, r.stderr)
            plan = open(os.path.join(d, "pgconflint-plan.md")).read()
            self.assertTrue(plan.startswith("<!-- pgconflint-plan -->\n"), plan)
            self.assertIn("maintenance_work_mem", plan)
            calls = open(env["GH_LOG"]).read().splitlines()
            self.assertTrue(calls[0].startswith("api --paginate repos/o/r/issues/7/comments"), calls)
            self.assertTrue(calls[1].startswith("api --method POST repos/o/r/issues/7/comments"), calls)
            r = run("Result", {"CODE": "1"})
            self.assertEqual(r.returncode, 1)


    def test_install_step_downloads_the_release(self):
        """No pgconflint on PATH: the release binary of the action's version, from
        PGCONFLINT_DOWNLOAD_URL (a release served from 127.0.0.1), checked and cached."""
        import yaml
        with open(os.path.join(ROOT, "action.yml")) as f:
            step = next(s for s in yaml.safe_load(f)["runs"]["steps"] if s["name"] == "Install pgconflint")
        with ReleaseServer(PGCONFLINT) as release, tempfile.TemporaryDirectory() as d:
            bindir = os.path.join(d, "bin")
            os.mkdir(bindir)
            for tool in ("dirname", "head"):
                os.symlink(shutil.which(tool), os.path.join(bindir, tool))
            os.symlink("/usr/bin/python3", os.path.join(bindir, "python3"))
            cache = os.path.join(d, "tool-cache")
            env = dict(os.environ, PATH=bindir, ACTION_PATH=ROOT, GITHUB_PATH=os.path.join(d, ".path"),
                       PGCONFLINT_CACHE=cache, PGCONFLINT_DOWNLOAD_URL=release.url)
            r = subprocess.run(["/bin/bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=d,
                               env=env, capture_output=True, text=True, timeout=300)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            installed = os.path.join(cache, f"{project_version()}-x86_64")
            self.assertIn(f"using {installed}/pgconflint: pgconflint {project_version()} (commit ", r.stdout)
            with open(env["GITHUB_PATH"]) as f:
                self.assertEqual(f.read(), installed + "\n")
            self.assertEqual(release.requests,
                             ["/dist/SHA256SUMS", f"/dist/pgconflint-{project_version()}-linux-x86_64.tar.gz"])


class GitlabTemplateTest(unittest.TestCase):
    def test_before_script_installs_the_release(self):
        """An image without pgconflint: the template clones the repository (here this one, at
        its branch), downloads the release binary of its version from PGCONFLINT_DOWNLOAD_URL (a
        release served from 127.0.0.1), checks it, and the job's script runs it."""
        import yaml
        branch = git(ROOT, "rev-parse", "--abbrev-ref", "HEAD").strip()
        if branch == "HEAD":
            self.skipTest("a detached checkout: the template clones a branch")
        with open(os.path.join(ROOT, "ci", "gitlab-template.yml")) as f:
            job = yaml.safe_load(f)[".pgconflint"]
        with ReleaseServer(PGCONFLINT) as release, tempfile.TemporaryDirectory() as d:
            fixture_repository(d)
            bindir = os.path.join(d, ".bin")
            os.mkdir(bindir)
            with open(os.path.join(bindir, "apt-get"), "w") as f:  # the image's packages: here already
                f.write("#!/bin/sh\nexit 0\n")
            os.chmod(os.path.join(bindir, "apt-get"), 0o755)
            for tool in ("git", "dirname", "sh", "head", "cat", "sed", "basename", "uname"):
                os.symlink(shutil.which(tool), os.path.join(bindir, tool))
            os.symlink("/usr/bin/python3", os.path.join(bindir, "python3"))
            env = dict(os.environ, PATH=bindir, CI_MERGE_REQUEST_DIFF_BASE_SHA="")
            env.update({k: str(v) for k, v in job["variables"].items()})
            env.update(PGCONFLINT_PATHS="data-directory", PGCONFLINT_REPOSITORY=ROOT, PGCONFLINT_REF=branch,
                       PGCONFLINT_HOME=os.path.join(d, ".pgconflint"), PGCONFLINT_CACHE=os.path.join(d, ".cache"),
                       PGCONFLINT_DOWNLOAD_URL=release.url)
            script = "\n".join(job["before_script"] + job["script"])
            r = subprocess.run(["/bin/bash", "-eo", "pipefail", "-c", script], cwd=d, env=env, capture_output=True,
                               text=True, timeout=300)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)  # the fixture's warnings
            self.assertIn("downloading pgconflint", r.stderr)
            self.assertEqual(release.requests,
                             ["/dist/SHA256SUMS", f"/dist/pgconflint-{project_version()}-linux-x86_64.tar.gz"])
            with open(os.path.join(GOLDEN, "data-directory.gitlab"), encoding="utf-8") as f:
                with open(os.path.join(d, "gl-code-quality-report.json"), encoding="utf-8") as g:
                    self.assertEqual(g.read(), f.read())

    def test_template_runs_on_a_fixture_repository(self):
        import yaml
        with open(os.path.join(ROOT, "ci", "gitlab-template.yml")) as f:
            template = yaml.safe_load(f)
        job = template[".pgconflint"]
        self.assertEqual(job["artifacts"]["reports"]["codequality"], "gl-code-quality-report.json")
        with tempfile.TemporaryDirectory() as d:
            fixture_repository(d)
            bindir = os.path.join(d, ".bin")
            os.mkdir(bindir)
            os.symlink(PGCONFLINT, os.path.join(bindir, "pgconflint"))
            env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"],
                       CI_MERGE_REQUEST_DIFF_BASE_SHA=git(d, "rev-parse", "HEAD~1").strip())
            env.update({k: str(v) for k, v in job["variables"].items()})
            env["PGCONFLINT_PATHS"] = "data-directory"
            script = "\n".join(job["before_script"] + job["script"])
            r = subprocess.run(["bash", "-eo", "pipefail", "-c", script], cwd=d, env=env, capture_output=True,
                               text=True, timeout=300)
            self.assertEqual(r.returncode, 1, r.stderr)  # warnings fail at the default fail-on
            # The golden of the same fixture, written from tests/fixtures/golden.
            with open(os.path.join(d, "gl-code-quality-report.json"), encoding="utf-8") as f:
                report = f.read()
            with open(os.path.join(GOLDEN, "data-directory.gitlab"), encoding="utf-8") as f:
                self.assertEqual(report, f.read())
            self.assertIn("<testsuites", open(os.path.join(d, "pgconflint-junit.xml")).read())
            self.assertIn("maintenance_work_mem", open(os.path.join(d, "pgconflint-plan.md")).read())
            self.assertIn("data-directory/conf.d/01-memory.conf:5:1: warning: ", r.stdout)


if __name__ == "__main__":
    unittest.main()
