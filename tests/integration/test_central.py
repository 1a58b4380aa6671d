"""
The central tier against a real PostgreSQL started here (pgserver.py;
docs/central.md): `pitboss central init`, a daemon shipping its record, the
events and checkpoints arriving and `pitboss central verify` saying OK; the
central server stopped mid-stream and started again (no round refused, no
gap, no duplicate, the shipper catching up); an event altered in PostgreSQL
caught by `central verify`.  PostgreSQL missing is a failure, not a skip.
"""
import http.client
import re
import unittest

import pbtest
import pgserver
from pbtest import PITBOSS

WHOLE = {
    "bets": {"1": {"ante": 2500, "pair_plus": 1000}, "3": {"ante": 1000}},
    "hands": {"1": ["As", "Ks", "Qs"], "3": ["2c", "3d", "4h"]},
    "dealer": ["Qd", "7c", "2h"],
    "decisions": {"1": "play", "3": "fold"}}


run = pgserver.run_pitboss


def metrics(d):
    conn = http.client.HTTPConnection(d.host, d.port, timeout=10)
    try:
        conn.request("GET", "/metrics")
        return conn.getresponse().read().decode()
    finally:
        conn.close()


def metric(text, name):
    m = re.search(r"^%s (\S+)$" % re.escape(name), text, re.M)
    return float(m.group(1)) if m else None


def outage_reported(d):
    """d's metrics once its shipper reports the central server down (events waiting, the last error), else None."""
    m = metrics(d)
    return m if (metric(m, "pitboss_central_lag_events") or 0) > 0 and "pitboss_central_last_error{" in m else None


