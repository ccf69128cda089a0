#!/usr/bin/env python3
"""Runs every command excerpt the documentation shows with its output and
compares the output with what the binary prints now, so the docs cannot go
stale (ctest `doc_excerpts`).

An excerpt is a line `$ COMMAND` in a code block (indented by four spaces or
fenced with ```) of README.md, docs/*.md, configs/README.md or
traces/README.md, followed by its output up to the next `$ ` line or the
block's end. COMMAND runs in bash from a scratch directory that links the
repository's models/, tests/, configs/, scripts/ and docs/, and has
build/davinci-sim, the binary under test (--sim-dir), also first on PATH
(`davinci-sim`); its stderr is merged into its stdout. In the shown output:

* a line `...` stands for any number of lines, and `...` inside a line for
  any text;
* `<!-- excerpt: figures vary -->` on the line before a code block makes
  every number in its excerpts match any number, and the spaces that
  align them any spaces (wall times, memory);
* `<!-- excerpt: same as PATH -->` on the line before a code block
  requires it to be the repository's file PATH, as it is (a shipped
  example the prose shows);
* `<!-- excerpt: python module -->` on the line before a code block runs
  its excerpts only when the build has the Python module (build/python,
  linked into the scratch directory; a sanitized build has none, and
  its excerpts are counted as skipped);
* `<!-- excerpt-file: NAME -->` on the line before a code block writes the
  block, as it is, to NAME in the scratch directory (a program the prose
  shows and then runs); `$ cat NAME` of a file that does not exist writes
  the output shown as NAME.

    /usr/bin/python3 scripts/doc_excerpts.py            # check all, exit 1 on a difference
    /usr/bin/python3 scripts/doc_excerpts.py --list     # the excerpts found
"""

import argparse
import difflib
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINKED = ["models", "tests", "configs", "scripts", "docs", "dsl", "sim", "traces"]
MARKER = re.compile(r"^\s*<!--\s*excerpt(-file)?:\s*(.*?)\s*-->\s*$")
NUMBER = re.compile(r"\d[\d,.]*")


def doc_files():
    files = [os.path.join(ROOT, "README.md")]
    files += sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    files += [os.path.join(ROOT, "configs", "README.md"), os.path.join(ROOT, "traces", "README.md")]
    return [f for f in files if os.path.exists(f)]


class Block:
    """A code block: its lines (prefix removed), where it starts, and the
    marker on the line before it."""

    def __init__(self, path, first_line, lines, marker):
        self.path, self.first_line, self.lines, self.marker = path, first_line, lines, marker


def blocks_of(path):
    with open(path) as f:
        text = f.read().split("\n")
    out = []
    i = 0

    def marker_before(k):
        j = k - 1
        while j >= 0 and not text[j].strip():
            j -= 1
        m = MARKER.match(text[j]) if j >= 0 else None
        return (("file" if m.group(1) else "mode"), m.group(2)) if m else None

    while i < len(text):
        line = text[i]
        if line.lstrip().startswith("```"):
            indent = line[:len(line) - len(line.lstrip())]
            start = i
            i += 1
            body = []
            while i < len(text) and not text[i].lstrip().startswith("```"):
                body.append(text[i][len(indent):] if text[i].startswith(indent) else text[i].lstrip())
                i += 1
            out.append(Block(path, start + 2, body, marker_before(start)))
            i += 1
            continue
        # An indented block: four spaces after a blank line (not a list item's text).
        if line.startswith("    ") and (i == 0 or not text[i - 1].strip()):
            start = i
            body = []
            while i < len(text) and (text[i].startswith("    ") or
                                     (not text[i].strip() and i + 1 < len(text) and text[i + 1].startswith("    "))):
                body.append(text[i][4:])
                i += 1
            out.append(Block(path, start + 1, body, marker_before(start)))
            continue
        i += 1
    return out


class Excerpt:
    def __init__(self, block, line, command, expected):
        self.block, self.line, self.command, self.expected = block, line, command, expected


def excerpts_of(block):
    out = []
    k = 0
    while k < len(block.lines):
        if block.lines[k].startswith("$ "):
            command = block.lines[k][2:]
            j = k + 1
            while j < len(block.lines) and not block.lines[j].startswith("$ "):
                j += 1
            expected = [l.rstrip() for l in block.lines[k + 1:j]]
            while expected and not expected[-1]:
                expected.pop()
            out.append(Excerpt(block, block.first_line + k, command, expected))
            k = j
        else:
            k += 1
    return out


def line_pattern(expected, numbers_vary):
    parts = []
    for piece in re.split(r"(\.\.\.)", expected):
        if piece == "...":
            parts.append(".*")
        elif numbers_vary:
            # Numbers, and the spaces that align them in columns, vary.
            for token in re.split(r"(\d[\d,.]*|\s+)", piece):
                if NUMBER.fullmatch(token):
                    parts.append(r"\d[\d,.]*")
                elif token and token.isspace():
                    parts.append(r"\s+")
                else:
                    parts.append(re.escape(token))
        else:
            parts.append(re.escape(piece))
    return re.compile("".join(parts))


