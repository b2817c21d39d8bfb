#!/usr/bin/env python3
"""The manual page and the shell completions against --help.

`pgconflint man` and `pgconflint completions bash|zsh|fish` are written from the CLI's own
option definitions; this suite holds them to what `pgconflint COMMAND --help` prints:

* the manual page lists every subcommand of the top-level --help, and for each one exactly
  the options its --help lists (long and short names), with the choices --help shows;
  `man --warnings` renders it without a warning when man is installed;
* the bash completion passes `bash -n`, and, sourced in bash, completes a subcommand from its
  prefix, each subcommand's options from `--`, and an option's choices after it;
* the zsh and fish scripts name every subcommand and every long option, and the program's own
  --help and --version; each lists an option once, with --help's full description;
* --version names CMake's project version, the commit and the catalogs' PostgreSQL releases.

Usage: python3 tests/integration/test_cli_docs.py
Environment: PGCONFLINT (the binary).
"""
import json
import os
import re
import shutil
import subprocess
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))


def run(*args):
    r = subprocess.run([PGCONFLINT, *args], capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1"))
    if r.returncode != 0:
        raise AssertionError(f"pgconflint {' '.join(args)}: exit {r.returncode}\n{r.stderr}")
    return r.stdout


def subcommands():
    text = run("--help")
    section = text[text.index("Subcommands:"):]
    return re.findall(r"^  (\S+)\s", section, re.M)


def help_options(command):
    """{option name: [choices]} of `pgconflint COMMAND --help`."""
    out = {}
    for line in run(command, "--help").splitlines():
        m = re.match(r"^\s+((?:-\w,)?--[\w-]+)(?: (\S+))?", line)
        if not m:
            continue
        choices = re.search(r"\{([^}]*)\}", m.group(2) or "")
        for name in m.group(1).split(","):
            out[name] = choices.group(1).split(",") if choices else []
    return out


class ManualPageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.man = run("man")
        cls.commands = subcommands()

    def section(self, command):
        m = re.search(r'^\.SH "pgconflint ' + re.escape(command.replace("-", "\\-")) + r'"\n(.*?)(?=^\.SH )',
                      self.man, re.M | re.S)
        self.assertIsNotNone(m, f"no section for {command}")
        return m.group(1)

    def test_every_subcommand_and_option(self):
        self.assertGreaterEqual(len(self.commands), 12)
        for command in self.commands:
            with self.subTest(command=command):
                body = self.section(command).replace("\\-", "-")
                entries = re.findall(r"\\fB(-{1,2}[\w-]+)\\fR", body)
                want = help_options(command)
                self.assertEqual(set(entries), set(want), f"{command}: the manual's options differ from --help")
                # Each once: an option group's copy of -h/--help is not an option of its own.
                self.assertEqual(sorted(entries), sorted(set(entries)), f"{command}: an option listed twice")
                for name, choices in want.items():
                    if choices:
                        entry = body[body.index(f"\\fB{name}\\fR"):]
                        entry = entry[:entry.find(".TP") if ".TP" in entry else len(entry)]
                        self.assertIn("(one of: " + ", ".join(choices) + ")", entry, f"{command} {name}")

    def test_program_options_and_help_only_descriptions(self):
        """The program's own --help and --version have a section, and a description that --help
        completes at print time (--storage's storage types) is completed in the manual too."""
        m = re.search(r"^\.SH OPTIONS\n(.*?)(?=^\.SH )", self.man, re.M | re.S)
        self.assertIsNotNone(m, "no OPTIONS section")
        top = set(re.findall(r"\\fB(-{1,2}[\w-]+)\\fR", m.group(1).replace("\\-", "-")))
        self.assertEqual(top, {"-h", "--help", "--version"})
        line = next(l for l in run("check", "--help").splitlines() if l.strip().startswith("--storage "))
        types = line.split("Storage of the data directory: ", 1)[1].strip()
        self.assertIn(", nvme, ", types)
        self.assertIn("Storage of the data directory: " + types, self.section("check").replace("\\-", "-"))

    def test_man_renders_without_warnings(self):
        if not shutil.which("man"):
            self.skipTest("man is not installed")
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"pgconflint-{os.getpid()}.1")
        with open(path, "w") as f:
            f.write(self.man)
        try:
            r = subprocess.run(["man", "--warnings", "-l", path], capture_output=True, text=True,
                               env=dict(os.environ, MANPAGER="cat", MANWIDTH="100"))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stderr.strip(), "")
            self.assertIn("pgconflint recommend", r.stdout)
        finally:
            os.remove(path)


