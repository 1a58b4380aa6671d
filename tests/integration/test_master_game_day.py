"""
The master game of one gaming day checked as a regulator's auditor would check it
(docs/accounting.md, docs/reports.md "Master game report", issue 29): a day of documents
at seven tables, signed under the default policy (accounting.signatures "nj"), with the
rounds dealt and settled there, then EVERY row of GET /api/v1/reports/master-game, in
JSON and in CSV, for the gaming day and for each of the property's shifts, compared
with MasterGameModel: a model of the test's own that computes each figure from what the
test sent (the chips counted, the slips issued, received and voided, the count sheets)
and the rounds' payout lines (GET /rounds/{id}), never from the report.

The day (UTC, gaming day from 06:00, shifts day 06:00, swing 14:00, grave 22:00):
- T1: rounds dealt before its opener (not in its hand win); a fill and a credit issued at
  the cage (the cashier, a floor supervisor and the runner) and received at the table
  (the dealer and a floor supervisor); a credit voided; a mispay of $15 corrected; the
  closer, after which a round is refused (409 table_closed).
- T2: opened and closed twice, the reopen two $25 chips short (a discrepancy kept out of
  the win and the variance); a fill received, a fill issued and never received (pending,
  its chips in the tray all the same).
- F1: open across two shift changes (day -> swing -> grave), a drop box per shift; a fill
  issued at the end of the swing shift and received in the grave shift (it counts in the
  shift it was issued in); a credit in the grave shift.
- T3: an opener and no closer (incomplete: no win, not flagged).
- T4: rounds and no document at all (not flagged, not waited for).
- T5: rounds, then a closer with no opener (recorded, listed as out of order: the day's row
  incomplete), then an opener and a closer.
- T6: opened in the grave shift and closed the next morning without a shift change (its session
  counts in the gaming day it opened, with the rounds dealt after the day's end); a mispay of
  exactly the variance threshold.
- P1: player-banked: the house's win is the collection fees, counted in the drop.
The drop is counted the next morning by three of the count team for the day that ended.
The refusals a regulator asks for are checked on the way, each changing nothing.

The model is compared three times: in the afternoon (open sessions, a pending fill), at
the end of the day before the count, after the count.  The last test shows that the
comparison catches a model with a deliberate error (a pending slip counted, rounds
before the opener counted, the shortage folded into the win, ...).
"""
import calendar
import csv
import datetime
import io
import random
import sys

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import AUDITOR, DEALER, PITBOSS_TOKEN  # noqa: E402
from test_reports import random_round  # noqa: E402

PEOPLE = pbtest.staff("FL1", "FL2", "PB1", "DL1", "DL2", "CG1", "CT1") + (
    ("DL3", "Dot Dealer", ["dealer"]),
    ("PB2", "Paz Boss", ["pitboss"]),                # approves a back-dated drop
    ("CT2", "Lou Count", ["count"]),
    ("CT3", "Max Count", ["count"]),
    ("SC1", "Sid Security", ["security"]),          # runners
    ("SC2", "Sol Security", ["security"]),
)
witness = pbtest.staff_witness

SHIFTS = (("day", 6), ("swing", 14), ("grave", 22))  # name, start hour (UTC); the gaming day starts with "day"
DAY_START_HOUR = 6
PROPERTY = {"id": "B1", "name": "Bayfront", "time_zone": "UTC", "gaming_day_start": "06:00",
            "shifts": [{"name": n, "start": "%02d:00" % h} for n, h in SHIFTS]}
SESSIONS = {"idle_seconds": 86400, "absolute_seconds": 604800}
SERIES = {"fill": {"prefix": "F-", "digits": 6}, "credit": {"prefix": "C-", "digits": 6}}
THRESHOLD, THRESHOLD_PERCENT = 2500, 2.0             # accounting.variance_threshold, variance_percent (defaults)


def copy_of(table_id, new_id):
    t = pbtest.example_table(table_id)
    t["id"], t["name"] = new_id, "Three Card %s" % new_id[1:]
    return t


EXTRA_TABLES = [copy_of("T1", "T4"), copy_of("T1", "T5"), copy_of("T1", "T6")]
TABLES = ("T1", "T2", "T3", "F1", "P1", "T4", "T5", "T6")
PLAYER_BANKED = {"P1"}

# The gaming day of the test: two days ahead of today (UTC), so that the test clock only moves forward.
DAY = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=2)).date()
HOUR_MS = 3600 * 1000


def at(day_offset, hh, mm=0, ss=0):
    """Unix ms of (DAY + day_offset) hh:mm:ss UTC."""
    d = DAY + datetime.timedelta(days=day_offset)
    return calendar.timegm((d.year, d.month, d.day, hh, mm, ss, 0, 0, 0)) * 1000


def utc(ms):
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc)


def chips_total(chips):
    return sum(int(d) * n for d, n in chips.items())


