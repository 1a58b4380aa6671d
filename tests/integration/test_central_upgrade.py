"""
The central schema's upgrades against a real PostgreSQL (pgserver.py,
docs/central.md "Schema"): a schema made by `pitboss central init --version
3` (before the roll-ups), `--version 4` (the roll-ups kept by a trigger per
fact) or `--version 5` (by UTC days, a property having sent its New York
calendar) holds report facts of two properties; `pitboss central init` then
upgrades it to this pitboss's version, the New York property's roll-ups made
again by its gaming days (version 6).  Every roll-up row (report_days,
report_months, with the sums per table, dealer and property) must equal the
sums recomputed here from the facts, as test_central_rollup recomputes them;
more facts inserted after the upgrade, many a statement, keep them equal.
"""
import random
import re
import unittest

import pgserver
from test_central_rollup import days_of, hours_of, insert_sql, make_facts, months_of, multi_insert_sql, with_sums
from test_central_rollup import GamingDays, central_rollup


class CentralUpgradeTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.pg = pgserver.PgServer().start()

    @classmethod
    def tearDownClass(cls):
        cls.pg.close()

    def init(self, *args):
        rc, out, err = pgserver.run_pitboss("central", "init", "--conninfo", self.pg.conninfo, *args)
        self.assertEqual(rc, 0, out + err)
        return out

    def central(self, table, start, prop):
        return central_rollup(self.pg, table, start, prop)

    def assert_rollups(self, facts, cals=None):
        for p, fs in facts.items():
            cal = (cals or {}).get(p)
            days = days_of(hours_of(fs), cal)
            for table, start, want in (("report_days", "day", with_sums(days)),
                                       ("report_months", "month", with_sums(months_of(days, cal)))):
                got = self.central(table, start, p)
                self.assertEqual(sorted(got), sorted(want), (p, table))
                for k in want:
                    self.assertEqual(got[k], want[k], (p, table, k))

    def upgrade_from(self, version, seed, calendar_of=None):
        self.pg.psql("DROP SCHEMA IF EXISTS pitboss CASCADE")
        self.assertEqual(self.init("--version", str(version)).strip(), "central schema: version 0 -> %d" % version)
        self.assertEqual(self.pg.psql("SELECT max(version) FROM pitboss.schema_version").strip(), str(version))
        rng = random.Random(seed)
        games = ["%064x" % (0xdef0 + i) for i in range(2)]
        for sha in games:
            self.pg.psql("INSERT INTO pitboss.rules (sha256, body) VALUES ('%s', '{}')" % sha)
        facts = {p: make_facts(rng, p, games) for p in ("UP-1", "UP-2")}
        cals = {}
        for p, (zone, hour) in (calendar_of or {}).items():
            # the property's calendar as its shipper sends it (before version 6: recorded, not rolled up by)
            self.pg.psql("SELECT pitboss.ensure_property('%s'); SELECT pitboss.set_property_calendar('%s', '%s', "
                         "'%s', '%02d:00', '[]')" % (p, p, p, zone, hour))
            cals[p] = GamingDays(zone, hour)
        before = {p: fs[:len(fs) * 2 // 3] for p, fs in facts.items()}
        after = {p: fs[len(fs) * 2 // 3:] for p, fs in facts.items()}
        for p, fs in before.items():
            # as an older shipper sent them: a few a transaction, one a statement
            txs = ["BEGIN; %s; COMMIT" % "; ".join(insert_sql(p, f, f["game"]) for f in fs[i:i + 7])
                   for i in range(0, len(fs), 7)]
            for i in range(0, len(txs), 40):
                self.pg.psql("; ".join(txs[i:i + 40]))
        hours = int(self.pg.psql("SELECT count(*) FROM pitboss.report_hours"))
        self.assertEqual(hours, sum(len({(f["table_id"], f["dealer"], f["game"], f["hour"]) for f in fs})
                                    for fs in before.values()))
        out = self.init()
        m = re.match(r"central schema: version (\d+) -> (\d+)$", out.strip())
        self.assertIsNotNone(m, out)
        self.assertEqual(int(m.group(1)), version)
        latest = int(m.group(2))
        self.assertGreaterEqual(latest, 5)
        self.assertEqual(self.init().strip(), "central schema already at version %d" % latest)
        # the roll-ups of the facts already there, built by the upgrade
        self.assert_rollups(before, cals)
        # facts sent after it, many a statement as the shipper sends a batch, rolled up with them
        for p, fs in after.items():
            for i in range(0, len(fs), 25 * 8):
                self.pg.psql("; ".join("BEGIN; %s; COMMIT" % multi_insert_sql(p, fs[j:j + 25])
                                       for j in range(i, min(i + 25 * 8, len(fs)), 25)))
        self.assert_rollups(facts, cals)

    def test_upgrade_from_3(self):
        self.upgrade_from(3, 33)

    def test_upgrade_from_4(self):
        self.upgrade_from(4, 34)

    def test_upgrade_from_5(self):
        self.upgrade_from(5, 35, {"UP-1": ("America/New_York", 6)})

    def test_upgrade_from_3_with_calendar(self):
        self.upgrade_from(3, 36, {"UP-2": ("Asia/Tokyo", 6)})

    def test_version_refused(self):
        rc, out, err = pgserver.run_pitboss("central", "init", "--conninfo", self.pg.conninfo, "--version", "99")
        self.assertEqual(rc, 2, out + err)
        self.assertIn("--version must be 1 to", err)


if __name__ == "__main__":
    unittest.main()
