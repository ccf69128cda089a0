#!/usr/bin/python3
"""Lists every user-facing error site in davinci-sim's sources and checks
that docs/errors.md catalogues each one:  scripts/error_sites.py [--list]

An error site is a place that composes a message the user can see:
  * a throw of CompileError, ConfigError, ProgramError, UsageError,
    JsonTextError, NpyError, FunctionalError, ReferenceError, or a file_error,
    and of std::invalid_argument (dsl/frontend/single_op.cpp's --op messages);
  * a call of a helper that throws one of them (fail, fail_at, usage_error,
    and main.cpp's error for output files);
  * a `davinci-sim: error:` print, and a snprintf format of a message;
  * an assignment of a reason that ends up in such a message (why = ...,
    error = ..., msg = ... / msg += ...).
Sites whose message is only a variable (fail(loc, msg) inside a helper,
rethrowing e.what()) forward another site's message and are skipped.

A site is matched by the fixed pieces of its message: its string literals
of three characters or more, except the branches of a ?: (only one is
printed; a site with no other piece is matched by its longest literal).
It is covered when one expected stderr block of docs/errors.md holds every
piece, or listed when one item ("* ...") of its section "Not reachable
from the command line" names the site's file and holds every piece (the
message quoted, with the reason).
Exit status 1 when a site is neither: add an entry that provokes it, or a
not-reachable line. --list prints every site with its state; --root DIR
checks another tree (the script's own test).

The scan is a pattern match, not a C++ parser: a message built in a way
these patterns do not see (a reason returned from a function, a message
written into a stream as --check's failure is) is missed, and two sites
with the same pieces are covered by one entry. sim/hw (the SystemC model)
and sim/trace (output files) are not scanned: their errors are failures of
the simulator (exit status 1) or of the machine (a failing disk, exit
status 4), listed at the end of docs/errors.md."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import errors_doc  # noqa: E402  (the catalogue's own parser)

# sim/hw and sim/trace fail only as bugs (exit status 1) or on a failing
# disk (exit status 4); tests/ and the oracle give no user messages.
SOURCE_DIRS = ["dsl", "sim/arch", "sim/cli", "sim/func"]
THROWN = ("CompileError|ConfigError|ProgramError|UsageError|JsonTextError|NpyError|"
          "FunctionalError|ReferenceError|file_error|std::invalid_argument")
# What starts a site; the site runs to the call's closing parenthesis, or to
# the statement's ';' for prints and assignments.
CALL = re.compile(r"\b(?:throw\s+(?:\w+::)*(?:%s)|fail|fail_at|usage_error|error|file_error)\s*\(" % THROWN)
# In the masked code a literal's text is blanked: a print is recognised by
# the literal that follows `std::cerr <<` (see sites()).
STATEMENT = re.compile(r"\bstd::cerr\s*<<\s*(?=\")|(?<![\w.>])(?:why|error|msg)\s*\+?=(?!=)")
# A printf format of a message (the lexer's invalid characters): each
# literal with a space is one message, its conversions left out.
FORMAT = re.compile(r"\bsnprintf\s*\(")
CONVERSION = re.compile(r"%[-+ #0-9.*]*[a-zA-Z]")
PREFIX = "davinci-sim: error: "
NOT_REACHABLE = "## Not reachable from the command line"


def mask(text):
    """(code, literals): the text with comments blanked and string contents
    replaced by spaces, and [(start, end, value)] of its string literals."""
    code, literals, i, n = list(text), [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            code[i:j] = " " * (j - i)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i) + 2
            code[i:j] = " " * (j - i)
            i = j
        elif c in "\"'":
            j, value = i + 1, []
            while j < n and text[j] != c:
                if text[j] == "\\":
                    value.append({"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}.get(text[j + 1], text[j + 1]))
                    j += 2
                else:
                    value.append(text[j])
                    j += 1
            if c == '"':
                literals.append((i, j + 1, "".join(value)))
            code[i + 1:j] = " " * (j - i - 1)
            i = j + 1
        else:
            i += 1
    return "".join(code), literals


def site_end(code, start, open_paren):
    if open_paren is None:
        return code.find(";", start)
    depth = 0
    for j in range(open_paren, len(code)):
        depth += {"(": 1, ")": -1}.get(code[j], 0)
        if depth == 0:
            return j
    return len(code)


def source_files(root):
    """Every .cpp and .h under SOURCE_DIRS, subfolders included, sorted.
    A folder without sources is an error: a move must not make the scan
    pass by scanning nothing."""
    files = []
    for folder in SOURCE_DIRS:
        found = []
        for dirpath, dirnames, names in os.walk(os.path.join(root, folder)):
            dirnames.sort()
            found += [os.path.relpath(os.path.join(dirpath, n), root) for n in sorted(names)
                      if n.endswith((".cpp", ".h"))]
        if not found:
            sys.exit("error_sites: no source files under %s" % folder)
        files += found
    return files


def sites(root):
    """[(path, line, pieces)] of every site with a fixed message text."""
    found = []
    for path in source_files(root):
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
        code, literals = mask(text)
        matches = [(m.start(), m.end() - 1) for m in CALL.finditer(code)]
        matches += [(m.start(), None) for m in STATEMENT.finditer(code)]
        for m in FORMAT.finditer(code):
            end = site_end(code, m.start(), m.end() - 1)
            for s, e, v in literals:
                if m.start() <= s and e <= end + 1 and " " in v:
                    pieces = [p.strip() for p in CONVERSION.split(v) if len(p.strip()) >= 3]
                    found.append((path, text.count("\n", 0, s) + 1, tuple(pieces)))
        for start, paren in sorted(matches):
            end = site_end(code, start, paren)
            if code.startswith("std::cerr", start) and not any(
                    s == code.index('"', start) and v.startswith(PREFIX) and v != PREFIX for s, _, v in literals):
                continue  # a print, but not of an error, or one that forwards a message
            if paren is not None and re.match(r"\(\s*(const\s|std::string\s|\))", code[paren:end + 1]):
                continue  # a declaration or definition, not a call
            inside = [(s, e, v.replace(PREFIX, "").strip()) for s, e, v in literals if start <= s and e <= end + 1]
            if not any(v for _, _, v in inside):
                continue
            # Every fixed piece must appear, except the branches of a ?: (only one of them is printed).
            fixed = [v for s, e, v in inside if len(v) >= 3 and not conditional(code, s, e)]
            longest = max((v for _, _, v in inside), key=len)
            found.append((path, text.count("\n", 0, start) + 1, tuple(fixed) or (longest,)))
    return sorted(found)


def conditional(code, s, e):
    """Whether the literal code[s:e] is a branch of a ?: operator."""
    before = code[:s].rstrip()[-1:]
    after = code[e:].lstrip()[:1]
    return before == "?" or (before == ":" and not code[:s].rstrip().endswith("::")) or \
        (after == ":" and not code[e:].lstrip().startswith("::"))


def catalogue(doc):
    """(expected stderr texts, the not-reachable section's items)."""
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    stderr = [body for _, blocks in errors_doc.parse(text.split("\n"))
              for info, _, _, body in blocks if len(info) > 1 and info[1] in ("stderr", "stderr-head")]
    k = text.find(NOT_REACHABLE)
    # One entry per list item ("* ..."), which may wrap over several lines.
    items = re.split(r"\n(?=\s*\* )", text[k:]) if k >= 0 else []
    return stderr, [" ".join(item.split()) for item in items]


def main():
    args = sys.argv[1:]
    listing = "--list" in args
    root = args[args.index("--root") + 1] if "--root" in args else ROOT
    stderr, unreachable = catalogue(os.path.join(root, "docs", "errors.md"))
    missing, counts = [], {"covered": 0, "not reachable": 0, "MISSING": 0}
    all_sites = sites(root)
    for path, line, pieces in all_sites:
        fragment = " ... ".join(pieces)
        if any(all(p in body for p in pieces) for body in stderr):
            state = "covered"
        elif any(path in entry and all(p in entry for p in pieces) for entry in unreachable):
            state = "not reachable"
        else:
            state = "MISSING"
            missing.append((path, line, fragment))
        counts[state] += 1
        if listing:
            print("%s:%d: %s: %s" % (path, line, state, fragment))
    if not listing:
        for path, line, fragment in missing:
            print("%s:%d: no catalogue entry and no not-reachable line: %s" % (path, line, fragment))
    if not all_sites:
        sys.exit("error_sites: no error sites found: the scan is broken")
    print("error_sites: %d files, %d sites (%d distinct messages): %d covered, %d not reachable, %d missing" % (
        len(source_files(root)), len(all_sites), len({f for _, _, f in all_sites}), counts["covered"], counts["not reachable"],
        counts["MISSING"]))
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
