"""The memory of a pgbench_compare.py run: a memory cgroup around one PostgreSQL server (the
machine profile's RAM made real for its processes, page cache included, on a machine with
more), and evict(), which drops a data directory from the page cache.

cgroup v2 where a cgroup2 mount's root lets its children use the memory controller
(`memory` in its cgroup.subtree_control): memory.max, memory.peak, memory.events. Otherwise
cgroup v1's memory hierarchy: memory.limit_in_bytes, memory.max_usage_in_bytes,
memory.oom_control. The controller's subtree_control is never changed here. Creating a cgroup
and moving a process into it needs root (or a delegated hierarchy); Memory.probe says why not.

Page cache is charged to the cgroup of the process that first reads a page, so the server's
data files must not be in the cache when it starts: evict() drops them.
"""
import os
import subprocess
import time


def evict(*tops):
    """Writes the files under `tops` to disk and drops them from the page cache: a run then
    starts with none of its data cached by the OS (nor charged to another cgroup), whichever
    files the copy happened to write last. One syncfs (`sync -f`) for the file system: an
    fsync per file cost 5 s for a data directory's thousand files here."""
    for top in tops:
        subprocess.run(["sync", "-f", top], check=True)
    for top in tops:
        for base, _, files in os.walk(top):
            for name in files:
                try:
                    fd = os.open(os.path.join(base, name), os.O_RDONLY)
                except OSError:
                    continue
                try:
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                finally:
                    os.close(fd)


def _mounts():
    with open("/proc/self/mounts", encoding="utf-8") as f:
        return [line.split() for line in f if len(line.split()) >= 4]


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def _write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def locate():
    """("v2" or "v1", the directory to create cgroups in), or (None, why there is none)."""
    for _, mnt, fstype, _ in (m[:4] for m in _mounts()):
        if fstype == "cgroup2":
            try:
                if "memory" in _read(os.path.join(mnt, "cgroup.subtree_control")).split():
                    return "v2", mnt
            except OSError:
                pass
    for _, mnt, fstype, opts in (m[:4] for m in _mounts()):
        if fstype == "cgroup" and "memory" in opts.split(","):
            return "v1", mnt
    return None, ("no cgroup2 mount whose root enables the memory controller for its children, "
                  "and no cgroup v1 memory hierarchy")


class Cgroup:
    """One cgroup with a memory limit; remove() once its processes have exited."""

    def __init__(self, kind, path):
        self.kind, self.path = kind, path

    def enter(self, argv):
        """`argv` run from a shell that first moves itself into this cgroup: what it starts
        (pg_ctl, the postmaster it forks and their children) stays there."""
        return ["sh", "-c", 'echo $$ > "$0" && exec "$@"', os.path.join(self.path, "cgroup.procs"), *argv]

    def peak(self):
        """The highest memory use so far in bytes (page cache included), or None."""
        name = "memory.peak" if self.kind == "v2" else "memory.max_usage_in_bytes"
        try:
            return int(_read(os.path.join(self.path, name)).split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def oom_kills(self):
        """How many processes the kernel killed for this cgroup's limit (None: not reported)."""
        name = "memory.events" if self.kind == "v2" else "memory.oom_control"
        try:
            for line in _read(os.path.join(self.path, name)).splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        except (OSError, ValueError):
            pass
        return None

    def remove(self, wait_s=120):
        """Removes the cgroup once no process is left in it (a stopping server's last ones
        may take a moment); its charged page cache goes to the parent."""
        procs = os.path.join(self.path, "cgroup.procs")
        for _ in range(int(wait_s * 10)):
            try:
                if not _read(procs).strip():
                    break
            except OSError:
                return
            time.sleep(0.1)
        try:
            os.rmdir(self.path)
        except OSError as e:
            raise RuntimeError(f"could not remove the cgroup {self.path}: {e}") from e


class Memory:
    """Makes cgroups of `limit` bytes under the located hierarchy, named after this process."""

    def __init__(self, limit):
        self.limit = limit
        self.kind, self.parent = locate()
        self.count = 0

    def describe(self):
        knob = "memory.max" if self.kind == "v2" else "memory.limit_in_bytes"
        return f"cgroup {self.kind} {knob} = {self.limit // (1024 * 1024)}MB"

    def create(self):
        if self.kind is None:
            raise RuntimeError(self.parent)
        self.count += 1
        path = os.path.join(self.parent, f"pgconflint-bench-{os.getpid()}-{self.count}")
        os.mkdir(path)
        cgroup = Cgroup(self.kind, path)
        try:
            if self.kind == "v2":
                _write(os.path.join(path, "memory.max"), str(self.limit))
                if os.path.exists(os.path.join(path, "memory.swap.max")):
                    _write(os.path.join(path, "memory.swap.max"), "0")
            else:
                _write(os.path.join(path, "memory.limit_in_bytes"), str(self.limit))
        except OSError:
            os.rmdir(path)
            raise
        return cgroup

    def probe(self):
        """None when a cgroup can be made, limited and removed here; else why not."""
        if self.kind is None:
            return self.parent
        try:
            self.create().remove(wait_s=0)
        except (OSError, RuntimeError) as e:
            return f"{self.parent}: {e}"
        return None
