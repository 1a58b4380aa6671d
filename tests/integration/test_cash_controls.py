"""
Cash controls (issue 28) checked as a BSA examiner would: one gaming day of a pit scripted through the API
(patrons named with identification, named without, anonymous with a description; three tables and the
cage, every transaction type and kind, voids, a merge, an anonymous patron identified later), and every
Title 31 figure recomputed here from the test's own inputs by an independent model (class Ledger): each
answer's totals and title31 block, the transactions list, and GET /reports/title31 entry by entry (totals,
MTL, alerts, CTR items with their statuses and notes, voids) in JSON and CSV.  No figure is copied from a
run of the daemon; only ids and times come from its answers.

The rules modelled (docs/players.md, 31 CFR 1021.311 and .313): cash only (chips and markers are not
currency; a marker redeemed in cash is cash in; the cage's every type is currency); per patron (the
surviving record of a merge) per gaming day, cash in and cash out summed apart, never netted; an MTL entry
per cash transaction of title31.mtl_threshold or more, voided ones too; an alert at title31.alert_at; a
CTR item over title31.ctr_over (exactly ctr_over is not over); a cash transaction that would take an
unidentified patron's side over ctr_over refused, nothing recorded; a void takes a transaction out of
every aggregate.

The daemon runs on the test clock in America/New_York with gaming days starting at 06:00, set to 14:00
local two days ahead, so that the gaming day is fixed; the last tests move it 15 and 16 days on (the CTR's
due date, a gaming day's boundary).
"""
import csv
import datetime
import io
import json
import sys
import zoneinfo

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import AUDITOR, DEALER  # noqa: E402

LIMITS = {"mtl_threshold": 300000, "alert_at": 800000, "ctr_over": 1000000}
PROPERTY = {"id": "B1", "name": "Bayfront", "time_zone": "America/New_York", "gaming_day_start": "06:00"}
ZONE = zoneinfo.ZoneInfo(PROPERTY["time_zone"])
DAY_START = datetime.timedelta(hours=6)
CTR_DUE_DAYS = 15

PEOPLE = pbtest.staff("FL1", "FL2", "PB1", "DL1", "DL2", "CG1", "CG2", "SV1", "CT1")

# The patrons, registered in this order (P1 ... P7).
PATRONS = (
    {"card": "100001", "name": "Ana Maria Lopez", "id_type": "passport", "id_number": "X1234567"},
    {"card": "100002", "name": "Bo Chen"},
    {"description": "tall man, red cap, grey beard"},
    {"description": "woman in green dress"},
    {"card": "100005", "name": "Dora Reyes"},
    {"card": "100006", "name": "Eli Stone", "id_type": "drivers_license", "id_number": "NY-D-5550001"},
    {"card": "100007", "name": "Fay Gold", "id_type": "passport", "id_number": "Y7654321"},
)

# Table types: the kinds and directions each may have, and the kind a type implies (cash-spec, "Table transactions").
TABLE_TYPES = {
    "chip_purchase": ({"cash"}, {"in"}),
    "money_play": ({"cash"}, {"in"}),
    "marker_issue": ({"marker"}, {"in"}),
    "marker_redemption": ({"cash", "chips"}, {"in"}),
    "other": ({"cash", "chips", "marker"}, {"in", "out"}),
}
IMPLIED_KIND = {"chip_purchase": "cash", "money_play": "cash", "marker_issue": "marker"}
# Cage types and the directions each may have; every one is currency.
CAGE_TYPES = {
    "chip_redemption": {"out"},
    "front_money": {"in", "out"},
    "safekeeping": {"in", "out"},
    "marker_payment": {"in"},
    "check_cashing": {"out"},
    "cash_advance": {"out"},
    "other": {"in", "out"},
}
witness = pbtest.staff_witness     # {"person", "password"} of one of PEOPLE


def gaming_day_of(at):
    """The gaming day of a time the daemon wrote ("...Z"): the local date a day starting at 06:00 began on."""
    t = datetime.datetime.fromisoformat(at.replace("Z", "+00:00")).astimezone(ZONE)
    return (t - DAY_START).date().isoformat()


def local_ms(date, hour, minute=0):
    """Unix ms of a local wall time of the property."""
    return int(datetime.datetime.combine(date, datetime.time(hour, minute), tzinfo=ZONE).timestamp() * 1000)


def plus_days(day, n):
    return (datetime.date.fromisoformat(day) + datetime.timedelta(days=n)).isoformat()


def side_key(direction):
    return "cash_in" if direction == "in" else "cash_out"


