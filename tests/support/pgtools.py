"""Real PostgreSQL servers for tests and the knowledge harvest.

PostgreSQL refuses to run as root, so everything here runs the binaries from
.cache/postgres/<major> (scripts/fetch-postgres.sh) as an unprivileged user that
is created on first use. Data directories live under a temp dir; servers listen
on a free loopback port and a private Unix socket, and are always stopped
(context managers, plus an atexit guard).
"""
import atexit
import contextlib
import fcntl
import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEST_USER = os.environ.get("PGCONFLINT_TEST_USER", "pgconflint-test")

# The supported majors, their npm packages and the default: knowledge/majors.json, the only place.
with open(os.path.join(ROOT, "knowledge", "majors.json")) as _f:
    _MAJORS_DOC = json.load(_f)
MAJORS = tuple(m["major"] for m in _MAJORS_DOC["majors"])
DEFAULT_MAJOR = _MAJORS_DOC["default"]
NPM_PACKAGE = _MAJORS_DOC["npm_package"]


def pg_home(major):
    """Directory holding bin/, lib/ and share/ of PostgreSQL `major`."""
    return os.path.join(ROOT, ".cache", "postgres", str(major))


def pg_bin(major, prog="postgres"):
    path = os.path.join(pg_home(major), "bin", prog)
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"{path} missing: run scripts/fetch-postgres.sh {major}")
    return path


