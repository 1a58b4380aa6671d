"""
A login role per property on a real PostgreSQL (pgserver.py; docs/central.md, "Roles" and
"Conflicts"): `pitboss central grant` gives each property a role that can insert and read
only its own events, checkpoints and report facts (row-level security); a report fact forged
by the superuser at a property's next round is reported (the metric, the significant event
central_conflict, /ready's reasons) and never taken as the shipper's position; a shipper
whose role escapes row-level security says so in its log and in /metrics.
"""
import os
import subprocess

import pbtest
import pgserver
from test_central import WHOLE, metric, metrics

run = pgserver.run_pitboss


def grant(pg, prop, role, password=""):
    p = subprocess.run([pbtest.PITBOSS, "central", "grant", "--conninfo", pg.conninfo, "--property", prop,
                        "--role", role], input=(password + "\n").encode(), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def psql_as(pg, role, sql):
    """(exit status, stdout, stderr) of sql run by role."""
    conninfo = pg.conninfo.replace("user=postgres", "user=%s" % role)
    p = subprocess.run([os.path.join(pgserver.PG_BIN, "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                        "-d", conninfo, "-c", sql], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


class CentralRolesTest(pgserver.CentralServerCase):

    def start(self, prop, role=None):
        conninfo = self.pg.conninfo if role is None else self.pg.conninfo.replace("user=postgres", "user=" + role)
        d = pbtest.Daemon(overrides={"central": {"conninfo": conninfo},
                                     "property": dict(pbtest.example_config()["property"], id=prop),
                                     "checkpoint": {"every_rounds": 2, "every_seconds": 1}})
        self.addCleanup(d.close)
        d.start()
        return d

    def deal(self, d, n):
        for _ in range(n):
            st, js = d.call("POST", "/api/v1/tables/T1/rounds", WHOLE)
            self.assertEqual(st, 201, js)

    def central_count(self, table, prop, extra=""):
        return int(self.pg.psql("SELECT count(*) FROM pitboss.%s WHERE property = '%s' %s" % (table, prop, extra)))

    def wait_shipped(self, d, prop):
        """Until the central server holds every event, checkpoint and finished round's fact of d."""
        def shipped():
            want = (d.db_value("SELECT count(*) FROM events"), d.db_value("SELECT count(*) FROM checkpoints"),
                    d.db_value("SELECT count(*) FROM events WHERE type IN ('round_settled', 'round_voided')"))
            have = tuple(self.central_count(t, prop) for t in ("events", "checkpoints", "round_facts"))
            return want if want == have else None
        return pbtest.wait_until(lambda: "%s shipped:\n%s" % (prop, d.full_log()), shipped, timeout=30, every=0.1)

    def test_1_a_role_sees_and_writes_only_its_property(self):
        rc, out, err = grant(self.pg, "RA", "ship_ra", "secret-a")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("password set", out)
        rc, out, err = grant(self.pg, "RB", "ship_rb")
        self.assertEqual(rc, 0, out + err)
        rc, out, err = grant(self.pg, "RA", "ship_rb")         # one role, one property
        self.assertEqual(rc, 1, out + err)
        self.assertIn("already granted property RB", err)
        a = self.start("RA", "ship_ra")
        self.deal(a, 3)
        events, checkpoints, facts = self.wait_shipped(a, "RA")
        self.assertEqual(facts, 3)
        m = metrics(a)
        self.assertEqual(metric(m, "pitboss_central_role_sees_other_properties"), 0)
        self.assertEqual(metric(m, "pitboss_central_conflicts_total"), 0)
        self.assertNotIn("can read and write every property's rows", a.full_log())
        # RA's own role reads its rows; RB's role reads none of them and cannot add any
        for table, n in (("events", events), ("checkpoints", checkpoints), ("round_facts", facts)):
            rc, out, err = psql_as(self.pg, "ship_ra", "SELECT count(*) FROM pitboss.%s" % table)
            self.assertEqual((rc, int(out)), (0, n), err)
            rc, out, err = psql_as(self.pg, "ship_rb", "SELECT count(*) FROM pitboss.%s" % table)
            self.assertEqual((rc, int(out)), (0, 0), err)
        row = self.pg.psql("SELECT table_id, table_seq FROM pitboss.events WHERE property = 'RA' "
                           "ORDER BY table_seq DESC LIMIT 1").strip().split("|")
        inserts = {
            "events": "INSERT INTO pitboss.events (property, table_id, table_seq, type, at, actor, body, prev_hash, hash) "
                      "VALUES ('%s', '%s', %d, 'x', 'x', 'x', '{}', 'x', 'x')",
            "checkpoints": "INSERT INTO pitboss.checkpoints (property, local_id, table_id, table_seq, head_hash, at, "
                           "public_key, signature) VALUES ('%s', 999, '%s', %d, 'x', 'x', 'x', 'x')",
            "round_facts": "INSERT INTO pitboss.round_facts VALUES ('%%s', 1000, '%%s', %%d, 0, 'd', 'd', '%s', false, "
                           "1, '{0}', '{0}', '{0}', 0, 0, 0, '{0}', '{0}', '{0}', 0)"
                           % self.pg.psql("SELECT sha256 FROM pitboss.rules LIMIT 1").strip(),
        }
        for table, sql in inserts.items():
            rc, out, err = psql_as(self.pg, "ship_rb", sql % ("RA", row[0], int(row[1]) + 1))
            self.assertNotEqual(rc, 0, "ship_rb inserted into RA's %s" % table)
            self.assertIn("row-level security", err)
        rc, out, err = psql_as(self.pg, "ship_rb", "SELECT pitboss.set_property_calendar('RA', 'x', 'UTC', '00:00', '[]')")
        self.assertNotEqual(rc, 0)
        self.assertIn("only for its own property", err)
        # its own property's rows it may add (a round_facts row of its own needs a row to copy: it sees none)
        rc, out, err = psql_as(self.pg, "ship_rb", inserts["events"] % ("RB", "T9", 1))
        self.assertEqual(rc, 0, err)
        self.assertEqual((self.central_count("events", "RA"), self.central_count("checkpoints", "RA"),
                          self.central_count("round_facts", "RA")), (events, checkpoints, facts))
        a.stop()

    def test_2_forged_fact_reported_and_not_taken(self):
        rc, out, err = grant(self.pg, "RF", "ship_rf")
        self.assertEqual(rc, 0, out + err)
        d = self.start("RF", "ship_rf")
        self.deal(d, 2)
        self.wait_shipped(d, "RF")
        # the superuser forges the next round's fact, far ahead in the record, with a loss of $999,999
        nxt = d.db_value("SELECT max(id) FROM rounds") + 1
        forged_event = d.db_value("SELECT max(id) FROM events") + 1000
        self.pg.psql("INSERT INTO pitboss.round_facts SELECT property, %d, table_id, %d, hour, dealer, dealer_name, "
                     "rules_sha256, voided, hands, handle, ARRAY[-99999900::bigint] || house_win[2:], lines, opened_ms, "
                     "settled_ms, banked_rounds, banked_handle, banked_win, banked_lines, collections "
                     "FROM pitboss.round_facts WHERE property = 'RF' LIMIT 1" % (nxt, forged_event))
        self.deal(d, 1)                                        # round nxt: its real fact meets the forged one
        m = pbtest.wait_until(lambda: "the conflict reported:\n" + d.full_log(), lambda: (lambda t: t if metric(
            t, "pitboss_central_conflicts_total") == 1 else None)(metrics(d)), timeout=20, every=0.1)
        self.assertEqual(metric(m, "pitboss_central_role_sees_other_properties"), 0)
        st, js = d.call("GET", "/api/v1/events?limit=1000", token=pbtest.AUDITOR)
        self.assertEqual(st, 200, js)
        ev = [e for e in js["events"] if e["code"] == "central_conflict"]
        self.assertEqual(len(ev), 1, js)
        self.assertEqual((ev[0]["detail"]["central_round"], ev[0]["detail"]["central_final_event"],
                          ev[0]["detail"]["own_round"]), (nxt, forged_event, nxt))
        st, js = d.call("GET", "/api/v1/ready")
        self.assertEqual(st, 503, js)
        self.assertTrue(any("central" in r and "round %d" % nxt in r for r in js["reasons"]), js)
        # a restart reads the facts' position from the server: the forged row is passed over, not adopted
        d.stop(allow_errors=True)
        d.start()
        real_last = d.db_value("SELECT max(id) FROM events")
        self.deal(d, 2)
        pbtest.wait_until(lambda: "the rounds after the forged one shipped:\n" + d.full_log(),
                          lambda: self.central_count("round_facts", "RF", "AND round_id > %d" % nxt) == 2,
                          timeout=20, every=0.1)
        log = d.full_log()
        self.assertNotIn("facts after %d" % forged_event, log)
        self.assertLess(real_last, forged_event)
        self.assertEqual(metric(metrics(d), "pitboss_central_conflicts_total"), 1)   # the same row, met again
        # the forged row is still there (append-only): central verify names it
        rc, out, err = run("central", "verify", "--conninfo", self.pg.conninfo, "--property", "RF")
        self.assertEqual(rc, 1, out + err)
        d.stop(allow_errors=True)

    def test_3_warning_when_the_role_sees_others(self):
        d = self.start("RS")                                    # the superuser: no row-level security applies
        self.deal(d, 1)
        self.wait_shipped(d, "RS")
        self.assertIn("can read and write every property's rows", d.full_log())
        self.assertEqual(metric(metrics(d), "pitboss_central_role_sees_other_properties"), 1)
        d.stop()


if __name__ == "__main__":
    missing = pgserver.missing()
    if missing is not None:
        raise SystemExit("test_central_roles: FAILED: " + missing)
    pbtest.main()
