"""
pbshared.py - the small files a test shares with a running pitbossd or pitboss through a mapping: the
test clock's offset (pbclock.py) and the control block of the allocation failures (pbfaults.py).  Both
are made, written and read by the one function here.

Python 3 standard library only.
"""
import ctypes
import mmap
import os


def mapped(path, layout, fn=None, create=False):
    """Maps the file at path shared, sees it as `layout` (a ctypes type, whose size is the file's), and
    returns fn(view); the mapping is gone when it returns, so fn must not keep the view.  create: first
    makes the file anew, zeroed, mode 0600 (fn may then be None).  A field is written with one aligned
    store of its own size, so a program mapping the same file never reads half of an old value."""
    size = ctypes.sizeof(layout)
    fd = os.open(path, os.O_RDWR | (os.O_CREAT | os.O_TRUNC if create else 0), 0o600)
    try:
        if create:
            os.write(fd, b"\0" * size)
        if fn is None:
            return None
        mm = mmap.mmap(fd, size)
        try:
            view = layout.from_buffer(mm)
            try:
                return fn(view)
            finally:
                del view        # the mapping cannot close while a view of it lives
        finally:
            mm.close()
    finally:
        os.close(fd)
