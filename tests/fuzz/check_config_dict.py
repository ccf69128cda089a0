#!/usr/bin/python3
"""The config fuzz target's dictionary (tests/fuzz/config.dict) names every
config key: each dotted part of every key in sim/arch/config_params.def and
every vector operation class of sim/arch/vector_classes.def, so that a new
key reaches libFuzzer's mutations the day it is declared.

    /usr/bin/python3 tests/fuzz/check_config_dict.py REPO_ROOT
"""

import os
import re
import sys


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    with open(os.path.join(root, "sim/arch/config_params.def")) as f:
        keys = re.findall(r'^X\(\s*\w+,\s*\w+,\s*"([^"]+)"', f.read(), re.M)
    with open(os.path.join(root, "sim/arch/vector_classes.def")) as f:
        classes = re.findall(r"^VECTOR_CLASS\(\s*\w+,\s*(\w+),", f.read(), re.M)
    with open(os.path.join(root, "tests/fuzz/config.dict")) as f:
        words = set(re.findall(r'^"\\"([^\\"]+)\\""$', f.read(), re.M))
    if not keys or not classes:
        sys.exit("check_config_dict.py: found no keys or no vector classes: has a .def file's format changed?")
    wanted = sorted({part for key in keys for part in key.split(".")} | set(classes))
    missing = [w for w in wanted if w not in words]
    if missing:
        sys.exit("tests/fuzz/config.dict lacks %d config key name(s): %s" % (len(missing), ", ".join(missing)))
    print("tests/fuzz/config.dict names all %d config key parts and vector classes" % len(wanted))


if __name__ == "__main__":
    main()
