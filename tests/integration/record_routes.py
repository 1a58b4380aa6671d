#!/usr/bin/env python3
"""
record_routes.py - makes tests/integration/data/routes_answers.json, the
recording test_routes.py compares the daemon's answers with, again: the same
walk against a fresh daemon of PB_BUILD_DIR (default build/), written only
when it differs, with a summary of the keys added, removed and changed.

    make record-routes            (or: PB_BUILD_DIR=build python3 tests/integration/record_routes.py)

Only by hand, after a deliberate change of the routes or of their answers,
and the diff of the file reviewed before it is committed: the recording is
what the test holds the daemon to.  Refused when the environment has CI (a
CI run compares, it never records).
"""
import json
import os
import sys

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main():
    if "CI" in os.environ:
        print("record_routes: CI is set: the recording is never made in CI; run this by hand outside it",
              file=sys.stderr)
        return 2
    if len(sys.argv) > 1:
        print("usage: [PB_BUILD_DIR=BUILD] %s" % sys.argv[0], file=sys.stderr)
        return 2
    import pbtest
    import test_routes

    routes = test_routes.listed_routes()
    with pbtest.Daemon() as d:
        d.start()
        got = test_routes.walk(d, routes)
        d.stop()
    try:
        want = test_routes.read_recording()
    except FileNotFoundError:
        want = {}
    added = sorted(set(got) - set(want))
    removed = sorted(set(want) - set(got))
    changed = sorted(k for k in set(got) & set(want) if got[k] != want[k])
    for title, keys in (("added", added), ("removed", removed), ("changed", changed)):
        print("record_routes: %d %s" % (len(keys), title))
        for k in keys[:50]:
            print("  " + k)
        if len(keys) > 50:
            print("  ... and %d more" % (len(keys) - 50))
    if not (added or removed or changed):
        print("record_routes: %s is up to date" % test_routes.FIXTURE)
        return 0
    tmp = test_routes.FIXTURE + ".tmp"
    with open(tmp, "w") as f:
        json.dump(got, f, indent=0, sort_keys=True)
        f.write("\n")
    os.replace(tmp, test_routes.FIXTURE)
    print("record_routes: wrote %s: review `git diff` before committing it" % test_routes.FIXTURE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
