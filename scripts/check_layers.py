#!/usr/bin/python3
"""Checks the dependency rule of the layout (README.md, "Layout"): every
#include of a project header stays inside what its folder's library may use.

    scripts/check_layers.py [--root DIR] [--graph]

The compiler's libraries and their direct dependencies are read from
dsl/CMakeLists.txt (davinci_dsl_library(NAME DIR DEPS ...)), the single
place they are declared; a folder may include its own headers and those of
every library it reaches through DEPS. The simulator's rule is DESIGN.md's:
sim/arch includes only itself; sim/hw sim/arch and sim/trace; sim/trace and
sim/func sim/arch; dsl/ never sim/hw, sim/trace, sim/func or sim/cli; the run
driver (sim/cli/driver) everything but the command line (sim/cli), and so
does the Python module's extension (python/native), the driver included.
Header-only dependencies are what the linker cannot see, hence this check.
It also fails when the library graph has a cycle, or when README.md's
layout tree does not name a dsl/ folder. --graph prints the graph.
Exit status 0 when every include obeys, 1 otherwise (each offence named).
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"((?:dsl|sim)/[^"]+)"', re.M)
LIBRARY = re.compile(r"davinci_dsl_library\(\s*(\w+)\s+([\w/]+)((?:\s+DEPS(?:\s+\w+)+)?)\s*\)", re.S)
ENTRY_HEADERS = {"dsl/compiler.h"}  # the compiler's public entry, the one file at the top of dsl/
SIM_TARGETS = {"davinci_arch": "sim/arch"}
SIM_RULES = {
    "sim/arch": {"sim/arch"},
    "sim/trace": {"sim/arch", "sim/trace"},
    "sim/func": {"sim/arch", "sim/func"},
    "sim/hw": {"sim/arch", "sim/trace", "sim/hw"},
}


def dsl_libraries(root):
    """{library folder: the folders it links directly}, from dsl/CMakeLists.txt."""
    with open(os.path.join(root, "dsl", "CMakeLists.txt"), encoding="utf-8") as f:
        text = re.sub(r"#.*", "", f.read())
    folder_of, deps = {}, {}
    for name, folder, dep_text in LIBRARY.findall(text):
        folder_of[name] = "dsl/" + folder
        deps[name] = dep_text.split()[1:] if dep_text.strip() else []
    folder_of.update(SIM_TARGETS)
    direct = {folder_of[n]: {folder_of.get(d, d) for d in ds} for n, ds in deps.items()}
    return direct


def closure(direct, start, seen=None):
    seen = set() if seen is None else seen
    for d in direct.get(start, ()):
        if d not in seen:
            seen.add(d)
            closure(direct, d, seen)
    return seen


def find_cycle(direct):
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for d in sorted(direct.get(n, ())):
            if state.get(d) == 1:
                return stack[stack.index(d):] + [d]
            if d in direct and not state.get(d):
                c = visit(d)
                if c:
                    return c
        state[n] = 2
        stack.pop()
        return None

    for n in sorted(direct):
        if not state.get(n):
            c = visit(n)
            if c:
                return c
    return None


def readme_tree(root):
    """The dsl/ folders the layout tree of README.md names (indented two
    spaces a level under `dsl/`)."""
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.find("## Layout")
    block = text[text.find("```", start) + 3:text.find("```", text.find("```", start) + 3)]
    folders, stack = set(), []
    for line in block.split("\n"):
        m = re.match(r"^( *)([\w.]+)/\s", line + " ")
        if not m:
            continue
        depth = len(m.group(1)) // 2
        stack = stack[:depth] + [m.group(2)]
        if stack[0] == "dsl" and depth > 0:
            folders.add("/".join(stack))
    return folders


def owner(path, folders):
    """The longest library folder containing path."""
    best = None
    for f in folders:
        if path.startswith(f + "/") and "/" not in path[len(f) + 1:] and (best is None or len(f) > len(best)):
            best = f
    return best


def main():
    args = sys.argv[1:]
    root = args[args.index("--root") + 1] if "--root" in args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    direct = dsl_libraries(root)
    problems = []
    cycle = find_cycle(direct)
    if cycle:
        problems.append("the dsl libraries form a cycle: " + " -> ".join(cycle))
    allowed = {f: closure(direct, f) | {f} for f in direct}
    allowed.update(SIM_RULES)
    # The run driver may use everything but the command line above it (a
    # Python module drives runs without it).
    allowed["sim/cli/driver"] = (set(allowed) | {"sim/cli/driver"}) - {"sim/cli"}
    # The Python module's extension is another caller of the driver: what
    # the driver may use, the driver, and never the command line.
    allowed["python/native"] = allowed["sim/cli/driver"] | {"python/native"}
    folders = list(allowed)
    if "--graph" in args:
        for f in sorted(direct):
            print("%s -> %s" % (f, ", ".join(sorted(direct[f])) or "(nothing)"))
    checked = 0
    for top in ("dsl", "sim", "python"):
        for dirpath, dirnames, names in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for n in sorted(names):
                if not n.endswith((".cpp", ".h", ".def")):
                    continue
                path = os.path.relpath(os.path.join(dirpath, n), root)
                if path.count("/") == 1 and top == "dsl" and path not in ENTRY_HEADERS:
                    problems.append("%s: a source file at the top of dsl/ (each belongs to a phase folder)" % path)
                    continue
                mine = owner(path, folders)
                if mine is None:
                    continue  # sim/cli: everything
                with open(os.path.join(root, path), encoding="utf-8") as f:
                    text = f.read()
                for inc in INCLUDE.findall(text):
                    checked += 1
                    theirs = owner(inc, folders) or os.path.dirname(inc)
                    if theirs not in allowed[mine]:
                        problems.append("%s includes %s: %s may not use %s" % (path, inc, mine, theirs))
    tree = readme_tree(root)
    for f in sorted(set(direct) - tree):
        problems.append("README.md's layout tree does not name %s/" % f)
    for f in sorted(tree - set(direct)):
        problems.append("README.md's layout tree names %s/, which is no library" % f)
    for p in problems:
        print(p)
    print("check_layers: %d libraries, %d includes checked, %d problems" % (len(direct), checked, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
