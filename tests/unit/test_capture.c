/*
 * test_capture.c - the events of a round kept in memory by the transaction
 * that creates it (store/capture.c), against what the database gives back:
 * bodies reloaded as the stored text would load, the whole-round answer
 * against GET of the same round and against the stored events, rollback and
 * stray events, and the round row written once by a whole round.  Also
 * the payout lines and the event's canonical bytes, built without
 * json_pack and sprintf now, against the old way.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/capture.h"
#include "store/store.h"
#include "table/event_types.h"
#include "table/pit.h"
#include "table/view.h"
#include "pit_fixture.h"

#define DUMP_FLAGS (JSON_COMPACT | JSON_ENSURE_ASCII)   /* as the HTTP layer writes answers */

struct fixture {
	char db[256];
	struct config *cfg;
	struct store *store;
	struct pit pit;
	struct actor dealer;
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	pit_fixture_open("capture", f->db, &f->cfg, &f->store, &f->pit);
	f->dealer.name = "dealer-test";
	f->dealer.roles = ROLE_BIT(ROLE_DEALER);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	pit_fixture_close(f->db, f->cfg, f->store);
	free(f);
	return 0;
}

/* json_dumps of v (the caller frees), "(null)" text for NULL so that comparisons print something. */
static char *
dump(const json_t *v)
{
	char *s = v ? json_dumps(v, DUMP_FLAGS | JSON_ENCODE_ANY) : NULL;

	return s ? s : strdup("(null)");
}

static void
assert_same_json(const json_t *a, const json_t *b)
{
	char *x = dump(a), *y = dump(b);

	assert_string_equal(x, y);
	free(x);
	free(y);
}

/* What store_round_events used to give for a body: the stored canonical text, loaded. */
static json_t *
stored_then_loaded(const json_t *body)
{
	char *text = json_dumps(body, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENSURE_ASCII);
	json_t *v;

	if (text == NULL)       /* not a container: store_append_event refuses it anyway */
		return json_null();
	v = json_loads(text, 0, NULL);
	free(text);
	return v ? v : json_null();
}

/* Bodies of every shape an event can have, and some it never has. */
static json_t *
odd_body(int i)
{
	json_t *o;

	switch (i) {
	case 0: return json_pack("{s:i,s:I,s:I,s:I}", "seat", 3, "ante", (json_int_t)2500, "pair_plus", (json_int_t)0,
	    "six_card", (json_int_t)-1);
	case 1: return json_object();
	case 2: return json_array();
	case 3: return json_pack("{s:{s:[s,s,s],s:[s,s,s]},s:[s,s,s]}", "hands", "3", "As", "Kd", "Qh", "1", "2c", "3d", "4h",
	    "dealer", "Qd", "7c", "2h");
	case 4: return json_pack("{s:[{s:i,s:s},{s:i,s:s}],s:b,s:n,s:b}", "payouts", "seq", 2, "wager", "play", "seq", 1,
	    "wager", "ante", "z", 1, "a", "m", 0);
	case 5: return json_pack("{s:f,s:f,s:f,s:f,s:f}", "tenth", 0.1, "third", 1.0 / 3.0, "big", 1e300, "negzero", -0.0,
	    "one", 1.0);
	case 6: return json_pack("{s:s,s:s,s:s,s:s}", "reason", "misdeal: exposed card \xc3\xa9\xe2\x80\xa8\xf0\x9f\x82\xa1",
	    "quote", "\"\\/\b\f\n\r\t\x01", "B", "upper", "aa", "after a");
	case 7: return json_pack("[{s:i,s:i},i,[{s:i,s:i}]]", "b", 1, "a", 2, 7, "y", 1, "x", 2);
	case 8: /* a NUL inside a string: the stored text does not load (no JSON_ALLOW_NUL), the timeline says null */
		o = json_object();
		json_object_set_new(o, "s", json_stringn("a\0b", 3));
		return o;
	case 9: /* a NUL inside a key, likewise */
		o = json_object();
		json_object_setn_new(o, "k\0ey", 4, json_integer(1));
		return o;
	case 10: return json_string("not a container");
	case 11: return json_integer(42);
	case 12: return json_null();
	case 13: /* more keys than the copy sorts on the stack */
		o = json_object();
		for (int k = 40; k > 0; k--) {
			char key[16];
			snprintf(key, sizeof(key), "k%d", k);
			json_object_set_new(o, key, json_pack("{s:i,s:i}", "z", k, "a", -k));
		}
		return o;
	case 14: /* in sorted order at the top, a NUL deep inside */
		o = json_object();
		json_object_set_new(o, "a", json_pack("{s:[i,{s:i}]}", "b", 1, "c", 2));
		json_object_set_new(json_object_get(o, "a"), "d", json_stringn("x\0y", 3));
		return o;
	case 15: /* in sorted order at every depth: shared, not copied */
		return json_pack("{s:[i,{s:i,s:s}],s:{},s:s}", "a", 1, "b", 2, "c", "\xc3\xa9", "m", "z", "s");
	}
	return NULL;
}

