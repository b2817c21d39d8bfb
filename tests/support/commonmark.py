"""Markdown as a CommonMark renderer shows it: cmark, the reference implementation that
GitHub's renderer extends (scripts/setup.sh --tests installs it).

blocks(md) gives the fenced code blocks (language, text) and the text of every paragraph,
list item and heading, so a test can say where each statement ends up."""
import html.parser
import re
import shutil
import subprocess

# A line that starts like the statements and queries a plan prints (a finding's message may
# name ALTER SYSTEM; a statement run into a paragraph starts a line of it).
STATEMENT = re.compile(r"^\s*(SELECT |ALTER SYSTEM SET |SET \w+ =|SHOW \w+;|psql )", re.M)


def render(md):
    cmark = shutil.which("cmark")
    if cmark is None:
        raise RuntimeError("cmark not found: run scripts/setup.sh --tests")
    return subprocess.run([cmark], input=md.encode(), capture_output=True, check=True).stdout.decode()


class _Blocks(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.code, self.prose = [], []
        self._stack, self._lang, self._text = [], None, None

    def handle_starttag(self, tag, attrs):
        self._stack.append(tag)
        if tag == "code" and "pre" in self._stack:
            self._lang = dict(attrs).get("class", "").removeprefix("language-")
            self._text = []
        elif tag in ("p", "li", "h1", "h2", "h3", "h4", "h5", "h6") and self._lang is None:
            self.prose.append("")

    def handle_endtag(self, tag):
        if tag == "code" and self._lang is not None and "pre" in self._stack:
            self.code.append((self._lang, "".join(self._text)))
            self._lang, self._text = None, None
        while self._stack and self._stack.pop() != tag:
            pass

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)
        elif self.prose:
            self.prose[-1] += data


def blocks(md):
    """([(language, text)] of the code blocks, [text] of the paragraphs, items and headings)."""
    p = _Blocks()
    p.feed(render(md))
    return p.code, p.prose


def statements_in_prose(md):
    """The prose blocks that hold a statement: each should be in a code block instead."""
    return [t for t in blocks(md)[1] if STATEMENT.search(t)]
