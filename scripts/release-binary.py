#!/usr/bin/env python3
"""The pgconflint of this checkout's version, with no compiler: for the `pgconflint`
pre-commit hook (.pre-commit-hooks.yaml) and the GitHub Action (action.yml).

    release-binary.py run ARGS...   runs it with ARGS (the hook)
    release-binary.py path          prints its path (the Action puts it on PATH)

A pgconflint on PATH that says it is this version is used as is. Otherwise the release
archive for this machine (scripts/release.sh: pgconflint-VERSION-linux-ARCH.tar.gz) is
downloaded once from PGCONFLINT_DOWNLOAD_URL (a directory holding the release's files;
default: the project's release page for this version), checked against the release's
SHA256SUMS, and its binary kept under PGCONFLINT_CACHE, by default in pre-commit's cache
(PRE_COMMIT_HOME, else $XDG_CACHE_HOME/pre-commit or ~/.cache/pre-commit) under
pgconflint/VERSION-ARCH, where every later run and every repository finds it. Hooks started at once download once (a
lock); a binary is put in place only whole and verified.

Exit codes are pgconflint's; 3 when no binary can be had (no release for this platform,
the download fails, the checksum differs), with the reason on one line.
"""
import fcntl
import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_URL = "https://github.com/pgconflint/pgconflint/releases/download/v{version}"
ARCHES = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}
TIMEOUT = 60  # seconds for each request


def fail(message):
    print(f"pgconflint (release binary): {message}", file=sys.stderr)
    sys.exit(3)


def hook_version():
    with open(os.path.join(HERE, "..", "CMakeLists.txt")) as f:
        m = re.search(r"^project\(pgconflint VERSION ([0-9][0-9.]*)", f.read(), re.M)
    if not m:
        fail("no project(VERSION) in the hook's CMakeLists.txt")
    return m.group(1)


def says_version(binary, version):
    try:
        r = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return False
    first = r.stdout.splitlines()[0] if r.stdout else ""
    return r.returncode == 0 and re.fullmatch(rf"pgconflint {re.escape(version)}( .*)?", first) is not None


def cache_dir():
    if os.environ.get("PGCONFLINT_CACHE"):
        return os.environ["PGCONFLINT_CACHE"]
    home = os.environ.get("PRE_COMMIT_HOME")
    if not home:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        home = os.path.join(base, "pre-commit")
    return os.path.join(home, "pgconflint")


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as r:
            return r.read()
    except (urllib.error.URLError, OSError, ValueError) as e:
        fail(f"cannot download {url}: {getattr(e, 'reason', e)} (PGCONFLINT_DOWNLOAD_URL sets where from)")


def download(version, arch, target):
    base = (os.environ.get("PGCONFLINT_DOWNLOAD_URL") or DEFAULT_URL.format(version=version)).rstrip("/")
    name = f"pgconflint-{version}-linux-{arch}"
    sums = fetch(f"{base}/SHA256SUMS").decode("utf-8", "replace")
    expected = None
    for line in sums.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].lstrip("*") == f"{name}.tar.gz":
            expected = parts[0].lower()
    if not expected:
        fail(f"{base}/SHA256SUMS lists no {name}.tar.gz")
    data = fetch(f"{base}/{name}.tar.gz")
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        fail(f"{name}.tar.gz from {base} has SHA-256 {actual}, SHA256SUMS says {expected}: not used")
    with tempfile.TemporaryDirectory(dir=os.path.dirname(target)) as tmp:
        archive = os.path.join(tmp, "a.tar.gz")
        with open(archive, "wb") as f:
            f.write(data)
        try:
            with tarfile.open(archive, "r:gz") as t:
                member = t.getmember(f"{name}/pgconflint")
                if not member.isfile():
                    fail(f"{name}.tar.gz holds no pgconflint binary")
                src = t.extractfile(member)
                staged = os.path.join(tmp, "pgconflint")
                with open(staged, "wb") as out:
                    shutil.copyfileobj(src, out)
        except (tarfile.TarError, KeyError, OSError) as e:
            fail(f"cannot unpack {name}.tar.gz: {e}")
        os.chmod(staged, 0o755)
        if not says_version(staged, version):
            fail(f"the binary of {name}.tar.gz does not run here or is not version {version}")
        os.replace(staged, target)  # whole or not at all


def binary_path(version):
    on_path = shutil.which("pgconflint")
    if on_path and says_version(on_path, version):
        return on_path
    system, machine = platform.system(), platform.machine()
    arch = ARCHES.get(machine.lower())
    if system != "Linux" or not arch:
        fail(f"no release binary for {system} {machine}: put pgconflint {version} on PATH, "
             "or use the pgconflint-build hook")
    directory = os.path.join(cache_dir(), f"{version}-{arch}")
    binary = os.path.join(directory, "pgconflint")
    if not os.access(binary, os.X_OK):
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another hook may be downloading it
            if not os.access(binary, os.X_OK):
                print(f"pgconflint (release binary): downloading pgconflint {version} for linux-{arch}",
                      file=sys.stderr)
                download(version, arch, binary)
    return binary


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("run", "path"):
        print("usage: release-binary.py run ARGS... | release-binary.py path", file=sys.stderr)
        sys.exit(2)
    binary = binary_path(hook_version())
    if sys.argv[1] == "path":
        print(binary)
        return
    os.execv(binary, [binary, *sys.argv[2:]])


if __name__ == "__main__":
    main()
