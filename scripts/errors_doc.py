#!/usr/bin/python3
"""Checks docs/errors.md, the catalogue of every error davinci-sim gives,
against the real binary:  scripts/errors_doc.py BUILD/davinci-sim [--update]

Each entry is a level-3 heading followed by fenced blocks:
  ```LANG file=NAME        an input file, written as is
  ```python generate=NAME  an input file: the bytes of a Python expression
                           (for binary, huge or deeply nested inputs)
  ```sh                    the command: one line "davinci-sim ARGS"
  ```text stderr exit=N    exactly what it prints on stderr, and its status
  ```text stderr-head exit=N   the same, for the first lines only (the
                           usage text that follows a command-line error)
Each command runs in a fresh directory holding its input files and links to
the repository's models/, configs/ and tests/, so messages name short paths.
Exit status 0 when every entry matches; otherwise each mismatch is shown.
--update rewrites the expected blocks from what the binary says instead:
review the diff before committing it."""
import concurrent.futures
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "errors.md")
FENCE = re.compile(r"^```(.*)$")


def parse(lines):
    """[(heading, [block]),...]; a block is (info, first_line, last_line, text)."""
    entries, i = [], 0
    while i < len(lines):
        if lines[i].startswith("### "):
            entries.append((lines[i][4:].strip(), []))
        m = FENCE.match(lines[i])
        if m and m.group(1):
            info, start = m.group(1).split(), i
            i += 1
            body = []
            while i < len(lines) and lines[i] != "```":
                body.append(lines[i])
                i += 1
            if entries:
                entries[-1][1].append((info, start, i, "".join(b + "\n" for b in body)))
        i += 1
    return entries


def option(info, key):
    for word in info[1:]:
        if word.startswith(key + "="):
            return word[len(key) + 1:]
    return None


LINKS = ("models", "configs", "tests")


def prepare(work, blocks):
    """Sets up the entry's directory `work`: its input files and links to the
    repository's models/, configs/ and tests/. Returns (the command's words,
    its environment, the expected block or None)."""
    for name in LINKS:
        os.symlink(os.path.join(ROOT, name), os.path.join(work, name))
    command, expected = None, None
    for block in blocks:
        info, _, _, text = block
        if option(info, "file"):
            with open(os.path.join(work, option(info, "file")), "w", encoding="utf-8") as f:
                f.write(text)
        elif option(info, "generate"):
            with open(os.path.join(work, option(info, "generate")), "wb") as f:
                f.write(eval(text, {}))  # the repository's own document
        elif info[0] == "sh":
            command = text.strip()
        elif len(info) > 1 and info[1] in ("stderr", "stderr-head"):
            expected = block
    words = shlex.split(command) if command else []
    # Leading NAME=VALUE words set the environment, as in a shell.
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    return words, env, expected


def run(binary, heading, blocks):
    """(expected block, actual stderr, actual status) or an error string."""
    work = tempfile.mkdtemp(prefix="davinci-errors-")
    try:
        words, env, expected = prepare(work, blocks)
        if not words or words[0] != "davinci-sim" or expected is None:
            return "entry '%s' needs a ```sh davinci-sim ...``` block and a ```text stderr``` block" % heading
        args = words[1:]
        p = subprocess.run([binary] + args, cwd=work, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
        return expected, p.stderr.decode("utf-8", "replace"), p.returncode
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    args = [a for a in sys.argv[1:] if a != "--update"]
    update = "--update" in sys.argv[1:]
    if len(args) != 1:
        sys.exit(__doc__)
    binary = os.path.abspath(args[0])
    with open(DOC, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    entries = parse(lines)
    failures, replacements = [], []
    # The entries are independent processes (each in its own directory):
    # they run on every core, and are reported in the catalogue's order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        results = list(pool.map(lambda e: run(binary, e[0], e[1]), entries))
    for (heading, blocks), result in zip(entries, results):
        if isinstance(result, str):
            failures.append(result)
            continue
        (info, start, end, text), err, status = result
        want_status = int(option(info, "exit") or -1)
        head = info[1] == "stderr-head"
        got = err[:len(text)] if head else err
        if got != text or status != want_status:
            if update:
                new = err if not head else "".join(err.splitlines(True)[:max(1, text.count("\n"))])
                replacements.append((start, end, ["```text %s exit=%d" % (info[1], status)] + new.rstrip("\n").split("\n")))
            else:
                failures.append("### %s\n  expected (exit %d):\n%s  got (exit %d):\n%s" % (
                    heading, want_status, text, status, err))
    if update:
        for start, end, new in sorted(replacements, reverse=True):
            lines[start:end] = new
        with open(DOC, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        print("errors_doc: %d entries, %d updated" % (len(entries), len(replacements)))
        return
    for f in failures:
        print(f)
    print("errors_doc: %d entries, %d mismatches" % (len(entries), len(failures)))
    sys.exit(1 if failures or not entries else 0)


if __name__ == "__main__":
    main()
