#!/usr/bin/env python3
"""Builds a libFuzzer harness of tests/fuzz with clang-14 (a build tree of its
own, configured with PGCONFLINT_FUZZ=ON) and runs it for a while from its seed
corpus, with its dictionary. A crash, a sanitizer report, a leak or a
timeout fails the run. The seed corpus in the repository is never written:
new inputs go to a temporary directory (or --keep DIR).

With --prebuilt BUILD (the test suite's short run) only the harness and the
code under test (src/lsp, or src/core/hba_* for --harness hba) are compiled with clang, over the core of an
ordinary build (tests/fuzz/quick): a few files instead of the whole project.

  tests/fuzz/run_fuzz.py --harness lsp --seconds 20 --prebuilt build --build build/fuzz-quick
  tests/fuzz/run_fuzz.py --harness lsp --seconds 3600 --keep /tmp/lsp-corpus   # fully instrumented
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FUZZ = REPO / "tests" / "fuzz"


def configure_and_build(build, harness, prebuilt):
    clang, clangxx = shutil.which("clang-14"), shutil.which("clang++-14")
    if not clang or not clangxx:
        sys.exit("run_fuzz.py: clang-14 is required (scripts/setup.sh --tests installs clang-14 and libclang-rt-14-dev)")
    if prebuilt:
        source, options = FUZZ / "quick", [f"-DPGC_PREBUILT={prebuilt}"]
    else:
        source, options = REPO, ["-DPGCONFLINT_FUZZ=ON", "-DPGCONFLINT_TESTS=OFF", "-DPGCONFLINT_BENCHMARKS=OFF"]
    if not (build / "build.ninja").exists():
        subprocess.run(["cmake", "-S", str(source), "-B", str(build), "-G", "Ninja", f"-DCMAKE_C_COMPILER={clang}",
                        f"-DCMAKE_CXX_COMPILER={clangxx}", "-DCMAKE_BUILD_TYPE=Release", *options], check=True)
    jobs = os.environ.get("PGCONFLINT_FUZZ_JOBS", "2")
    subprocess.run(["nice", "cmake", "--build", str(build), "--target", f"pgconflint_{harness}_fuzz", "-j", jobs],
                   check=True)
    return build / f"pgconflint_{harness}_fuzz"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--harness", default="lsp")
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--build", type=Path, default=REPO / "build-fuzz")
    parser.add_argument("--keep", type=Path, help="corpus directory to keep the new inputs in")
    parser.add_argument("--prebuilt", type=Path, help="an ordinary build whose core the harness links (quick)")
    args = parser.parse_args()
    binary = configure_and_build(args.build.resolve(), args.harness, args.prebuilt and args.prebuilt.resolve())
    seeds = FUZZ / f"{args.harness}_corpus"
    with tempfile.TemporaryDirectory(prefix="pgconflint-fuzz-") as tmp:
        corpus = args.keep or Path(tmp) / "corpus"
        corpus.mkdir(parents=True, exist_ok=True)
        command = [str(binary), f"-max_total_time={args.seconds}", "-timeout=10", "-rss_limit_mb=2048",
                   "-max_len=65536", "-print_final_stats=1", f"-dict={FUZZ / (args.harness + '.dict')}",
                   f"-artifact_prefix={tmp}/", str(corpus), str(seeds)]
        print("+", " ".join(command), flush=True)
        run = subprocess.run(command, cwd=tmp, capture_output=True, text=True, errors="replace")
        # libFuzzer reports on stderr; keep the summary and any finding.
        lines = run.stderr.splitlines()
        summary = [l for l in lines if l.startswith("stat::") or re.match(r"#\d+\s+DONE", l)]
        print("\n".join(summary))
        if run.returncode != 0:
            print("\n".join(lines[-80:]), file=sys.stderr)
            for artifact in Path(tmp).glob("crash-*"):
                print(f"artifact {artifact.name}: {artifact.read_bytes()[:2000]!r}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
