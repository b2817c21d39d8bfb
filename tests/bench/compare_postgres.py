#!/usr/bin/env python3
"""Whole-process `pgconflint check` time against `postgres -C` on the same file.

Issue target: `pgconflint check` at least 5x faster than `postgres -C`.

Two inputs:
  pg18_sample  PostgreSQL 18's postgresql.conf.sample (share/postgresql/), as
               shipped: almost all comments.
  tuned300     300 real settings: parameters of pg_settings of a running
               PostgreSQL 18 (pgtools.Server), each set to its boot value,
               quoted, memory and time values written with units; every line
               that `postgres -C` refuses is dropped, so the server accepts the
               whole file.

Commands timed (N runs each, after warm-up, interleaved round-robin so that
background load hits all of them alike):
  pgconflint            pgconflint check --format concise FILE        (as root, no wrapper)
  pgconflint (runuser)  runuser -u USER -- pgconflint check --format concise FILE
  postgres -C (runuser) runuser -u USER -- postgres -D DATADIR -c config_file=FILE -C work_mem
  runuser only          runuser -u USER -- true                       (the wrapper's own cost)
  true                  true                                          (the cost of any exec)
PostgreSQL refuses to run as root, so postgres goes through runuser; pgconflint
is timed through the same wrapper so that the wrapper's cost is on both sides,
and also without it. When not run as root there is no wrapper at all.

Reported per command: wall-clock median and p90, and the median CPU time (user
+ system of the whole process tree, from the rusage of reaped children), which
a loaded machine inflates much less than wall time. Speed-ups are given three
ways: same wrapper (as measured), no wrapper (runuser's extra cost removed from
postgres), and above exec (the cost of `true` removed from both).

The default timing loop is pure python (interleaved, per-run CPU time);
--engine hyperfine uses `hyperfine -N` instead (not interleaved; it only gives
the mean CPU time), --engine auto uses hyperfine when it is installed.

Usage:
  python3 tests/bench/compare_postgres.py --pgconflint BUILD/pgconflint [--runs 50]
      [--warmup 5] [--engine python|hyperfine|auto] [--markdown OUT.md] [--json OUT.json]
      [--keep DIR]
The pgconflint binary defaults to $PGCONFLINT. Run from anywhere; needs root
(or an unprivileged user, in which case no runuser is used) and the binaries in
.cache/postgres/18 (scripts/fetch-postgres.sh 18).
"""
import argparse
import json
import os
import platform
import random
import resource
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
import pgtools  # noqa: E402

MAJOR = 18
TUNED_COUNT = 300

