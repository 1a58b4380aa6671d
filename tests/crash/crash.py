#!/usr/bin/env python3
"""
crash.py - kill -9 at random moments while rounds stream in, and prove the
record holds.

    python3 tests/crash/crash.py --build BUILD --kills N --seed S

One client thread per table (T1, T2, T3, F1 house-banked, P1 player-banked)
deals rounds as fast as pitbossd takes them, each a random mix of whole
rounds (one POST) and rounds step by step (open, bets, a bet taken down,
close, deal, decisions, reveal, settle, sometimes a void), every write with
an Idempotency-Key, over keep-alive connections (http.client).  After a
random delay the daemon is killed with SIGKILL, in the middle of whatever it
was doing, and started again on the same database.  After every restart,
with the clients held:

  1. the daemon starts cleanly: no error in its log (the start-up integrity
     check passes, no table is put on hold);
  2. `PRAGMA integrity_check` is ok and `pitboss verify --database` exits 0;
  3. every acknowledged answer (2xx received) is in the record: GET
     /rounds/{id} shows the same round as the last acknowledged answer
     (state, bets, hands, decisions, dealer, payouts, totals, times);
  4. the request each client had in flight when the daemon died is retried
     with the same Idempotency-Key: the round read before the retry is
     either the last acknowledged one (the request was lost) or exactly the
     retry's answer (it was committed; its answer was lost), and the retry
     records nothing twice (the round's event count is what the
     acknowledged requests add up to);
  5. no half-recorded round: every settled round has its payout lines and
     its round_settled event, every void round its round_voided event, every
     round in progress no final event and no payouts, and every round in the
     database is one the clients know (no round recorded twice);
  6. rounds the kill left open are continued (deal, decide, settle) or, for
     some of them, voided by the pit boss.

Some kills come a few milliseconds after a SIGTERM (a clean stop cut short);
checkpoints are signed every second and every 5 rounds, so kills also land
in the middle of those.

At the end the daemon is stopped with SIGTERM (it must exit 0 and log
"stopped cleanly"), every acknowledged round is checked again, GET
/api/v1/integrity must be ok, and the figures are printed (the long run's
are in docs/reliability.md).  Exit status 0 when nothing was lost.

Python 3 standard library only; the daemon harness is
tests/integration/pbtest.py.
"""
import argparse
import http.client
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
FINAL = ("settled", "void")
STATE_ORDER = {"betting": 0, "closed": 1, "dealt": 2, "revealed": 3, "settled": 4, "void": 4}
# What an acknowledged answer and GET /rounds/{id} must agree on.
ROUND_FIELDS = ("id", "table", "round_no", "state", "bets", "hands", "decisions", "dealer", "payouts", "totals",
                "banker", "collections", "opened_at", "opened_by", "closed_at", "settled_at", "void_reason")


class CrashTestFailure(AssertionError):
    pass


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", required=True, help="the build directory holding pitbossd and pitboss")
    ap.add_argument("--kills", type=int, default=12, help="how many times to SIGKILL the daemon (default 12)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (kill delays, rounds, cards)")
    ap.add_argument("--tables", default="T1,T2,T3,F1,P1", help="tables to deal at, one client thread each")
    ap.add_argument("--min-delay", type=float, default=0.05, help="shortest run between kills, seconds")
    ap.add_argument("--max-delay", type=float, default=0.8, help="longest run between kills, seconds")
    ap.add_argument("--term-share", type=float, default=0.15,
                    help="share of kills that come a few milliseconds after a SIGTERM (a stop cut short)")
    ap.add_argument("--void-share", type=float, default=0.3,
                    help="share of rounds left open by a kill that the pit boss voids after the restart")
    ap.add_argument("--verify-every", type=int, default=1,
                    help="run `pitboss verify` after every Nth restart (always after the last)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory (database, config, log)")
    ap.add_argument("--quiet", action="store_true", help="only the summary")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    return ap.parse_args()


# ---------------------------------------------------------------- the ledger

