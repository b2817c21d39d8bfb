"""Scripted git repositories for the CI suites (diff, pre-commit, the Action and the GitLab
template): files written from a dict, git run with a fixed identity."""
import os
import shutil
import subprocess
import tempfile

IDENTITY = {"GIT_AUTHOR_NAME": "pgconflint-test", "GIT_AUTHOR_EMAIL": "test@example.com",
            "GIT_COMMITTER_NAME": "pgconflint-test", "GIT_COMMITTER_EMAIL": "test@example.com"}


def write_tree(root, files):
    """Writes {relative path: text} below `root`, creating directories."""
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


def git(cwd, *args):
    """Runs git in `cwd` with the test identity; returns its standard output."""
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env=dict(os.environ, **IDENTITY)).stdout


def environment(**more):
    """os.environ with the test identity (for tools that commit, such as pre-commit)."""
    return dict(os.environ, **IDENTITY, **more)


def repository(test, files, prefix="pgconflint-repo-", message=None):
    """A new git work tree (branch main) holding `files`, staged, and committed as `message`
    when one is given; removed when `test` (a unittest.TestCase) ends."""
    d = tempfile.mkdtemp(prefix=prefix)
    test.addCleanup(shutil.rmtree, d, True)
    write_tree(d, files)
    git(d, "init", "-q", "-b", "main")
    git(d, "add", "-A")
    if message:
        git(d, "commit", "-qm", message)
    return d
