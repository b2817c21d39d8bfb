#!/usr/bin/env python3
"""Command-line and .pgconflint.toml errors: exit code 2 and one line on stderr.

Profile facts are quantities with postgresql.conf's units (case-sensitive): `--ram`
needs a memory unit, and no fact takes NaN, infinity or a number that overflows. The
same values in a .pgconflint.toml [profile] table give the same refusal with the
file and line, and TOML numbers are read by their own type (a float `pg-version`
or `ram = 1e300` is an error, never an out-of-range conversion).

Usage:
    python3 tests/integration/test_cli_errors.py [-v]
Environment: PGCONFLINT (binary, default build/pgconflint).
"""
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PGCONFLINT = os.environ.get("PGCONFLINT", os.path.join(ROOT, "build", "pgconflint"))
EXIT_USAGE = 2


def run(*args, cwd=None):
    return subprocess.run([PGCONFLINT, *args], capture_output=True, text=True, timeout=60, cwd=cwd)


class CliErrorTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.conf = os.path.join(self.tmp.name, "postgresql.conf")
        with open(self.conf, "w") as f:
            f.write("work_mem = '64MB'\n")

    def tearDown(self):
        self.tmp.cleanup()

    def assertUsageError(self, proc, *fragments):
        """Exit code 2, nothing on stdout, exactly one line on stderr holding each fragment."""
        self.assertEqual(proc.returncode, EXIT_USAGE, proc.stderr)
        self.assertEqual(proc.stdout, "")
        lines = proc.stderr.splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertTrue(lines[0].startswith("pgconflint: error: "), lines[0])
        for fragment in fragments:
            self.assertIn(fragment, lines[0])

    def each_command(self, *flags):
        """The same profile flags given to recommend, check and show."""
        yield run("recommend", "--no-config", "--cpus", "4", *flags)
        yield run("check", "--no-config", *flags, self.conf)
        yield run("show", "--no-config", *flags, self.conf)

    def test_ram_nan_inf_and_no_unit(self):
        for value, fragment in [("nan", "not a number"), ("inf", "not a number"), ("-inf", "not a number"),
                                ("1e999GB", "number too large"), ("1e300TB", "number too large"),
                                ("16", "needs a unit: B, kB, MB, GB or TB"), ("0GB", "positive")]:
            for proc in self.each_command("--ram", value):
                with self.subTest(ram=value, args=proc.args):
                    self.assertUsageError(proc, f'invalid ram "{value}"', fragment)

    def test_ram_beyond_a_64_bit_byte_count_is_refused(self):
        # Issue 28: the README promises overflowing values are refused; 1e30GB is finite.
        for value in ["1e30GB", "8388609TB"]:
            for proc in self.each_command("--ram", value):
                with self.subTest(ram=value, args=proc.args):
                    self.assertUsageError(proc, f'invalid ram "{value}"', "2^63 bytes")

    def test_cpus_are_whole_and_a_fraction_says_why(self):
        proc = run("recommend", "--no-config", "--ram", "16GB", "--cpus", "4.5")
        self.assertUsageError(proc, 'invalid cpus "4.5"', "CPUs are whole", "--cpus 4")
        proc = run("recommend", "--no-config", "--ram", "16GB", "--cpus", "four")
        self.assertUsageError(proc, 'invalid cpus "four"', "a whole number of CPUs")

    def test_small_machines_from_256mb(self):
        for ram in ["256MB", "512MB", "768MB"]:
            proc = run("recommend", "--no-config", "--ram", ram, "--cpus", "2", "--format", "conf")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertIn("shared_buffers = ", proc.stdout)
        proc = run("recommend", "--no-config", "--ram", "200MB", "--cpus", "2")
        self.assertUsageError(proc, "at least 256MB of RAM")

    def test_detect_reads_this_machine_and_flags_still_win(self):
        proc = run("recommend", "--no-config", "--detect", "--format", "json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("detected on this machine (--detect): RAM: ", proc.stdout)
        self.assertIn("detected on this machine (--detect): CPUs: ", proc.stdout)
        proc = run("recommend", "--no-config", "--detect", "--ram", "4GB", "--cpus", "3", "--format", "json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn('"ram": "4GB"', proc.stdout)
        self.assertIn('"cpus": 3', proc.stdout)
        self.assertIn("not used: --ram given", proc.stdout)
        self.assertIn("not used: --cpus given", proc.stdout)

    def test_units_are_case_sensitive_as_in_postgresql_conf(self):
        for value in ["16gb", "16G", "16Gb", "16KB", "16 GB"]:
            for proc in self.each_command("--ram", value):
                with self.subTest(ram=value, args=proc.args):
                    self.assertUsageError(proc, f'invalid ram "{value}"', "B, kB, MB, GB or TB", "case-sensitive")

    def test_memory_model_knobs_refuse_non_finite_numbers(self):
        for flag in ["--headroom", "--nodes-per-query"]:
            for value in ["nan", "inf", "-inf", "1e999", "0.1kB"]:
                for proc in self.each_command("--ram", "16GB", flag, value):
                    with self.subTest(flag=flag, value=value, args=proc.args):
                        self.assertUsageError(proc, f'invalid {flag[2:]} "{value}"')

    def test_valid_profile_still_works(self):
        proc = run("recommend", "--no-config", "--ram", "16GB", "--cpus", "4", "--format", "conf")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("shared_buffers = '4GB'", proc.stdout)

    def write_config(self, text):
        path = os.path.join(self.tmp.name, ".pgconflint.toml")
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_project_config_numbers(self):
        cases = [
            ("[profile]\nram = nan\n", ':2: invalid ram "nan": not a number'),
            ("[profile]\nram = inf\n", ':2: invalid ram "inf": not a number'),
            ("[profile]\nram = 1e300\n", ':2: invalid ram "1e+300": needs a unit'),
            ("[profile]\nram = 16\n", ':2: invalid ram "16": needs a unit: B, kB, MB, GB or TB'),
            ('[profile]\nram = "16gb"\n', ':2: invalid ram "16gb": unknown unit "gb"'),
            ("[profile]\nram = \"16GB\"\nheadroom = nan\n", ':3: invalid headroom "nan": not a number'),
            ("[profile]\nnodes-per-query = -inf\n", ':2: invalid nodes-per-query "-inf": not a number'),
            ("pg-version = 1e300\n", ":1: pg-version must be one of 14..18"),
            ("pg-version = 17.0\n", ":1: pg-version must be one of 14..18"),
            ("pg-version = 4294967314\n", ":1: pg-version must be one of 14..18"),
            ("pg-version = -9223372036854775808\n", ":1: pg-version must be one of 14..18"),
        ]
        for text, fragment in cases:
            path = self.write_config(text)
            for proc in [run("check", "--config", path, self.conf),
                         run("recommend", "--config", path, "--ram", "16GB", "--cpus", "4")]:
                with self.subTest(config=text, args=proc.args):
                    self.assertUsageError(proc, path + fragment)

    def test_project_config_float_profile_values(self):
        path = self.write_config('[profile]\nram = "8GB"\ncpus = 4\nheadroom = 0.25\nnodes-per-query = 3\n')
        proc = run("recommend", "--config", path, "--format", "json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("25% of RAM kept for the OS (--nodes-per-query, --headroom)", proc.stdout)
        self.assertIn("3 sort/hash nodes per backend", proc.stdout)


if __name__ == "__main__":
    unittest.main()