def chips_of(total):
    """The tray's chips for an amount: $25 chips, then $5, then $1 (the pays are whole dollars)."""
    assert total >= 0 and total % 100 == 0, total
    return {"2500": total // 2500, "500": total % 2500 // 500, "100": total % 500 // 100}


def bills_of(amount):
    """Bills for an amount: $100, $20, $5, $1."""
    assert amount >= 0 and amount % 100 == 0, amount
    out = {}
    for bill in (10000, 2000, 500, 100):
        if amount // bill:
            out[str(bill)] = amount // bill
        amount %= bill
    return out


def sheet_value(sheet):
    """(cash, chips, markers) of a count sheet, added up here."""
    return (chips_total(sheet.get("cash", {})), chips_total(sheet.get("chips", {})), sheet.get("markers", 0))


# ---- the property's calendar, as the model reads it ----

def gaming_day_of(ms):
    return (utc(ms) - datetime.timedelta(hours=DAY_START_HOUR)).date()


def shift_of(ms):
    h = utc(ms).hour
    name = SHIFTS[-1][0]
    for n, start in SHIFTS:
        if start <= h:
            name = n
    return name if h >= DAY_START_HOUR else SHIFTS[-1][0]


def window_of(ms):
    """(gaming day, shift) of a moment."""
    return gaming_day_of(ms), shift_of(ms)


def opened_window(ms):
    """(gaming day, shift) that a shift change recorded at ms opens: the shift beginning at the nearest boundary."""
    best = None
    day = utc(ms).date()
    for delta in (-1, 0, 1):
        d = day + datetime.timedelta(days=delta)
        for _, hour in SHIFTS:
            b = calendar.timegm((d.year, d.month, d.day, hour, 0, 0, 0, 0, 0)) * 1000
            if best is None or abs(ms - b) < abs(ms - best):
                best = b
    return window_of(best)


def window_bounds(day, shift):
    """[from, to) in Unix ms of a gaming day (shift None) or of one of its shifts."""
    start = calendar.timegm((day.year, day.month, day.day, DAY_START_HOUR, 0, 0, 0, 0, 0)) * 1000
    if shift is None:
        return start, start + 24 * HOUR_MS
    starts = [h for _, h in SHIFTS] + [DAY_START_HOUR + 24]
    i = [n for n, _ in SHIFTS].index(shift)
    return start + (starts[i] - DAY_START_HOUR) * HOUR_MS, start + (starts[i + 1] - DAY_START_HOUR) * HOUR_MS


def in_window(win, day, shift):
    """Whether a (gaming day, shift) belongs to the window of (day, shift or None)."""
    return win[0] == day and (shift is None or win[1] == shift)


# ---- the model ----


def deal_round(case, table, player_banked):
    """One round dealt and settled at table by case (whole, ok, rng, and a class attribute banker: the banker's
    seat, which moves round each player-banked round); the house's win as GET /rounds/{id} shows it (minus the
    players' net, or on a player-banked table the collection fees), and the round."""
    banker = None
    if player_banked:
        type(case).banker = case.banker % 8 + 1
        banker = case.banker
    r = case.whole(table, random_round(case.rng, 8 if banker else 6, (1000, 5000), (1000, 2500), None, False,
                                       banker=banker))
    got = case.ok("GET", "/api/v1/rounds/%d" % r["id"], token=AUDITOR)["round"]
    case.assertEqual(got["state"], "settled")
    return (got["collections"]["total"] if player_banked else -sum(p["net"] for p in got["payouts"])), got

class MasterGameModel:
    """The master game computed from the test's own record of the day (docs/accounting.md "The formulas").

    Everything is recorded in the order the test did it (seq); a document's window is that of the moment the
    test recorded it (a shift change's, the shift it opens), a slip's that of its issue, a drop's the gaming day
    (and shift) the count team gave or the default.  `errors` makes the model deliberately wrong (the self-test
    of the comparison): "count_pending", "rounds_before_opener", "shortage_in_win", "count_voided",
    "zero_closer", "drop_without_shift"."""

    ERRORS = ("count_pending", "rounds_before_opener", "shortage_in_win", "count_voided", "zero_closer",
              "drop_without_shift")

    def __init__(self, tables, player_banked, errors=()):
        self.tables = tuple(tables)
        self.player_banked = set(player_banked)
        self.errors = set(errors)
        assert self.errors <= set(self.ERRORS), errors
        self.seq = 0
        self.counts = []          # openers, closers, shift changes: {seq, table, kind, total, id, window, discrepancy}
        self.slips = {}           # (kind, serial) -> {seq, table, kind, total, id, window, received, voided}
        self.drops = []           # {table, day, shift, value, id}
        self.rounds = []          # {seq, ms, table, win, id, window}
        self.corrections = {}     # (round, seat, wager) -> owed - paid (the latest)
        self.last_closer = {}     # table -> total

    def _next(self):
        self.seq += 1
        return self.seq

    # ---- what the test recorded ----

    def count(self, table, kind, total, doc_id, ms):
        doc = {"seq": self._next(), "table": table, "kind": kind, "total": total, "id": doc_id,
               "window": opened_window(ms) if kind == "shift_change" else window_of(ms), "discrepancy": None}
        if kind == "opener" and table in self.last_closer:
            doc["discrepancy"] = total - self.last_closer[table]
        if kind == "closer":
            self.last_closer[table] = total
        self.counts.append(doc)
        return doc

    def slip(self, table, kind, serial, total, doc_id, ms):
        self.slips[(kind, serial)] = {"seq": self._next(), "table": table, "kind": kind, "total": total,
                                      "id": doc_id, "window": window_of(ms), "received": False, "voided": False}

    def received(self, kind, serial):
        self.slips[(kind, serial)]["received"] = True

    def voided(self, kind, serial):
        self.slips[(kind, serial)]["voided"] = True

    def drop(self, table, day, shift, value, doc_id):
        self.drops.append({"table": table, "day": day, "shift": shift, "value": value, "id": doc_id})

    def round(self, table, win, round_id, ms):
        self.rounds.append({"seq": self._next(), "ms": ms, "table": table, "win": win, "id": round_id,
                            "window": window_of(ms)})

    def correction(self, round_id, seat, wager, owed, paid):
        self.corrections[(round_id, seat, wager)] = owed - paid

    # ---- the figures ----

    def segments(self, table):
        """The table's segments in order: {open, close (None while open)}; and its closers without an opener."""
        segs, stray, current = [], [], None
        for doc in self.counts:
            if doc["table"] != table:
                continue
            if doc["kind"] in ("shift_change", "closer") and current is not None:
                current["close"] = doc
                current = None
            elif doc["kind"] == "closer":
                stray.append(doc)
            if doc["kind"] in ("opener", "shift_change"):
                current = {"open": doc, "close": None}
                segs.append(current)
        return segs, stray

    def row(self, table, day, shift):
        segs, stray = self.segments(table)
        segs = [s for s in segs if in_window(s["open"]["window"], day, shift)]
        # a closer at a table that never had an opener: "the master game row of its day lists it in out_of_order
        # and is incomplete" (docs/accounting.md, "The table's session"; reports.md: "a closer without its opener")
        out_of_order = [d["id"] for d in stray if in_window(d["window"], day, shift)]
        complete = bool(segs) and all(s["close"] is not None for s in segs) and not out_of_order
        if "zero_closer" in self.errors and segs:
            complete = True
        frm, to = window_bounds(day, shift)

        def counted(slip):
            if "count_voided" in self.errors:
                return slip["received"] or slip["voided"]
            return not slip["voided"] and (slip["received"] or "count_pending" in self.errors)

        slips = [s for s in self.slips.values() if s["table"] == table and in_window(s["window"], day, shift)]
        fills = [s for s in slips if s["kind"] == "fill" and counted(s)]
        credits = [s for s in slips if s["kind"] == "credit" and counted(s)]
        pending = sum((1 if s["kind"] == "fill" else -1) * s["total"] for s in slips
                      if not s["voided"] and not s["received"])
        voids = sum((1 if s["kind"] == "fill" else -1) * s["total"] for s in slips if s["voided"])
        drops = [d for d in self.drops if d["table"] == table and d["day"] == day
                 and (shift is None or d["shift"] == shift or ("drop_without_shift" in self.errors and not d["shift"]))]
        drop = sum(d["value"] for d in drops)

        # the rounds of the window: those settled within its segments (an open one: to the window's end), or,
        # without a segment, those settled in the window
        rounds = [r for r in self.rounds if r["table"] == table]
        if segs and "rounds_before_opener" not in self.errors:
            mine = [r for r in rounds
                    if any(s["open"]["seq"] < r["seq"] < (s["close"]["seq"] if s["close"] else r["seq"] + 1)
                           and (s["close"] is not None or r["ms"] < to) for s in segs)]
        else:
            mine = [r for r in rounds if frm <= r["ms"] < to]
        hand_win = sum(r["win"] for r in mine)
        ids = {r["id"] for r in mine}
        mispays = sum(v for (rid, _, _), v in self.corrections.items() if rid in ids)
        discrepancy = sum(s["open"]["discrepancy"] or 0 for s in segs if s["open"]["kind"] == "opener")

        def closing(seg):
            return seg["close"]["total"] if seg["close"] else 0      # 0: only for the "zero_closer" error

        fills_total = sum(s["total"] for s in fills)
        credits_total = sum(s["total"] for s in credits)
        win = variance = pct = per_drop = None
        if complete:
            if "shortage_in_win" in self.errors:
                tray = segs[-1]["close"]["total"] - segs[0]["open"]["total"]
            else:
                tray = sum(closing(s) - s["open"]["total"] for s in segs)
            win = drop + tray + credits_total - fills_total
            variance = win - hand_win
            if drop:
                pct = 100.0 * variance / drop
                per_drop = win / drop
        flagged = complete and (abs(variance) >= THRESHOLD or (pct is not None and abs(pct) >= THRESHOLD_PERCENT))
        # the total's "incomplete": "every table with a count in the window" (docs/accounting.md, "The
        # formulas"): a session or segment begun in it, a slip, a drop, a closer that closed nothing; a
        # session's closer belongs to the window the session began in
        has_document = bool(segs or slips or drops or out_of_order)
        return {
            "table": table, "player_banked": table in self.player_banked, "complete": complete,
            "opener": segs[0]["open"]["total"] if segs else None,
            "closer": closing(segs[-1]) if complete else None,
            "fills": fills_total, "credits": credits_total, "drop": drop, "win": win, "win_per_drop": per_drop,
            "hand_win": hand_win, "variance": variance, "variance_percent": pct, "flagged": flagged,
            "discrepancy": discrepancy,
            "explained": {"mispays": mispays, "voids": voids, "pending_slips": pending, "discrepancies": discrepancy,
                          "unexplained": variance - mispays - pending if complete else None},
            "out_of_order": out_of_order, "investigation": None,
            "documents": {"opener": segs[0]["open"]["id"] if segs else None,
                          "closer": segs[-1]["close"]["id"] if complete and segs[-1]["close"] else None,
                          "segments": len(segs), "fills": len(fills), "credits": len(credits), "drops": len(drops)},
            "_has_document": has_document,
        }

    def report(self, day, shift=None):
        """(rows by table, the total) of the window."""
        rows = {t: self.row(t, day, shift) for t in self.tables}
        done = [r for r in rows.values() if r["complete"]]
        total = {k: sum(r[k] for r in done) for k in ("opener", "closer", "fills", "credits", "drop", "win",
                                                      "hand_win", "variance", "discrepancy")}
        total["explained"] = {k: sum(r["explained"][k] for r in done)
                              for k in ("mispays", "voids", "pending_slips", "discrepancies", "unexplained")}
        total["win_per_drop"] = total["win"] / total["drop"] if total["drop"] else None
        total["variance_percent"] = 100.0 * total["variance"] / total["drop"] if total["drop"] else None
        total["flagged"] = abs(total["variance"]) >= THRESHOLD or (
            total["variance_percent"] is not None and abs(total["variance_percent"]) >= THRESHOLD_PERCENT)
        if not done:
            # no complete row: the total is itself an incomplete row (no opener, closer, win or variance; not
            # flagged), as the daemon shows it; the docs say only that the total sums the complete rows
            for k in ("opener", "closer", "win", "variance", "win_per_drop", "variance_percent"):
                total[k] = None
            total["explained"]["unexplained"] = None
            total["flagged"] = False
        total["incomplete"] = [t for t in self.tables if rows[t]["_has_document"] and not rows[t]["complete"]]
        total["complete"] = not total["incomplete"]
        return rows, total


# ---- the comparison ----

def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None or isinstance(a, bool) or isinstance(b, bool):
            return False
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    return type(a) is type(b) and a == b


def diff_json(where, got, want, out):
    """Appends to out each field of want that got differs on (nested objects field by field)."""
    for k, w in want.items():
        if k.startswith("_"):
            continue
        if k not in got:
            out.append("%s: %s missing (want %r)" % (where, k, w))
        elif isinstance(w, dict):
            if not isinstance(got[k], dict):
                out.append("%s: %s is %r (want %r)" % (where, k, got[k], w))
            else:
                diff_json("%s.%s" % (where, k), got[k], w, out)
        elif not same(got[k], w):
            out.append("%s: %s is %r, the model says %r" % (where, k, got[k], w))


CSV_COLUMNS = ("table", "opener", "closer", "fills", "credits", "drop", "win", "win_per_drop", "hand_win", "variance",
               "variance_percent", "flagged", "complete", "discrepancy", "mispays", "voids", "pending_slips",
               "unexplained", "investigation")


def csv_value(row, column):
    if column in ("mispays", "voids", "pending_slips", "unexplained"):
        return row["explained"][column]
    return row.get(column)


def diff_csv_cell(where, cell, want, out):
    if want is None:
        ok = cell == ""
    elif isinstance(want, bool):
        ok = cell == ("true" if want else "false")
    elif isinstance(want, float):
        try:
            ok = same(float(cell), want)
        except ValueError:
            ok = False
    else:
        ok = cell == str(want)
    if not ok:
        out.append("%s is %r, the model says %r" % (where, cell, want))


def report_diffs(js, csv_text, model, day, shift):
    """Every difference between the daemon's report (JSON and CSV) of a window and the model's."""
    out = []
    label = day.isoformat() + ("/" + shift if shift else "")
    rows, total = model.report(day, shift)
    frm, to = window_bounds(day, shift)
    head = {"gaming_day": day.isoformat(), "shift": shift, "table": None,
            "thresholds": {"variance": THRESHOLD, "variance_percent": THRESHOLD_PERCENT}}
    diff_json(label, js, head, out)
    for k, ms in (("from", frm), ("to", to)):
        got = js.get(k)
        try:
            parsed = datetime.datetime.fromisoformat(got.replace("Z", "+00:00"))
            if int(parsed.timestamp() * 1000) != ms:
                out.append("%s: %s is %s, the window's bound is %s" % (label, k, got, utc(ms).isoformat()))
        except (AttributeError, ValueError):
            out.append("%s: %s is %r" % (label, k, got))
    listed = [r["table"] for r in js.get("tables", [])]
    if sorted(listed) != sorted(model.tables):
        out.append("%s: the tables listed are %s, the model's %s" % (label, listed, list(model.tables)))
    for r in js.get("tables", []):
        if r["table"] in rows:
            diff_json("%s %s" % (label, r["table"]), r, rows[r["table"]], out)
    diff_json("%s total" % label, js.get("total", {}), total, out)

    lines = list(csv.reader(io.StringIO(csv_text, newline="")))
    if not lines or tuple(lines[0]) != CSV_COLUMNS:
        out.append("%s csv: header %r" % (label, lines[:1]))
        return out
    body = lines[1:]
    if [ln[0] for ln in body] != listed + ["total"]:
        out.append("%s csv: rows %r, the JSON's %r and the total" % (label, [ln[0] for ln in body], listed))
    for ln in body:
        want = total if ln[0] == "total" else rows.get(ln[0])
        if want is None or len(ln) != len(CSV_COLUMNS):
            out.append("%s csv: row %r" % (label, ln))
            continue
        for column, cell in zip(CSV_COLUMNS[1:], ln[1:]):
            diff_csv_cell("%s csv %s.%s" % (label, ln[0], column), cell, csv_value(want, column), out)
    return out


class MasterGameDay(pbtest.DaemonTestCase):
    daemon_kwargs = {"clock": True, "extra_tables": EXTRA_TABLES,
                     "overrides": {"property": PROPERTY, "sessions": SESSIONS, "accounting": {"serials": SERIES}}}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.d.stop()
        pbtest.add_staff(cls.d, PEOPLE)
        cls.d.start()
        cls.d.advance_clock_to(at(0, 6, 10))
        cls.tok = pbtest.sign_in_staff(cls.d, PEOPLE)
        cls.rng = random.Random(2029)
        cls.model = MasterGameModel(TABLES, PLAYER_BANKED)
        cls.tray = {}                                       # the chips physically in each tray (cents)
        cls.sold = {t: {n: {"cash": 0, "chips": 0, "markers": 0} for n, _ in SHIFTS} for t in TABLES}
        cls.banker = 0
        cls.final = None                                    # the reports after the count, for the self-test
        cls.scripted = set()                                # the steps of the day recorded in full

    def setUp(self):
        # each step goes on from the one before: a step cut short leaves the day (and the model) unfinished
        steps = sorted(n for n in dir(self) if n.startswith("test_"))
        mine = self._testMethodName
        if mine in steps[1:] and steps[steps.index(mine) - 1] not in self.scripted:
            self.fail("the step before (%s) did not record its part of the day" % steps[steps.index(mine) - 1])

    def scripted_step(self):
        self.scripted.add(self._testMethodName)

    # ---- the pit's doings, each recorded in the model as the test does it ----

    def post(self, path, body, who, status=201):
        return self.ok("POST", "/api/v1" + path, body, status=status, token=self.tok[who])

    def refuse(self, status, code, path, body, who):
        token = self.tok[who] if who in self.tok else who
        return self.refused(status, code, "POST", "/api/v1" + path, body, token=token)

    def count(self, table, kind, chips, signer, witnesses, reason=None):
        """An opener, closer or shift change of these chips; the tray is what was counted."""
        body = {"kind": kind, "chips": chips, "witnesses": [witness(w) for w in witnesses]}
        if reason is not None:
            body["reason"] = reason
        doc = self.post("/tables/%s/inventory" % table, body, signer)
        m = self.model.count(table, kind, chips_total(chips), doc["id"], self.d.clock_ms())
        self.assertEqual((doc["kind"], doc["total"], doc["discrepancy"], doc["signer"]),
                         (kind, m["total"], m["discrepancy"], signer), doc)
        self.tray[table] = chips_total(chips)
        return doc

    def tray_count(self, table):
        return chips_of(self.tray[table])

    def issue(self, table, kind, serial, chips, floor="FL1", runner="SC1"):
        """A fill or credit issued at the cage: the cashier's session, a floor supervisor and the runner."""
        doc = self.post("/tables/%s/%ss" % (table, kind), {"serial": serial, "chips": chips,
                                                           "witnesses": [witness(floor), witness(runner)]}, "CG1")
        self.assertEqual((doc["status"], doc["runner"], doc["total"]), ("pending", runner, chips_total(chips)), doc)
        self.model.slip(table, kind, serial, chips_total(chips), doc["id"], self.d.clock_ms())
        return doc

    def receive(self, table, kind, serial, who="DL1", witness_id="FL1", chips_move=True):
        """The slip received at the table (the dealer and a floor supervisor, one as the session); its chips
        reach (a fill) or leave (a credit) the tray."""
        doc = self.post("/tables/%s/%ss/%s/receipt" % (table, kind, serial),
                        {"witnesses": [witness(witness_id)], "year": DAY.year}, who)
        self.model.received(kind, serial)
        if chips_move:
            self.tray[table] += doc["total"] if kind == "fill" else -doc["total"]
        return doc

    def void_slip(self, table, kind, serial, reason):
        doc = self.post("/tables/%s/%ss/%s/void" % (table, kind, serial),
                        {"reason": reason, "witnesses": [witness("PB1")], "year": DAY.year}, "FL1")
        self.model.voided(kind, serial)
        return doc

    def sell(self, table, cash=0, chips=0, markers=0):
        """Chips sold over the table for cash (or chips or a marker) put in the drop box of the shift."""
        self.tray[table] -= cash + chips + markers
        sold = self.sold[table][shift_of(self.d.clock_ms())]
        sold["cash"] += cash
        sold["chips"] += chips
        sold["markers"] += markers

    def deal(self, table, n):
        """n rounds dealt and settled at table; the house's win of each (minus the players' net, or on a
        player-banked table the collection fees) from GET /rounds/{id}; the tray takes the house's win."""
        total = 0
        for _ in range(n):
            win, got = deal_round(self, table, table in PLAYER_BANKED)
            if table not in PLAYER_BANKED:
                self.tray[table] = self.tray.get(table, 0) + win
            self.model.round(table, win, got["id"], self.d.clock_ms())
            total += win
        return total

    def mispay(self, table, over, first_said=None):
        """Deals until a round has a winning line, then corrects it: the dealer paid `over` too much (first
        corrected as `first_said` too much, when given, then that correction superseded: the latest counts)."""
        while True:
            self.deal(table, 1)
            rid = self.model.rounds[-1]["id"]
            got = self.ok("GET", "/api/v1/rounds/%d" % rid, token=AUDITOR)["round"]
            wins = [p for p in got["payouts"] if p["net"] > 0]
            if wins:
                break
        line = wins[0]
        body = {"seat": line["seat"], "wager": line["wager"], "paid": line["net"] + over,
                "reason": "paid a pay too many", "witnesses": [witness("PB1")]}
        if first_said is not None:
            first = self.post("/rounds/%d/corrections" % rid, dict(body, paid=line["net"] + first_said), "FL1")
            self.model.correction(rid, line["seat"], line["wager"], line["net"], line["net"] + first_said)
            body["supersedes"] = first["id"]
        corr = self.post("/rounds/%d/corrections" % rid, body, "FL1")
        self.assertEqual((corr["owed"], corr["paid"]), (line["net"], line["net"] + over))
        self.model.correction(rid, line["seat"], line["wager"], line["net"], line["net"] + over)
        self.tray[table] -= over

    def drop(self, table, box, sheet, shift=None, collections=None, **extra):
        """The drop box counted by three of the count team, for the gaming day that ended (the default)."""
        body = dict({"box": box, "count": sheet, "witnesses": [witness("CT2"), witness("CT3")]}, **extra)
        if shift:
            body["shift"] = shift
        if collections is not None:
            body["collections"] = collections
        doc = self.post("/tables/%s/drop" % table, body, "CT1")
        day = datetime.date.fromisoformat(extra.get("gaming_day", DAY.isoformat()))
        cash, chips, markers = sheet_value(sheet)
        value = collections if table in PLAYER_BANKED else cash + chips + markers
        self.assertEqual((doc["gaming_day"], doc["cash"], doc["chips"], doc["markers"]),
                         (day.isoformat(), cash, chips, markers), doc)
        self.model.drop(table, day, shift, value, doc["id"])
        return doc

    def box_sheet(self, table, shifts=None):
        """The count sheet of what was sold at table (in the shifts named, default all)."""
        cash = chips = markers = 0
        for name, sold in self.sold[table].items():
            if shifts is None or name in shifts:
                cash, chips, markers = cash + sold["cash"], chips + sold["chips"], markers + sold["markers"]
        sheet = {"cash": bills_of(cash)}
        if chips:
            sheet["chips"] = chips_of(chips)
        if markers:
            sheet["markers"] = markers
        return sheet

    # ---- the comparison ----

    def fetch(self, shift=None):
        q = "/api/v1/reports/master-game?gaming_day=%s%s" % (DAY.isoformat(), "&shift=" + shift if shift else "")
        js = self.ok("GET", q, token=PITBOSS_TOKEN)
        st, hdrs, raw = self.d.request("GET", q + "&format=csv", token=PITBOSS_TOKEN)
        self.assertEqual(st, 200, raw)
        self.assertTrue(hdrs["content-type"].startswith("text/csv"), hdrs)
        return js, raw.decode()

    def compare_all(self, when, keep=False):
        """The day's report and each shift's, JSON and CSV, against the model; every difference listed at once."""
        got, diffs = {}, []
        for shift in [None] + [n for n, _ in SHIFTS]:
            js, text = self.fetch(shift)
            got[shift] = (js, text)
            diffs += report_diffs(js, text, self.model, DAY, shift)
        if keep:
            self.__class__.final = got
        self.assertEqual(diffs, [], "%s: the daemon's master game differs from the model:\n  %s"
                         % (when, "\n  ".join(diffs)))
        return got

    # ---- the day, in order (the clock only moves forward) ----

    def test_1_day_shift(self):
        d = self.d
        # 06:20 rounds at T1 before its opener (no session yet: it deals as before), and at T4, never documented
        d.advance_clock_to(at(0, 6, 20))
        self.assertNotEqual(self.deal("T1", 3), 0)
        self.deal("T4", 2)
        # 06:30 T1's opener: two floor supervisors are refused, the dealer and a floor supervisor sign
        opener = {"2500": 160, "500": 100, "100": 200}
        err = self.refuse(403, "witness_required", "/tables/T1/inventory",
                          {"kind": "opener", "chips": opener, "witnesses": [witness("FL2")]}, "FL1")
        self.assertIn("dealer", err["message"])
        self.refuse(403, "witness_required", "/tables/T1/inventory",
                    {"kind": "opener", "chips": opener, "witnesses": [witness("PB1")]}, "FL1")
        d.advance_clock_to(at(0, 6, 30))
        self.count("T1", "opener", opener, "DL1", ["FL1"])
        # 06:40 a fill: without the runner refused; issued with him, received at the table
        d.advance_clock_to(at(0, 6, 40))
        self.refuse(403, "witness_required", "/tables/T1/fills",
                    {"serial": "F-000001", "chips": {"2500": 40}, "witnesses": [witness("FL1")]}, "CG1")
        self.refuse(403, "witness_required", "/tables/T1/fills",
                    {"serial": "F-000001", "chips": {"2500": 40}, "witnesses": [witness("FL1"), witness("FL2")]}, "CG1")
        self.issue("T1", "fill", "F-000001", {"2500": 40})
        d.advance_clock_to(at(0, 6, 45))
        self.receive("T1", "fill", "F-000001", who="DL1", witness_id="FL1")
        self.refuse(409, "already_received", "/tables/T1/fills/F-000001/receipt", {"witnesses": [witness("FL1")]},
                    "DL1")
        # 07:00 play at T1, chips sold for cash and a marker
        d.advance_clock_to(at(0, 7, 0))
        self.sell("T1", cash=30000, markers=20000)
        self.deal("T1", 6)
        # 08:00 T2 opens (the floor's session, the dealer as witness)
        d.advance_clock_to(at(0, 8, 0))
        self.count("T2", "opener", {"2500": 120, "500": 60, "100": 100}, "FL2", ["DL2"])
        self.sell("T2", cash=40000, chips=10000)
        self.deal("T2", 5)
        # 09:00 a mispay at T1, corrected: the dealer paid $15 too much
        d.advance_clock_to(at(0, 9, 0))
        self.mispay("T1", 1500, first_said=2500)
        rid = self.open_round("T1")                         # a round voided: never settled, in no win
        self.ok("PUT", "/api/v1/rounds/%d/bets/1" % rid, {"ante": 2500})
        self.void(rid, reason="misdeal")
        self.deal("T1", 3)
        # 09:30 a credit issued and received; 10:00 another issued, then voided (its chips never left)
        d.advance_clock_to(at(0, 9, 30))
        self.issue("T1", "credit", "C-000001", {"2500": 20}, floor="PB1", runner="SC2")
        self.receive("T1", "credit", "C-000001", who="FL1", witness_id="DL1")
        d.advance_clock_to(at(0, 10, 0))
        self.issue("T1", "credit", "C-000002", {"2500": 8})
        self.void_slip("T1", "credit", "C-000002", "chips kept at the table: the game stays busy")
        self.refuse(409, "slip_voided", "/tables/T1/credits/C-000002/receipt", {"witnesses": [witness("FL1")]}, "DL1")
        self.sell("T1", cash=10000)
        self.deal("T1", 3)
        # 11:00 T2 closes
        d.advance_clock_to(at(0, 11, 0))
        self.deal("T2", 3)
        self.count("T2", "closer", self.tray_count("T2"), "DL2", ["FL2"])
        # 12:00 F1 opens
        d.advance_clock_to(at(0, 12, 0))
        self.count("F1", "opener", {"2500": 100, "500": 80, "100": 150}, "DL3", ["PB1"])
        self.sell("F1", cash=30000)
        self.deal("F1", 4)
        # 13:30 T1 closes; a round after its closer is refused
        d.advance_clock_to(at(0, 13, 30))
        self.count("T1", "closer", self.tray_count("T1"), "FL1", ["DL1"])
        err = self.refuse(409, "table_closed", "/tables/T1/rounds", {}, DEALER)
        self.assertIn("opener", err["message"])
        self.refuse(409, "table_closed", "/tables/T1/rounds",
                    random_round(self.rng, 6, (1000, 5000), (500, 2500), None, False), DEALER)
        # 13:59:30 F1 stays open across the change of shift: a shift change opens the swing shift
        d.advance_clock_to(at(0, 13, 59, 30))
        sc = self.count("F1", "shift_change", self.tray_count("F1"), "FL1", ["DL3"])
        self.assertEqual((sc["gaming_day"], sc["shift"]), (DAY.isoformat(), "swing"))
        d.advance_clock_to(at(0, 13, 59, 40))               # dealt before 14:00, after the count: the swing's
        self.deal("F1", 1)
        self.scripted_step()

    def test_2_swing_shift(self):
        d = self.d
        # 14:30 play at F1, a fill received
        d.advance_clock_to(at(0, 14, 30))
        self.sell("F1", cash=20000)
        self.deal("F1", 3)
        d.advance_clock_to(at(0, 15, 0))
        self.issue("F1", "fill", "F-000002", {"2500": 20}, floor="FL2", runner="SC2")
        self.receive("F1", "fill", "F-000002", who="DL3", witness_id="FL2")
        # T2 reopens two $25 chips short: refused without a reason, recorded with one
        short = self.tray_count("T2")
        self.assertGreaterEqual(short["2500"], 2)
        short["2500"] -= 2
        self.tray["T2"] -= 5000                              # the tray lost them while the table was closed
        self.refuse(409, "opener_discrepancy", "/tables/T2/inventory",
                    {"kind": "opener", "chips": short, "witnesses": [witness("DL2")]}, "FL2")
        reopen = self.count("T2", "opener", short, "FL2", ["DL2"], reason="two $25 chips missing from the tray")
        self.assertEqual(reopen["discrepancy"], -5000)
        d.advance_clock_to(at(0, 15, 30))
        self.sell("T2", cash=35000)
        self.deal("T2", 4)
        # 16:00 a fill issued for T2 and never received at the table; its chips reached the tray all the same
        d.advance_clock_to(at(0, 16, 0))
        self.issue("T2", "fill", "F-000003", {"2500": 12})
        self.tray["T2"] += 30000
        self.scripted_step()
        self.compare_all("the afternoon (16:00)")

    def test_3_evening(self):
        d = self.d
        # 16:30 the player-banked table: the players bank the game, the house keeps the collection fees
        d.advance_clock_to(at(0, 16, 30))
        self.count("P1", "opener", {"500": 40}, "DL1", ["FL1"])
        self.assertGreater(self.deal("P1", 6), 0)
        # 17:00 a fill received at T2
        d.advance_clock_to(at(0, 17, 0))
        self.issue("T2", "fill", "F-000004", {"2500": 16})
        self.receive("T2", "fill", "F-000004", who="DL2", witness_id="FL2")
        self.deal("T2", 3)
        # 18:00 T3 opens and will not close this gaming day
        d.advance_clock_to(at(0, 18, 0))
        self.count("T3", "opener", {"2500": 80, "500": 40}, "DL2", ["FL2"])
        self.sell("T3", cash=20000)
        self.deal("T3", 3)
        d.advance_clock_to(at(0, 18, 30))
        self.issue("T3", "fill", "F-000005", {"2500": 10})
        self.receive("T3", "fill", "F-000005", who="FL2", witness_id="DL2")
        self.deal("T3", 2)
        # 19:00 P1 closes (its tray did not move); T5 deals without documents
        d.advance_clock_to(at(0, 19, 0))
        self.count("P1", "closer", {"500": 40}, "FL1", ["DL1"])
        self.deal("T5", 3)
        # 20:00 T2 closes; 20:30 T5's closer, with no opener: recorded, out of order
        d.advance_clock_to(at(0, 20, 0))
        self.count("T2", "closer", self.tray_count("T2"), "DL2", ["FL2"])
        d.advance_clock_to(at(0, 20, 30))
        self.sell("T5", cash=15000)
        self.tray["T5"] = self.tray.get("T5", 0) + 200000
        self.count("T5", "closer", self.tray_count("T5"), "DL1", ["FL1"])
        self.refuse(409, "table_closed", "/tables/T5/rounds", {}, DEALER)
        d.advance_clock_to(at(0, 21, 0))
        self.count("T5", "opener", self.tray_count("T5"), "DL1", ["FL1"])
        self.deal("T5", 3)
        # 21:30 T3: a credit issued and not received (voided the next morning), a fill issued and received only
        # the next morning (both count in the swing shift they were issued in, whenever received or voided)
        d.advance_clock_to(at(0, 21, 30))
        self.issue("T3", "credit", "C-000004", {"2500": 6})
        d.advance_clock_to(at(0, 21, 40))
        self.issue("T3", "fill", "F-000006", {"2500": 4})
        # 21:50 a fill issued for F1 late in the swing shift, received after the shift change
        d.advance_clock_to(at(0, 21, 50))
        self.issue("F1", "fill", "F-000007", {"2500": 8})
        d.advance_clock_to(at(0, 22, 0, 45))               # a little after the boundary: it opens the grave shift
        sc = self.count("F1", "shift_change", self.tray_count("F1"), "DL3", ["FL1"])
        self.assertEqual((sc["gaming_day"], sc["shift"]), (DAY.isoformat(), "grave"))
        self.scripted_step()

    def test_4_grave_shift(self):
        d = self.d
        d.advance_clock_to(at(0, 22, 5))
        self.receive("F1", "fill", "F-000007", who="DL3", witness_id="FL1")
        self.sell("F1", cash=12000)
        self.deal("F1", 3)
        d.advance_clock_to(at(0, 22, 30))
        self.deal("T3", 2)                                  # T3 still open, its opener in the swing shift
        d.advance_clock_to(at(0, 23, 0))
        self.issue("F1", "credit", "C-000003", {"2500": 4})
        self.receive("F1", "credit", "C-000003", who="FL1", witness_id="DL3")
        self.count("T6", "opener", {"2500": 120, "500": 40}, "DL1", ["PB1"])
        self.sell("T6", cash=150000)
        self.deal("T6", 3)
        self.mispay("T6", THRESHOLD)
        d.advance_clock_to(at(0, 23, 30))
        self.count("T5", "closer", self.tray_count("T5"), "FL1", ["DL1"])
        d.advance_clock_to(at(1, 2, 0))
        self.deal("F1", 2)
        self.count("F1", "closer", self.tray_count("F1"), "DL3", ["FL1"])
        d.advance_clock_to(at(1, 3, 0))
        self.deal("T4", 2)
        d.advance_clock_to(at(1, 5, 30))
        self.scripted_step()
        self.compare_all("the end of the gaming day, before the count")

    def test_5_the_count(self):
        """The next morning: the count team counts the day that ended; the refusals of a weak count."""
        d = self.d
        d.advance_clock_to(at(1, 6, 20))
        self.__class__.tok = pbtest.sign_in_staff(d, PEOPLE)
        # T6, open since the grave shift, deals on into the next gaming day and closes without a shift change
        self.deal("T6", 2)
        d.advance_clock_to(at(1, 6, 25))
        self.count("T6", "closer", self.tray_count("T6"), "DL1", ["PB1"])
        d.advance_clock_to(at(1, 6, 30))
        self.receive("T3", "fill", "F-000006", who="DL2", witness_id="FL2")
        self.void_slip("T3", "credit", "C-000004", "written for T2")
        d.advance_clock_to(at(1, 8, 0))
        path = "/tables/T1/drop"
        sheet = self.box_sheet("T1")
        # two counters are not a count team
        err = self.refuse(403, "witness_required", path, {"box": "D-T1", "count": sheet,
                                                          "witnesses": [witness("CT2")]}, "CT1")
        self.assertIn("at least 3 of the count team", err["message"])
        self.assertIn("1 more needed", err["message"])
        # the totals alone, without a count sheet
        cash, chips, markers = sheet_value(sheet)
        self.refuse(422, "count_required", path, {"box": "D-T1", "cash": cash, "markers": markers,
                                                  "witnesses": [witness("CT2"), witness("CT3")]}, "CT1")
        t1 = self.drop("T1", "D-T1", sheet)
        self.assertEqual(t1["gaming_day"], DAY.isoformat(), "the default: the gaming day that ended")
        # the same box again, at the same table or another
        self.refuse(409, "duplicate_box", path, {"box": "D-T1", "count": sheet,
                                                 "witnesses": [witness("CT2"), witness("CT3")]}, "CT1")
        err = self.refuse(409, "duplicate_box", "/tables/T2/drop", {"box": "D-T1", "count": self.box_sheet("T2"),
                                                                    "witnesses": [witness("CT2"), witness("CT3")]},
                          "CT1")
        self.assertIn("T1", err["message"])
        self.drop("T2", "D-T2", self.box_sheet("T2"))
        self.drop("T3", "D-T3", self.box_sheet("T3"))
        for name, _ in SHIFTS:                              # F1: a box per shift
            self.drop("F1", "D-F1-" + name, self.box_sheet("F1", [name]), shift=name)
        fees = sum(r["win"] for r in self.model.rounds if r["table"] == "P1")
        self.drop("P1", "D-P1", {}, collections=fees)
        self.drop("T5", "D-T5", self.box_sheet("T5"))
        self.drop("T6", "D-T6", self.box_sheet("T6"))
        # a drop back-dated before the last ended gaming day: refused without a pit boss's approval
        before = (DAY - datetime.timedelta(days=1)).isoformat()
        body = {"box": "D-T3-late", "count": {"cash": {"2000": 5}}, "gaming_day": before,
                "witnesses": [witness("CT2"), witness("CT3")]}
        self.refuse(403, "approval_required", "/tables/T3/drop", body, "CT1")
        late = self.drop("T3", "D-T3-late", {"cash": {"2000": 5}}, gaming_day=before, approval=witness("PB2"))
        self.assertEqual(late["approval"], "PB2")
        self.scripted_step()
        self.compare_all("after the count", keep=True)

    def test_6_the_comparison_catches_errors(self):
        """A model with a deliberate error disagrees with the daemon's report: the comparison can fail."""
        self.assertIsNotNone(self.final, "the reports after the count (test_5)")
        good = self.model
        for error in MasterGameModel.ERRORS:
            wrong = MasterGameModel(TABLES, PLAYER_BANKED, errors=[error])
            wrong.__dict__.update({k: v for k, v in good.__dict__.items() if k != "errors"})
            diffs = []
            for shift, (js, text) in self.final.items():
                diffs += report_diffs(js, text, wrong, DAY, shift)
            self.assertTrue(diffs, "a model with the error %r agrees with the daemon" % error)


if __name__ == "__main__":
    pbtest.main()