class Ledger:
    """What the clients were told: per round, the last acknowledged answer and the events it must have."""

    def __init__(self):
        self.lock = threading.Lock()
        self.rounds = {}            # id -> {"answer": round, "events": n, "table": t}
        self.touched = set()        # round ids acknowledged since the last check
        self.acked_requests = 0
        self.acked_whole = 0
        self.acked_steps = 0

    def ack(self, rid, answer, events_added, whole):
        with self.lock:
            r = self.rounds.setdefault(rid, {"answer": None, "events": 0, "table": answer["table"]})
            r["answer"] = answer
            r["events"] += events_added
            self.touched.add(rid)
            self.acked_requests += 1
            if whole:
                self.acked_whole += 1
            else:
                self.acked_steps += 1

    def snapshot(self, ids=None):
        with self.lock:
            src = self.rounds if ids is None else {i: self.rounds[i] for i in ids if i in self.rounds}
            return {i: {"answer": r["answer"], "events": r["events"], "table": r["table"]} for i, r in src.items()}

    def take_touched(self):
        with self.lock:
            t = self.touched
            self.touched = set()
            return t


# ---------------------------------------------------------------- requests

class Request:
    """One write a client sends, with its Idempotency-Key; kept to be retried as it was."""

    def __init__(self, kind, method, path, body, events):
        self.kind = kind            # "whole", "open", "put", "delete", "close", "deal", "decide", "reveal", "settle", "void"
        self.method = method
        self.path = path
        self.body = body
        self.key = str(uuid.uuid4())
        self.events = events        # events this request adds when it succeeds (None: read from the answer)

    def __repr__(self):
        return "%s %s %s" % (self.method, self.path, json.dumps(self.body) if self.body is not None else "")


class Lost(Exception):
    """The connection failed: the daemon is gone (or going)."""


def send(conn_holder, host, port, token, req, timeout=15):
    """(status, json) of one request on the holder's keep-alive connection; raises Lost when the daemon is gone.

    A failure on a reused keep-alive connection is tried once more on a fresh one (with the same
    Idempotency-Key, so it cannot record twice): the server may have closed an idle connection.
    """
    data = json.dumps(req.body).encode() if req.body is not None else b""
    headers = {"Authorization": "Bearer " + token, "Idempotency-Key": req.key, "Content-Type": "application/json",
               "Content-Length": str(len(data))}
    while True:
        conn = conn_holder.get("conn")
        reused = conn is not None
        if conn is None:
            conn = http.client.HTTPConnection(host, port, timeout=timeout)
            conn_holder["conn"] = conn
        try:
            conn.request(req.method, req.path, body=data, headers=headers)
            resp = conn.getresponse()
            raw = resp.read()
            if resp.getheader("Connection", "").lower() == "close":
                conn.close()
                conn_holder["conn"] = None
            return resp.status, (json.loads(raw) if raw else None)
        except (OSError, http.client.HTTPException, ValueError) as e:
            conn.close()
            conn_holder["conn"] = None
            if not reused:
                raise Lost(str(e))


# ---------------------------------------------------------------- a dealer at one table