def _psql_binary():
    """Debian's psql itself: /usr/bin/psql is pg_wrapper, a Perl script that picks a
    client version on every call (about 30 ms of each psql run)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return found[-1] if found else (shutil.which("psql") or "psql")


PSQL = _psql_binary()


def _is_root():
    return os.geteuid() == 0


def ensure_user():
    """Creates the unprivileged test user when running as root; returns its name or None."""
    if not _is_root():
        return None
    try:
        pwd.getpwnam(TEST_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                        TEST_USER], check=True)
    return TEST_USER


def as_user(argv):
    """argv prefixed so that it runs as the unprivileged user (no-op when not root)."""
    user = ensure_user()
    return ["runuser", "-u", user, "--"] + list(argv) if user else list(argv)


def run_as_user(argv, **kw):
    """subprocess.run of argv as the unprivileged user (as yourself when not root), with the
    uid and gid set by the fork itself: runuser opens a PAM session per call (5-20 ms)."""
    user = ensure_user()
    if user:
        pw = pwd.getpwnam(user)
        kw.update(user=pw.pw_uid, group=pw.pw_gid, extra_groups=[])
    return subprocess.run(argv, **kw)


def make_tempdir(prefix="pgconflint-"):
    """A temp dir the test user can read, write and traverse."""
    d = tempfile.mkdtemp(prefix=prefix)
    os.chmod(d, 0o777)
    return d


def share_with_user(path):
    """Makes `path` (a file or a tree) readable by the test user."""
    if os.path.isdir(path):
        for base, dirs, files in os.walk(path):
            os.chmod(base, 0o755)
            for f in files:
                os.chmod(os.path.join(base, f), 0o644)
    else:
        os.chmod(path, 0o644)


_INITDB_CACHE = {}
_TEMPLATES = {}
# What the template is made with: a change here makes every shared template anew.
_INITDB_ARGS = ("-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C")


def _run_initdb(major, datadir):
    r = subprocess.run(as_user([pg_bin(major, "initdb"), "-D", datadir, *_INITDB_ARGS]),
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"initdb {major} failed:\n{r.stdout}\n{r.stderr}")


def _shared_template(build_dir, major):
    """The template of `major` under `build_dir`/pg-templates, made by the first suite of a
    test run that needs it and copied by the others (CTest gives every suite
    PGCONFLINT_BUILD_DIR): about 1.5 s of initdb per major and suite saved. Keyed by the
    initdb options and the postgres binary (size and mtime), made under a lock, and marked
    ready only once initdb has succeeded."""
    root = os.path.join(build_dir, "pg-templates")
    os.makedirs(root, exist_ok=True)
    os.chmod(root, 0o755)
    binary = os.stat(pg_bin(major))
    stamp = f"{binary.st_size}-{binary.st_mtime_ns}-" + "_".join(a.strip("-") for a in _INITDB_ARGS)
    base = os.path.join(root, f"pg{major}-{stamp}")
    datadir = os.path.join(base, "data")
    with open(os.path.join(root, f"pg{major}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(os.path.join(base, "ready")):
            for old in glob.glob(os.path.join(root, f"pg{major}-*")):
                shutil.rmtree(old, ignore_errors=True)
            os.makedirs(base)
            os.chmod(base, 0o777)
            _run_initdb(major, datadir)
            with open(os.path.join(base, "ready"), "w"):
                pass
    return datadir


def _template(major):
    """The data directory initdb makes for `major`: every data directory initdb() returns is
    a copy of it (cp -a, as the test user), which is what a fresh initdb with the same options
    would write, in a third of its time and CPU. Shared by the suites of one build tree
    (PGCONFLINT_BUILD_DIR), else made once per process. No server ever runs on the template."""
    if major not in _TEMPLATES:
        build_dir = os.environ.get("PGCONFLINT_BUILD_DIR")
        if build_dir and os.path.isdir(build_dir):
            _TEMPLATES[major] = _shared_template(build_dir, major)
        else:
            base = make_tempdir(f"pgconflint-pg{major}-template-")
            _run_initdb(major, os.path.join(base, "data"))
            _TEMPLATES[major] = os.path.join(base, "data")
            atexit.register(shutil.rmtree, base, True)
    return _TEMPLATES[major]


def initdb(major, parent=None):
    """A fresh data directory for `major` (initdb -A trust -U postgres -E UTF8 --locale=C),
    owned by the test user, under `parent`. Without `parent`, one per major and process."""
    if parent is None and major in _INITDB_CACHE:
        return _INITDB_CACHE[major]
    template = _template(major)
    base = parent or make_tempdir(f"pgconflint-pg{major}-")
    datadir = os.path.join(base, "data")
    r = subprocess.run(as_user(["cp", "-a", template, datadir]), capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"copying the initdb'd data directory of {major} failed:\n{r.stderr}")
    if parent is None:
        _INITDB_CACHE[major] = datadir
        atexit.register(shutil.rmtree, base, True)
    return datadir


def postgres_C(major, datadir, config_file, name, extra=()):
    """Runs `postgres -D datadir -c config_file=F -C name`.

    Returns (accepted, value, stderr): accepted is False when the server refuses
    the configuration (non-zero exit); value is the printed line without newline.
    """
    argv = [pg_bin(major), "-D", datadir]
    if config_file:
        argv += ["-c", f"config_file={config_file}"]
    for e in extra:
        argv += ["-c", e]
    argv += ["-C", name]
    r = run_as_user(argv, capture_output=True, text=True, errors="replace")
    out = r.stdout[:-1] if r.stdout.endswith("\n") else r.stdout
    return r.returncode == 0, out, r.stderr


def shared_memory_bytes(major, datadir, settings, method="C"):
    """The bytes of the main shared memory area the server computes for `settings` (a dict of
    name -> value given as -c options), exactly, without starting a server; None with the
    server's last message when it refuses the settings.

    method "C" (15+): `postgres -C shared_memory_size_in_huge_pages` with huge_page_size = 1kB.
    The server shows the whole huge pages in the area plus one, and the area is a multiple of
    8192 bytes, so the value less one is its size in kB.
    method "log" (every major; 14 has no shared_memory_size): a single-user backend with
    log_min_messages = debug3 logs "invoking IpcMemoryCreate(size=N)" before it maps the area;
    with huge_pages = on it stops right there on a host without that many huge pages, having
    allocated nothing. tests/integration/test_shared_memory.py holds the two methods equal on
    15 and later.
    """
    argv = [pg_bin(major), "-D", datadir]
    if method == "C":
        opts = dict(settings, huge_page_size="1kB")
        tail = ["-C", "shared_memory_size_in_huge_pages"]
    else:
        argv.insert(1, "--single")
        opts = dict(settings, log_min_messages="debug3", huge_pages="on")
        tail = ["postgres"]
    for k, v in opts.items():
        argv += ["-c", f"{k}={v}"]
    r = run_as_user(argv + tail, input="", capture_output=True, text=True, errors="replace")
    if method == "C":
        if r.returncode != 0:
            return None, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "exit status %d" % r.returncode
        return (int(r.stdout) - 1) * 1024, None
    for line in r.stderr.splitlines():
        if "invoking IpcMemoryCreate(size=" in line:
            return int(line.split("IpcMemoryCreate(size=")[1].split(")")[0]), None
    return None, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "no size logged"


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


_RUNNING = set()


def _stop_all():
    for srv in list(_RUNNING):
        srv.stop()


atexit.register(_stop_all)


class Server:
    """A running PostgreSQL server; use as a context manager so it is always stopped."""

    def __init__(self, major, settings=None):
        self.major = major
        self.base = make_tempdir(f"pgconflint-srv{major}-")
        self.datadir = initdb(major, parent=self.base)
        self.sockdir = os.path.join(self.base, "sock")
        os.mkdir(self.sockdir)
        os.chmod(self.sockdir, 0o777)
        self.port = free_port()
        self.settings = dict(settings or {})
        self.started = False

    def start(self):
        opts = [f"-c port={self.port}", "-c listen_addresses=''",
                f"-c unix_socket_directories={self.sockdir}", "-c fsync=off"]
        opts += [f"-c {k}={v}" for k, v in self.settings.items()]
        log = os.path.join(self.base, "server.log")
        r = subprocess.run(as_user([pg_bin(self.major, "pg_ctl"), "-D", self.datadir, "-l", log,
                                    "-w", "-t", "60", "-o", " ".join(opts), "start"]),
                           capture_output=True, text=True)
        if r.returncode != 0:
            with open(log, errors="replace") as f:
                raise RuntimeError(f"pg_ctl start failed:\n{r.stdout}{r.stderr}\n{f.read()}")
        self.started = True
        _RUNNING.add(self)
        return self

    def stop(self):
        if self.started:
            subprocess.run(as_user([pg_bin(self.major, "pg_ctl"), "-D", self.datadir, "-m", "fast",
                                    "-w", "stop"]), capture_output=True)
            self.started = False
            _RUNNING.discard(self)
        shutil.rmtree(self.base, ignore_errors=True)

    def restart(self):
        """pg_ctl restart (fast), with the options it was started with; the data directory stays."""
        # -l: the new postmaster writes its log there, not to pg_ctl's output (whose pipes it would hold open).
        r = subprocess.run(as_user([pg_bin(self.major, "pg_ctl"), "-D", self.datadir, "-l",
                                    os.path.join(self.base, "server.log"), "-m", "fast", "-w", "-t", "60", "restart"]),
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError(f"pg_ctl restart failed:\n{r.stdout}{r.stderr}")

    def write(self, name, text):
        """Writes a file of the data directory as its owner would (the server reads it at a reload)."""
        path = os.path.join(self.datadir, name)
        with open(path, "w") as f:
            f.write(text)
        st = os.stat(self.datadir)
        if _is_root():
            os.chown(path, st.st_uid, st.st_gid)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def psql(self, sql, check=True):
        """Runs SQL through psql (Debian's postgresql-client); returns stdout (unaligned, tuples only)."""
        r = subprocess.run([PSQL, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", self.sockdir,
                            "-p", str(self.port), "-U", "postgres", "-d", "postgres", "-c", sql],
                           capture_output=True, text=True, errors="replace")
        if check and r.returncode != 0:
            raise RuntimeError(f"psql failed: {r.stderr}")
        return r.stdout if check else (r.returncode, r.stdout, r.stderr)
