#!/usr/bin/python3
"""docs/onnx.md's operator table against the importer's own list (ctest
onnx_operator_table_current; issue 22):

    tests/onnx/operator_table_test.py DAVINCI_SIM WORK_DIR

The table under "## Operators" is written by hand; the list is what the
binary prints when it refuses an unknown operator ("supported: ...", the
keys of onnx_op_table()). The ONNX operator names in the table's first
column, outside the row of the GELU subgraph (whose Erf is mapped only
inside that pattern), must be exactly the list: an operator the importer
maps that the table leaves out, or one the table names that the importer
refuses, fails the test. So does each operator named in bold in the
paragraph "Not mapped" that the importer maps. The check is first run on
tables altered to fail it."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from node_tests import supported_operators  # noqa: E402

DOCS = os.path.join(ROOT, "docs", "onnx.md")
NAME = re.compile(r"\b[A-Z][A-Za-z0-9]*\b")


def table_operators(text):
    """(names in the first column of the table under '## Operators', outside the GELU row;
    names in bold in the paragraph that starts 'Not mapped')."""
    start = text.index("\n## Operators\n")
    end = text.index("\n## ", start + 1)
    section = text[start:end]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| ONNX ")]
    names = set()
    for row in rows:
        first, second = [c.strip() for c in row.strip("|").split("|")[:2]]
        if second.startswith("`gelu(x)`"):
            continue
        names |= set(NAME.findall(first))
    not_mapped = section[section.index("\nNot mapped"):]
    not_mapped = not_mapped[:not_mapped.index("\n\n")]
    return names, set(re.findall(r"\*\*([A-Za-z0-9]+)\*\*", not_mapped))


def problems(text, supported):
    names, refused = table_operators(text)
    out = ["the importer maps %s, which docs/onnx.md's table leaves out" % n for n in sorted(supported - names)]
    out += ["docs/onnx.md's table names %s, which the importer does not map" % n for n in sorted(names - supported)]
    out += ["docs/onnx.md says %s is not mapped; the importer maps it" % n for n in sorted(refused & supported)]
    return out


def main():
    sim, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)
    supported = supported_operators(sim, work)
    with open(DOCS) as f:
        text = f.read()
    # The check fails what it must: a row dropped, an operator added to a row, one said not mapped.
    row = next(line for line in text.splitlines() if line.startswith("| Transpose |"))
    for altered, what in ((text.replace(row + "\n", ""), "a row dropped"),
                          (text.replace("| Transpose |", "| Transpose, Tile |"), "an unmapped operator in a row"),
                          (text.replace("\nNot mapped, with the reason the error gives: ",
                                        "\nNot mapped, with the reason the error gives: **Relu**, "),
                           "a mapped operator said not mapped")):
        if altered == text or not problems(altered, supported):
            sys.exit("operator_table_test.py: self-test: %s passes the check" % what)
    found = problems(text, supported)
    for p in found:
        print("FAIL: " + p)
    print("docs/onnx.md's operator table: %d operators, the importer's list: %d" % (
        len(table_operators(text)[0]), len(supported)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