class Dealer(threading.Thread):
    """Deals rounds at one table until told to stop; parks when the daemon dies."""

    def __init__(self, run, table, seed):
        super().__init__(name="dealer-" + table["id"], daemon=True)
        self.run_ = run
        self.table = table
        self.rng = random.Random(seed)
        self.conn = {}
        self.script = []            # requests still to send for the current round
        self.round_id = None
        self.round_state = None
        self.inflight = None        # the request whose answer was lost
        self.parked = threading.Event()
        self.last_banker = 0
        self.error = None

    # -- building rounds --

    def amount(self, wager):
        lim = self.table["limits"].get(wager)
        if lim is None:
            return 0
        lo, hi = lim["min"], lim["max"]
        return self.rng.choice([lo, lo, 2 * lo, 5 * lo, hi]) if 5 * lo <= hi else lo

    def bet(self):
        b = {"ante": self.amount("ante")}
        if "pair_plus" in self.table["limits"] and self.rng.random() < 0.5:
            b["pair_plus"] = self.amount("pair_plus")
        if "six_card" in self.table["limits"] and self.rng.random() < 0.3:
            b["six_card"] = self.amount("six_card")
        return b

    def banker(self):
        seat = self.last_banker % self.table["seats"] + 1
        return {"seat": seat, "bank": self.rng.choice([self.table["banker"]["min_bank"], 50000, 200000])}

    def new_round(self):
        t = self.table
        player_banked = t.get("banking") == "player"
        banker = self.banker() if player_banked else None
        seats = [s for s in range(1, t["seats"] + 1) if banker is None or s != banker["seat"]]
        seats = sorted(self.rng.sample(seats, self.rng.randint(1, min(4, len(seats)))))
        cards = self.rng.sample(DECK, 3 * len(seats) + 3)
        hands = {str(s): cards[3 * i:3 * i + 3] for i, s in enumerate(seats)}
        dealer = cards[-3:]
        bets = {str(s): self.bet() for s in seats}
        decisions = {str(s): self.rng.choice(["play", "play", "fold"]) for s in seats}
        base = "/api/v1/tables/%s/rounds" % t["id"]
        if self.rng.random() < 0.5:
            body = {"bets": bets, "hands": hands, "dealer": dealer, "decisions": decisions}
            if banker:
                body["banker"] = banker
            return [Request("whole", "POST", base, body, None)]
        script = [Request("open", "POST", base, {"banker": banker} if banker else {}, 1)]
        for s in seats:
            script.append(Request("put", "PUT", "bets/%s" % s, bets[str(s)], 1))
        if len(seats) > 1 and self.rng.random() < 0.3:
            gone = seats[-1]
            script.append(Request("delete", "DELETE", "bets/%s" % gone, None, 1))
            script.append(Request("put", "PUT", "bets/%s" % gone, bets[str(gone)], 1))
        if self.rng.random() < 0.05:
            script.append(Request("void", "POST", "void", {"reason": "misdeal: card exposed"}, 1))
            return script
        script.append(Request("close", "POST", "close", None, 1))
        early = self.rng.random() < 0.5
        deal = {"hands": hands}
        if early:
            deal["dealer"] = dealer
        script.append(Request("deal", "POST", "deal", deal, 1))
        for s in seats:
            script.append(Request("decide", "POST", "decisions", {"seat": s, "action": decisions[str(s)]}, 1))
        if not early:
            script.append(Request("reveal", "POST", "reveal", {"dealer": dealer}, 1))
        script.append(Request("settle", "POST", "settle", None, 1))
        return script

    def bind(self, req):
        """Fills in the round id of a step's path (the first time it is sent)."""
        if not req.path.startswith("/"):
            req.path = "/api/v1/rounds/%d/%s" % (self.round_id, req.path)
        return req

    # -- acknowledgements --

    def acked(self, req, status, js):
        """Records a 2xx answer in the ledger."""
        rnd = js["round"]
        events = req.events if req.events is not None else len(rnd.get("events") or [])
        if req.kind == "whole" and events == 0:
            raise CrashTestFailure("%s: a whole round answered without its events" % req)
        self.round_id = rnd["id"]
        self.round_state = rnd["state"]
        if rnd.get("banker"):
            self.last_banker = rnd["banker"]["seat"]
        self.run_.ledger.ack(rnd["id"], strip(rnd), events, req.kind == "whole")
        if rnd["state"] in FINAL:
            self.script = []

    # -- the loop --

    def run(self):
        try:
            self.loop()
        except BaseException as e:       # reported by the main thread
            self.error = e
            self.parked.set()

    def loop(self):
        run = self.run_
        while not run.stop.is_set():
            if run.killed.is_set():
                self.park()
                continue
            if not self.script:
                self.script = self.new_round()
            req = self.bind(self.script[0])
            try:
                st, js = send(self.conn, run.host, run.port, "demo-dealer", req)
            except Lost:
                self.inflight = req
                self.park()
                continue
            if st == 503 and js and js.get("error", {}).get("code") == "shutting_down":
                # A stop in progress refuses new requests ("nothing was recorded, retry shortly"):
                # retried after the restart with the same key, like a lost one.
                self.inflight = req
                with self.run_.ledger.lock:
                    self.run_.stats["refused_while_stopping"] += 1
                self.park()
                continue
            self.script.pop(0)
            if 200 <= st < 300:
                self.acked(req, st, js)
            else:
                raise CrashTestFailure("%s -> %d %s" % (req, st, json.dumps(js)))

    def park(self):
        """Waits, holding no connection, until the main thread has restarted and checked the daemon."""
        run = self.run_
        c = self.conn.pop("conn", None)
        if c is not None:
            c.close()
        with run.cond:
            gen = run.generation
            self.parked.set()
            while run.generation == gen and not run.stop.is_set():
                run.cond.wait(1)


