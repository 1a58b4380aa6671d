"""
A sign-in flood must not stall the floor (docs/security.md, "The lockout"):
a dealer's whole 6-seat rounds, posted one after another, measured alone and
during two floods of sign-ins from another process, on 16 keep-alive
connections (32 for the second):

  locked   every attempt from one address that locked itself out with its
           first five: refused before any hashing (measured before the
           change: a dealer's round p50 788 ms, max 3.5 s);
  hashing  every attempt from a new address for a new id, so that each would be hashed:
           the password pool (one thread at nice 10) takes what it can and
           answers the rest 503 busy.

Every round must be 201, with a median under 50 ms and none over 2 s (ten
times that in the sanitizer build), or, on a machine so busy that the rounds
alone are slow, under 8 times their median and slowest alone. Before the
password pool, the median was 275 ms during the locked flood, and a round
took up to 3.5 s; p99 is printed, not held: on two loaded cores the tail of
120 rounds is the scheduler's. The figures are printed. Run alone (RUN_SERIAL in tests/extra.cmake): it measures
time.
"""
import http.client
import json
import multiprocessing
import os
import sys
import time

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER  # noqa: E402

ROUNDS = 120
# The connections of the locked flood: 16 as in the measurement before the change (PB_FLOOD_CONNECTIONS to try more).
LOCKED_CONNECTIONS = int(os.environ.get("PB_FLOOD_CONNECTIONS") or 16)


def sanitized():
    """Whether pitbossd is the sanitizer build (everything about ten times slower): the bounds then stretch ten times,
    still far below the stall this test is for (a round answered after seconds, or never)."""
    with open(pbtest.PITBOSSD, "rb") as f:
        return b"__asan_init" in f.read()


SLACK = 10 if sanitized() else 1
CARDS = ["As", "Ks", "Qs", "2c", "3d", "4h", "5s", "5d", "9c", "Jh", "Jd", "7s", "8h", "8c", "Tc",
         "6d", "6h", "Ad", "Qd", "7c", "2h"]
SIX_SEATS = {
    "bets": {str(s): {"ante": 1000, "pair_plus": 500} for s in range(1, 7)},
    "hands": {str(s): CARDS[3 * (s - 1):3 * s] for s in range(1, 7)},
    "dealer": CARDS[18:21],
    "decisions": {str(s): "play" for s in range(1, 7)},
}


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def flood(port, kind, stop, steady, counts, connections):
    """Posts sign-ins on keep-alive connections until stop is set; counts the answers by status; sets steady
    at the first 429 (locked) or 503 (hashing): the flood is then at its full strength."""
    import threading

    local = {}
    lock = threading.Lock()

    # The locked flood comes straight from its own address; the hashing one through the trusted proxy (127.0.0.1).
    source = ("127.0.0.3", 0) if kind == "locked" else None

    def worker(w):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=source)
        n = 0
        while not stop.is_set():
            n += 1
            headers = {"Content-Type": "application/json"}
            if kind == "hashing":
                headers["X-Forwarded-For"] = "198.%d.%d.%d" % (18 + n // 250 % 2, w, n % 250 + 1)
            who = "PB1" if kind == "locked" else "G%d_%d" % (w, n)
            body = json.dumps({"person": who, "password": "guess number %d" % n})
            try:
                conn.request("POST", "/api/v1/sessions", body, headers)
                st = conn.getresponse()
                st.read()
                status = st.status
            except (http.client.HTTPException, OSError):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=source)
                status = 0
            with lock:
                local[status] = local.get(status, 0) + 1
            if status == (429 if kind == "locked" else 503):
                steady.set()
        conn.close()

    ts = [threading.Thread(target=worker, args=(w,)) for w in range(connections)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    counts.update(local)


class SignInFlood(pbtest.DaemonTestCase):
    daemon_kwargs = {"overrides": {"trusted_proxies": ["127.0.0.1"], "auth": {"max_failures": 5, "lockout_seconds": 600}}}

    def rounds(self, n=ROUNDS):
        times = []
        # The dealer's terminal has an address of its own, as on the floor.
        conn = http.client.HTTPConnection(self.d.host, self.d.port, timeout=30, source_address=("127.0.0.2", 0))
        body = json.dumps(SIX_SEATS)
        try:
            for _ in range(n):
                t = time.monotonic()
                conn.request("POST", "/api/v1/tables/T1/rounds", body, {"Content-Type": "application/json",
                                                                        "Authorization": "Bearer " + DEALER})
                resp = conn.getresponse()
                raw = resp.read()
                times.append(time.monotonic() - t)
                self.assertEqual(resp.status, 201, raw[:300])
        finally:
            conn.close()
        return times

    def during(self, kind):
        stop, steady = multiprocessing.Event(), multiprocessing.Event()
        manager = multiprocessing.Manager()
        counts = manager.dict()
        p = multiprocessing.Process(target=flood, args=(self.d.port, kind, stop, steady, counts,
                                                        LOCKED_CONNECTIONS if kind == "locked" else 32))
        p.start()
        try:
            self.assertTrue(steady.wait(60), "the flood never reached its full strength")
            times = self.rounds()
        finally:
            stop.set()
            p.join(60)
        answered = dict(counts)
        manager.shutdown()
        return times, answered

    def report(self, what, times, answered=None):
        print("  %-28s n=%d p50 %.1f ms p99 %.1f ms max %.1f ms%s" % (
            what, len(times), pct(times, .5) * 1e3, pct(times, .99) * 1e3, max(times) * 1e3,
            "" if answered is None else "; flood answers %s" % json.dumps(dict(sorted(answered.items())))))

    def test_rounds_keep_their_latency(self):
        print()
        alone = self.rounds()
        self.report("rounds alone:", alone)
        # The bounds stretch with the machine: a busy one (other builds on its two cores) slows the rounds
        # alone too. The median is held (a tail of 120 rounds on a loaded machine is the scheduler's, not
        # pitbossd's), and the slowest round only against a stall: before the password pool, a round took
        # a median of 275 ms during the locked flood, and up to 3.5 s.
        p50_bound = max(0.050 * SLACK, 8 * pct(alone, .5))
        max_bound = max(2.0 * SLACK, 8 * max(alone))
        print("  bounds: p50 %.1f ms, max %.1f ms" % (p50_bound * 1e3, max_bound * 1e3))
        for kind in ("locked", "hashing"):
            times, answered = self.during(kind)
            self.report("during the %s flood:" % kind, times, answered)
            self.assertNotIn(0, answered, "the flood's connections failed")
            self.assertNotIn(500, answered)
            if kind == "locked":
                self.assertGreater(answered.get(429, 0), 100, answered)
                self.assertLessEqual(answered.get(401, 0), 4, answered)   # the address's first failures
            else:
                self.assertGreater(answered.get(503, 0), 0, answered)
            self.assertLess(pct(times, .5), p50_bound)
            self.assertLess(max(times), max_bound)


if __name__ == "__main__":
    pbtest.main()