#define ODD_BODIES 16

/* capture_body_reloaded gives, byte for byte once dumped, what the stored text loads as. */
static void
test_body_reloaded_like_stored_text(void **state)
{
	(void)state;
	for (int i = 0; i < ODD_BODIES; i++) {
		json_t *b = odd_body(i), *want, *got;

		assert_non_null(b);
		want = stored_then_loaded(b);
		got = capture_body_reloaded(b);
		assert_non_null(got);
		assert_same_json(got, want);
		json_decref(want);
		json_decref(got);
		json_decref(b);
	}
}

/* Creates a round of table T1 in the open transaction (as do_open does, without its checks). */
static int64_t
create_round(struct fixture *f, const char *table_id)
{
	const struct table_config *t = config_table(f->cfg, table_id);
	struct round_record *r = calloc(1, sizeof(*r));
	struct pb_error err;
	int64_t id;

	assert_non_null(t);
	snprintf(r->table_id, sizeof(r->table_id), "%s", t->id);
	r->rules = *t->rules;
	r->limits = t->limits;
	r->seats = t->seats;
	pb_time_now(r->opened_at);
	snprintf(r->opened_by, sizeof(r->opened_by), "dealer-test");
	assert_int_equal(store_rules_id(f->store, &r->rules, &r->rules_id, &err), 0);
	assert_int_equal(store_round_create(f->store, r, &err), 0);
	id = r->id;
	free(r);
	return id;
}

/*
 * Appends the odd bodies as events of round id (and one table event
 * between, which is not the round's); returns how many were recorded.
 * Below the registry's check (store_event_append_as_is): the capture must
 * give back any body exactly as the database would.
 */
static size_t
append_odd_events(struct fixture *f, int64_t id, int from, int to)
{
	struct pb_error err;
	char at[PB_TIME_LEN];
	size_t n = 0;

	pb_time_now(at);
	for (int i = from; i < to; i++) {
		json_t *b = odd_body(i);
		int rc;

		if (i == 2) {
			json_t *t = json_object();
			assert_int_equal(store_append_event(f->store, "T1", 0, &EVENT_TYPES[EVT_TABLE_OPENED], at, "pit-test", t, &err), 0);
			json_decref(t);
		}
		rc = store_event_append_as_is(f->store, "T1", id, "odd", at, i % 2 ? "dealer-\xc3\xa9" : "dealer-test", b, &err);
		json_decref(b);
		/* A body that is not an object or array cannot be encoded: refused, nothing written. */
		assert_int_equal(rc, i >= 10 && i <= 12 ? -1 : 0);
		n += rc == 0;
	}
	return n;
}

/*
 * Inside the transaction that created the round the events come from
 * memory; after the commit from the database: the same bytes.  A rolled
 * back transaction leaves nothing behind for the next one, even when the
 * next round gets the same id.
 */
static void
test_captured_events_equal_stored_events(void **state)
{
	struct fixture *f = *state;
	struct pb_error err;
	json_t *mem, *db;
	int64_t id, id2;
	size_t n;

	assert_int_equal(store_begin(f->store, &err), 0);
	id = create_round(f, "T1");
	append_odd_events(f, id, 0, 6);
	store_rollback(f->store);

	assert_int_equal(store_begin(f->store, &err), 0);
	id2 = create_round(f, "T1");
	assert_int_equal(id2, id);      /* the rowid is given again */
	n = append_odd_events(f, id2, 3, ODD_BODIES);
	assert_int_equal(n, ODD_BODIES - 3 - 3);   /* 10, 11, 12 refused */
	mem = store_round_events(f->store, id2, &err);
	assert_non_null(mem);
	assert_int_equal(json_array_size(mem), n);
	assert_int_equal(store_commit(f->store, &err), 0);
	db = store_round_events(f->store, id2, &err);
	assert_non_null(db);
	assert_same_json(mem, db);
	json_decref(mem);
	json_decref(db);
}