def strip(rnd):
    """The fields of a round an answer and GET must agree on."""
    return {k: rnd.get(k) for k in ROUND_FIELDS}


def diff(a, b):
    out = []
    for k in ROUND_FIELDS:
        if a.get(k) != b.get(k):
            out.append("%s: %s != %s" % (k, json.dumps(a.get(k)), json.dumps(b.get(k))))
    return "; ".join(out)


# ---------------------------------------------------------------- the run

class Run:
    def __init__(self, args):
        import pbtest
        self.pbtest = pbtest
        self.args = args
        self.rng = random.Random(args.seed)
        self.ledger = Ledger()
        self.stop = threading.Event()
        self.killed = threading.Event()
        self.cond = threading.Condition()
        self.generation = 0
        self.pitboss = os.path.join(os.path.abspath(args.build), "pitboss")
        # Checkpoints often, so that kills also land in the middle of signing one.
        self.d = pbtest.Daemon(overrides={"checkpoint": {"every_rounds": 5, "every_seconds": 1}})
        self.host, self.port = self.d.host, self.d.port
        cfg_tables = {t["id"]: t for t in self.d.config["tables"]}
        self.tables = [cfg_tables[t] for t in args.tables.split(",")]
        self.stats = {"kills": 0, "rounds_acknowledged": 0, "whole_rounds_acknowledged": 0,
                      "requests_acknowledged": 0, "in_flight_at_kill": 0, "committed_but_unanswered": 0,
                      "lost_with_the_connection": 0, "voided_after_restart": 0, "continued_after_restart": 0,
                      "lost": 0, "kills_during_stop": 0, "refused_while_stopping": 0, "restart_seconds_max": 0.0, "verify_runs": 0, "seed": args.seed}
        self.dealers = []

    def log(self, msg):
        if not self.args.quiet:
            print("crash: " + msg, flush=True)

    def fail(self, msg):
        raise CrashTestFailure(msg)

    def call(self, method, path, body=None, token="demo-auditor", idem=None):
        return self.d.call(method, path, body, token=token, idem=idem)

    # -- checks --

    def check_log(self):
        bad = [l for l in self.d.run_log().splitlines() if " pitbossd error: " in l]
        if bad:
            self.fail("pitbossd logged errors after the restart:\n" + "\n".join(bad))

    def check_database(self, verify):
        conn = sqlite3.connect("file:%s?mode=ro" % self.d.db_path, uri=True, timeout=30)
        try:
            res = conn.execute("PRAGMA integrity_check").fetchall()
            if res != [("ok",)]:
                self.fail("PRAGMA integrity_check: %r" % res)
            # No half-recorded round.
            bad = conn.execute(
                "SELECT r.id, r.state, (SELECT count(*) FROM payouts p WHERE p.round_id = r.id), "
                "(SELECT count(*) FROM events e WHERE e.round_id = r.id AND e.type = 'round_settled'), "
                "(SELECT count(*) FROM events e WHERE e.round_id = r.id AND e.type = 'round_voided'), "
                "(SELECT count(*) FROM events e WHERE e.round_id = r.id AND e.type = 'round_opened') "
                "FROM rounds r").fetchall()
            for rid, state, payouts, settled_ev, void_ev, opened_ev in bad:
                if opened_ev != 1:
                    self.fail("round %d: %d round_opened events" % (rid, opened_ev))
                if state == "settled" and (payouts == 0 or settled_ev != 1 or void_ev != 0):
                    self.fail("round %d is settled with %d payout lines, %d round_settled and %d round_voided events"
                              % (rid, payouts, settled_ev, void_ev))
                if state == "void" and (void_ev != 1 or settled_ev != 0):
                    self.fail("round %d is void with %d round_voided and %d round_settled events" % (rid, void_ev, settled_ev))
                if state not in FINAL and (payouts != 0 or settled_ev or void_ev):
                    self.fail("round %d is %s but has %d payout lines and a final event" % (rid, state, payouts))
            known = self.ledger.snapshot()
            ids = [r[0] for r in conn.execute("SELECT id FROM rounds")]
            inflight_open = {d.inflight.key for d in self.dealers if d.inflight is not None and
                             d.inflight.kind in ("open", "whole")}
            unknown = [i for i in ids if i not in known]
            # A round opened by a request whose answer was lost is not known until its retry.
            if len(unknown) > len(inflight_open):
                self.fail("rounds %s are in the database but no client was ever told of them (recorded twice?)" % unknown)
            problems = self.pbtest.chain_problems(conn)
            if problems:
                self.fail("hash chain: " + "; ".join(problems[:5]))
        finally:
            conn.close()
        if verify:
            self.stats["verify_runs"] += 1
            p = subprocess.run([self.pitboss, "verify", "--database", self.d.db_path], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=600)
            if p.returncode != 0:
                self.fail("pitboss verify --database exited %d:\n%s" % (p.returncode, p.stdout.decode(errors="replace")[-4000:]))

    def check_round(self, rid, want, events):
        st, js = self.call("GET", "/api/v1/rounds/%d" % rid)
        if st != 200:
            self.stats["lost"] += 1
            self.fail("round %d was acknowledged but GET answers %d %s" % (rid, st, json.dumps(js)))
        got = js["round"]
        if strip(got) != want:
            self.stats["lost"] += 1
            self.fail("round %d is not what was acknowledged: %s" % (rid, diff(want, strip(got))))
        if len(got.get("events") or []) != events:
            self.fail("round %d has %d events; the acknowledged requests add up to %d (recorded twice, or lost?)"
                      % (rid, len(got.get("events") or []), events))
        return got

    def check_acknowledged(self, ids):
        snap = self.ledger.snapshot(ids)
        inflight_rounds = {d.round_id for d in self.dealers
                           if d.inflight is not None and d.inflight.kind not in ("open", "whole")}
        for rid, r in snap.items():
            if rid in inflight_rounds:
                continue        # checked around the retry
            self.check_round(rid, r["answer"], r["events"])
        return len(snap)

    def retry_inflight(self, dealer):
        """Retries the request whose answer the kill took, with the same key, and checks it recorded once."""
        req = dealer.inflight
        self.stats["in_flight_at_kill"] += 1
        before = None
        known = self.ledger.snapshot([dealer.round_id]).get(dealer.round_id) if req.kind not in ("open", "whole") else None
        last_id = None
        if known is None:
            with sqlite3.connect("file:%s?mode=ro" % self.d.db_path, uri=True, timeout=30) as conn:
                last_id = conn.execute("SELECT coalesce(max(id), 0) FROM rounds WHERE table_id = ?",
                                       (dealer.table["id"],)).fetchone()[0]
        else:
            st, js = self.call("GET", "/api/v1/rounds/%d" % dealer.round_id)
            if st != 200:
                self.fail("round %d: GET answers %d after the restart" % (dealer.round_id, st))
            before = js["round"]
        st, js = send({}, self.host, self.port, "demo-dealer", req)
        if not 200 <= st < 300:
            self.fail("retry of %s after the restart -> %d %s" % (req, st, json.dumps(js)))
        rnd = js["round"]
        events_added = req.events if req.events is not None else len(rnd.get("events") or [])
        if known is not None:
            if strip(before) == known["answer"]:
                self.stats["lost_with_the_connection"] += 1
            elif strip(before) == strip(rnd):
                self.stats["committed_but_unanswered"] += 1
            else:
                self.fail("round %d after the kill is neither the acknowledged round nor the retry's answer:\n"
                          "  acknowledged: %s\n  retry: %s" % (dealer.round_id, diff(known["answer"], strip(before)),
                                                                diff(strip(rnd), strip(before))))
            total = known["events"] + events_added
        else:
            # An open or a whole round: if it was committed before the kill, the retry answers that round
            # (and must not open another: the final check compares the rounds in the database with the
            # rounds acknowledged, and check_round the events).
            if rnd["id"] <= last_id:
                self.stats["committed_but_unanswered"] += 1
            else:
                self.stats["lost_with_the_connection"] += 1
            total = events_added
        dealer.inflight = None
        dealer.script.pop(0)
        dealer.acked(req, st, js)
        self.check_round(rnd["id"], strip(rnd), total)
        return rnd

    def after_restart(self, verify):
        self.check_log()
        self.check_database(verify)
        # The rounds acknowledged since the last check, and a sample of older ones.
        touched = self.ledger.take_touched()
        older = [i for i in self.ledger.snapshot() if i not in touched]
        sample = set(touched) | set(self.rng.sample(older, min(20, len(older))))
        checked = self.check_acknowledged(sample)
        # The requests in flight, then the rounds the kill left open.
        for dealer in self.dealers:
            if dealer.inflight is not None:
                self.retry_inflight(dealer)
        # The current round of every table is the one its dealer is dealing.
        st, js = self.call("GET", "/api/v1/tables")
        if st != 200:
            self.fail("GET /api/v1/tables -> %d" % st)
        current = {t["id"]: t["current_round"] for t in js["tables"]}
        for dealer in self.dealers:
            open_round = dealer.round_id if dealer.script and dealer.round_state not in FINAL and \
                dealer.script[0].kind not in ("open", "whole") else None
            if current.get(dealer.table["id"]) != open_round:
                self.fail("table %s: current_round %s, the dealer is dealing %s" % (
                    dealer.table["id"], current.get(dealer.table["id"]), open_round))
            if open_round is not None:
                if self.rng.random() < self.args.void_share:
                    req = Request("void", "POST", "/api/v1/rounds/%d/void" % open_round,
                                  {"reason": "interrupted: pitbossd restarted"}, 1)
                    st, js = send({}, self.host, self.port, "demo-pitboss", req)
                    if st != 200 or js["round"]["state"] != "void":
                        self.fail("voiding round %d after the restart -> %d %s" % (open_round, st, json.dumps(js)))
                    dealer.acked(req, st, js)
                    dealer.script = []
                    self.stats["voided_after_restart"] += 1
                else:
                    self.stats["continued_after_restart"] += 1
        return checked

    # -- the cycle --

    def start_daemon(self):
        t0 = time.monotonic()
        self.d.start(timeout=120)
        dt = time.monotonic() - t0
        self.stats["restart_seconds_max"] = max(self.stats["restart_seconds_max"], round(dt, 3))
        # the chains before the last checkpoints are walked in the background once listening: check 1 waits for it
        sc = self.d.wait_startup_check(timeout=600, token="demo-auditor")
        if sc["state"] != "done" or sc["tables_held"] != 0:
            self.fail("the start-up integrity check ended %s with %d table(s) on hold:\n%s"
                      % (sc["state"], sc["tables_held"], self.d.run_log()))

    def wait_parked(self, timeout=60):
        deadline = time.monotonic() + timeout
        for dealer in self.dealers:
            if not dealer.parked.wait(max(0.0, deadline - time.monotonic())):
                self.fail("dealer at %s did not stop after the kill" % dealer.table["id"])
            if dealer.error is not None:
                raise dealer.error

    def release(self):
        with self.cond:
            for dealer in self.dealers:
                dealer.parked.clear()
            self.killed.clear()
            self.generation += 1
            self.cond.notify_all()

    def run(self):
        t_start = time.monotonic()
        self.start_daemon()
        self.dealers = [Dealer(self, t, self.args.seed * 1000 + i) for i, t in enumerate(self.tables)]
        for dealer in self.dealers:
            dealer.start()
        try:
            for k in range(1, self.args.kills + 1):
                delay = self.rng.uniform(self.args.min_delay, self.args.max_delay)
                deadline = time.monotonic() + delay
                while time.monotonic() < deadline:
                    time.sleep(0.005)
                    for dealer in self.dealers:
                        if dealer.error is not None:
                            raise dealer.error
                if self.rng.random() < self.args.term_share:
                    # A clean stop cut short: SIGTERM, then SIGKILL while it finishes in-flight requests.
                    self.d.proc.send_signal(signal.SIGTERM)
                    time.sleep(self.rng.uniform(0, 0.03))
                    self.stats["kills_during_stop"] += 1
                self.d.kill9()                  # SIGKILL, whatever the daemon is doing
                self.killed.set()
                self.stats["kills"] += 1
                self.wait_parked()
                self.start_daemon()
                verify = k % self.args.verify_every == 0 or k == self.args.kills
                checked = self.after_restart(verify)
                self.log("kill %d/%d after %.2fs: %d requests acknowledged so far, %d rounds checked, %d in flight"
                         % (k, self.args.kills, delay, self.ledger.acked_requests, checked,
                            self.stats["in_flight_at_kill"]))
                self.release()
            # A last stretch of dealing, then a clean stop.
            time.sleep(self.args.max_delay)
            self.killed.set()
            self.wait_parked()
            for dealer in self.dealers:
                if dealer.inflight is not None:
                    self.fail("dealer at %s lost a request while the daemon ran: %s" % (dealer.table["id"], dealer.inflight))
            self.final_checks()
        finally:
            with self.cond:
                self.stop.set()
                self.cond.notify_all()
            for dealer in self.dealers:
                dealer.join(10)
        self.stats["elapsed_seconds"] = round(time.monotonic() - t_start, 1)
        return self.stats

    def final_checks(self):
        st, js = self.call("GET", "/api/v1/integrity")
        if st != 200 or not js.get("ok"):
            self.fail("GET /api/v1/integrity -> %d %s" % (st, json.dumps(js)[:2000]))
        self.check_acknowledged(None)
        self.d.stop()                           # SIGTERM: exit 0, "stopped cleanly", no error logged
        self.check_database(True)
        with sqlite3.connect("file:%s?mode=ro" % self.d.db_path, uri=True) as conn:
            in_db = {r[0] for r in conn.execute("SELECT id FROM rounds")}
        known = self.ledger.snapshot()
        if in_db != set(known):
            self.fail("rounds in the database %s != rounds acknowledged %s" % (
                sorted(in_db - set(known))[:10], sorted(set(known) - in_db)[:10]))
        self.stats["rounds_acknowledged"] = sum(1 for r in known.values() if r["answer"]["state"] in FINAL)
        self.stats["rounds_in_database"] = len(in_db)
        self.stats["whole_rounds_acknowledged"] = self.ledger.acked_whole
        self.stats["requests_acknowledged"] = self.ledger.acked_requests


