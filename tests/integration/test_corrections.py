"""
Corrections of a settled round's payouts (docs/api.md "Corrections"): a
floor supervisor or pit boss, with a witness, records what a seat was paid
where the round owed something else.  The round then shows the correction,
its payouts, events and verify are unchanged; the exceptions report lists the
mispay with its difference and gives their total; pitboss verify checks the
rows against their events; each refusal says what to fix and changes nothing.
A payout line is corrected once: a later correction names the line's latest
in "supersedes", and only a line's latest correction counts.
"""
import csv
import datetime
import io
import sys
import threading
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import AUDITOR, DEALER, PITBOSS_TOKEN  # noqa: E402
from test_accounting import PASSWORD, PEOPLE, setup_people, sign_in, witness  # noqa: E402

# A floor supervisor whose password hash is as cheap as Argon2id allows: ten requests witnessed by him reach
# the write together, where with the usual hash they would arrive one after another, each behind its hash.
QUICK_WITNESS = "FLQ"

ROUND = {
    "bets": {"1": {"ante": 2500, "pair_plus": 500}, "3": {"ante": 1000, "six_card": 500}},
    "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "4h"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "3": "fold"},
}


def dollars(cents):
    """An amount as the daemon's sentences say it: -18000 -> "-$180.00"."""
    c = abs(cents)
    return "%s${:,}.{:02d}".format(c // 100, c % 100) % ("-" if cents < 0 else "")


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def at_once(n, fn):
    """Runs fn(i) for i in 0..n-1 on n threads released together; returns their results in order."""
    gate, out = threading.Barrier(n), [None] * n

    def run(i):
        gate.wait()
        out[i] = fn(i)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


class Corrections(pbtest.DaemonTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.d.stop()
        setup_people(cls.d)
        pbtest.add_person(cls.d, QUICK_WITNESS, "Quick Floor", "floor", PASSWORD % QUICK_WITNESS, cheap=True)
        cls.d.start()
        cls.tok = {pid: sign_in(cls.d, pid) for pid, _, _ in PEOPLE}

    def correct(self, rid, body, who="PB1", status=201, idem=None):
        return self.ok("POST", "/api/v1/rounds/%d/corrections" % rid, body, status=status, token=self.tok[who], idem=idem)

    def exceptions(self):
        now = datetime.datetime.now(datetime.timezone.utc)
        q = "from=%s&to=%s" % (iso(now - datetime.timedelta(hours=2)), iso(now + datetime.timedelta(hours=1)))
        return self.ok("GET", "/api/v1/reports/exceptions?" + q, token=AUDITOR)

    def line(self, rnd, seat, wager):
        return next(p for p in rnd["payouts"] if p["seat"] == seat and p["wager"] == wager)

    def test_1_a_mispay_recorded(self):
        rnd = self.whole("T1", ROUND)
        rid = rnd["id"]
        before = self.ok("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR)["round"]
        self.assertEqual(before["corrections"], [])
        owed = self.line(before, 1, "pair_plus")["net"]        # a straight flush at pair plus: 40 to 1
        self.assertEqual(owed, 20000)
        c = self.correct(rid, {"seat": 1, "wager": "pair_plus", "paid": 2000, "reason": "paid 4 to 1",
                               "witness": witness("FL1")}, idem="corr-1")
        self.assertEqual({k: c[k] for k in ("round", "table", "seat", "wager", "owed", "paid", "difference", "reason",
                                            "by", "witness")},
                         {"round": rid, "table": "T1", "seat": 1, "wager": "pair_plus", "owed": 20000, "paid": 2000,
                          "difference": -18000, "reason": "paid 4 to 1", "by": "PB1", "witness": "FL1"})
        # A take where the seat pushed... the folded seat's ante was taken twice: owed -1000, taken -2000.
        c2 = self.correct(rid, {"seat": 3, "wager": "ante", "paid": -2000, "reason": "took the ante twice",
                                "witness": witness("PB1")}, who="FL1")
        self.assertEqual((c2["owed"], c2["difference"]), (-1000, -1000))
        # A retry with the same key gets the first answer and records nothing more.
        again = self.correct(rid, {"seat": 1, "wager": "pair_plus", "paid": 2000, "reason": "paid 4 to 1",
                                   "witness": witness("FL1")}, idem="corr-1")
        self.assertEqual(again, c)
        self.assertEqual(self.d.db_value("SELECT count(*) FROM corrections WHERE round_id = ?", (rid,)), 2)
        after = self.ok("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR)["round"]
        self.assertEqual([(x["seat"], x["wager"], x["owed"], x["paid"], x["difference"], x["by"], x["witness"])
                          for x in after["corrections"]],
                         [(1, "pair_plus", 20000, 2000, -18000, "PB1", "FL1"), (3, "ante", -1000, -2000, -1000, "FL1", "PB1")])
        for x in after["corrections"]:
            self.assertTrue(x["at"] and x["reason"])
        # The round's own record is unchanged: payouts, totals, events.
        for k in ("payouts", "totals", "events", "state"):
            self.assertEqual(after[k], before[k], k)
        v = self.ok("GET", "/api/v1/rounds/%d/verify" % rid, token=AUDITOR)
        self.assertEqual(v, {"round": rid, "ok": True, "problems": []})
        # The correction is a table event of T1, not of the round.
        ev = self.d.db_rows("SELECT round_id, actor, body FROM events WHERE type = 'payout_corrected' ORDER BY id")
        self.assertEqual(len(ev), 2)
        self.assertIsNone(ev[0][0])
        self.assertEqual(ev[0][1], "PB1")
        self.assertIn('"round":%d' % rid, ev[0][2])
        self.assertNotIn("password", ev[0][2])
        # The exceptions report: each mispay with its difference, and their total.
        rep = self.exceptions()
        mis = [e for e in rep["exceptions"] if e["kind"] == "mispay"]
        self.assertEqual([(e["round"], e["seat"], e["wager"], e["difference"]) for e in mis],
                         [(rid, 1, "pair_plus", -18000), (rid, 3, "ante", -1000)])
        self.assertIn("seat 1's Pair Plus was owed %s and paid %s: underpaid %s"
                      % (dollars(mis[0]["owed"]), dollars(mis[0]["paid"]), dollars(18000)), mis[0]["detail"])
        self.assertNotIn("cents", mis[0]["detail"])
        self.assertEqual(rep["mispays"], {"count": 2, "difference": -19000})
        st, _, raw = self.d.request("GET", "/api/v1/reports/exceptions?format=csv", token=AUDITOR)
        self.assertEqual(st, 200)
        self.assertIn(b"mispay", raw)
        # The whole record still verifies.
        integ = self.ok("GET", "/api/v1/integrity", token=AUDITOR)
        self.assertTrue(integ["ok"], integ["problems"])

    def test_2_refusals(self):
        rnd = self.whole("T1", ROUND)
        rid = rnd["id"]
        good = {"seat": 1, "wager": "ante", "paid": 0, "reason": "paid nothing", "witness": witness("FL1")}
        path = "/api/v1/rounds/%d/corrections" % rid

        def refused(status, code, body, who="PB1", token=None, p=path):
            err = self.refused(status, code, "POST", p, body, token=token or self.tok[who])
            return err["message"]
        # not settled: a round in betting, and a void one
        open_id = self.open_round("T2")
        self.assertIn("settle it first", refused(409, "round_not_settled", good, p="/api/v1/rounds/%d/corrections" % open_id))
        self.void(open_id)
        refused(409, "round_not_settled", good, p="/api/v1/rounds/%d/corrections" % open_id)
        refused(404, "round_not_found", good, p="/api/v1/rounds/999999/corrections")
        # the line: an unknown seat, a wager the seat did not make, a bad wager name
        self.assertIn("no payout line for seat 2 ante", refused(422, "unknown_payout_line", dict(good, seat=2)))
        refused(422, "unknown_payout_line", dict(good, wager="six_card"))
        refused(400, "invalid_body", dict(good, wager="bonus"))
        refused(400, "invalid_body", dict(good, seat=0))
        refused(400, "invalid_amount", dict(good, paid="10"))
        refused(400, "invalid_amount", dict(good, paid=1.5))
        refused(400, "unknown_field", dict(good, note="x"))
        # paid what was owed is no mispay
        owed = self.line(rnd, 1, "ante")["net"]
        self.assertIn("no mispay", refused(422, "paid_equals_owed", dict(good, paid=owed)))
        # the reason
        refused(422, "reason_required", {k: v for k, v in good.items() if k != "reason"})
        refused(422, "reason_required", dict(good, reason="   "))
        # the witness
        refused(403, "witness_required", {k: v for k, v in good.items() if k != "witness"})
        refused(403, "witness_same_person", dict(good, witness=witness("PB1")))
        refused(403, "witness_refused", dict(good, witness=witness("DL1")))
        refused(403, "witness_refused", dict(good, witness={"person": "FL1", "password": "wrong"}))
        # the roles: a dealer's session, a cage's, a terminal's token, the auditor's
        refused(403, "forbidden", good, who="DL1")
        refused(403, "forbidden", good, who="CG1")
        refused(403, "person_required", good, token=PITBOSS_TOKEN)
        refused(403, "forbidden", good, token=DEALER)
        refused(403, "forbidden", good, token=AUDITOR)
        self.assertEqual(self.ok("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR)["round"]["corrections"], [])

    def mispays_of(self, rid):
        """The exceptions report's mispays of round rid, and the report's mispay totals."""
        rep = self.exceptions()
        return [e for e in rep["exceptions"] if e["kind"] == "mispay" and e["round"] == rid], rep["mispays"]

    def test_3_one_correction_per_line(self):
        rnd = self.whole("T1", ROUND)
        rid = rnd["id"]
        owed = self.line(rnd, 1, "ante")["net"]
        path = "/api/v1/rounds/%d/corrections" % rid
        _, totals_before = self.mispays_of(rid)
        first = self.correct(rid, {"seat": 1, "wager": "ante", "paid": 0, "reason": "paid nothing",
                                   "witness": witness("FL1")})
        self.assertIsInstance(first["id"], int)
        self.assertIsNone(first["supersedes"])
        # A second correction of the line without "supersedes": refused, naming the first and how to replace it.
        again = {"seat": 1, "wager": "ante", "paid": 1000, "reason": "paid 1000 after all", "witness": witness("FL1")}
        err = self.refused(409, "already_corrected", "POST", path, again, token=self.tok["PB1"])
        self.assertIn("correction %d" % first["id"], err["message"])
        self.assertIn('"supersedes": %d' % first["id"], err["message"])
        # Replacing it: the new figure, the old one no longer counts.
        second = self.correct(rid, dict(again, supersedes=first["id"]), idem="corr-3-second")
        self.assertEqual((second["supersedes"], second["paid"], second["difference"]), (first["id"], 1000, 1000 - owed))
        self.assertGreater(second["id"], first["id"])
        # A retry of it with the same key is answered as before, not refused as a second correction.
        self.assertEqual(self.correct(rid, dict(again, supersedes=first["id"]), idem="corr-3-second"), second)
        got = self.ok("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR)["round"]["corrections"]
        self.assertEqual([(c["id"], c["paid"], c["supersedes"], c["superseded_by"]) for c in got],
                         [(first["id"], 0, None, second["id"]), (second["id"], 1000, first["id"], None)])
        mis, totals = self.mispays_of(rid)
        self.assertEqual([(e["correction"], e["seat"], e["wager"], e["paid"], e["difference"], e["supersedes"])
                          for e in mis], [(second["id"], 1, "ante", 1000, 1000 - owed, first["id"])])
        self.assertEqual(totals, {"count": totals_before["count"] + 1,
                                  "difference": totals_before["difference"] + 1000 - owed})
        st, _, raw = self.d.request("GET", "/api/v1/reports/exceptions?format=csv", token=AUDITOR)
        self.assertEqual(st, 200)
        rows = list(csv.DictReader(io.StringIO(raw.decode())))
        self.assertEqual([r["correction"] for r in rows if r["kind"] == "mispay" and r["round"] == str(rid)],
                         [str(second["id"])])
        # The event of the replacement names the one it replaces; the first names none.
        bodies = [b for (b,) in self.d.db_rows("SELECT body FROM events WHERE type = 'payout_corrected' ORDER BY id")
                  if '"round":%d,' % rid in b]
        self.assertEqual(len(bodies), 2)
        self.assertNotIn("supersedes", bodies[0])
        self.assertIn('"supersedes":%d' % first["id"], bodies[1])
        # Refused: the replaced one (not the line's latest), an unknown id, a correction of another line.
        err = self.refused(409, "correction_superseded", "POST", path, dict(again, supersedes=first["id"]),
                           token=self.tok["PB1"])
        self.assertIn("replaced by correction %d" % second["id"], err["message"])
        self.assertIn('"supersedes": %d' % second["id"], err["message"])
        self.refused(422, "unknown_correction", "POST", path, dict(again, supersedes=second["id"] + 1000),
                     token=self.tok["PB1"])
        other = self.correct(rid, {"seat": 3, "wager": "ante", "paid": 0, "reason": "ante not taken",
                                   "witness": witness("FL1")})
        err = self.refused(422, "supersedes_other_line", "POST", path, dict(again, supersedes=other["id"]),
                           token=self.tok["PB1"])
        self.assertIn("correction %d is of round %d seat 3 ante" % (other["id"], rid), err["message"])
        # ... a line not corrected yet naming a correction of another line, and a correction of another round
        self.refused(422, "supersedes_other_line", "POST", path, {"seat": 1, "wager": "pair_plus", "paid": 0,
                     "reason": "x", "supersedes": second["id"], "witness": witness("FL1")}, token=self.tok["PB1"])
        rid2 = self.whole("T1", ROUND)["id"]
        self.refused(422, "supersedes_other_line", "POST", "/api/v1/rounds/%d/corrections" % rid2,
                     dict(again, supersedes=second["id"]), token=self.tok["PB1"])
        self.refused(400, "invalid_body", "POST", path, dict(again, supersedes="%d" % second["id"]), token=self.tok["PB1"])
        self.refused(400, "invalid_body", "POST", path, dict(again, supersedes=0), token=self.tok["PB1"])
        # A third figure replaces the second; the line still counts once.
        third = self.correct(rid, {"seat": 1, "wager": "ante", "paid": 500, "reason": "counted again",
                                   "supersedes": second["id"], "witness": witness("PB1")}, who="FL1")
        mis, totals = self.mispays_of(rid)
        self.assertEqual(sorted((e["correction"], e["difference"]) for e in mis),
                         sorted([(third["id"], 500 - owed), (other["id"], 0 - self.line(rnd, 3, "ante")["net"])]))
        self.assertEqual(totals["count"], totals_before["count"] + 2)
        # The record verifies: GET /integrity, and pitboss verify of a copy of the file.
        integ = self.ok("GET", "/api/v1/integrity", token=AUDITOR)
        self.assertTrue(integ["ok"], integ["problems"])
        rc, out, err = self.d.verify_altered_copy(lambda conn: None)
        self.assertEqual(rc, 0, out + err)
        # Moving the first correction to another line changes which figure counts: verify names both events.

        def alter(conn):
            conn.execute("DROP TRIGGER corrections_no_update")
            conn.execute("UPDATE corrections SET wager = 'play' WHERE id = ?", (first["id"],))
        rc, out, err = self.d.verify_altered_copy(alter)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("correction %d of round %d: its row differs from its event" % (first["id"], rid), out)
        self.assertIn("correction %d of round %d replaces correction %d, which the rows do not hold as the correction "
                      "of seat 1 ante before it" % (second["id"], rid, first["id"]), out)

    def test_4_concurrent_corrections_of_one_line(self):
        """Ten corrections of one line at once: one recorded; ten replacements of it at once: one recorded."""
        rid = self.whole("T1", ROUND)["id"]
        path = "/api/v1/rounds/%d/corrections" % rid
        body = {"seat": 1, "wager": "pair_plus", "paid": 2000, "reason": "paid 4 to 1",
                "witness": witness(QUICK_WITNESS)}
        res = at_once(10, lambda i: self.d.call("POST", path, body, token=self.tok["PB1"]))
        self.assertEqual(sorted(st for st, _ in res), [201] + [409] * 9, res)
        made = next(js for st, js in res if st == 201)
        self.assertEqual({js["error"]["code"] for st, js in res if st == 409}, {"already_corrected"})
        res = at_once(10, lambda i: self.d.call("POST", path, dict(body, paid=3000 + i, supersedes=made["id"]),
                                                token=self.tok["PB1"]))
        self.assertEqual(sorted(st for st, _ in res), [201] + [409] * 9, res)
        self.assertEqual({js["error"]["code"] for st, js in res if st == 409}, {"correction_superseded"})
        latest = next(js for st, js in res if st == 201)
        self.assertEqual(self.d.db_value("SELECT count(*) FROM corrections WHERE round_id = ?", (rid,)), 2)
        self.assertEqual(self.d.db_value("SELECT count(*) FROM events WHERE type = 'payout_corrected' AND body LIKE ?",
                                         ('%%"round":%d,%%' % rid,)), 2)
        mis, _ = self.mispays_of(rid)
        self.assertEqual([(e["correction"], e["paid"]) for e in mis], [(latest["id"], latest["paid"])])

    def test_9_altered_rows_caught_by_verify(self):
        rnd = self.whole("T1", ROUND)
        c = self.correct(rnd["id"], {"seat": 1, "wager": "ante", "paid": 5000, "reason": "paid double",
                                     "witness": witness("FL1")})
        def alter(conn):
            conn.execute("DROP TRIGGER corrections_no_update")
            conn.execute("UPDATE corrections SET paid = 2500 WHERE id = ?", (c["id"],))
            conn.execute("INSERT INTO corrections (id, table_id, round_id, seat, wager, owed, paid, reason, by, "
                         "witness, at) SELECT max(id) + 1, table_id, round_id, seat, wager, owed, 0, reason, by, "
                         "witness, at FROM corrections")
        rc, out, err = self.d.verify_altered_copy(alter)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("correction %d of round %d: its row differs from its event" % (c["id"], rnd["id"]), out)
        self.assertIn("1 correction rows have no event in any chain", out)


if __name__ == "__main__":
    pbtest.main()