class VersionTest(unittest.TestCase):
    def test_version_names_the_release_the_commit_and_the_catalogs(self):
        """The version from CMake's project(VERSION), the commit, and each catalog's PostgreSQL
        release (knowledge/pg<major>.json), in the manual page's title too."""
        with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
            version = re.search(r"project\(pgconflint VERSION (\S+)", f.read()).group(1)
        first, catalogs = run("--version").splitlines()
        self.assertRegex(first, rf"^pgconflint {re.escape(version)} \(commit ([0-9a-f]{{12}}|unknown)\)$")
        releases = []
        for name in sorted(os.listdir(os.path.join(ROOT, "knowledge")), key=lambda n: (len(n), n)):
            if re.fullmatch(r"pg\d+\.json", name):
                with open(os.path.join(ROOT, "knowledge", name)) as f:
                    releases.append(json.load(f)["server_version"])
        self.assertEqual(catalogs, "PostgreSQL catalogs: " + " ".join(releases))
        self.assertIn(f'"pgconflint {version}"', run("man").splitlines()[0])


class CompletionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.commands = subcommands()
        cls.bash = run("completions", "bash")

    def complete(self, *words):
        """What the bash completion offers for the command line `pgconflint WORDS` (the last word
        being completed)."""
        script = (self.bash + "\nCOMP_WORDS=(pgconflint " + " ".join(f"'{w}'" for w in words) + ")\n"
                  f"COMP_CWORD={len(words)}\n_pgconflint\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n")
        r = subprocess.run(["bash", "--norc", "--noprofile"], input=script, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return set(r.stdout.split())

    def test_bash_syntax(self):
        r = subprocess.run(["bash", "-n"], input=self.bash, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_bash_completes_subcommands_options_and_choices(self):
        self.assertEqual(self.complete("rec"), {"recommend"})
        self.assertTrue(set(self.commands) <= self.complete(""))
        for command in self.commands:
            with self.subTest(command=command):
                options = help_options(command)
                longs = {n for n in options if n.startswith("--")}
                self.assertTrue(longs <= self.complete(command, "--"), command)
                for name, choices in options.items():
                    if choices and name.startswith("--"):
                        self.assertEqual(self.complete(command, name, ""), set(choices), f"{command} {name}")

    def test_profile_facts_complete_the_values_the_core_takes(self):
        """--storage, --workload, --os and --container take a fixed list of values that the core
        checks (not CLI11): --help states the list, the completions offer exactly it, and the
        core takes each value; the yes/no facts complete yes and no."""
        help_text = run("recommend", "--help").splitlines()
        for name in ("--storage", "--workload", "--os", "--container"):
            with self.subTest(option=name):
                line = next(l for l in help_text if l.strip().startswith(name + " "))
                listed = line.split(": ", 1)[1].strip().split(", ")
                self.assertGreaterEqual(len(listed), 3, line)
                self.assertEqual(self.complete("recommend", name, ""), set(listed))
                self.assertEqual(self.complete("check", name, ""), set(listed))
                for value in listed:
                    run("recommend", "--ram", "8GB", "--cpus", "4", name, value)
        for name in ("--io-uring", "--gssapi", "--storage-safe-without-fsync", "--baseline-measurement"):
            self.assertEqual(self.complete("check", name, ""), {"yes", "no"}, name)
        zsh = run("completions", "zsh")
        self.assertIn(":value:(oltp olap mixed web desktop)'", zsh)

    def test_zsh_and_fish_name_every_option(self):
        scripts = {shell: run("completions", shell) for shell in ("zsh", "fish")}
        self.assertTrue(scripts["zsh"].startswith("#compdef pgconflint\n"))
        for command in self.commands:
            for name in help_options(command):
                if not name.startswith("--"):
                    continue
                with self.subTest(command=command, option=name):
                    self.assertIn(f"'{name}[", scripts["zsh"])
                    self.assertRegex(scripts["fish"],
                                     rf"__fish_seen_subcommand_from {re.escape(command)}'.* -l {re.escape(name[2:])}\b")
        # The program's own options, where no subcommand was given yet.
        self.assertIn("'--version:", scripts["zsh"])
        self.assertRegex(scripts["fish"], r"-n 'not __fish_seen_subcommand_from [^']*' -l version\b")
        self.assertRegex(scripts["fish"], r"-n 'not __fish_seen_subcommand_from [^']*' -s h -l help\b")
        self.assertLessEqual({"--help", "--version"}, self.complete(""))
        for shell, script in scripts.items():
            with self.subTest(shell=shell):
                self.assertRegex(script, r"Storage of the data directory[: ]+hdd, sata-ssd, nvme")
        if shutil.which("zsh"):
            r = subprocess.run(["zsh", "-n"], input=scripts["zsh"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
        if shutil.which("fish"):
            r = subprocess.run(["fish", "-n"], input=scripts["fish"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)


if __name__ == "__main__":
    unittest.main()
