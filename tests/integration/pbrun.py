#!/usr/bin/env python3
"""
pbrun.py FILE - runs the tests of one integration test file as ctest does
(tests/CMakeLists.txt): the file is imported as a module, whatever its own
__main__ does, and every test of it is run.

Exit status: 0 every test passed; 1 a failure or error, or no test at all;
77 the others passed but a test was skipped (skipTest, unittest.skip*,
SkipTest in setUpClass) or is expected to fail.  77 is the tests'
SKIP_RETURN_CODE: ctest shows the file as "Skipped" in its summary, and the
log names each test left out with its reason.
"""
import importlib.util
import os
import sys
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree


def main():
    if len(sys.argv) != 2:
        print("usage: pbrun.py TEST_FILE", file=sys.stderr)
        return 2
    path = os.path.abspath(sys.argv[1])
    name = os.path.splitext(os.path.basename(path))[0]
    sys.path.insert(0, os.path.dirname(path))
    import pbtest
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except unittest.SkipTest as e:
        print("%s: SKIPPED: the whole file: %s" % (os.path.basename(path), e), file=sys.stderr)
        return pbtest.EXIT_SKIPPED
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    return pbtest.run_suite(suite, os.path.basename(path))


if __name__ == "__main__":
    sys.exit(main())
