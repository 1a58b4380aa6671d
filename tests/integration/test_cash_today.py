"""
Where a patron stands in the gaming day before a transaction is recorded (docs/players.md, "Title 31 at the moment
of action"; docs/api.md): GET /tables' property gives the Title 31 limits, GET /players/{id} (the roles that read
personal data) and GET /tables/{t}/seats give a patron's "cash_today": his cash in and cash out of the gaming day,
whether he is identified, and whether a side is at the alert level or over the CTR limit.  Every figure expected is
computed here from the amounts sent and the limits the Title 31 report states.  The cage reads the people (it
names a fill's runner by choosing him).
"""
import sys
import unittest

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
import pbtest  # noqa: E402
from pbtest import DEALER, PITBOSS_TOKEN  # noqa: E402


class CashToday(pbtest.StaffTestCase):
    PEOPLE = pbtest.staff("CG1", "SC1", "DL1")

    def api(self, method, path, body=None, status=200, token=PITBOSS_TOKEN):
        return self.ok(method, "/api/v1" + path, body, status=status, token=token)

    def limits(self, day):
        return self.api("GET", "/reports/title31?gaming_day=" + day)["limits"]

    def expected(self, day, cash_in, cash_out, identified, lim):
        return {"gaming_day": day, "cash_in": cash_in, "cash_out": cash_out, "identified": identified,
                "alert": cash_in >= lim["alert_at"] or cash_out >= lim["alert_at"],
                "ctr": cash_in > lim["ctr_over"] or cash_out > lim["ctr_over"]}

    def test_1_the_limits_beside_the_tables(self):
        prop = self.api("GET", "/tables")["property"]
        lim = self.limits(prop["gaming_day"])
        self.assertEqual(prop["title31"], {k: lim[k] for k in ("mtl_threshold", "alert_at", "ctr_over")})
        # any reader of the tables learns them (a dealer's cash form warns too)
        self.assertEqual(self.api("GET", "/tables", token=DEALER)["property"]["title31"], prop["title31"])

    def test_2_a_patrons_cash_today_on_his_record_and_at_his_seat(self):
        p = self.api("POST", "/players", {"card": "CT-2001", "name": "Rosa Vidal"}, status=201)["id"]
        self.api("PUT", "/tables/T1/seats/2/player", {"player": p})
        day = self.api("GET", "/tables")["property"]["gaming_day"]
        lim = self.limits(day)
        fresh = self.api("GET", "/players/" + p)["cash_today"]
        self.assertEqual(fresh, self.expected(fresh["gaming_day"], 0, 0, False, lim))
        # a buy-in under the alert, one reaching it, a cash out; none past the limit (he has no identification)
        amounts = [("in", lim["alert_at"] // 2), ("in", lim["alert_at"] - lim["alert_at"] // 2), ("out", 12345)]
        cash = {"in": 0, "out": 0}
        for direction, amount in amounts:
            a = self.api("POST", "/tables/T1/transactions", {"seat": 2, "player": p, "direction": direction,
                                                            "kind": "cash", "amount": amount}, status=201)
            cash[direction] += amount
            want = self.expected(a["gaming_day"], cash["in"], cash["out"], False, lim)
            self.assertEqual(self.api("GET", "/players/" + p)["cash_today"], want)
            seats = self.api("GET", "/tables/T1/seats")["seats"]
            self.assertEqual(seats[1]["cash_today"], want)
            self.assertTrue(all("cash_today" not in s for s in seats if s["player"] is None), seats)
            self.assertEqual(self.api("GET", "/tables/T1/seats", token=DEALER)["seats"][1]["cash_today"], want)
        self.assertTrue(want["alert"], "the amounts reach the alert level")
        # the dealer reads no personal data, and no cash of the day, on the record
        self.assertNotIn("cash_today", self.api("GET", "/players/" + p, token=DEALER))
        # identified once his record holds an ID type and number; the totals as they were
        self.api("PATCH", "/players/" + p, {"id_type": "passport", "id_number": "ES-7781"})
        want = self.expected(want["gaming_day"], cash["in"], cash["out"], True, lim)
        self.assertEqual(self.api("GET", "/players/" + p)["cash_today"], want)
        self.api("DELETE", "/tables/T1/seats/2/player")
        self.assertNotIn("cash_today", self.api("GET", "/tables/T1/seats")["seats"][1])

    def test_3_the_cage_reads_the_people(self):
        people = {p["id"]: p for p in self.api("GET", "/people", token=self.tok["CG1"])["people"]}
        self.assertEqual(people["SC1"]["roles"], ["security"])
        self.assertEqual(people["SC1"]["name"], "Sal Security")
        self.assertEqual(self.api("GET", "/people/SC1", token=self.tok["CG1"])["id"], "SC1")
        self.refused(403, "forbidden", "GET", "/api/v1/people", token=self.tok["DL1"])


if __name__ == "__main__":
    pbtest.main()
