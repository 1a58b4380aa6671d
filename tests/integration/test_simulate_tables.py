#!/usr/bin/env python3
"""`pitboss simulate` leaves room for people (docs/simulator.md, "Tables left to people"):
--except leaves the tables named free, and a table where a person has been assigned as dealer
is never dealt at while he is there (no simulated round is recorded under a person); once he
is taken off, the simulator deals there again."""
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbtest  # noqa: E402

ROUNDS = 2


class SimulateTables(unittest.TestCase):
    def setUp(self):
        self.d = pbtest.Daemon()
        self.d.start()
        self.d.stop()
        pbtest.add_person(self.d, "E1027", "Ana Ruiz", "dealer")
        self.d.start()
        self.sim = None

    def tearDown(self):
        if self.sim is not None and self.sim.poll() is None:
            self.sim.kill()
            self.sim.wait()
        if self.d.running:
            self.d.stop()
        self.d.close()

    def ok(self, method, path, body=None, token=pbtest.PITBOSS_TOKEN, status=200):
        st, js = self.d.call(method, path, body, token=token)
        self.assertEqual(st, status, js)
        return js

    def rounds(self, table):
        """The table's rounds, newest first (far fewer than the limit here)."""
        return self.ok("GET", "/api/v1/tables/%s/rounds?limit=100" % table)["rounds"]

    def settled(self, table):
        return [r for r in self.rounds(table) if r.get("state") in ("settled", "void")]

    def test_except_and_a_person_dealing(self):
        tables = [t["id"] for t in self.ok("GET", "/api/v1/tables")["tables"]]
        self.assertIn("T1", tables)
        self.assertIn("T2", tables)
        others = [t for t in tables if t not in ("T1", "T2")]
        # a person deals at T2 (as the dealer's page does); T1 is left free with --except
        self.ok("PUT", "/api/v1/tables/T2/dealer", {"person": "E1027"})
        self.sim = subprocess.Popen([pbtest.PITBOSS, "simulate", "--url", "http://%s:%d" % (self.d.host, self.d.port),
                                     "--token", pbtest.DEALER, "--except", "T1", "--rounds", str(ROUNDS),
                                     "--rate", "0", "--misdeal-rate", "0", "--quiet"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        pbtest.wait_until("the simulator deals its rounds at the other tables",
                          lambda: all(len(self.settled(t)) >= ROUNDS for t in others), timeout=60)
        self.assertIsNone(self.sim.poll(), "the simulator waits for T2, taken by a person")
        self.assertEqual(self.rounds("T2"), [], "no round at a table where a person deals")
        # the person leaves the table: the simulator deals there and finishes
        self.ok("PUT", "/api/v1/tables/T2/dealer", {"person": None})
        out, err = self.sim.communicate(timeout=60)
        err = err.decode()
        self.assertEqual(self.sim.returncode, 0, err)
        self.assertIn("table T1 is left free (--except)", err)
        self.assertIn("table T2: a person deals here; leaving it to him", err)
        self.assertEqual(self.rounds("T1"), [], "--except T1: no round at T1")
        for t in others + ["T2"]:
            rs = self.rounds(t)
            self.assertEqual(len(rs), ROUNDS, (t, rs))
            for r in rs:
                # the list's rounds name no dealer: read each one
                full = self.ok("GET", "/api/v1/rounds/%s" % r["id"])
                rnd = full.get("round", full)
                dealer = rnd.get("dealer") or {}
                self.assertIsNone(dealer.get("id") if isinstance(dealer, dict) else None,
                                  "a simulated round recorded under a person: %s" % rnd)


if __name__ == "__main__":
    unittest.main()
