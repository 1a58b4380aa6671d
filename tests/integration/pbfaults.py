"""
pbfaults.py - the control file of allocation failures on demand (daemon/common/faults.h,
docs/reliability.md "Allocation failures").

A pitboss or pitbossd of a build for the tests, started with PITBOSS_TEST_FAULTS=FILE, maps
FILE shared: four native int64s,

    [0] fail_at   the allocation (counted from 1) that fails; 0: none
    [1] flags     STICKY: it and every one after it fail, not it alone;
                  NO_LIBRARY: SQLite's allocations are neither counted nor failed
    [2] counted   allocations counted so far (written by the program)
    [3] failed    allocations failed so far (written by the program)

`pitboss` counts every allocation of its process, pitbossd those made while it handles a
request.  arm() sets which one fails and zeroes the counts; counts() reads them back.

Python 3 standard library only.
"""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pbshared import mapped  # noqa: E402

ENV = "PITBOSS_TEST_FAULTS"     # the variable naming the file
STICKY = 1
NO_LIBRARY = 2


class Block(ctypes.Structure):
    _fields_ = [("fail_at", ctypes.c_int64), ("flags", ctypes.c_int64), ("counted", ctypes.c_int64),
                ("failed", ctypes.c_int64)]


def create(path):
    """Makes the file: nothing fails, nothing counted (mode 0600)."""
    mapped(path, Block, create=True)


def arm(path, fail_at, sticky=False, library=True):
    """The fail_at-th allocation counted from now fails (with sticky, every one from it on); 0: none.
    library False leaves SQLite's allocations out of the count.  The counts start again from 0."""
    def store(b):
        b.fail_at = 0
        b.counted = 0
        b.failed = 0
        b.flags = (STICKY if sticky else 0) | (0 if library else NO_LIBRARY)
        b.fail_at = int(fail_at)
    mapped(path, Block, store)


def counts(path):
    """(allocations counted, allocations failed) since the last arm()."""
    return mapped(path, Block, lambda b: (b.counted, b.failed))
