"""
test_config_audit.py - what a configuration leaves in the record: the hash of
every file loaded (the main file and its game files) in the start-up and reload
events, what a reload changed (tables, games, tokens, settings), the table
event rules_changed when a game file's pay table changes, and a refused reload
as a significant event as well as a log line.
"""
import hashlib
import json
import os
import shutil
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbtest  # noqa: E402


def file_sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class ConfigAudit(unittest.TestCase):
    def setUp(self):
        self.d = pbtest.Daemon()
        games = os.path.join(self.d.tmpdir, "games")
        os.mkdir(games)
        for name, path in list(self.d.config["games"].items()):
            copy = os.path.join(games, os.path.basename(path))
            shutil.copy(path, copy)
            self.d.config["games"][name] = "games/" + os.path.basename(path)
        self.d.write_config()
        self.d.start()

    def tearDown(self):
        self.d.close()

    def events(self, code):
        st, js = self.d.call("GET", "/api/v1/events?limit=1000", token=pbtest.AUDITOR)
        self.assertEqual(st, 200, js)
        return [e for e in js["events"] if e["code"] == code]

    def wait_event(self, code, n):
        def found():
            evs = self.events(code)
            return evs if len(evs) >= n else None
        return pbtest.wait_until(lambda: "no %d %s events:\n%s" % (n, code, self.d.run_log()), found)

    def loaded_sha(self):
        files = [self.d.config_path] + [os.path.join(self.d.tmpdir, p) for p in self.d.config["games"].values()]
        text = "".join("%s  %s\n" % (file_sha(f), f) for f in files)
        return hashlib.sha256(text.encode()).hexdigest(), files

    def table_events(self, table, type_):
        conn = pbtest.sqlite3.connect(self.d.db_path)
        try:
            rows = conn.execute("SELECT body FROM events WHERE table_id = ? AND type = ? ORDER BY table_seq",
                                (table, type_)).fetchall()
        finally:
            conn.close()
        return [json.loads(r[0]) for r in rows]

    def test_start_names_every_file_loaded(self):
        want, files = self.loaded_sha()
        ev = self.events("daemon_started")[-1]["detail"]
        self.assertEqual(ev["loaded_sha256"], want)
        self.assertEqual([f["path"] for f in ev["files"]], files)
        self.assertEqual(ev["files"][0]["sha256"], file_sha(self.d.config_path))
        t1 = self.table_events("T1", "table_configured")[-1]
        self.assertEqual(t1["config_loaded_sha256"], want)
        self.assertEqual(t1["game_sha256"], file_sha(os.path.join(self.d.tmpdir, "games", "standard.json")))

    def test_reload_with_a_changed_game_file(self):
        before, _ = self.loaded_sha()
        path = os.path.join(self.d.tmpdir, "games", "standard.json")
        with open(path) as f:
            game = json.load(f)
        game["pair_plus"]["flush"] = "4"
        with open(path, "w") as f:
            json.dump(game, f)
        self.d.config["max_body_bytes"] = 2000000
        self.d.config["tables"] = [t for t in self.d.config["tables"] if t["id"] != "F1"]
        self.d.write_config()
        after, _ = self.loaded_sha()
        self.d.sighup()
        ev = self.wait_event("config_reloaded", 1)[-1]["detail"]
        self.assertEqual(ev["loaded_sha256"], after)
        self.assertEqual(ev["previous_loaded_sha256"], before)
        ch = ev["changes"]
        self.assertEqual(ch["games"], {"changed": ["standard"]})
        self.assertEqual(ch["tables"], {"removed": ["F1"]})
        self.assertEqual(ch["settings"], {"added": ["max_body_bytes"]})
        self.assertEqual(sorted(ch["files"]["changed"]), sorted([self.d.config_path, path]))
        self.assertNotIn("tokens", ch)
        # the tables of that game, their entries unchanged, record the new rules in their chains
        for t in ("T1", "T2", "P1"):
            rc = self.table_events(t, "rules_changed")
            self.assertEqual(len(rc), 1, t)
            self.assertEqual(rc[0]["game_sha256"], file_sha(path))
            self.assertEqual(rc[0]["config_loaded_sha256"], after)
        self.assertEqual(self.table_events("T3", "rules_changed"), [])
        # the log line follows the event: wait for it rather than read the log at once
        pbtest.wait_until("the reload's log line", lambda: "all files %s" % after in self.d.run_log())
        # the chains still verify
        st, js = self.d.call("GET", "/api/v1/integrity", token=pbtest.AUDITOR)
        self.assertEqual(st, 200, js)
        self.d.stop()

    def test_refused_reload_is_a_significant_event(self):
        good = dict(self.d.config)
        self.d.config["threads"] = "many"
        self.d.write_config()
        self.d.sighup()
        ev = self.wait_event("config_reload_refused", 1)[-1]
        self.assertEqual(ev["source"], "pitbossd")
        self.assertIn("threads", ev["detail"]["message"])
        self.assertEqual(ev["detail"]["config"], self.d.config_path)
        pbtest.wait_until("the refusal's log line",
                          lambda: "reload refused, keeping the running configuration" in self.d.run_log())
        self.assertEqual(self.events("config_reloaded"), [])
        self.d.write_config(good)
        self.d.sighup()
        self.wait_event("config_reloaded", 1)
        self.d.stop(allow_errors=True)


if __name__ == "__main__":
    unittest.main()