class Ledger:
    """The examiner's own model of the day: the patrons' records as the test wrote them, every transaction the
    daemon accepted (as the test sent it), voids, merges, CTR statuses and notes; every Title 31 figure is
    computed here from those alone."""

    def __init__(self):
        self.patrons = {}       # id -> {"name", "description", "id_type", "id_number", "merged_into"}
        self.txns = []          # in the order recorded
        self.items = {}         # CTR item id -> {"status", "status_by", "bsa_id", "filed_on", "notes"}
        self.acks = {}          # (day, player, direction, kind) -> the first acknowledgment {"note", "by"}
        self.alert_notes = {}   # (day, player, direction) -> the later acknowledgments of an alert

    def survivor(self, pid):
        """The record pid counts for: itself, or the one it was merged into (one step always reaches it)."""
        return self.patrons[pid]["merged_into"] or pid

    def identified(self, pid):
        p = self.patrons[pid]
        return bool(p.get("id_type")) and bool(p.get("id_number"))

    def patron_text(self, pid):
        p = self.patrons[pid]
        return p.get("name") or p.get("description")

    def cash(self, day, with_voids=False):
        return [t for t in self.txns if t["gaming_day"] == day and t["kind"] == "cash"
                and (with_voids or t["void"] is None)]

    def totals(self, day):
        """{survivor: {"cash_in", "cash_out"}} of the day's cash, voids left out, in and out apart."""
        out = {}
        for t in self.cash(day):
            side = out.setdefault(self.survivor(t["player"]), {"cash_in": 0, "cash_out": 0})
            side[side_key(t["direction"])] += t["amount"]
        return out

    def totals_of(self, day, pid):
        return self.totals(day).get(self.survivor(pid), {"cash_in": 0, "cash_out": 0})

    def crossings(self, day, limit, over):
        """{(survivor, direction): the time of the transaction with which the side reached limit (at or over it,
        or over it when over)}, walking the day's cash in order, voids left out."""
        running, at = {}, {}
        for t in self.cash(day):
            key = (self.survivor(t["player"]), t["direction"])
            before = running.get(key, 0)
            running[key] = before + t["amount"]
            crossed = (before <= limit < running[key]) if over else (before < limit <= running[key])
            if crossed:
                at[key] = t["at"]
        return at

    def mtl(self, day):
        """{id: entry}: every cash transaction of mtl_threshold or more, voided ones too."""
        return {t["id"]: dict(self.listed(t), kind="cash") for t in self.cash(day, with_voids=True)
                if t["amount"] >= LIMITS["mtl_threshold"]}

    def listed(self, t):
        """A transaction as GET /transactions and the MTL list it."""
        keys = ("id", "table", "seat", "window", "player", "direction", "kind", "type", "amount", "at", "by",
                "description", "name", "void")
        return dict({k: t[k] for k in keys}, counted_for=self.survivor(t["player"]))

    def alerts(self, day):
        """{(player, direction): alert} of each side at or over alert_at."""
        at = self.crossings(day, LIMITS["alert_at"], over=False)
        out = {}
        for pid, sides in self.totals(day).items():
            for d in ("in", "out"):
                total = sides[side_key(d)]
                if total >= LIMITS["alert_at"]:
                    out[(pid, d)] = {"player": pid, "direction": d, "total": total, "at": at[(pid, d)],
                                     "acknowledged": self.acks.get((day, pid, d, "alert")),
                                     "notes": self.alert_notes.get((day, pid, d), []), "patron": self.patron_text(pid)}
        return out

    def item_id(self, day, pid, direction):
        return "%s-%s-%s" % (day, pid, direction)

    def ctr(self, day, today=None):
        """{item id: CTR item}: each side over ctr_over, and each item that once had a status (below_limit when its
        side is no longer over).  overdue is given when today (the current gaming day) is."""
        at = self.crossings(day, LIMITS["ctr_over"], over=True)
        totals = self.totals(day)
        keys = {(pid, d) for pid, s in totals.items() for d in ("in", "out") if s[side_key(d)] > LIMITS["ctr_over"]}
        keys |= {(pid, d) for (iday, pid, d), st in self.items_by_key().items() if iday == day and st["status"] != "open"}
        out = {}
        for pid, d in keys:
            iid = self.item_id(day, pid, d)
            st = self.items.get(iid, self.new_item())
            total = totals.get(pid, {}).get(side_key(d), 0)
            below = total <= LIMITS["ctr_over"]
            item = {"id": iid, "player": pid, "direction": d, "total": total, "at": None if below else at[(pid, d)],
                    "status": st["status"], "status_by": st["status_by"], "bsa_id": st["bsa_id"],
                    "filed_on": st["filed_on"], "due": plus_days(day, CTR_DUE_DAYS), "identified": self.identified(pid),
                    "acknowledged": self.acks.get((day, pid, d, "ctr")), "notes": st["notes"], "below_limit": below,
                    "patron": self.patron_text(pid)}
            if today is not None and not below:
                item["overdue"] = st["status"] in ("open", "identified") and today > item["due"]
            out[iid] = item
        return out

    def items_by_key(self):
        out = {}
        for iid, st in self.items.items():
            day, pid, d = iid[:10], iid[11:].rsplit("-", 1)[0], iid.rsplit("-", 1)[1]
            out[(day, pid, d)] = st
        return out

    @staticmethod
    def new_item():
        return {"status": "open", "status_by": None, "bsa_id": None, "filed_on": None, "notes": []}

    def ctr_refusal(self, day, iid, body):
        """(status, code) the daemon must refuse POST /title31/ctr/{iid} body with, or None when it must take it.
        Filing without a bsa_id: (None, None), a refusal whose status and code the spec leaves open."""
        items = self.ctr(day)
        if iid not in items:
            return 404, "ctr_not_found"
        status, current, pid = body.get("status"), items[iid]["status"], items[iid]["player"]
        if status is None:
            return None
        allowed = {"identified": ("open",), "filed": ("open", "identified"), "amended": ("filed", "amended")}
        if current not in allowed[status]:
            return 409, "invalid_transition"
        if status == "filed" and not body.get("bsa_id"):
            return None, None
        if status in ("identified", "filed") and not self.identified(pid):
            return 422, "identification_required"
        return None

    def ctr_posted(self, iid, body, by):
        """Records an accepted POST /title31/ctr/{iid}."""
        st = self.items.setdefault(iid, self.new_item())
        note = {"note": body["note"], "by": by}
        if body.get("status"):
            st["status"], st["status_by"] = body["status"], by
            note["status"] = body["status"]
            if body.get("bsa_id"):
                st["bsa_id"] = note["bsa_id"] = body["bsa_id"]
            if body.get("filed_on"):
                st["filed_on"] = body["filed_on"]
        st["notes"].append(note)

    def acknowledged(self, body, by):
        """Records an accepted acknowledgment: the first of an item is its acknowledgment, the later ones notes."""
        day, pid, d, kind = body["gaming_day"], body["player"], body["direction"], body["kind"]
        key = (day, pid, d, kind)
        if key not in self.acks:
            self.acks[key] = {"note": body["note"], "by": by}
        elif kind == "alert":
            self.alert_notes.setdefault((day, pid, d), []).append({"note": body["note"], "by": by})
        else:
            self.items.setdefault(self.item_id(day, pid, d), self.new_item())["notes"].append(
                {"note": body["note"], "by": by})

    def expect(self, day, where, body, by):
        """(why, t): why None when the daemon must take the transaction, else the (status, code) it must refuse it
        with; t the transaction as it is (or would be) recorded, without its id and time."""
        pid, d, amount = body["player"], body["direction"], body["amount"]
        if where == "cage":
            type_, kind = body["type"], "cash"
            valid = d in CAGE_TYPES.get(type_, ())
        else:
            kind = body.get("kind") or IMPLIED_KIND.get(body.get("type"))
            type_ = body.get("type") or ("chip_purchase" if (kind, d) == ("cash", "in") else
                                         "marker_issue" if (kind, d) == ("marker", "in") else "other")
            kinds, dirs = TABLE_TYPES.get(type_, ((), ()))
            valid = kind in kinds and d in dirs
        p = self.patrons[pid]
        t = {"gaming_day": day, "table": None if where == "cage" else where,
             "seat": "cage" if where == "cage" else body.get("seat"),
             "window": (body.get("window") or "cage") if where == "cage" else None,
             "player": pid, "direction": d, "kind": kind, "type": type_, "amount": amount, "by": by,
             "description": p.get("description"), "name": p.get("name"), "void": None}
        cf = self.survivor(pid)
        if not valid:
            return (422, "invalid_type"), t
        if p["merged_into"]:
            return (409, "player_merged"), t
        over = self.totals_of(day, cf)[side_key(d)] + amount > LIMITS["ctr_over"]
        if kind == "cash" and over and not self.identified(cf):
            return (422, "identification_required"), t
        return None, t


