"""
The property's calendar over HTTP (docs/reports.md "Gaming days, shifts and
the time zone"): a pitbossd whose property is in New York with a gaming day
from 06:00 and three named shifts.  Rounds over HTTP are recorded at the real
time, so here the reports of "now" are checked against Python's own zone
database (zoneinfo): the default range is the current gaming day, group=day
and group=shift name it; tz_offset keeps its fixed-offset meaning; a reload
to another zone changes the calendar; a bad zone stops `pitbossd -t`.  The
grouping across daylight-saving changes at fixed instants is in
tests/unit/test_gaming_reports.c.

Also: every report and every paged GET refuses a query parameter it does
not take with 400 unknown_parameter naming it.
"""
import datetime
import zoneinfo

import pbtest
from pbtest import AUDITOR, PITBOSS_TOKEN

PROPERTY = {"id": "B1", "name": "Bayfront", "time_zone": "America/New_York", "gaming_day_start": "06:00",
            "shifts": [{"name": "day", "start": "06:00"}, {"name": "swing", "start": "14:00"},
                       {"name": "grave", "start": "22:00"}]}
ROUND = {"bets": {"1": {"ante": 1000}}, "hands": {"1": ["As", "Ks", "Qs"]}, "dealer": ["2c", "3d", "5h"],
         "decisions": {"1": "play"}}


def iso(dt):
    return dt.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def gaming_day(zone, start_h, when):
    """The gaming day holding the instant `when` and its bounds, as zoneinfo computes them."""
    z = zoneinfo.ZoneInfo(zone)
    local = when.astimezone(z)
    day = local.date() if local.hour >= start_h else local.date() - datetime.timedelta(days=1)

    def start(d):
        return datetime.datetime(d.year, d.month, d.day, start_h, tzinfo=z)
    return day, start(day), start(day + datetime.timedelta(days=1))


def shift_name(zone, when):
    h = when.astimezone(zoneinfo.ZoneInfo(zone)).hour
    return "day" if 6 <= h < 14 else "swing" if 14 <= h < 22 else "grave"


