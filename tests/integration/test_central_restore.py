"""
`pitboss central restore` against a real PostgreSQL (pgserver.py;
docs/central.md "Restore"): a daemon ships rounds of several kinds (house,
player-banked with collections, a void, a round left open, a table closed,
its limits changed, a dealer seated, players registered, seated and
buying in, a Title 31 item acknowledged) and is stopped; its database is rebuilt from the
central copy into a new file, which `pitboss verify` accepts with the
daemon's public key; the events are the original's byte for byte and the
derived rows the same; a path that exists is refused; and pitbossd starts
on the restored file and deals a round.
"""
import hashlib
import os
import sqlite3
import tempfile
import unittest

import pbtest
import pgserver
import test_accounting as acct
from pbtest import AUDITOR, PITBOSS, PITBOSS_TOKEN

WHOLE = {
    "bets": {"1": {"ante": 2500, "pair_plus": 1000}, "3": {"ante": 1000}},
    "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "4h"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "3": "fold"}}


def banked(seat, who=None):
    others = [s for s in (1, 2, 3, 4) if s != seat][:2]
    return {"banker": dict({"seat": seat, "bank": 50000}, **(who or {})),
            "bets": {str(others[0]): {"ante": 1000}, str(others[1]): {"ante": 500, "pair_plus": 500}},
            "hands": {str(others[0]): ["9h", "9c", "5d"], str(others[1]): ["3c", "6d", "Ts"]},
            "dealer": ["Qd", "7c", "2h"],
            "decisions": {str(others[0]): "play", str(others[1]): "fold"}}


run = pgserver.run_pitboss


def rows(path, sql):
    conn = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


# The derived rows compared between the original and the restored database (ids are the rounds' own).
DERIVED = [
    "SELECT * FROM rounds ORDER BY id",
    "SELECT * FROM bets ORDER BY round_id, seat",
    "SELECT * FROM hands ORDER BY round_id, seat",
    "SELECT * FROM decisions ORDER BY round_id, seat",
    "SELECT * FROM payouts ORDER BY round_id, seq",
    "SELECT * FROM collections ORDER BY round_id, seat",
    "SELECT * FROM banker_turns ORDER BY id",
    "SELECT * FROM report_hours ORDER BY 1, 2, 3, 4",
    "SELECT table_id, person_id, person_name, at, by FROM dealer_changes ORDER BY id",
    "SELECT table_id, status, limits_json, config_sha256, dealer_id FROM table_state ORDER BY table_id",
    "SELECT * FROM acct_documents ORDER BY id",
    "SELECT table_id, kind, ref, note, by, at FROM acct_acknowledgments ORDER BY table_id, kind, ref",
    "SELECT * FROM players ORDER BY id",
    "SELECT * FROM seat_players ORDER BY table_id, seat",
    "SELECT table_id, seat, player_id, seated, at, by FROM seat_changes ORDER BY id",
    "SELECT * FROM round_players ORDER BY round_id, seat",
    "SELECT * FROM table_transactions ORDER BY id",
    "SELECT * FROM title31_acks ORDER BY gaming_day, player_id, direction, kind",
    "SELECT * FROM transaction_voids ORDER BY txn_id",
    "SELECT * FROM player_merges ORDER BY player_id",
    "SELECT * FROM title31_notes ORDER BY id",
    "SELECT * FROM corrections ORDER BY id",
]


class RestoreTest(pgserver.CentralServerCase):

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pbrestore-")
        prop = dict(pbtest.example_config()["property"], id="R-1")
        self.d = pbtest.Daemon(overrides={"central": {"conninfo": self.pg.conninfo}, "property": prop,
                                          "checkpoint": {"every_rounds": 3, "every_seconds": 1}})
        self.d.start()
        self.d.stop()
        # a dealer to seat at a table (people are the property's own, not in the record)
        pbtest.add_person(self.d, "E1027", "Ana Ruiz", "dealer")
        acct.setup_people(self.d)    # the signers of the accounting documents
        self.d.start()
        self.restored = None

    def tearDown(self):
        for d in (self.d, self.restored):
            if d is None:
                continue
            try:
                if d.running:
                    d.stop()
            finally:
                d.close()

    def ok(self, d, method, path, body=None, status=200, token=pbtest.DEALER):
        st, js = d.call(method, path, body, token=token)
        self.assertEqual(st, status, js)
        return js

    def play(self):
        d = self.d
        cage = acct.sign_in(d, "CG1")
        self.ok(d, "POST", "/api/v1/players", {"card": "100001", "name": "Ana Lopez", "id_type": "passport",
                                               "id_number": "X1"}, status=201, token=cage)
        self.ok(d, "POST", "/api/v1/players", {"description": "red cap"}, status=201, token=cage)
        self.ok(d, "PATCH", "/api/v1/players/P2", {"card": "100002", "name": "Bo Chen"}, token=cage)
        for i in range(4):
            self.ok(d, "POST", "/api/v1/tables/T1/rounds", WHOLE, status=201)
            if i == 1:
                self.ok(d, "PUT", "/api/v1/tables/T1/dealer", {"person": "E1027"}, token=PITBOSS_TOKEN)
                self.ok(d, "PUT", "/api/v1/tables/T1/seats/1/player", {"player": "P1"})
                self.ok(d, "PUT", "/api/v1/tables/T1/seats/3/player", {"player": "P2"})
            if i == 2:
                self.ok(d, "DELETE", "/api/v1/tables/T1/seats/3/player")
        day = self.ok(d, "POST", "/api/v1/tables/T1/transactions", {"seat": 1, "player": "P1", "direction": "in",
                                                                      "kind": "cash", "amount": 1000001},
                      status=201)["gaming_day"]
        self.ok(d, "POST", "/api/v1/tables/T2/transactions", {"player": "P2", "direction": "out", "kind": "chips",
                                                                "amount": 5000}, status=201)
        self.ok(d, "POST", "/api/v1/title31/acknowledgments", {"gaming_day": day, "player": "P1", "direction": "in",
                                                                 "kind": "ctr", "note": "filed"}, status=201, token=cage)
        # the cash controls (docs/players.md): the cage, a void, a merge, a CTR's life and a second note
        self.ok(d, "POST", "/api/v1/players", {"description": "green dress"}, status=201, token=cage)
        self.ok(d, "POST", "/api/v1/cage/transactions", {"player": "P3", "direction": "out", "type": "chip_redemption",
                                                           "amount": 400000, "window": "W2"}, status=201, token=cage)
        wrong = self.ok(d, "POST", "/api/v1/cage/transactions", {"player": "P3", "direction": "in", "type": "front_money",
                                                                   "amount": 90000}, status=201, token=cage)["id"]
        self.ok(d, "POST", "/api/v1/transactions/%d/void" % wrong, {"reason": "keyed twice",
                                                                     "witness": acct.witness("PB1")}, status=201, token=cage)
        self.ok(d, "POST", "/api/v1/players/P3/merge", {"into": "P1", "reason": "same patron, seen on camera",
                                                        "witness": acct.witness("PB1")}, status=201, token=cage)
        ctr = "%s-P1-in" % day
        self.ok(d, "POST", "/api/v1/title31/ctr/" + ctr, {"status": "filed", "bsa_id": "31000123456789",
                                                          "note": "filed online"}, status=201, token=cage)
        self.ok(d, "POST", "/api/v1/title31/ctr/" + ctr, {"note": "copy to compliance"}, status=201, token=cage)
        # the banker named (a player, a provider) or not, and an offer of the bank (docs/players.md, "The banker")
        provider = {"provider": {"badge": "TPPPS-0192", "company": "Acme Banking LLC"}}
        for seat, who in ((1, {"player": "P2"}), (1, {"player": "P2"}), (2, provider), (3, None)):
            self.ok(d, "POST", "/api/v1/tables/P1/rounds", banked(seat, who), status=201)
        self.ok(d, "POST", "/api/v1/tables/P1/bank-offers", {"seat": 4, "answer": "declined", "player": "P1"}, status=201)
        rid = self.ok(d, "POST", "/api/v1/tables/T2/rounds", {}, status=201)["round"]["id"]
        self.ok(d, "PUT", "/api/v1/rounds/%d/bets/2" % rid, {"ante": 2000})
        self.ok(d, "POST", "/api/v1/rounds/%d/void" % rid, {"reason": "misdeal: exposed card"}, token=PITBOSS_TOKEN)
        limits = {"ante": {"min": 1000, "max": 50000}, "pair_plus": {"min": 1000, "max": 25000}}
        self.ok(d, "PUT", "/api/v1/tables/T2/limits", limits, token=PITBOSS_TOKEN)
        self.ok(d, "POST", "/api/v1/tables/T2/rounds", WHOLE, status=201)
        self.ok(d, "POST", "/api/v1/tables/T3/close", None, token=PITBOSS_TOKEN)
        rid = self.ok(d, "POST", "/api/v1/tables/F1/rounds", {}, status=201)["round"]["id"]
        self.ok(d, "PUT", "/api/v1/rounds/%d/bets/4" % rid, {"ante": 500})   # left open, in betting
        self.documents()

    def documents(self):
        """The accounting documents of T1 and P1 (table events whose rows restore rebuilds), and an acknowledgment."""
        d, tok = self.d, {pid: acct.sign_in(self.d, pid) for pid in ("FL1", "CG1", "CT1", "PB1")}
        slip = [acct.witness("PB1"), acct.witness("SC1")]      # "nj": the floor and the runner sign a slip

        def post(path, body, who):
            return self.ok(d, "POST", "/api/v1" + path, body, status=201, token=tok[who])
        post("/tables/T1/inventory", {"kind": "opener", "chips": {"2500": 40}, "witness": acct.witness("DL1")}, "FL1")
        post("/tables/T1/fills", {"serial": "F-1", "chips": {"2500": 4}, "runner": "SC1", "witnesses": slip}, "CG1")
        post("/tables/T1/fills/F-1/void", {"reason": "wrong table", "witness": acct.witness("PB1")}, "FL1")
        post("/tables/T1/credits", {"serial": "C-1", "chips": {"500": 3}, "witnesses": slip}, "CG1")
        post("/tables/T1/credits/C-1/receipt", {"witness": acct.witness("DL1")}, "FL1")
        post("/tables/T1/inventory", {"kind": "closer", "chips": {"2500": 39}, "witness": acct.witness("DL1")}, "FL1")
        post("/tables/T1/drop", {"box": "D-1", "count": acct.count_sheet(12000), "witnesses": acct.count_team(),
                                 "gaming_day": acct.today()}, "CT1")
        post("/tables/P1/drop", {"box": "D-2", "count": {}, "collections": 900, "witnesses": acct.count_team()}, "CT1")
        o = post("/tables/T1/inventory", {"kind": "opener", "chips": {"2500": 38}, "reason": "short",
                                          "witness": acct.witness("DL1")}, "FL1")
        post("/exceptions/acknowledgments", {"kind": "inventory_discrepancy", "table": "T1", "ref": str(o["id"]),
                                             "note": "counted again"}, "PB1")
        # a payout correction (the table event payout_corrected and its row), then one that replaces it
        rid = d.db_value("SELECT id FROM rounds WHERE state = 'settled' ORDER BY id LIMIT 1")
        line = self.ok(d, "GET", "/api/v1/rounds/%d" % rid)["round"]["payouts"][0]
        first = post("/rounds/%d/corrections" % rid, {"seat": line["seat"], "wager": line["wager"],
                                                      "paid": line["net"] + 500, "reason": "overpaid",
                                                      "witness": acct.witness("FL1")}, "PB1")
        post("/rounds/%d/corrections" % rid, {"seat": line["seat"], "wager": line["wager"], "paid": line["net"] + 400,
                                              "reason": "counted again", "supersedes": first["id"],
                                              "witness": acct.witness("FL1")}, "PB1")

    def wait_shipped(self, timeout=60):
        seen = {}

        def shipped():
            n_local = self.d.db_value("SELECT count(*) FROM events")
            c_local = self.d.db_value("SELECT count(*) FROM checkpoints")
            n_pg = int(self.pg.psql("SELECT count(*) FROM pitboss.events WHERE property = 'R-1'"))
            c_pg = int(self.pg.psql("SELECT count(*) FROM pitboss.checkpoints WHERE property = 'R-1'"))
            seen["events"] = (n_local, n_pg)
            return (n_pg,) if n_local == n_pg and c_local == c_pg else None
        return pbtest.wait_until(lambda: "shipped: %d/%d events" % seen["events"], shipped, timeout=timeout,
                                 every=0.1)[0]

    def test_restore(self):
        self.play()
        n = self.wait_shipped()
        pub = self.ok(self.d, "GET", "/api/v1/checkpoints", token=AUDITOR)["public_key"]
        self.assertGreater(self.d.db_value("SELECT count(*) FROM checkpoints"), 0)
        self.d.stop()
        original = self.d.db_path
        target = os.path.join(self.tmp, "restored.db")

        rc, out, err = run("central", "restore", "--conninfo", self.pg.conninfo, "--property", "R-1",
                           "--database", target)
        self.assertEqual(rc, 0, out + err)
        self.assertIn("%d events" % n, out)
        # the summary with the rate, on stderr even when it is not a terminal (no progress line then)
        self.assertRegex(err, r"(?m)^restore: %d events in [0-9.]+ s, [0-9]+ events/s$" % n)
        self.assertNotIn("\r", err)
        self.assertEqual(sorted(os.listdir(self.tmp)), ["restored.db"], "no partial file left")

        rc, out, err = run("verify", "--database", target, "--public-key", pub)
        self.assertEqual(rc, 0, out + err)

        ev = "SELECT table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash FROM events " \
             "ORDER BY table_id, table_seq"
        self.assertEqual(rows(original, ev), rows(target, ev))
        cp = "SELECT id, table_id, table_seq, head_hash, at, public_key, signature FROM checkpoints ORDER BY id"
        shipped = int(self.pg.psql("SELECT count(*) FROM pitboss.checkpoints WHERE property = 'R-1'"))
        self.assertGreater(shipped, 0)
        # the central copy's checkpoints (those signed while stopping were not shipped yet)
        self.assertEqual(rows(original, cp)[:shipped], rows(target, cp))
        for table in ("dealer_changes", "collections", "banker_turns", "report_hours", "acct_documents",
                      "acct_acknowledgments", "players", "seat_players", "seat_changes", "round_players",
                      "table_transactions", "title31_acks", "transaction_voids", "player_merges", "title31_notes"):
            self.assertGreater(len(rows(original, "SELECT * FROM " + table)), 0, table)
        self.assertEqual(rows(original, "SELECT count(*) FROM rounds WHERE state = 'void'"), [(1,)])
        for sql in DERIVED:
            self.assertEqual(rows(original, sql), rows(target, sql), sql)

        # never overwritten: the path exists now
        before = os.path.getsize(target)
        rc, out, err = run("central", "restore", "--conninfo", self.pg.conninfo, "--property", "R-1",
                           "--database", target)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("exists", err)
        self.assertEqual(os.path.getsize(target), before)
        rc, out, err = run("central", "restore", "--conninfo", self.pg.conninfo, "--property", "nobody",
                           "--database", os.path.join(self.tmp, "none.db"))
        self.assertEqual(rc, 1, out + err)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "none.db")))

        # pitbossd runs on the restored file (its signing key restored beside it) and deals
        self.restored = pbtest.Daemon(overrides={"checkpoint": {"key_file": original + ".signing-key"}})
        os.link(target, self.restored.db_path)
        self.restored.start()
        js = self.ok(self.restored, "POST", "/api/v1/tables/T1/rounds", WHOLE, status=201)
        self.assertEqual(js["round"]["round_no"], 5)
        st, _ = self.restored.call("POST", "/api/v1/tables/T3/rounds", {}, token=pbtest.DEALER)
        self.assertEqual(st, 409, "T3 was closed and stays closed")
        self.restored.stop()
        rc, out, err = run("verify", "--database", self.restored.db_path, "--public-key", pub)
        self.assertEqual(rc, 0, out + err)