/* An event already recorded under the id a new round gets (a hand-edited file): nothing is captured. */
static void
test_stray_event_is_not_missed(void **state)
{
	struct fixture *f = *state;
	struct pb_error err;
	json_t *mem, *db;
	int64_t id;
	char sql[512];

	assert_int_equal(store_begin(f->store, &err), 0);
	id = create_round(f, "T2");
	store_rollback(f->store);
	snprintf(sql, sizeof(sql), "INSERT INTO events (table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash) "
	    "VALUES ('X9', 1, %lld, 'stray', '2020-01-01T00:00:00.000Z', 'someone', '{\"b\":1,\"a\":2}', 'p', 'h')", (long long)id);
	assert_int_equal(sqlite3_exec(store_db(f->store), sql, NULL, NULL, NULL), SQLITE_OK);

	assert_int_equal(store_begin(f->store, &err), 0);
	assert_int_equal(create_round(f, "T2"), id);
	append_odd_events(f, id, 0, 2);
	mem = store_round_events(f->store, id, &err);
	assert_non_null(mem);
	assert_int_equal(json_array_size(mem), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(mem, 0), "type")), "stray");
	assert_int_equal(store_commit(f->store, &err), 0);
	db = store_round_events(f->store, id, &err);
	assert_same_json(mem, db);
	json_decref(mem);
	json_decref(db);
}

/* Opens a whole round from body text; returns the 201 answer. */
static json_t *
whole_round(struct fixture *f, const char *table_id, const char *text)
{
	json_t *b = json_loads(text, 0, NULL), *out = NULL;
	struct pb_error err;
	int status = 0;

	assert_non_null(b);
	if (pit_round_open(&f->pit, &f->dealer, NULL, table_id, b, &out, &status, &err) < 0)
		fail_msg("%s: %s", err.code, err.message);
	assert_int_equal(status, 201);
	json_decref(b);
	return out;
}

static const struct {
	const char *table;
	const char *body;
} WHOLE[] = {
	{"T1", "{\"bets\": {\"1\": {\"ante\": 2500, \"pair_plus\": 500}, \"3\": {\"ante\": 1000, \"six_card\": 500}},"
	    "\"hands\": {\"1\": [\"As\",\"Ks\",\"Qs\"], \"3\": [\"Kc\",\"Kd\",\"9s\"]}, \"dealer\": [\"Qd\",\"7c\",\"2h\"],"
	    "\"decisions\": {\"3\": \"play\", \"1\": \"play\"}}"},
	{"T3", "{\"bets\": {\"2\": {\"ante\": 1000}}, \"hands\": {\"2\": [\"2c\",\"3d\",\"4h\"]}, \"dealer\": [\"Qd\",\"7c\",\"2h\"],"
	    "\"decisions\": {\"2\": \"fold\"}}"},
	{"F1", "{\"bets\": {\"4\": {\"ante\": 500, \"pair_plus\": 500}, \"1\": {\"ante\": 500}}, \"hands\": {\"4\": [\"9h\",\"9d\",\"9s\"],"
	    "\"1\": [\"Jh\",\"Th\",\"2d\"]}, \"dealer\": [\"3c\",\"4c\",\"8d\"], \"decisions\": {\"4\": \"play\", \"1\": \"play\"}}"},
	{"P1", "{\"banker\": {\"seat\": 1, \"bank\": 20000}, \"bets\": {\"2\": {\"ante\": 2500, \"pair_plus\": 500},"
	    "\"5\": {\"ante\": 15000}}, \"hands\": {\"2\": [\"Ah\",\"Ad\",\"3c\"], \"5\": [\"Kh\",\"Qh\",\"Jh\"]},"
	    "\"dealer\": [\"Ks\",\"9d\",\"4c\"], \"decisions\": {\"2\": \"play\", \"5\": \"play\"}}"},
};

/*
 * The 201 answer of a whole round (timeline from memory) against GET of the
 * same round (rebuilt from the stored events) and against the stored events
 * read in a fresh transaction: the same bytes.  And the round's row, written
 * once, says what the answer says.
 */
