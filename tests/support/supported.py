"""What the pgconflint binary under test supports, asked of it once per process
(`pgconflint params --supported --format json`): the one list of majors and the one
list of storage types every suite reads, so that no suite types them by hand.

The binary is $PGCONFLINT, else build/pgconflint. knowledge/majors.json and
knowledge/storage.toml are what the binary embeds; tests/support/pgtools.py reads
majors.json itself only for the harvest scripts, which run before there is a binary.
"""
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_CACHE = {}


def binary():
    return os.environ.get("PGCONFLINT") or os.path.join(ROOT, "build", "pgconflint")


def _supported(path=None):
    path = path or binary()
    if path not in _CACHE:
        r = subprocess.run([path, "params", "--supported", "--format", "json"], capture_output=True, text=True,
                           timeout=120)
        if r.returncode != 0:
            raise RuntimeError(f"{path} params --supported: exit {r.returncode}\n{r.stderr}")
        _CACHE[path] = json.loads(r.stdout)
    return _CACHE[path]


def majors(path=None):
    """The supported PostgreSQL majors, oldest first: (14, 15, ...)."""
    return tuple(_supported(path)["majors"])


def default_major(path=None):
    return _supported(path)["default_major"]


def storage_types(path=None):
    """The --storage types, in knowledge/storage.toml's order: ("hdd", "sata-ssd", ...)."""
    return tuple(_supported(path)["storage_types"])


def majors_from_env(variable, default=None, path=None):
    """The majors a suite runs against: $variable (comma-separated, e.g. "14,18") when set,
    else `default` (a tuple), else every supported major. A major the binary does not
    support is an error, not a silent skip."""
    text = os.environ.get(variable, "").strip()
    chosen = tuple(int(m) for m in text.split(",") if m.strip()) if text else (default or majors(path))
    unknown = [m for m in chosen if m not in majors(path)]
    if unknown:
        raise RuntimeError(f"{variable}: {unknown} not supported by {path or binary()} (it supports {majors(path)})")
    return chosen