class RefusalTest(pgserver.CentralServerCase):
    """A central copy that restore refuses (a server of its own: the property's events differ from RestoreTest's)."""
    setUp = RestoreTest.setUp
    tearDown = RestoreTest.tearDown
    ok = RestoreTest.ok
    wait_shipped = RestoreTest.wait_shipped

    def forge_last_event(self, table, type_=None, body=None):
        """Rewrites the last event of table in the central copy (its type, its body) with its hash recomputed, as a
        forger would: the chain still links, so restore meets what the event says."""
        row = self.pg.psql("SELECT table_seq, coalesce(round_id, 0), type, at, actor, prev_hash FROM pitboss.events "
                           "WHERE property = 'R-1' AND table_id = '%s' ORDER BY table_seq DESC LIMIT 1" % table)
        seq, rid, old_type, at, actor, prev = row.strip().split("|")
        old_body = self.pg.psql("SELECT body FROM pitboss.events WHERE property = 'R-1' AND table_id = '%s' AND "
                                "table_seq = %s" % (table, seq)).rstrip("\n")
        type_, body = type_ or old_type, body or old_body
        h = hashlib.sha256(prev.encode() + pbtest.event_canonical(table, int(seq), int(rid), type_, at, actor,
                                                                   body)).hexdigest()
        self.pg.psql("SET session_replication_role = replica; UPDATE pitboss.events SET type = '%s', body = '%s', "
                     "hash = '%s' WHERE property = 'R-1' AND table_id = '%s' AND table_seq = %s"
                     % (type_, body.replace("'", "''"), h, table, seq))
        return int(seq)

    def test_refused_type_and_body(self):
        """Restore dispatches by the registry: a type it lacks, or a body its apply cannot read, is refused."""
        cage = acct.sign_in(self.d, "CG1")
        self.ok(self.d, "POST", "/api/v1/players", {"card": "100001", "name": "Ana Lopez"}, status=201, token=cage)
        self.ok(self.d, "PUT", "/api/v1/tables/T2/seats/3/player", {"player": "P1"})
        self.ok(self.d, "POST", "/api/v1/tables/T3/close", None, token=PITBOSS_TOKEN)
        self.wait_shipped()
        self.d.stop()
        target = os.path.join(self.tmp, "restored.db")
        # the copy is read in (table, event) order: T3's forged type first, then T2's forged body before it
        seq = self.forge_last_event("T3", type_="table_reopened")
        rc, out, err = run("central", "restore", "--conninfo", self.pg.conninfo, "--property", "R-1", "--database",
                           target)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("table T3 event %d (table_reopened): no type of event pitboss records" % seq, err)
        self.assertEqual(os.listdir(self.tmp), [], "no file left")
        seq = self.forge_last_event("T2", body='{"player":"P1","seat":"3"}')
        rc, out, err = run("central", "restore", "--conninfo", self.pg.conninfo, "--property", "R-1", "--database",
                           target)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("table T2 event %d (player_seated): a player_seated event's \"seat\" is a string, not an "
                      "integer" % seq, err)
        self.assertEqual(os.listdir(self.tmp), [], "no file left")

if __name__ == "__main__":
    pbtest.main()