def main():
    args = parse_args()
    os.environ["PB_BUILD_DIR"] = os.path.abspath(args.build)
    if args.keep:
        os.environ["PB_KEEP_TMP"] = "1"
    run = Run(args)
    ok = False
    try:
        stats = run.run()
        ok = stats["lost"] == 0
    except CrashTestFailure as e:
        print("crash: FAILED: %s" % e, file=sys.stderr)
        print("crash: the daemon's log:\n" + run.d.full_log()[-6000:], file=sys.stderr)
        stats = run.stats
        stats["requests_acknowledged"] = run.ledger.acked_requests
        stats["whole_rounds_acknowledged"] = run.ledger.acked_whole
    finally:
        if run.d.proc is not None:
            run.d.kill9()
        if args.keep or not ok:
            print("crash: database, config and log kept in %s" % run.d.tmpdir, file=sys.stderr)
        else:
            run.d.close()
    if args.json:
        print(json.dumps(stats, indent=1))
    else:
        print("crash: %s: %d kills, %d rounds acknowledged (%d whole, %d requests), %d in flight at a kill "
              "(%d committed with the answer lost), %d voided and %d continued after a restart, lost %d, "
              "longest restart %.2fs, %.1fs" % (
                  "ok" if ok else "FAILED", stats.get("kills", 0), stats.get("rounds_acknowledged", 0),
                  stats.get("whole_rounds_acknowledged", 0), stats.get("requests_acknowledged", 0),
                  stats.get("in_flight_at_kill", 0), stats.get("committed_but_unanswered", 0),
                  stats.get("voided_after_restart", 0), stats.get("continued_after_restart", 0),
                  stats.get("lost", 0), stats.get("restart_seconds_max", 0), stats.get("elapsed_seconds", 0)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