static void
test_whole_round_answer_matches_record(void **state)
{
	struct fixture *f = *state;
	struct pb_error err;

	for (size_t i = 0; i < sizeof(WHOLE) / sizeof(WHOLE[0]); i++) {
		json_t *made = whole_round(f, WHOLE[i].table, WHOLE[i].body), *got = NULL, *r, *db;
		int64_t id;
		sqlite3_stmt *st;

		r = json_object_get(made, "round");
		id = json_integer_value(json_object_get(r, "id"));
		assert_string_equal(json_string_value(json_object_get(r, "state")), "settled");
		assert_true(json_array_size(json_object_get(r, "events")) >= 6);

		assert_int_equal(pit_round_get(&f->pit, &f->dealer, id, &got, &err), 0);
		assert_same_json(made, got);
		json_decref(got);

		db = store_round_events(f->store, id, &err);
		assert_same_json(json_object_get(r, "events"), db);
		json_decref(db);

		assert_int_equal(sqlite3_prepare_v2(store_db(f->store), "SELECT state, closed_at, settled_at, opened_at, players_net, "
		    "dealer_qualifies, void_reason FROM rounds WHERE id = ?", -1, &st, NULL), SQLITE_OK);
		sqlite3_bind_int64(st, 1, id);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_string_equal((const char *)sqlite3_column_text(st, 0), "settled");
		assert_string_equal((const char *)sqlite3_column_text(st, 1), json_string_value(json_object_get(r, "opened_at")));
		assert_string_equal((const char *)sqlite3_column_text(st, 2), json_string_value(json_object_get(r, "settled_at")));
		assert_string_equal((const char *)sqlite3_column_text(st, 1), json_string_value(json_object_get(r, "closed_at")));
		assert_int_equal(sqlite3_column_int64(st, 4),
		    json_integer_value(json_object_get(json_object_get(r, "totals"), "players_net")));
		assert_int_equal(sqlite3_column_int(st, 5) != 0, json_is_true(json_object_get(json_object_get(r, "dealer"), "qualifies")));
		assert_int_equal(sqlite3_column_type(st, 6), SQLITE_NULL);
		sqlite3_finalize(st);
		json_decref(made);
	}
}

/* The payout lines as they were built before (json_pack), against payout_lines_json. */
static void
test_payout_lines_like_json_pack(void **state)
{
	struct payout_line lines[4] = {
		{1, 2, WAGER_ANTE, 2500, RESULT_WIN, 2500, false, 0, 0},
		{2, 2, WAGER_PAIR_PLUS, 500, RESULT_LOSE, -500, true, 20500, 0},
		{3, 5, WAGER_PLAY, 15000, RESULT_WIN, 4000, true, 0, 11000},
		{4, 5, WAGER_ANTE_BONUS, 0, RESULT_RETURNED, INT64_MIN, true, INT64_MAX, 1},
	};
	json_t *want = json_array(), *got;

	(void)state;
	for (int i = 0; i < 4; i++) {
		const struct payout_line *l = &lines[i];
		json_t *o = json_pack("{s:i,s:i,s:s,s:I,s:s,s:I}", "seq", l->seq, "seat", l->seat,
		    "wager", wager_name(l->wager), "stake", (json_int_t)l->stake, "result", result_name(l->result),
		    "net", (json_int_t)l->net);
		if (l->banked) {
			json_object_set_new(o, "bank_after", json_integer(l->bank_after));
			if (l->short_amount > 0)
				json_object_set_new(o, "short", json_integer(l->short_amount));
		}
		json_array_append_new(want, o);
	}
	got = payout_lines_json(lines, 4);
	assert_same_json(got, want);
	json_decref(got);
	json_decref(want);
	got = payout_lines_json(lines, 0);
	want = json_array();
	assert_same_json(got, want);
	json_decref(got);
	json_decref(want);
}

/* store_event_canonical against the sprintf version it replaced. */
static void
test_event_canonical_like_sprintf(void **state)
{
	static const char *const BODIES[] = {"{}", "{\"a\":1}", "", "0123456789", NULL};
	char big[1200];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (int i = 0; i < 6; i++) {
		const char *body = i < 4 ? BODIES[i] : big + (i == 4 ? 1100 : 0);
		int64_t seq = i == 0 ? 1 : i == 1 ? INT64_MAX : 1000 * i, rid = i == 2 ? 0 : i == 3 ? -5 : 99999;
		char want[2048], seqs[32], rids[32];
		size_t wlen = 0, len;
		char *got;
		const char *fields[7] = {"T1", seqs, rids, "round_settled", "2026-01-02T03:04:05.678Z", "dealer-\xc3\xa9", body};

		snprintf(seqs, sizeof(seqs), "%lld", (long long)seq);
		snprintf(rids, sizeof(rids), "%lld", (long long)rid);
		wlen += (size_t)sprintf(want, "pitboss-event-v1\n");
		for (int f = 0; f < 7; f++) {
			wlen += (size_t)sprintf(want + wlen, "%zu:", strlen(fields[f]));
			memcpy(want + wlen, fields[f], strlen(fields[f]));
			wlen += strlen(fields[f]);
		}
		got = store_event_canonical("T1", seq, rid, "round_settled", "2026-01-02T03:04:05.678Z", "dealer-\xc3\xa9", body, &len);
		assert_non_null(got);
		assert_int_equal(len, wlen);
		assert_memory_equal(got, want, wlen);
		free(got);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_body_reloaded_like_stored_text),
		cmocka_unit_test(test_payout_lines_like_json_pack),
		cmocka_unit_test(test_event_canonical_like_sprintf),
		cmocka_unit_test_setup_teardown(test_captured_events_equal_stored_events, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stray_event_is_not_missed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_whole_round_answer_matches_record, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