class CashControls(pbtest.StaffTestCase):
    daemon_kwargs = {"clock": True, "overrides": {"property": PROPERTY, "title31": dict(LIMITS)}}
    PEOPLE = PEOPLE

    @classmethod
    def before_start(cls):
        day = datetime.datetime.now(ZONE).date() + datetime.timedelta(days=2)
        cls.d.advance_clock_to(local_ms(day, 14))
        cls.day = day.isoformat()
        cls.ledger = Ledger()
        cls.ids = {}            # the test's names of transactions -> their ids

    @classmethod
    def sign_in_all(cls):
        cls.tok = pbtest.sign_in_staff(cls.d, PEOPLE)

    # ---- requests ----

    def as_(self, who, method, path, body=None, status=200):
        return self.ok(method, "/api/v1" + path, body, status=status, token=self.tok.get(who, who))

    def now_day(self):
        return gaming_day_of(datetime.datetime.fromtimestamp(self.d.clock_ms() / 1000, datetime.timezone.utc)
                             .isoformat())

    def day_state(self, day):
        """What a refusal must leave as it was: the day's transactions list and Title 31 totals."""
        lst = self.d.call("GET", "/api/v1/transactions?gaming_day=" + day, token=self.tok["PB1"])
        rep = self.d.call("GET", "/api/v1/reports/title31?gaming_day=" + day, token=self.tok["PB1"])
        return lst, (rep[0], (rep[1] or {}).get("totals"))

    def refuse(self, statuses, code, who, method, path, body=None, on_taken=None):
        """A request that must be refused with a status of statuses and code (None: any code), recording nothing:
        events, the day's transactions list and Title 31 totals as they were.  on_taken(answer) keeps the model
        true when the daemon took it instead."""
        statuses = statuses if isinstance(statuses, tuple) else (statuses,)
        before, state = pbtest.snapshot(self.d), self.day_state(self.now_day())
        st, js = self.d.call(method, "/api/v1" + path, body, token=self.tok.get(who, who))
        if st in (200, 201) and on_taken is not None:
            on_taken(js)
        desc = "%s %s %s by %s -> %d %s" % (method, path, json.dumps(body), who, st, json.dumps(js))
        self.assertIn(st, statuses, desc)
        err = (js or {}).get("error") or {}
        if code is not None:
            self.assertEqual(err.get("code"), code, desc)
        self.assertTrue(err.get("message"), desc)
        self.assertEqual(pbtest.snapshot(self.d), before, "%s: the record changed" % desc)
        self.assertEqual(self.day_state(self.now_day()), state, "%s: the day's transactions or totals changed" % desc)
        return err

    def txn(self, who, where, body):
        """Posts a transaction at a table (where = its id) or the cage; checks the answer or the refusal the model
        says, and records an accepted one in the model.  Returns the answer (None when refused)."""
        day = self.now_day()
        why, t = self.ledger.expect(day, where, body, who)
        path = "/cage/transactions" if where == "cage" else "/tables/%s/transactions" % where
        if why is not None:
            self.refuse(why[0], why[1], who, "POST", path, body, on_taken=lambda js: self.record(js, t))
            return None
        st, js = self.d.call("POST", "/api/v1" + path, body, token=self.tok[who])
        if st == 201:
            self.record(js, t)
        self.assertEqual(st, 201, "%s %s by %s -> %d %s" % (path, json.dumps(body), who, st, json.dumps(js)))
        for k in ("table", "seat", "player", "direction", "kind", "type", "amount", "by", "description", "name"):
            self.assertEqual(js.get(k), t[k], (k, body, js))
        if where == "cage":
            self.assertEqual(js.get("window"), t["window"], (body, js))
        self.assertEqual(js.get("gaming_day"), day, js)
        self.assertEqual(gaming_day_of(js["at"]), day, js)
        totals = self.ledger.totals_of(day, body["player"])
        self.assertEqual(js.get("totals"), totals, (body, js))
        side = totals[side_key(body["direction"])]
        t31 = dict(js.get("title31") or {})
        warning = t31.pop("warning", "absent")
        self.assertTrue(warning is None or isinstance(warning, str), js)
        self.assertEqual(t31, {"alert": side >= LIMITS["alert_at"], "ctr": side > LIMITS["ctr_over"],
                               "identified": self.ledger.identified(self.ledger.survivor(body["player"])),
                               "remaining": max(0, LIMITS["ctr_over"] - side)}, (body, js))
        return js

    def record(self, js, t):
        self.ledger.txns.append(dict(t, id=js.get("id"), at=js.get("at"), gaming_day=gaming_day_of(js.get("at"))))

    def table(self, who, table, player, direction, amount, kind=None, type_=None, seat=None):
        body = {"player": player, "direction": direction, "amount": amount}
        for k, v in (("seat", seat), ("kind", kind), ("type", type_)):
            if v is not None:
                body[k] = v
        return self.txn(who, table, body)

    def cage(self, who, player, direction, type_, amount, window=None):
        body = {"player": player, "direction": direction, "type": type_, "amount": amount}
        if window is not None:
            body["window"] = window
        return self.txn(who, "cage", body)

    def side(self, pid, direction):
        return self.ledger.totals_of(self.day, pid)[side_key(direction)]

    def void(self, who, name, wit, reason):
        """Voids the transaction the test named name; checks the answer against the model."""
        tid = self.ids[name]
        st, js = self.d.call("POST", "/api/v1/transactions/%s/void" % tid, {"reason": reason, "witness": witness(wit)},
                             token=self.tok[who])
        t = next(t for t in self.ledger.txns if t["id"] == tid)
        if st == 201:
            t["void"] = {"reason": reason, "by": who, "witness": wit, "at": (js.get("void") or {}).get("at")}
        self.assertEqual(st, 201, js)
        self.assertEqual(js["id"], tid)
        self.assertEqual({k: js["void"].get(k) for k in ("reason", "by", "witness")},
                         {"reason": reason, "by": who, "witness": wit})
        self.assertEqual(js["totals"], self.ledger.totals_of(t["gaming_day"], t["player"]))
        return js

    def ctr_post(self, who, iid, body, day=None):
        """POST /title31/ctr/{iid}: refused as the model says, or taken and answered as the model's item."""
        day = day or self.day
        why = self.ledger.ctr_refusal(day, iid, body)
        taken = lambda js: self.ledger.ctr_posted(iid, body, who)     # noqa: E731
        if why == (None, None):
            self.refuse((400, 422), None, who, "POST", "/title31/ctr/" + iid, body, on_taken=taken)
            return None
        if why is not None:
            self.refuse(why[0], why[1], who, "POST", "/title31/ctr/" + iid, body, on_taken=taken)
            return None
        st, js = self.d.call("POST", "/api/v1/title31/ctr/" + iid, body, token=self.tok[who])
        if st == 201:
            taken(js)
        self.assertEqual(st, 201, "%s %s -> %d %s" % (iid, body, st, js))
        self.assert_item(js, self.ledger.ctr(day)[iid])
        self.assertEqual(js.get("status_by"), self.ledger.items[iid]["status_by"])
        return js

    def acknowledge(self, who, body):
        st, js = self.d.call("POST", "/api/v1/title31/acknowledgments", body, token=self.tok[who])
        if st == 201:
            self.ledger.acknowledged(body, who)
        self.assertEqual(st, 201, js)

    # ---- comparisons ----

    def assert_notes(self, got, want, what):
        self.assertEqual([{k: n.get(k) for k in ("note", "status", "bsa_id", "by")} for n in got or []],
                         [{"note": n["note"], "status": n.get("status"), "bsa_id": n.get("bsa_id"), "by": n["by"]}
                          for n in want], what)

    def assert_ack(self, got, want, what):
        self.assertEqual(None if got is None else {"note": got.get("note"), "by": got.get("by")}, want, what)

    def assert_item(self, got, want):
        """A CTR item of the daemon's against the model's."""
        what = "CTR item %s: %s" % (want["id"], json.dumps(got))
        for k in ("id", "player", "direction", "total", "status", "bsa_id", "filed_on", "due", "identified",
                  "below_limit", "patron"):
            self.assertEqual(got.get(k), want[k], "%s (%s)" % (what, k))
        if not want["below_limit"]:
            self.assertEqual(got.get("at"), want["at"], what)
        if "overdue" in want:
            self.assertEqual(got.get("overdue"), want["overdue"], what)
        else:
            self.assertIsInstance(got.get("overdue"), bool, what)
        self.assertEqual(got.get("status_by"), self.ledger.items.get(want["id"], Ledger.new_item())["status_by"], what)
        self.assert_ack(got.get("acknowledged"), want["acknowledged"], what)
        self.assert_notes(got.get("notes"), want["notes"], what)

    def assert_listed(self, got, want, what):
        """A transaction as listed (GET /transactions, the MTL, the voids) against the model's."""
        self.assertEqual(sorted(set(want) - set(got)), [], "%s: fields missing" % what)
        for k, v in want.items():
            if k == "void":
                self.assertEqual(None if got[k] is None else {x: got[k].get(x) for x in ("reason", "by", "witness",
                                                                                         "at")}, v, what)
            else:
                self.assertEqual(got[k], v, "%s (%s)" % (what, k))

    def check_report(self, day=None, today=None):
        """GET /reports/title31 of the day, entry by entry, against the model."""
        day = day or self.day
        rep = self.as_("PB1", "GET", "/reports/title31?gaming_day=" + day)
        m = self.ledger
        self.assertEqual(rep["gaming_day"], day)
        self.assertEqual(rep["limits"], LIMITS)
        self.assertEqual(rep["totals"], m.totals(day))
        want_mtl = m.mtl(day)
        self.assertEqual(sorted(e["id"] for e in rep["mtl"]), sorted(want_mtl), rep["mtl"])
        for e in rep["mtl"]:
            self.assert_listed(e, want_mtl[e["id"]], "MTL entry %s" % json.dumps(e))
        want_alerts = m.alerts(day)
        self.assertEqual(sorted((a["player"], a["direction"]) for a in rep["alerts"]), sorted(want_alerts), rep["alerts"])
        for a in rep["alerts"]:
            w = want_alerts[(a["player"], a["direction"])]
            what = "alert %s" % json.dumps(a)
            for k in ("total", "at", "patron"):
                self.assertEqual(a.get(k), w[k], "%s (%s)" % (what, k))
            self.assert_ack(a.get("acknowledged"), w["acknowledged"], what)
            self.assert_notes(a.get("notes"), w["notes"], what)
        want_ctr = m.ctr(day, today)
        self.assertEqual(sorted(c["id"] for c in rep["ctr"]), sorted(want_ctr), rep["ctr"])
        for c in rep["ctr"]:
            self.assert_item(c, want_ctr[c["id"]])
        want_voids = {t["id"]: m.listed(t) for t in m.cash(day, with_voids=True) if t["void"] is not None}
        self.assertEqual(sorted(v["id"] for v in rep["voids"]), sorted(want_voids), rep["voids"])
        for v in rep["voids"]:
            self.assert_listed(v, want_voids[v["id"]], "void %s" % json.dumps(v))
        return rep

    def check_listing(self, day=None):
        """GET /transactions of the day, every transaction, against the model."""
        day = day or self.day
        js = self.as_("CG1", "GET", "/transactions?gaming_day=" + day)
        self.assertEqual(js["gaming_day"], day)
        want = {t["id"]: self.ledger.listed(t) for t in self.ledger.txns if t["gaming_day"] == day}
        got = [t["id"] for t in js["transactions"]]
        self.assertEqual(sorted(got), sorted(want))
        self.assertEqual(len(got), len(set(got)))
        for t in js["transactions"]:
            self.assert_listed(t, want[t["id"]], "listed %s" % json.dumps(t))
        return js

    # ---- the day ----

    def test_01_the_day_and_its_patrons(self):
        self.assertEqual(self.now_day(), self.day)
        self.assertEqual(self.as_("PB1", "GET", "/tables")["property"]["gaming_day"], self.day)
        for i, body in enumerate(PATRONS):
            p = self.as_("CG1", "POST", "/players", body, status=201)
            self.assertEqual(p["id"], "P%d" % (i + 1))
            self.ledger.patrons[p["id"]] = dict(body, merged_into=None)
        self.as_("PB1", "PUT", "/tables/T1/dealer", {"person": "DL1"})
        self.as_("PB1", "PUT", "/tables/T3/dealer", {"person": "DL2"})
        rep = self.check_report()
        self.assertEqual((rep["mtl"], rep["alerts"], rep["ctr"], rep["totals"], rep["voids"]), ([], [], [], {}, []))

    def test_02_every_type_and_kind(self):
        """P1 (identified) at three tables and the cage: only cash counts, in and out apart, at and over each limit."""
        P1 = "P1"
        self.table("DL1", "T1", P1, "in", 299999, kind="cash", seat=1)        # chip_purchase implied; under the MTL
        self.table("FL1", "T2", P1, "in", 300000, type_="money_play", seat=2)  # at the MTL threshold
        self.table("DL1", "T1", P1, "in", 500000, type_="marker_issue", seat=1)  # a marker: not currency
        self.table("FL1", "T1", P1, "in", 400000, kind="chips", seat=1)       # chips: not currency (type other)
        self.table("FL1", "T2", P1, "in", 150000, kind="cash", type_="marker_redemption", seat=2)  # a marker paid in cash
        self.table("PB1", "T2", P1, "in", 200000, kind="chips", type_="marker_redemption", seat=2)  # paid in chips
        self.cage("CG1", P1, "out", "chip_redemption", 250000, window="W2")
        self.assertEqual((self.side(P1, "in"), self.side(P1, "out")), (749999, 250000))
        js = self.cage("CG2", P1, "in", "front_money", 50001)                  # 800000: at the alert
        self.assertEqual(self.side(P1, "in"), LIMITS["alert_at"])
        self.assertTrue(js["title31"]["alert"])
        self.table("FL1", "T1", P1, "out", 1000000, kind="chips", seat=1)     # chips out: not currency
        self.cage("CG1", P1, "out", "front_money", 300000, window="W1")       # a withdrawal, at the MTL threshold
        self.cage("CG1", P1, "in", "safekeeping", 100000, window="W1")
        self.cage("CG1", P1, "out", "safekeeping", 100000, window="W1")
        js = self.cage("CG2", P1, "in", "marker_payment", 100000)             # exactly ctr_over: no CTR
        self.assertEqual(self.side(P1, "in"), LIMITS["ctr_over"])
        self.assertEqual((js["title31"]["ctr"], js["title31"]["remaining"]), (False, 0))
        rep = self.check_report()
        self.assertEqual([c for c in rep["ctr"] if c["player"] == P1], [])
        self.cage("CG1", P1, "out", "check_cashing", 200000, window="W2")     # 850000 out: an alert out
        self.cage("CG1", P1, "out", "cash_advance", 150000, window="W2")      # 1000000 out: not over
        self.table("DL2", "T3", P1, "in", 20000, kind="marker", type_="other", seat=2)   # a marker of type other
        self.table("DL2", "T3", P1, "out", 20000, kind="marker", type_="other", seat=2)
        self.table("DL2", "T3", P1, "in", 30000, kind="chips", type_="other", seat=2)
        self.cage("CG1", P1, "out", "other", 1)                               # 1000001 out: a CTR out
        self.table("FL1", "T3", P1, "in", 1, kind="cash", type_="other")      # 1000001 in, no seat: a CTR in
        self.assertEqual((self.side(P1, "in"), self.side(P1, "out")), (LIMITS["ctr_over"] + 1, LIMITS["ctr_over"] + 1))
        self.cage("CG2", P1, "in", "other", 5000)
        self.table("FL1", "T3", P1, "out", 300000, kind="cash", type_="other")  # cash out at a table, no seat: an MTL entry
        rep = self.check_report()
        self.assertEqual(sorted((c["player"], c["direction"]) for c in rep["ctr"]), [(P1, "in"), (P1, "out")])

    def test_03_types_refused(self):
        """A type with a kind or direction it cannot have, a cage type the cage does not take that way: 422
        invalid_type, nothing recorded; the cage is the cage's, a dealer's table his own."""
        for kind, type_, d in (("chips", "chip_purchase", "in"), ("cash", "chip_purchase", "out"),
                               ("marker", "money_play", "in"), ("cash", "money_play", "out"),
                               ("cash", "marker_issue", "in"), ("marker", "marker_issue", "out"),
                               ("marker", "marker_redemption", "in"), ("cash", "marker_redemption", "out")):
            self.table("FL1", "T1", "P1", d, 1000, kind=kind, type_=type_, seat=1)
        for type_, d in (("chip_redemption", "in"), ("marker_payment", "out"), ("check_cashing", "in"),
                         ("cash_advance", "in")):
            self.cage("CG1", "P1", d, type_, 1000)
        cage_body = {"player": "P1", "direction": "in", "type": "front_money", "amount": 1000}
        for who in ("FL1", "DL1", "SV1"):
            self.refuse(403, "forbidden", who, "POST", "/cage/transactions", cage_body)
        self.refuse(403, "forbidden", "DL1", "POST", "/tables/T2/transactions",
                    {"player": "P1", "direction": "in", "kind": "cash", "amount": 1000})
        self.refuse(403, "forbidden", "CG1", "POST", "/tables/T2/transactions",
                    {"player": "P1", "direction": "in", "kind": "cash", "amount": 1000})
        self.check_listing()
        for type_ in ("chip_purchase", "money_play", "marker_issue"):     # a table's type is none of the cage's
            self.cage("CG1", "P1", "in", type_, 1000)

    def test_04_identification_before_the_limit(self):
        """P2, named but unidentified: refused when a cash transaction at a table or the cage would take a side over
        ctr_over, the aggregate spanning both; exactly ctr_over taken; chips and markers never refused; taken
        once his record holds both id_type and id_number."""
        P2 = "P2"
        self.table("FL1", "T1", P2, "in", 600000, kind="cash", seat=3)
        self.cage("CG1", P2, "in", "front_money", 300000, window="W1")
        self.assertEqual(self.side(P2, "in"), 900000)
        self.assertIsNone(self.cage("CG1", P2, "in", "safekeeping", 100001))          # the cage refuses: 1000001
        self.assertIsNone(self.table("FL1", "T2", P2, "in", 100001, type_="money_play", seat=4))   # and a table
        self.table("FL1", "T2", P2, "in", 5000000, kind="chips", seat=4)
        self.table("FL1", "T2", P2, "in", 2000000, type_="marker_issue", seat=4)
        js = self.table("FL1", "T2", P2, "in", 100000, type_="money_play", seat=4)      # exactly 1000000: taken
        self.assertEqual((js["title31"]["ctr"], js["title31"]["remaining"], js["title31"]["identified"]), (False, 0, False))
        self.assertIsNone(self.table("FL1", "T2", P2, "in", 1, kind="cash", seat=4))
        self.cage("CG2", P2, "out", "chip_redemption", 1000000)                       # the out side apart: taken
        self.assertIsNone(self.cage("CG2", P2, "out", "cash_advance", 1))
        self.as_("CG1", "PATCH", "/players/P2", {"id_type": "drivers_license"})
        self.ledger.patrons[P2]["id_type"] = "drivers_license"
        self.assertIsNone(self.table("FL1", "T1", P2, "in", 1, kind="cash", seat=3))   # id_type alone is not enough
        self.as_("CG1", "PATCH", "/players/P2", {"id_number": "NY-D-5550002"})
        self.ledger.patrons[P2]["id_number"] = "NY-D-5550002"
        js = self.cage("CG1", P2, "in", "safekeeping", 100001, window="W1")
        self.assertEqual((js["title31"]["ctr"], js["title31"]["identified"]), (True, True))
        self.cage("CG2", P2, "out", "chip_redemption", 1)
        self.check_report()

    def test_05_anonymous_identified_later(self):
        """P3, anonymous: his entries keep the description as written and no name; once his record is named (and
        described anew), the later entries carry the name and the new description.  An MTL entry at the cage has
        seat "cage" and the window."""
        P3 = "P3"
        self.table("DL2", "T3", P3, "in", 300000, type_="money_play", seat=4)
        self.cage("CG2", P3, "out", "chip_redemption", 450000, window="W1")
        named = {"card": "100003", "name": "Cal Dunn", "description": "grey beard, regular at T3"}
        self.as_("CG1", "PATCH", "/players/P3", named)
        self.ledger.patrons[P3].update(named)
        js = self.table("DL2", "T3", P3, "in", 400000, kind="cash", seat=4)
        self.assertEqual((js["name"], js["description"]), ("Cal Dunn", "grey beard, regular at T3"))
        rep = self.check_report()
        mine = sorted((e for e in rep["mtl"] if e["player"] == P3), key=lambda e: (e["at"], e["id"]))
        self.assertEqual([(e["seat"], e["window"], e["description"], e["name"]) for e in mine],
                         [(4, None, PATRONS[2]["description"], None), ("cage", "W1", PATRONS[2]["description"], None),
                          (4, None, "grey beard, regular at T3", "Cal Dunn")])

    def test_06_voids(self):
        """A void with a witness: the transaction stays, listed and in the MTL marked void, out of every aggregate.
        P6 back under the limit: his open CTR item and his alert go.  P7's item, given a status, stays marked
        below_limit."""
        P6, P7 = "P6", "P7"
        self.table("FL1", "T1", P6, "in", 700000, kind="cash", seat=5)
        self.ids["p6 money play"] = self.table("FL1", "T2", P6, "in", 350000, type_="money_play", seat=5)["id"]
        rep = self.check_report()
        self.assertIn(self.ledger.item_id(self.day, P6, "in"), [c["id"] for c in rep["ctr"]])
        tid = self.ids["p6 money play"]
        body = {"reason": "entered at the wrong seat", "witness": witness("PB1")}
        path = "/transactions/%s/void" % tid
        self.refuse(403, "witness_required", "FL1", "POST", path, {"reason": "entered at the wrong seat"})
        self.refuse(403, "witness_same_person", "FL1", "POST", path, dict(body, witness=witness("FL1")))
        self.refuse(403, "witness_refused", "FL1", "POST", path, dict(body, witness=witness("DL1")))
        self.refuse(403, "forbidden", "DL1", "POST", path, body)
        self.refuse(404, "transaction_not_found", "FL1", "POST", "/transactions/987654/void", body)
        js = self.void("FL1", "p6 money play", "PB1", "entered at the wrong seat")
        self.assertEqual(js["totals"], {"cash_in": 700000, "cash_out": 0})
        rep = self.check_report()
        self.assertNotIn(self.ledger.item_id(self.day, P6, "in"), [c["id"] for c in rep["ctr"]])
        self.assertNotIn((P6, "in"), [(a["player"], a["direction"]) for a in rep["alerts"]])
        self.assertIsNotNone(next(e for e in rep["mtl"] if e["id"] == tid)["void"])
        # P7: an item with a status, then a void by the cage
        self.table("FL1", "T1", P7, "in", 600000, kind="cash", seat=6)
        self.ids["p7 deposit"] = self.cage("CG1", P7, "in", "front_money", 500000, window="W2")["id"]
        iid = self.ledger.item_id(self.day, P7, "in")
        self.ctr_post("CG1", iid, {"status": "identified", "note": "passport seen at the cage"})
        self.void("CG2", "p7 deposit", "FL1", "deposit keyed for the wrong patron")
        rep = self.check_report()
        item = next(c for c in rep["ctr"] if c["id"] == iid)
        self.assertEqual((item["below_limit"], item["status"], item["total"]), (True, "identified", 600000))
        self.refuse(409, "already_voided", "PB1", "POST", path, dict(body, witness=witness("FL1")))

    def test_07_merge(self):
        """The anonymous "woman in green dress" ($6,000 cash in) merged into Dora Reyes ($6,000 cash in): a CTR item
        for the survivor with 1200000; the merged record says so and takes nothing more."""
        P4, P5 = "P4", "P5"
        self.ids["p4 buy-in"] = self.table("FL1", "T2", P4, "in", 600000, kind="cash", seat=6)["id"]
        self.ids["p5 deposit"] = self.cage("CG1", P5, "in", "front_money", 600000, window="W1")["id"]
        self.as_("FL1", "PUT", "/tables/T2/seats/6/player", {"player": P4})
        merge = {"into": P5, "reason": "same patron: surveillance matched her face", "witness": witness("PB1")}
        self.refuse(409, "player_seated", "CG1", "POST", "/players/P4/merge", merge)
        self.as_("FL1", "DELETE", "/tables/T2/seats/6/player")
        self.refuse(404, "player_not_found", "CG1", "POST", "/players/P99/merge", merge)
        self.refuse(422, "unknown_player", "CG1", "POST", "/players/P4/merge", dict(merge, into="P99"))
        self.refuse(422, "same_player", "CG1", "POST", "/players/P4/merge", dict(merge, into=P4))
        self.refuse(403, "forbidden", "FL1", "POST", "/players/P4/merge", merge)
        self.refuse(403, "witness_required", "CG1", "POST", "/players/P4/merge",
                    {k: v for k, v in merge.items() if k != "witness"})
        st, js = self.d.call("POST", "/api/v1/players/P4/merge", merge, token=self.tok["CG1"])
        if st == 201:
            self.ledger.patrons[P4]["merged_into"] = P5
        self.assertEqual(st, 201, js)
        totals = self.ledger.totals_of(self.day, P5)
        self.assertEqual(totals, {"cash_in": 1200000, "cash_out": 0})
        self.assertEqual({k: js.get(k) for k in ("player", "into", "reason", "by", "witness")},
                         {"player": P4, "into": P5, "reason": merge["reason"], "by": "CG1", "witness": "PB1"})
        days = {t["gaming_day"] for t in self.ledger.cash(self.day) if t["player"] == P4}
        self.assertEqual(js["days"], [dict(self.ledger.totals_of(day, P5), gaming_day=day,
                                           ctr=[d for d in ("in", "out") if totals[side_key(d)] > LIMITS["ctr_over"]])
                                      for day in sorted(days)])
        self.assertEqual(self.as_("CG1", "GET", "/players/P4")["merged_into"], P5)
        self.assertIsNone(self.as_("CG1", "GET", "/players/P5")["merged_into"])
        self.assertIsNone(self.as_("CG1", "GET", "/players/P1")["merged_into"])
        rep = self.check_report()
        item = next(c for c in rep["ctr"] if c["player"] == P5)
        self.assertEqual((item["direction"], item["total"]), ("in", 1200000))
        self.assertNotIn(P4, rep["totals"])
        # the merged record takes nothing more; the survivor, unidentified, no more cash in
        self.assertIsNone(self.table("FL1", "T2", P4, "in", 100, kind="cash", seat=6))
        self.assertIsNone(self.cage("CG1", P4, "in", "front_money", 100))
        self.refuse(409, "player_merged", "CG1", "PATCH", "/players/P4", {"name": "Wanda Green"})
        self.refuse(409, "player_merged", "FL1", "PUT", "/tables/T2/seats/6/player", {"player": P4})
        self.refuse(409, "player_merged", "CG1", "POST", "/players/P4/merge", dict(merge, into="P2"))
        self.refuse(409, "player_merged", "CG1", "POST", "/players/P2/merge", dict(merge, into=P4))
        self.assertIsNone(self.cage("CG1", P5, "in", "front_money", 1))
        self.cage("CG1", P5, "out", "chip_redemption", 1)
        self.check_report()

    def test_08_ctr_statuses(self):
        """A CTR item's life: open -> identified -> filed -> amended, notes at any point, due 15 days after the
        gaming day; filing without bsa_id, a step back, an unidentified record, an unknown item refused."""
        day = self.day
        p5 = self.ledger.item_id(day, "P5", "in")
        self.ctr_post("CG1", p5, {"status": "identified", "note": "patron at the cage"})        # no id yet: 422
        self.ctr_post("CG1", p5, {"status": "filed", "bsa_id": "31000000000005", "note": "filed"})   # 422 too
        self.as_("CG1", "PATCH", "/players/P5", {"id_type": "passport", "id_number": "Z5550005"})
        self.ledger.patrons["P5"].update(id_type="passport", id_number="Z5550005")
        self.ctr_post("PB1", p5, {"status": "identified", "note": "passport Z5550005 seen"})
        p1_in, p1_out = self.ledger.item_id(day, "P1", "in"), self.ledger.item_id(day, "P1", "out")
        self.ctr_post("CG1", p1_in, {"note": "reviewed the patron's file"})
        self.ctr_post("PB1", p1_in, {"status": "identified", "note": "ID on file"})
        self.ctr_post("CG1", p1_in, {"status": "filed", "note": "filed without its BSA id"})    # refused
        self.ctr_post("CG1", p1_in, {"status": "filed", "bsa_id": "31000000000001", "filed_on": day,
                                     "note": "FinCEN 112 filed"})
        self.ctr_post("PB1", p1_in, {"status": "identified", "note": "back"})                  # 409 invalid_transition
        self.ctr_post("CG1", p1_in, {"note": "copy sent to compliance"})
        self.ctr_post("CG1", p1_in, {"status": "amended", "filed_on": day, "note": "address corrected"})
        self.ctr_post("PB1", p1_in, {"status": "amended", "bsa_id": "31000000000011", "filed_on": day,
                                     "note": "occupation corrected"})
        self.ctr_post("PB1", p1_in, {"status": "filed", "bsa_id": "31000000000012", "note": "again"})   # 409
        self.ctr_post("CG2", p1_out, {"status": "filed", "bsa_id": "31000000000002", "filed_on": day,
                                      "note": "cash out filed"})
        self.ctr_post("CG2", p1_out, {"status": "identified", "note": "back"})                  # 409
        self.ctr_post("CG1", self.ledger.item_id(day, "P2", "out"), {"status": "amended", "note": "not filed"})  # 409
        self.ctr_post("CG1", self.ledger.item_id(day, "P3", "in"), {"note": "no such item"})    # 404
        self.refuse(403, "forbidden", "FL1", "POST", "/title31/ctr/" + p1_in, {"note": "floor"})
        self.refuse(403, "forbidden", "DL1", "POST", "/title31/ctr/" + p1_in, {"note": "dealer"})
        rep = self.check_report()
        item = next(c for c in rep["ctr"] if c["id"] == p1_in)
        self.assertEqual((item["status"], item["bsa_id"], item["due"], len(item["notes"])),
                         ("amended", "31000000000011", plus_days(day, 15), 6))

    def test_09_acknowledgments_repeated(self):
        """An alert or CTR item acknowledged more than once: the first is its acknowledgment, the later ones notes."""
        for kind in ("alert", "ctr"):
            body = {"gaming_day": self.day, "player": "P2", "direction": "in", "kind": kind}
            self.acknowledge("CG1", dict(body, note="first look at P2's %s" % kind))
            self.acknowledge("PB1", dict(body, note="P2's %s looked at again" % kind))
        self.check_report()

    def test_10_transactions_list(self):
        """GET /transactions of the day, every transaction (cash, chips, markers, voids), by patron and by where;
        its CSV; who may read it."""
        day = self.day
        self.check_listing()
        m = self.ledger
        for query, keep in (("&player=P1", lambda t: t["player"] == "P1"),
                            ("&where=cage", lambda t: t["table"] is None),
                            ("&where=T1", lambda t: t["table"] == "T1"),
                            ("&player=P2&where=T2", lambda t: t["player"] == "P2" and t["table"] == "T2")):
            js = self.as_("PB1", "GET", "/transactions?gaming_day=%s%s" % (day, query))
            want = {t["id"]: m.listed(t) for t in m.txns if t["gaming_day"] == day and keep(t)}
            self.assertEqual(sorted(t["id"] for t in js["transactions"]), sorted(want), query)
            for t in js["transactions"]:
                self.assert_listed(t, want[t["id"]], "%s: %s" % (query, json.dumps(t)))
        for who in ("FL1", "SV1", "CG2", AUDITOR):
            self.as_(who, "GET", "/transactions?gaming_day=" + day)
        for who in ("DL1", "CT1", DEALER):
            self.refuse(403, "forbidden", who, "GET", "/transactions?gaming_day=" + day)
        st, hdrs, raw = self.d.request("GET", "/api/v1/transactions?gaming_day=%s&format=csv" % day, token=self.tok["PB1"])
        self.assertEqual(st, 200)
        rows = list(csv.DictReader(io.StringIO(raw.decode())))
        want = {str(t["id"]): t for t in m.txns if t["gaming_day"] == day}
        self.assertEqual(sorted(r["id"] for r in rows), sorted(want))
        for r in rows:
            t = want[r["id"]]
            for k in ("player", "direction", "kind", "type", "amount", "by"):
                self.assertEqual(r[k], str(t[k]), (k, r))

    def test_11_report_entry_by_entry(self):
        """The day's Title 31 report against the model, JSON and CSV; every MTL entry carries who, where, what and
        the patron as written."""
        rep = self.check_report(today=self.day)
        m = self.ledger
        want_mtl = m.mtl(self.day)
        self.assertEqual(len(rep["mtl"]), len(want_mtl))
        st, hdrs, raw = self.d.request("GET", "/api/v1/reports/title31?gaming_day=%s&format=csv" % self.day,
                                       token=self.tok["PB1"])
        self.assertEqual(st, 200)
        rows = list(csv.DictReader(io.StringIO(raw.decode())))
        mtl_rows = [r for r in rows if r.get("record") == "mtl"]
        for col in ("by", "table", "seat", "window", "type", "description", "name"):
            self.assertIn(col, rows[0] if rows else {}, "the report's CSV has no column %r" % col)
        self.assertEqual(len(mtl_rows), len(want_mtl))

        def cell(v):
            return "" if v is None else str(v)
        got = sorted(tuple(r.get(k) for k in ("player", "amount", "by", "table", "seat", "window", "type", "description",
                                              "name")) for r in mtl_rows)
        want = sorted(tuple(cell(e[k]) for k in ("player", "amount", "by", "table", "seat", "window", "type",
                                                "description", "name")) for e in want_mtl.values())
        self.assertEqual(got, want)
        self.assertEqual(sorted((r["player"], r["direction"]) for r in rows if r.get("record") == "ctr"),
                         sorted((c["player"], c["direction"]) for c in m.ctr(self.day).values()))

    def test_12_gaming_days_apart(self):
        """Fifteen days on (05:50 local of the 16th day: still the 15th gaming day) and past the due date: each
        transaction in its own gaming day; identification counted per gaming day; the day's report as it was;
        open CTR items overdue."""
        first = self.day
        start = datetime.date.fromisoformat(first) + datetime.timedelta(days=CTR_DUE_DAYS + 1)
        self.d.advance_clock_to(local_ms(start, 5, 50))
        self.sign_in_all()
        due_day = plus_days(first, CTR_DUE_DAYS)
        self.assertEqual(self.now_day(), due_day)
        js = self.table("FL1", "T3", "P3", "in", 900000, kind="cash", seat=1)   # 700000 on the first day: a new day
        self.assertEqual(js["gaming_day"], due_day)
        self.d.advance_clock_to(local_ms(start, 6, 0))
        next_day = plus_days(first, CTR_DUE_DAYS + 1)
        self.assertEqual(self.now_day(), next_day)
        js = self.table("FL1", "T3", "P3", "in", 900000, kind="cash", seat=1)
        self.assertEqual((js["gaming_day"], js["totals"]["cash_in"]), (next_day, 900000))
        self.assertIsNone(self.table("FL1", "T3", "P3", "in", 100001, kind="cash", seat=1))
        self.check_report(first, today=next_day)
        self.check_report(due_day, today=next_day)
        self.check_report(next_day, today=next_day)
        self.check_listing(first)
        self.check_listing(next_day)
        overdue = [iid for iid, c in self.ledger.ctr(first, next_day).items() if c.get("overdue")]
        self.assertTrue(overdue)
        exc = self.as_("PB1", "GET", "/reports/exceptions?from=%s&to=%s" % (first, next_day))
        listed = json.dumps([e for e in exc.get("exceptions", []) if e.get("kind") == "ctr_overdue"])
        for iid in overdue:
            self.assertIn(iid, listed, "the exceptions report has no ctr_overdue of %s" % iid)

    def test_13_record_verifies(self):
        js = self.ok("GET", "/api/v1/integrity", token=AUDITOR)
        self.assertTrue(js["ok"], js["problems"])
        conn = self.d.db_connect()
        try:
            self.assertEqual(pbtest.event_body_problems(conn), [])
        finally:
            conn.close()


if __name__ == "__main__":
    pbtest.main()
