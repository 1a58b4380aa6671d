"""
pbclock.py - the test clock's file (docs/reliability.md, "The test clock").

A pitbossd built with the test clock and started with PITBOSS_TEST_CLOCK=FILE
adds to the real time the offset FILE holds: 8 bytes, a native int64, in
milliseconds.  The daemon maps the file shared and reads the offset at every
reading of its wall clock, so a new offset counts at once.  The tests only
ever move it forward.

    pbtest.Daemon(clock=True)        creates the file, passes the variable;
                                     d.advance_clock(seconds) writes here
    python3 pbclock.py FILE MS       writes MS as the offset (the browser
                                     tests' harness, tests/browser/harness.mjs)

The offset is written with one aligned 8-byte store into a shared mapping of
the file (ctypes' c_int64, pbshared.mapped), so that the daemon never reads half of an old
offset and half of a new one.

Python 3 standard library only.
"""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pbshared import mapped  # noqa: E402

ENV = "PITBOSS_TEST_CLOCK"     # the variable naming the file


def create(path):
    """Makes the file with the offset 0 (mode 0600)."""
    mapped(path, ctypes.c_int64, create=True)


def write(path, offset_ms):
    """Writes the offset (ms) in one store."""
    def store(cell):
        cell.value = int(offset_ms)
    mapped(path, ctypes.c_int64, store)


def read(path):
    """The offset (ms) the file holds."""
    return mapped(path, ctypes.c_int64, lambda cell: cell.value)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: pbclock.py FILE OFFSET_MS")
    write(sys.argv[1], int(sys.argv[2]))