# Largest exact unit first, as the server's SHOW does.
MEMORY_UNITS = [("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10), ("B", 1)]
TIME_UNITS = [("d", 86400000), ("h", 3600000), ("min", 60000), ("s", 1000), ("ms", 1)]
UNIT_BYTES = {"B": 1, "kB": 1 << 10, "8kB": 8 << 10, "16kB": 16 << 10, "32kB": 32 << 10,
              "64kB": 64 << 10, "MB": 1 << 20}
UNIT_MS = {"ms": 1, "s": 1000, "min": 60000}


def quote(value):
    """A single-quoted configuration-file string (guc-file.l's STRING)."""
    return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'"


def with_unit(boot, unit):
    """`boot` (in the base unit `unit`) written with the largest exact unit, or None."""
    try:
        n = int(boot)
    except ValueError:
        return None
    if n in (0, -1):
        return None
    if unit in UNIT_BYTES:
        amount, table = n * UNIT_BYTES[unit], MEMORY_UNITS
    elif unit in UNIT_MS:
        amount, table = n * UNIT_MS[unit], TIME_UNITS
    else:
        return None
    for name, size in table:
        if amount % size == 0:
            return f"{amount // size}{name}"
    return None


def pg_settings_rows():
    """(name, vartype, unit, boot_val, context) of every parameter of a running server."""
    sql = ("SELECT name, vartype, coalesce(unit, ''), boot_val, context FROM pg_settings "
           "WHERE boot_val IS NOT NULL ORDER BY name")
    with pgtools.Server(MAJOR) as srv:
        out = srv.psql(sql.replace("\n", " "))
    rows = []
    for line in out.splitlines():
        parts = line.split("|")
        if len(parts) == 5:
            rows.append(tuple(parts))
    return rows


def server_accepts(datadir, path):
    ok, _, err = pgtools.postgres_C(MAJOR, datadir, path, "work_mem")
    return ok, err


def write_lines(path, lines, header):
    with open(path, "w") as f:
        f.write(header)
        f.writelines(line + "\n" for line in lines)
    os.chmod(path, 0o644)


def make_tuned(workdir, datadir, log):
    """Writes tuned300.conf: TUNED_COUNT settings that `postgres -C` accepts."""
    rows = pg_settings_rows()
    candidates = {}
    for name, vartype, unit, boot, context in rows:
        if context == "internal":
            continue  # cannot be set in a file at all
        value = with_unit(boot, unit) if vartype == "integer" and unit else None
        candidates[name] = f"{name} = {quote(value if value is not None else boot)}"
    names = sorted(candidates)
    header = (f"# {TUNED_COUNT} settings of PostgreSQL {MAJOR} at their boot values "
              "(tests/bench/compare_postgres.py)\n")
    path = os.path.join(workdir, "tuned300.conf")
    # Drop what the server refuses: the names its messages quote, and when
    # that does not make progress, each remaining line on its own.
    refused = []
    while True:
        write_lines(path, [candidates[n] for n in names], header)
        ok, err = server_accepts(datadir, path)
        if ok:
            break
        named = [n for n in names if f'"{n}"' in err]
        if not named:
            named = []
            for n in names:
                write_lines(path, [candidates[n]], header)
                if not server_accepts(datadir, path)[0]:
                    named.append(n)
            if not named:
                raise RuntimeError(f"postgres -C refuses the tuned file but no single line:\n{err}")
        for n in named:
            refused.append(candidates[n])
            names.remove(n)
    if refused:
        log(f"tuned: dropped {len(refused)} line(s) that postgres -C refuses: " +
            ", ".join(r.split(" ")[0] for r in refused))
    if len(names) < TUNED_COUNT:
        raise RuntimeError(f"only {len(names)} settable parameters; need {TUNED_COUNT}")
    rng = random.Random(TUNED_COUNT)
    chosen = sorted(rng.sample(names, TUNED_COUNT))
    rng.shuffle(chosen)  # a real file is not alphabetical
    write_lines(path, [candidates[n] for n in chosen], header)
    ok, err = server_accepts(datadir, path)
    if not ok:
        raise RuntimeError(f"postgres -C refuses the final tuned file:\n{err}")
    return path


def percentile(values, q):
    """Linear interpolation between closest ranks (numpy's default)."""
    s = sorted(values)
    if len(s) == 1:
        return s[0]
    pos = (len(s) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def check_command(label, argv, ok_codes):
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
    if r.returncode not in ok_codes:
        raise RuntimeError(f"{label}: {' '.join(argv)} exited {r.returncode}\n{r.stdout}{r.stderr}")
    return r.stdout


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def time_python(commands, runs, warmup):
    """Interleaved round-robin timing.

    Returns {label: {"wall": [seconds], "cpu": [seconds]}}; cpu is user + system
    time of the whole process tree (runuser and what it runs), from the rusage
    of reaped children, so it does not count time spent waiting for a CPU.
    """
    times = {label: {"wall": [], "cpu": []} for label, _ in commands}
    devnull = subprocess.DEVNULL
    for i in range(warmup + runs):
        for label, argv in commands:
            c0 = child_cpu()
            t0 = time.perf_counter()
            subprocess.run(argv, stdout=devnull, stderr=devnull)
            dt = time.perf_counter() - t0
            dc = child_cpu() - c0
            if i >= warmup:
                times[label]["wall"].append(dt)
                times[label]["cpu"].append(dc)
    return times


def time_hyperfine(commands, runs, warmup, workdir):
    out = os.path.join(workdir, "hyperfine.json")
    argv = ["hyperfine", "-N", "-i", "--style", "none", "--warmup", str(warmup), "--runs", str(runs),
            "--export-json", out]
    for label, cmd in commands:
        argv += ["-n", label, " ".join(shell_word(a) for a in cmd)]
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        data = json.load(f)
    # hyperfine keeps per-run wall times but only the mean user and system time.
    return {r["command"]: {"wall": r["times"], "cpu": [r["user"] + r["system"]]} for r in data["results"]}


def shell_word(s):
    return s if re.fullmatch(r"[A-Za-z0-9_./=:@%+-]+", s) else "'" + s.replace("'", "'\\''") + "'"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pgconflint", default=os.environ.get("PGCONFLINT"), help="the pgconflint binary")
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--engine", choices=["auto", "python", "hyperfine"], default="python",
                    help="python (default: interleaved, per-run CPU time), hyperfine, or auto "
                         "(hyperfine when installed)")
    ap.add_argument("--markdown", help="also write the markdown table here")
    ap.add_argument("--json", help="also write raw timings (seconds) here")
    ap.add_argument("--keep", help="copy the generated inputs to this directory")
    ap.add_argument("--corpus", help="also measure throughput: one `check` of every file of this directory, "
                                     "--copies times")
    ap.add_argument("--copies", type=int, default=40)
    args = ap.parse_args()

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    if not args.pgconflint:
        ap.error("give --pgconflint BUILD/pgconflint (or set $PGCONFLINT)")
    pgc = os.path.abspath(args.pgconflint)
    if not os.access(pgc, os.X_OK):
        ap.error(f"{pgc} is not executable")
    engine = args.engine
    if engine == "auto":
        engine = "hyperfine" if shutil.which("hyperfine") else "python"
    elif engine == "hyperfine" and not shutil.which("hyperfine"):
        ap.error("hyperfine is not installed (apt-get install hyperfine), use --engine python")

    workdir = pgtools.make_tempdir("pgconflint-bench-")
    try:
        datadir = pgtools.initdb(MAJOR)
        sample = os.path.join(workdir, "pg18_sample.conf")
        shutil.copyfile(os.path.join(pgtools.pg_home(MAJOR), "share", "postgresql", "postgresql.conf.sample"),
                        sample)
        os.chmod(sample, 0o644)
        if not server_accepts(datadir, sample)[0]:
            raise RuntimeError("postgres -C refuses its own postgresql.conf.sample")
        log("building the tuned file from pg_settings of a running server ...")
        tuned = make_tuned(workdir, datadir, log)
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            for p in (sample, tuned):
                shutil.copy(p, args.keep)

        wrapper = pgtools.as_user([])  # [] when not root
        true_bin = shutil.which("true") or "/bin/true"
        postgres = pgtools.pg_bin(MAJOR)
        results = []
        # Start-up: an empty file is not PostgreSQL configuration (nothing to
        # check); against `true`, the cost of any exec.
        empty = os.path.join(workdir, "empty.conf")
        open(empty, "w").close()
        log(f"timing empty: {args.runs} runs x 2 commands ({engine}) ...")
        commands = [("pgconflint", [pgc, "check", "--format", "concise", empty]), ("true", [true_bin])]
        times = (time_hyperfine if engine == "hyperfine" else lambda c, r, w, _: time_python(c, r, w))(
            commands, args.runs, args.warmup, workdir)
        results.append({"input": "empty", "bytes": 0, "findings": 0, "times": times})
        for label, path in (("pg18_sample", sample), ("tuned300", tuned)):
            pgc_cmd = [pgc, "check", "--format", "concise", path]
            pg_cmd = [postgres, "-D", datadir, "-c", f"config_file={path}", "-C", "work_mem"]
            commands = [("pgconflint", pgc_cmd)]
            if wrapper:
                commands += [("pgconflint (runuser)", wrapper + pgc_cmd),
                             ("postgres -C (runuser)", wrapper + pg_cmd),
                             ("runuser only", wrapper + [true_bin])]
            else:  # not root: nothing to wrap
                commands += [("postgres -C", pg_cmd)]
            commands.append(("true", [true_bin]))
            # Sanity: pgconflint exits 0 or 1 (findings), postgres 0.
            findings = check_command("pgconflint", commands[0][1], (0, 1))
            for lab, argv in commands[1:]:
                check_command(lab, argv, (0, 1) if lab.startswith("pgconflint") else (0,))
            n_findings = len([l for l in findings.splitlines() if l.strip() and not l.startswith("Found")])
            log(f"{label}: {os.path.getsize(path)} bytes; pgconflint reports {n_findings} finding line(s)")
            if n_findings:
                for line in findings.splitlines()[:10]:
                    log(f"  {line}")
            log(f"timing {label}: {args.runs} runs x {len(commands)} commands ({engine}) ...")
            if engine == "hyperfine":
                times = time_hyperfine(commands, args.runs, args.warmup, workdir)
            else:
                times = time_python(commands, args.runs, args.warmup)
            results.append({"input": label, "bytes": os.path.getsize(path), "findings": n_findings,
                            "times": times})
        throughput = measure_corpus(pgc, args.corpus, args.copies, workdir, log) if args.corpus else None
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    md = render(results, args, engine)
    if throughput:
        md += "\n\n" + throughput
    print(md)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(md + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


def measure_corpus(pgc, corpus, copies, workdir, log):
    """MB per CPU second of one `check` over COPIES copies of every file of CORPUS (each copy its own directory)."""
    names = sorted(n for n in os.listdir(corpus) if os.path.isfile(os.path.join(corpus, n)))
    paths, size = [], 0
    for k in range(copies):
        d = os.path.join(workdir, "corpus", str(k))
        os.makedirs(d)
        for n in names:
            shutil.copyfile(os.path.join(corpus, n), os.path.join(d, n))
            paths.append(os.path.join(d, n))
            size += os.path.getsize(os.path.join(d, n))
    argv = [pgc, "check", "--format", "concise", "--fail-on", "never", "--no-config", "--"] + paths
    cpus = []
    for _ in range(3):
        before = child_cpu()
        r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cpus.append(child_cpu() - before)
        if r.returncode != 0:
            raise RuntimeError(f"check of the corpus exited {r.returncode}")
    cpu = statistics.median(cpus)
    log(f"corpus: {len(paths)} files, {size / 1e6:.1f} MB, {cpu:.2f} s CPU")
    return (f"Throughput: one `check` of {len(names)} files x {copies} copies ({size / 1e6:.1f} MB, every file a "
            f"root): {cpu:.2f} s CPU (median of 3), **{size / 1e6 / cpu:.0f} MB per CPU second** (target >= 100).")


def speedups(med):
    """postgres -C time over pgconflint time, three ways (see the README table legend).

    same wrapper: both under runuser, as measured.
    no wrapper:   pgconflint as run by hand; postgres's time with runuser's extra
                  cost (runuser only - true) taken out: what `postgres -C` costs
                  when its own user runs it.
    above exec:   the cost of starting any process (true) taken out of both.
    """
    pgc = med["pgconflint"]
    true = med["true"]
    pg = med.get("postgres -C (runuser)", med.get("postgres -C"))
    pgc_wrapped = med.get("pgconflint (runuser)", pgc)
    wrap_extra = med.get("runuser only", true) - true
    pg_bare = pg - wrap_extra
    same = pg / pgc_wrapped if "runuser only" in med else None  # no wrapper at all when not root
    return (same, pg_bare / pgc, (pg_bare - true) / max(pgc - true, 1e-9))


def render(results, args, engine):
    ms = lambda s: f"{s * 1000:.2f}"  # noqa: E731
    cpu_head = "CPU ms (median)" if engine == "python" else "CPU ms (mean)"
    lines = [f"`pgconflint check --format concise` vs `postgres -C work_mem` (PostgreSQL {MAJOR}); "
             f"{args.runs} runs after {args.warmup} warm-up, {engine} timing; "
             f"{os.cpu_count()} CPUs, {platform.machine()}, load average "
             f"{os.getloadavg()[0]:.1f} at the end. CPU = user + system of the process tree.", "",
             f"| input | command | wall median ms | wall p90 ms | {cpu_head} |", "|---|---|---:|---:|---:|"]
    summary = []
    startup = []
    for r in results:
        wall = {k: statistics.median(v["wall"]) for k, v in r["times"].items()}
        cpu = {k: statistics.median(v["cpu"]) for k, v in r["times"].items()}
        for label, v in r["times"].items():
            lines.append(f"| {r['input']} ({r['bytes']} B) | {label} | {ms(wall[label])} | "
                         f"{ms(percentile(v['wall'], 0.9))} | {ms(cpu[label])} |")
        if r["input"] == "empty":
            startup.append(f"`check` of an empty file / `true`: CPU {cpu['pgconflint'] / cpu['true']:.2f}x, "
                           f"wall {wall['pgconflint'] / wall['true']:.2f}x (target <= 2x CPU).")
            continue
        for kind, med in (("wall", wall), ("CPU", cpu)):
            a, b, c = speedups(med)
            same = "-" if a is None else f"{a:.1f}x"
            summary.append(f"| {r['input']} | {kind} | {same} | {b:.1f}x | {c:.1f}x |")
    return "\n".join(lines + [""] + startup + [
        "", "Speed-up, postgres -C time / pgconflint time (medians; target >= 5x):", "",
        "| input | time | same wrapper | no wrapper | above exec |", "|---|---|---:|---:|---:|"] + summary + [
        "", "same wrapper: both under runuser, as measured. no wrapper: pgconflint run directly vs "
            "postgres -C (as root: with runuser's extra cost, runuser only - true, removed; as an "
            "unprivileged user: both measured directly). above exec: the cost of running `true` "
            "removed from both (what each program adds to a bare exec)."])


if __name__ == "__main__":
    sys.exit(main())
