#!/usr/bin/python3
"""scripts/error_sites.py on a small tree of its own: it finds the error
sites, matches them to the catalogue by every fixed piece of the message
(not the branches of a ?:), and fails naming a site without an entry.

    tests/scripts/error_sites_test.py SOURCE_DIR [unittest args]
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SOURCE = None

CPP = r'''
[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }
void f(int n) {
    if (n == 1) fail(loc, "count must be " + std::string(n > 0 ? "positive" : "non-negative") + ", got " + s);
    // fail(loc, "a comment is no site");
    if (n == 2) throw ConfigError(origin + ": chip.clusters: expected an object");
    if (n == 3) fail(loc, msg);  // forwards a message: no site
    if (n == 4) c.fail_at(arg.loc, "perm must have \"one\" entry per axis: " + text);
    if (n == 5) std::cerr << "davinci-sim: error: " << e.what() << "\n";  // forwards: no site
    if (n == 6) std::cerr << "davinci-sim: error: --outputs: cannot write to " << dir << "\n";
    if (n == 7) std::cerr << "progress: " << n << "\n";  // not an error
    std::snprintf(buf, sizeof buf, "invalid character U+%04X here", c);
}
'''

DOC = '''# Errors

### count

```text stderr exit=2
p.pto:1:1: error: count must be positive, got 0
```

### clusters

```text stderr exit=2
davinci-sim: error: c.json: chip.clusters: expected an object, got 1
```

### lexer

```text stderr exit=2
p.pto:1:1: error: invalid character U+0001 here
```

## Not reachable from the command line

* `dsl/sub/x.cpp`: "perm must have "one" entry per axis: ...": internal.
'''


class ErrorSitesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="error-sites-test-")
        # The sites are in a subfolder: the scan must reach every depth.
        for folder in ("dsl/sub", "sim/arch", "sim/cli", "sim/func", "docs"):
            os.makedirs(os.path.join(self.tmp, folder))
        self.write("dsl/sub/x.cpp", CPP)
        for folder in ("sim/arch", "sim/cli", "sim/func"):
            self.write(folder + "/y.h", "#pragma once\n")
        self.write("docs/errors.md", DOC)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, path, text):
        with open(os.path.join(self.tmp, path), "w") as f:
            f.write(text)

    def run_script(self, *args):
        return subprocess.run(["/usr/bin/python3", os.path.join(SOURCE, "scripts", "error_sites.py"),
                               "--root", self.tmp, *args], capture_output=True, text=True)

    def test_lists_sites_and_their_state(self):
        p = self.run_script("--list")
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertEqual(p.stdout.splitlines(), [
            "dsl/sub/x.cpp:4: covered: count must be ... , got",
            "dsl/sub/x.cpp:6: covered: : chip.clusters: expected an object",
            'dsl/sub/x.cpp:8: not reachable: perm must have "one" entry per axis:',
            "dsl/sub/x.cpp:10: MISSING: --outputs: cannot write to",
            "dsl/sub/x.cpp:12: covered: invalid character U+ ... here",
            "error_sites: 4 files, 5 sites (5 distinct messages): 3 covered, 1 not reachable, 1 missing"])

    def test_a_site_without_an_entry_fails(self):
        self.write("docs/errors.md", DOC.replace("expected an object", "expected an array"))
        p = self.run_script()
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertEqual(p.stdout.splitlines(), [
            "dsl/sub/x.cpp:6: no catalogue entry and no not-reachable line: : chip.clusters: expected an object",
            "dsl/sub/x.cpp:10: no catalogue entry and no not-reachable line: --outputs: cannot write to",
            "error_sites: 4 files, 5 sites (5 distinct messages): 2 covered, 1 not reachable, 2 missing"])

    def test_a_folder_without_sources_fails(self):
        os.remove(os.path.join(self.tmp, "sim/cli/y.h"))
        p = self.run_script()
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertEqual(p.stderr, "error_sites: no source files under sim/cli\n")

    def test_no_sites_fails(self):
        self.write("dsl/sub/x.cpp", "int f() { return 0; }\n")
        p = self.run_script()
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertEqual(p.stderr, "error_sites: no error sites found: the scan is broken\n")


if __name__ == "__main__":
    SOURCE = sys.argv.pop(1)
    unittest.main()