class Property(pbtest.DaemonTestCase):
    daemon_kwargs = {"overrides": {"property": PROPERTY, "chips": [100, 500, 2500, 10000]}}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        st, js = cls.d.call("POST", "/api/v1/tables/T1/rounds", ROUND)
        assert st == 201, (st, js)

    def get(self, path, token=AUDITOR):
        st, js = self.d.call("GET", path, token=token)
        self.assertEqual(st, 200, (path, js))
        return js

    def current(self, fn):
        """fn(now) twice around the request, so that a gaming day's end between them is not a failure."""
        before = datetime.datetime.now(datetime.timezone.utc)
        got = fn()
        after = datetime.datetime.now(datetime.timezone.utc)
        return got, before, after

    def test_today_is_the_current_gaming_day(self):
        js, before, after = self.current(lambda: self.get("/api/v1/reports/summary?group=day"))
        want = [gaming_day("America/New_York", 6, t) for t in (before, after)]
        self.assertIn((js["from"], js["to"]), [(iso(w[1]), iso(w[2])) for w in want])
        self.assertEqual(js["time_zone"], "America/New_York")
        self.assertEqual(js["gaming_day_start"], "06:00")
        self.assertIn(js["tz_offset"], (-300, -240))
        # the round of setUpClass, unless the gaming day ended since
        self.assertLessEqual(len(js["groups"]), 1)
        for g in js["groups"]:
            self.assertIn(g["key"], [w[0].isoformat() for w in want])
            self.assertEqual(g["rounds"], 1)

    def test_dates_are_gaming_days(self):
        day, start, end = gaming_day("America/New_York", 6, datetime.datetime.now(datetime.timezone.utc))
        d = day.isoformat()
        js = self.get("/api/v1/reports/summary?from=%s&to=%s&group=day" % (d, d))
        self.assertEqual((js["from"], js["to"]), (iso(start), iso(end)))
        # payouts and exceptions keep exact bounds: the same gaming day
        js = self.get("/api/v1/reports/exceptions?from=%s&to=%s" % (d, d))
        self.assertEqual((js["from"], js["to"]), (iso(start), iso(end)))

    def test_named_shifts(self):
        js, before, after = self.current(lambda: self.get("/api/v1/reports/summary?group=shift"))
        keys = ["%s %s" % (gaming_day("America/New_York", 6, t)[0].isoformat(), shift_name("America/New_York", t))
                for t in (before, after)]
        self.assertEqual(js["shift_names"], ["day", "swing", "grave"])
        self.assertEqual(js["shifts"], ["06:00", "14:00", "22:00"])
        for g in js["groups"]:
            self.assertIn(g["key"], keys)
        # shifts= keeps its meaning: start times, keys by local date and times
        js = self.get("/api/v1/reports/summary?group=shift&shifts=00:00")
        self.assertNotIn("shift_names", js)
        for g in js["groups"]:
            self.assertTrue(g["key"].endswith(" 00:00-00:00"), js["groups"])
        # a start that is not a UTC hour in New York is refused
        st, js = self.d.call("GET", "/api/v1/reports/summary?group=shift&shifts=06:30", token=AUDITOR)
        self.assertEqual(st, 400)
        self.assertEqual(js["error"]["code"], "invalid_query")

    def test_tz_offset_keeps_its_meaning(self):
        js = self.get("/api/v1/reports/summary?group=day&tz_offset=0")
        self.assertNotIn("time_zone", js)
        self.assertEqual(js["tz_offset"], 0)
        self.assertTrue(js["from"].endswith("T00:00:00.000Z"), js["from"])
        for g in js["groups"]:
            self.assertEqual(g["key"], datetime.datetime.now(datetime.timezone.utc).date().isoformat())

    def test_unknown_parameters(self):
        for path, name in (
                ("/api/v1/reports/summary?tz=America/New_York", "tz"),
                ("/api/v1/reports/summary?group=shift&shfts=06:00", "shfts"),
                ("/api/v1/reports/summary?min=100", "min"),
                ("/api/v1/reports/payouts?group=day", "group"),
                ("/api/v1/reports/exceptions?min=1", "min"),
                ("/api/v1/reports/bankers?limit=5", "limit"),
                ("/api/v1/reports/summary?format=csv&x", "x"),
                ("/api/v1/events?after=0&size=5", "size"),
                ("/api/v1/checkpoints?tabel=T1", "tabel"),
                ("/api/v1/integrity?from=1", "from"),
                ("/api/v1/tables/T1/rounds?offset=10", "offset"),
                ("/api/v1/tables/P1/bankers?page=2", "page")):
            st, js = self.d.call("GET", path, token=AUDITOR)
            self.assertEqual(st, 400, (path, js))
            self.assertEqual(js["error"]["code"], "unknown_parameter", path)
            self.assertTrue(js["error"]["message"].startswith(name + ": unknown parameter"), (path, js))
        # the known ones still work, and a format other than json or csv is still a bad value
        for path in ("/api/v1/reports/summary?table=T1&group=table&format=csv", "/api/v1/reports/payouts?min=1&limit=5",
                     "/api/v1/reports/exceptions?limit=5", "/api/v1/reports/bankers?table=P1",
                     "/api/v1/events?after=0&limit=5", "/api/v1/checkpoints?table=T1&after=0&limit=5",
                     "/api/v1/integrity?table=T1&from_round=1", "/api/v1/tables/T1/rounds?limit=5",
                     "/api/v1/tables/P1/bankers?limit=5"):
            st, _, raw = self.d.request("GET", path, token=AUDITOR)
            self.assertEqual(st, 200, (path, raw[:200]))
        st, js = self.d.call("GET", "/api/v1/reports/summary?format=xml", token=PITBOSS_TOKEN)
        self.assertEqual((st, js["error"]["code"]), (400, "invalid_query"))

    def test_z_reload_changes_the_zone(self):
        cfg = dict(self.d.config)
        cfg["property"] = dict(PROPERTY, time_zone="Asia/Tokyo", shifts=[])
        self.d.write_config(cfg)
        self.d.sighup()

        def in_tokyo():
            js = self.get("/api/v1/reports/summary?group=day")
            return js if js.get("time_zone") == "Asia/Tokyo" else None
        js = pbtest.wait_until("the reload takes", in_tokyo)
        self.assertEqual(js["tz_offset"], 540)
        day, start, end = gaming_day("Asia/Tokyo", 6, datetime.datetime.now(datetime.timezone.utc))
        self.assertEqual(js["from"], iso(start))
        cfg["property"] = PROPERTY
        self.d.write_config(cfg)


class BadZone(pbtest.DaemonTestCase):
    """A zone the system does not know stops `pitbossd -t` with the key's place."""

    @classmethod
    def setUpClass(cls):
        cls.d = pbtest.Daemon(overrides={"property": dict(PROPERTY, time_zone="America/Nowhere")})

    def test_check_refuses(self):
        code, text = self.d.run_expect_failure(["-t"])
        self.assertEqual(code, 1, text)
        self.assertIn("property.time_zone: unknown time zone \"America/Nowhere\"", text)

    def test_half_hour_start_refused(self):
        self.d.write_config(dict(self.d.config, property=dict(PROPERTY, gaming_day_start="06:30", shifts=[])))
        code, text = self.d.run_expect_failure(["-t"])
        self.assertEqual(code, 1, text)
        self.assertIn("property.gaming_day_start: 06:30 in America/New_York", text)


if __name__ == "__main__":
    import unittest
    unittest.main()
