#!/usr/bin/python3
"""scripts/doc_excerpts.py on a small tree of its own: an excerpt whose
output is as shown passes (with `...` lines and `...` in a line, and
numbers masked under `figures vary`), one whose output changed fails with
a diff naming the document and line, and files are written from
`excerpt-file` blocks and from `$ cat` of a missing file.

    tests/scripts/doc_excerpts_test.py SOURCE_DIR [unittest args]
"""
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE = None

GOOD = '''# A document

    $ echo one; echo two; echo three
    one
    ...

    $ printf 'total cycles 1,234 (5 us)\\n'
    total ... (5 us)

<!-- excerpt: figures vary -->
```
$ printf 'took 0.0123 s\\n'
took 9.99 s
```

<!-- excerpt-file: prog.txt -->
```text
hello from a file
```

```
$ cat prog.txt
hello from a file
$ cat shown.txt
written from the doc
$ cat shown.txt | wc -l
1
```
'''

SAME = '''# Shipped

<!-- excerpt: same as shipped.txt -->
```
line one
```
'''

STALE = '''# Another

    $ echo now
    then
'''


class DocExcerpts(unittest.TestCase):
    def run_on(self, text, shipped="line one\n"):
        with tempfile.TemporaryDirectory() as root:
            with open(os.path.join(root, "README.md"), "w") as f:
                f.write(text)
            with open(os.path.join(root, "shipped.txt"), "w") as f:
                f.write(shipped)
            return subprocess.run(["/usr/bin/python3", os.path.join(SOURCE, "scripts", "doc_excerpts.py"), "--root",
                                   root], capture_output=True, text=True)

    def test_as_shown_passes(self):
        p = self.run_on(GOOD)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("doc excerpts: 6 checked, all as shown", p.stdout)

    def test_stale_output_fails_with_a_diff(self):
        p = self.run_on(STALE)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("README.md:3: $ echo now: the output differs from the shown one", p.stdout)
        self.assertIn("    -then", p.stdout)
        self.assertIn("    +now", p.stdout)

    def test_a_shipped_file_shown_as_it_is(self):
        self.assertEqual(self.run_on(SAME).returncode, 0)
        p = self.run_on(SAME, shipped="line two\n")
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("README.md:5: the block is not shipped.txt as it is", p.stdout)

    def test_numbers_must_match_unless_they_vary(self):
        p = self.run_on(GOOD.replace("<!-- excerpt: figures vary -->\n", ""))
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("$ printf 'took 0.0123 s\\n': the output differs", p.stdout)


if __name__ == "__main__":
    SOURCE = sys.argv.pop(1)
    unittest.main()