class CentralTest(pgserver.CentralServerCase):

    def setUp(self):
        # each test is a property of its own: one central server, several properties
        prop = dict(pbtest.example_config()["property"], id="P-" + self._testMethodName[5:6])
        self.d = pbtest.Daemon(overrides={"central": {"conninfo": self.pg.conninfo}, "property": prop,
                                          "checkpoint": {"every_rounds": 5, "every_seconds": 1}})
        self.errors_expected = False
        self.d.start()

    def tearDown(self):
        try:
            if self.d.running:
                self.d.stop(allow_errors=self.errors_expected)
        finally:
            self.d.close()

    def deal(self, n, table="T1"):
        for _ in range(n):
            st, js = self.d.call("POST", "/api/v1/tables/%s/rounds" % table, WHOLE)
            self.assertEqual(st, 201, js)

    def local(self, sql):
        return self.d.db_rows(sql)

    def property_id(self):
        return self.d.config.get("property", {}).get("id", "main")

    def wait_shipped(self, timeout=60):
        """Until PostgreSQL holds every local event and checkpoint."""
        prop = self.property_id()
        seen = {}

        def shipped():
            n_local = self.local("SELECT count(*) FROM events")[0][0]
            c_local = self.local("SELECT count(*) FROM checkpoints")[0][0]
            n_pg = int(self.pg.psql("SELECT count(*) FROM pitboss.events WHERE property = '%s'" % prop))
            c_pg = int(self.pg.psql("SELECT count(*) FROM pitboss.checkpoints WHERE property = '%s'" % prop))
            seen["counts"] = (n_local, n_pg, c_local, c_pg)
            return (n_pg,) if n_local == n_pg and c_local == c_pg else None
        return pbtest.wait_until(lambda: "shipped: events %d local, %d central; checkpoints %d / %d\n%s"
                                 % (seen["counts"] + (self.d.full_log(),)), shipped, timeout=timeout, every=0.1)[0]

    def same_as_local(self):
        prop = self.property_id()
        local = [tuple(str(v) for v in r) for r in
                 self.local("SELECT table_id, table_seq, hash FROM events ORDER BY table_id, table_seq")]
        central = [tuple(l.split("|")) for l in self.pg.psql(
            "SELECT table_id, table_seq, hash FROM pitboss.events WHERE property = '%s' "
            "ORDER BY table_id, table_seq" % prop).split()]
        self.assertEqual(local, central)

    def test_1_ships_and_verifies(self):
        self.deal(12)
        self.deal(3, table="T2")
        n = self.wait_shipped()
        self.assertGreater(n, 12)
        self.same_as_local()
        rc, out, err = run("central", "verify", "--conninfo", self.pg.conninfo, "--property", self.property_id())
        self.assertEqual(rc, 0, out + err)
        self.assertIn("OK: %d events verified" % n, out)
        self.assertRegex(err, r"(?m)^verify: %d events in [0-9.]+ s, [0-9]+ events/s$" % n)
        m = metrics(self.d)
        self.assertEqual(metric(m, "pitboss_central_lag_events"), 0)
        self.assertEqual(metric(m, "pitboss_central_up"), 1)
        pos = self.local("SELECT stream, last_id FROM central_position ORDER BY stream")
        self.assertEqual(dict(pos)["events"], self.local("SELECT max(id) FROM events")[0][0])

    def test_2_outage_then_catch_up(self):
        self.deal(5)
        self.wait_shipped()
        self.errors_expected = True           # the shipper logs the outage
        self.pg.stop()
        try:
            self.deal(20)                      # not one refused while the central server is down
            m = pbtest.wait_until(lambda: "the shipper reports the outage:\n" + metrics(self.d), lambda: outage_reported(self.d), timeout=30,
                                  every=0.2)
            self.assertEqual(metric(m, "pitboss_central_up"), 0)
            self.assertGreater(metric(m, "pitboss_central_lag_seconds"), 0)
        finally:
            self.pg.start()
        self.deal(5)
        self.wait_shipped(timeout=90)
        self.same_as_local()
        dup = self.pg.psql("SELECT count(*) FROM (SELECT 1 FROM pitboss.events GROUP BY property, table_id, "
                           "table_seq HAVING count(*) > 1) d")
        self.assertEqual(int(dup), 0)
        rc, out, err = run("central", "verify", "--conninfo", self.pg.conninfo)
        self.assertEqual(rc, 0, out + err)
        m = metrics(self.d)
        self.assertNotIn("pitboss_central_last_error{", m)
        self.assertGreater(metric(m, "pitboss_central_failures_total"), 0)

    def test_3_restart_resumes(self):
        self.deal(4)
        self.wait_shipped()
        self.d.stop()
        self.d.start()
        self.deal(4)
        self.wait_shipped()
        self.same_as_local()

    def test_4_two_properties(self):
        prop = dict(pbtest.example_config()["property"], id="P-other")
        other = pbtest.Daemon(overrides={"central": {"conninfo": self.pg.conninfo}, "property": prop})
        try:
            other.start()
            for _ in range(6):
                self.deal(1)
                st, js = other.call("POST", "/api/v1/tables/T2/rounds", WHOLE)
                self.assertEqual(st, 201, js)
            self.wait_shipped()
            want = other.db_value("SELECT count(*) FROM events")
            pbtest.wait_until(lambda: "P-other's %d events shipped:\n%s" % (want, other.full_log()),
                              lambda: int(self.pg.psql("SELECT count(*) FROM pitboss.events WHERE property = "
                                                       "'P-other'")) == want, timeout=60, every=0.1)
            other.stop()
        finally:
            other.close()
        parts = self.pg.psql("SELECT count(*) FROM pg_inherits WHERE inhparent = 'pitboss.events'::regclass "
                             "AND inhrelid::regclass::text IN ('pitboss.\"events_P-4\"', 'pitboss.\"events_P-other\"')")
        self.assertEqual(int(parts), 2)          # a partition per property
        rc, out, err = run("central", "verify", "--conninfo", self.pg.conninfo)
        self.assertEqual(rc, 0, out + err)

    def test_5_lost_tail_resent(self):
        """A tail the central server lost (an asynchronous standby promoted without it) is sent again."""
        self.deal(6)
        self.wait_shipped()
        prop = self.property_id()
        self.d.stop()
        # the last events of T1 and the last facts never reached the server that is primary now
        self.pg.psql("SET session_replication_role = replica; DELETE FROM pitboss.events WHERE property = '%s' "
                     "AND table_id = 'T1' AND table_seq > 10" % prop)
        rc, out, err = run("central", "verify", "--conninfo", self.pg.conninfo, "--property", prop)
        # a signed checkpoint names a head the central copy lacks
        self.assertEqual(rc, 1, out + err)
        self.assertIn("checkpoint: the central copy has no event at its seq", out)
        self.errors_expected = True           # the shipper logs what the server lacked
        self.d.start()
        self.deal(1)
        self.wait_shipped()
        self.same_as_local()
        self.assertIn("central: the server lacks events after", self.d.full_log())
        rc, out, err = run("central", "verify", "--conninfo", self.pg.conninfo, "--property", prop)
        self.assertEqual(rc, 0, out + err)

    def test_9_altered_event_caught(self):
        self.deal(6)
        self.wait_shipped()
        prop = self.property_id()
        self.pg.psql("SET session_replication_role = replica; UPDATE pitboss.events SET body = "
                     "replace(body, '2500', '9500') WHERE property = '%s' AND table_id = 'T1' AND table_seq = "
                     "(SELECT min(table_seq) FROM pitboss.events WHERE property = '%s' AND table_id = 'T1' "
                     "AND body LIKE '%%2500%%')" % (prop, prop))
        rc, out, err = run("central", "verify", "--conninfo", self.pg.conninfo, "--property", prop)
        self.assertEqual(rc, 1, out + err)
        self.assertRegex(out, r"property %s table T1 #\d+: its hash does not match its content" % re.escape(prop))
        # an event removed centrally: a gap, named
        self.pg.psql("SET session_replication_role = replica; DELETE FROM pitboss.events WHERE property = '%s' "
                     "AND table_id = 'T1' AND table_seq = 3" % prop)
        rc, out, err = run("central", "verify", "--conninfo", self.pg.conninfo, "--property", prop)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("property %s table T1 #4: gap: the chain goes from #2 to #4" % prop, out)
        # an UPDATE without going round the triggers is refused outright
        with self.assertRaises(AssertionError):
            self.pg.psql("UPDATE pitboss.events SET actor = 'x' WHERE property = '%s'" % prop)


if __name__ == "__main__":
    missing = pgserver.missing()
    if missing is not None:
        raise SystemExit("test_central: FAILED: " + missing)
    pbtest.main()
