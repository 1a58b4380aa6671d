"""
Failover of the central server (docs/central.md, "Failover"): a primary and a
streaming-replication standby (pgserver.py; pg_basebackup -R -X stream), a
pitbossd shipping through libpq's multi-host conninfo with
target_session_attrs=read-write.  The primary is stopped hard (pg_ctl stop -m
immediate) mid-stream, rounds go on being accepted, the standby is promoted,
and the shipper must reconnect to it by itself and catch up: no gap, no
duplicate, `pitboss central verify` against the new primary OK and counting
every event of the SQLite file.  PostgreSQL missing is a failure, not a skip.
"""
import unittest

import pbtest
import pgserver
from test_central import WHOLE, metric, metrics, outage_reported, run


class CentralFailoverTest(unittest.TestCase):
    def setUp(self):
        self.servers = []
        self.d = None
        self.primary = self.server(pgserver.PgServer().start())
        rc, out, err = run("central", "init", "--conninfo", self.primary.conninfo)
        self.assertEqual(rc, 0, out + err)
        self.standby = self.server(pgserver.PgServer(standby_of=self.primary).start())
        self.conninfo = ("host=127.0.0.1,127.0.0.1 port=%d,%d user=postgres dbname=postgres "
                         "target_session_attrs=read-write" % (self.primary.port, self.standby.port))

    def server(self, pg):
        self.servers.append(pg)
        return pg

    def tearDown(self):
        try:
            if self.d is not None:
                try:
                    if self.d.running:
                        self.d.stop(allow_errors=True)
                finally:
                    self.d.close()
        finally:
            for pg in self.servers:            # every server stopped, whatever happened
                pg.close()

    def deal(self, n, table="T1"):
        for _ in range(n):
            st, js = self.d.call("POST", "/api/v1/tables/%s/rounds" % table, WHOLE)
            self.assertEqual(st, 201, js)

    def local(self, sql):
        return self.d.db_rows(sql)

    def central_counts(self, pg):
        return (int(pg.psql("SELECT count(*) FROM pitboss.events WHERE property = 'P-f'")),
                int(pg.psql("SELECT count(*) FROM pitboss.checkpoints WHERE property = 'P-f'")))

    def wait_for(self, pg, timeout, what):
        seen = {}

        def there():
            seen["want"] = (self.local("SELECT count(*) FROM events")[0][0],
                            self.local("SELECT count(*) FROM checkpoints")[0][0])
            seen["got"] = self.central_counts(pg)
            return (seen["got"][0],) if seen["got"] == seen["want"] else None
        return pbtest.wait_until(lambda: "%s: local %r, central %r\n%s" % (what, seen["want"], seen["got"],
                                                                            self.d.full_log()),
                                 there, timeout=timeout, every=0.1)[0]

    def test_standby_promoted_shipper_follows(self):
        prop = dict(pbtest.example_config()["property"], id="P-f")
        self.d = pbtest.Daemon(overrides={"central": {"conninfo": self.conninfo}, "property": prop,
                                          "checkpoint": {"every_rounds": 5, "every_seconds": 1}})
        self.d.start()
        self.assertEqual(self.standby.psql("SELECT pg_is_in_recovery()").strip(), "t")
        self.deal(10)
        self.deal(3, table="T2")
        self.wait_for(self.primary, 60, "shipped to the primary")
        # the standby has replayed all of it (asynchronous replication: see docs/central.md)
        self.wait_for(self.standby, 60, "replayed on the standby")

        self.primary.stop(mode="immediate")
        self.deal(12)                              # not one refused while there is no primary
        self.deal(2, table="T2")
        m = pbtest.wait_until(lambda: "the shipper reports the primary down:\n" + metrics(self.d), lambda: outage_reported(self.d), timeout=30,
                              every=0.2)
        self.assertEqual(metric(m, "pitboss_central_up"), 0)

        self.standby.promote()
        self.deal(4)
        n = self.wait_for(self.standby, 90, "shipped to the promoted standby")
        self.assertEqual(n, self.local("SELECT count(*) FROM events")[0][0])
        local = [tuple(str(v) for v in r) for r in
                 self.local("SELECT table_id, table_seq, hash FROM events ORDER BY table_id, table_seq")]
        central = [tuple(l.split("|")) for l in self.standby.psql(
            "SELECT table_id, table_seq, hash FROM pitboss.events WHERE property = 'P-f' "
            "ORDER BY table_id, table_seq").split()]
        self.assertEqual(local, central)           # no gap, nothing extra
        dup = self.standby.psql("SELECT count(*) FROM (SELECT 1 FROM pitboss.events GROUP BY property, "
                                "table_id, table_seq HAVING count(*) > 1) d")
        self.assertEqual(int(dup), 0)
        for conninfo in (self.standby.conninfo, self.conninfo):
            rc, out, err = run("central", "verify", "--conninfo", conninfo, "--property", "P-f")
            self.assertEqual(rc, 0, out + err)
            self.assertIn("OK: %d events verified" % n, out)
        m = metrics(self.d)
        self.assertNotIn("pitboss_central_last_error{", m)
        self.assertEqual(metric(m, "pitboss_central_up"), 1)
        self.assertEqual(metric(m, "pitboss_central_lag_events"), 0)
        self.assertGreater(metric(m, "pitboss_central_failures_total"), 0)
        self.assertIn("central: shipping again", self.d.full_log())


if __name__ == "__main__":
    unittest.main()