def matches(expected, actual, numbers_vary):
    """Whether the actual lines match the shown ones (`...` lines skip)."""
    memo = {}

    def go(e, a):
        if (e, a) in memo:
            return memo[(e, a)]
        if e == len(expected):
            r = a == len(actual)
        elif expected[e].strip() == "...":
            r = any(go(e + 1, b) for b in range(a, len(actual) + 1))
        else:
            r = a < len(actual) and line_pattern(expected[e], numbers_vary).fullmatch(actual[a]) is not None and \
                go(e + 1, a + 1)
        memo[(e, a)] = r
        return r

    return go(0, 0)


def run_all(sim_dir, only=None):
    failures = 0
    checked = 0
    skipped = 0
    for path in doc_files():
        rel = os.path.relpath(path, ROOT)
        if only and rel not in only:
            continue
        with tempfile.TemporaryDirectory() as scratch:
            for name in LINKED:
                if os.path.exists(os.path.join(ROOT, name)):
                    os.symlink(os.path.join(ROOT, name), os.path.join(scratch, name))
            # build/davinci-sim, as the documents write it, is the binary
            # under test (a sanitized build's too).
            os.makedirs(os.path.join(scratch, "build"))
            os.symlink(os.path.join(sim_dir, "davinci-sim"), os.path.join(scratch, "build", "davinci-sim"))
            has_module = os.path.isdir(os.path.join(sim_dir, "python", "davinci_sim"))
            if has_module:
                os.symlink(os.path.join(sim_dir, "python"), os.path.join(scratch, "build", "python"))
            env = dict(os.environ, PATH=sim_dir + os.pathsep + os.environ.get("PATH", ""),
                       SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
            for block in blocks_of(path):
                if block.marker and block.marker[0] == "mode" and block.marker[1].startswith("same as "):
                    shown = os.path.join(ROOT, block.marker[1][len("same as "):])
                    checked += 1
                    try:
                        with open(shown) as f:
                            same = f.read().rstrip("\n") == "\n".join(block.lines).rstrip("\n")
                    except OSError:
                        same = False
                    if not same:
                        failures += 1
                        print("%s:%d: the block is not %s as it is" % (rel, block.first_line,
                                                                        os.path.relpath(shown, ROOT)))
                if block.marker and block.marker[0] == "file":
                    with open(os.path.join(scratch, block.marker[1]), "w") as f:
                        f.write("\n".join(block.lines).rstrip("\n") + "\n")
                numbers_vary = block.marker == ("mode", "figures vary")
                if block.marker == ("mode", "python module") and not has_module:
                    skipped += len(excerpts_of(block))
                    continue
                for ex in excerpts_of(block):
                    m = re.fullmatch(r"cat (\S+)", ex.command)
                    if m and not os.path.exists(os.path.join(scratch, m.group(1))):
                        with open(os.path.join(scratch, m.group(1)), "w") as f:
                            f.write("\n".join(ex.expected) + "\n")
                    p = subprocess.run(["bash", "-c", "exec 2>&1; " + ex.command], cwd=scratch, env=env,
                                       capture_output=True, text=True, timeout=600)
                    actual = [l.rstrip() for l in p.stdout.split("\n")]
                    while actual and not actual[-1]:
                        actual.pop()
                    checked += 1
                    if not matches(ex.expected, actual, numbers_vary):
                        failures += 1
                        print("%s:%d: $ %s: the output differs from the shown one" % (rel, ex.line, ex.command))
                        for d in difflib.unified_diff(ex.expected, actual, "shown", "printed", lineterm="", n=1):
                            print("    " + d)
    print("doc excerpts: %d checked, %s%s" % (checked, "%d differ" % failures if failures else "all as shown",
                                              ", %d skipped (no Python module)" % skipped if skipped else ""))
    return 1 if failures else 0


def main():
    global ROOT
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sim-dir", default=os.path.join(ROOT, "build"), help="the directory of davinci-sim")
    ap.add_argument("--list", action="store_true", help="list the excerpts and exit")
    ap.add_argument("--root", help="the documents' tree (default: this repository)")
    ap.add_argument("files", nargs="*", help="only these documents (paths from the repository root)")
    args = ap.parse_args()
    if args.root:
        ROOT = os.path.abspath(args.root)
    if args.list:
        for path in doc_files():
            for block in blocks_of(path):
                for ex in excerpts_of(block):
                    print("%s:%d: $ %s (%d lines shown)" % (os.path.relpath(path, ROOT), ex.line, ex.command,
                                                           len(ex.expected)))
        return 0
    return run_all(os.path.abspath(args.sim_dir), set(args.files) or None)


if __name__ == "__main__":
    sys.exit(main())
