"""A release of the binary under test, served from 127.0.0.1: what the pre-commit hook and
the GitHub Action download (scripts/release-binary.py) when PGCONFLINT_DOWNLOAD_URL points
at it.

    with ReleaseServer(binary) as release:
        release.url          # http://127.0.0.1:PORT/dist: the release's files
        release.dist         # the directory served there (scripts/release.sh --binary)
        release.requests     # the paths asked for, in order
        release.copy("bad")  # a copy of dist/ served at release.base + "/bad", to tamper with
"""
import http.server
import os
import re
import shutil
import subprocess
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"^project\(pgconflint VERSION ([0-9.]+)", f.read(), re.M).group(1)


class ReleaseServer:
    def __init__(self, binary):
        self.binary = binary
        self.requests = []

    def __enter__(self):
        self.home = tempfile.mkdtemp(prefix="pgconflint-release-served-")
        self.dist = os.path.join(self.home, "dist")
        r = subprocess.run([os.path.join(ROOT, "scripts", "release.sh"), "--no-setup", "--no-vsix", "--arch",
                            "x86_64", "--binary", f"x86_64={self.binary}", "--out", self.dist],
                           capture_output=True, text=True)
        if r.returncode != 0:
            shutil.rmtree(self.home, ignore_errors=True)
            raise RuntimeError(f"release.sh failed: {r.stderr[-2000:]}")
        served, requests = self.home, self.requests

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *a, **kw):
                super().__init__(*a, directory=served, **kw)

            def log_message(self, fmt, *args):
                if args and isinstance(args[0], str) and args[0].startswith("GET "):
                    requests.append(args[0].split()[1])
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.url = self.base + "/dist"
        return self

    def copy(self, name):
        path = os.path.join(self.home, name)
        shutil.copytree(self.dist, path)
        return path

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        shutil.rmtree(self.home, ignore_errors=True)
