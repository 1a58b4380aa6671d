/*
 * fuzz_round.c - rounds through the real pit code path (table/rounds/round.c and
 * everything under it: input checks, limits, engine settlement, the store,
 * the hash chain, idempotency) against a fresh in-memory SQLite database
 * migrated by store_open, with the tables of config/pitboss.json.
 *
 * Input: a script of requests, each starting on a line of its own with '@':
 *
 *   @open T1                 POST /tables/T1/rounds with the body below
 *   {"bets": {...}, ...}     (a whole round, {} or anything else)
 *   @put 2                   PUT /rounds/{current}/bets/2
 *   {"ante": 500}
 *   @del 2 | @close | @deal | @decide | @reveal | @settle | @void
 *   @as pitboss              the actor of what follows (dealer, pitboss, auditor)
 *   @round 7                 the round later steps address (default: the last opened)
 *
 * A verb ending in '!' ("@settle!") is sent with an Idempotency-Key and
 * then retried with the same key.  The body of a request is everything up
 * to the next line that starts with '@'; an empty body is {} and a body that
 * is not JSON is skipped (the HTTP layer answers 400 before the pit sees it).
 *
 * Oracles, checked after every request:
 *   - a refusal has a 4xx status, a code and a message, and changes nothing
 *     (row counts of every round table and the chain head are the same);
 *   - an accepted write answers a round, and GET of that round (rebuilt from
 *     its events) shows the same state, bets, hands, decisions and payouts;
 *   - a settled or void round verifies (replay, chain, derived rows), and its
 *     payout lines sum to its players' net;
 *   - a retry with the same Idempotency-Key returns the same status and
 *     answer and records nothing.
 * Any failure aborts with a message.  Nothing is kept between inputs: each
 * starts from the same freshly migrated database.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "store/store.h"
#include "store/store_int.h"
#include "table/audit/audit.h"
#include "table/rounds/rounds.h"

#ifndef PB_SOURCE_DIR
#error "PB_SOURCE_DIR must be defined"
#endif

#define FUZZ_MAX_INPUT 16384
#define FUZZ_MAX_REQUESTS 48

static struct config *cfg;

/*
 * The database every input starts from: migrated, tables synced, serialized
 * once.  Each input gets a private copy, deserialized into a connection
 * that stays open (store_open and the migrations cost more than a round).
 */
static struct store *store;
static unsigned char *template_db;
static sqlite3_int64 template_size;

static const struct token_config *
demo_token(const char *secret)
{
	return config_token_by_secret(cfg, secret, strlen(secret));
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct pb_error err;

	(void)argc;
	(void)argv;
	if (sodium_init() < 0)
		abort();
	cfg = config_load(PB_SOURCE_DIR "/config/pitboss.json", &err);
	if (cfg == NULL) {
		fprintf(stderr, "fuzz_round: %s\n", err.message);
		abort();
	}
	/* Checkpoints every few rounds, so that the checkpoint path runs (a no-op without a signer). */
	cfg->checkpoint_every_rounds = 3;

	struct store_options so = {0};
	struct pit pit = {0};
	so.path = ":memory:";
	so.synchronous = "NORMAL";
	store = store_open(&so, &err);
	if (store == NULL) {
		fprintf(stderr, "fuzz_round: %s\n", err.message);
		abort();
	}
	pit.store = store;
	pit.cfg = cfg;
	if (pit_sync_tables(&pit, &err) < 0) {
		fprintf(stderr, "fuzz_round: %s\n", err.message);
		abort();
	}
	template_db = sqlite3_serialize(store_db(store), "main", &template_size, 0);
	if (template_db == NULL)
		abort();
	return 0;
}

/* A fresh copy of the template database in the connection. */
static void
reset_database(void)
{
	unsigned char *copy = sqlite3_malloc64((sqlite3_uint64)template_size);

	if (copy == NULL)
		abort();
	memcpy(copy, template_db, (size_t)template_size);
	if (sqlite3_deserialize(store_db(store), "main", copy, template_size, template_size,
	    SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) != SQLITE_OK) {
		fprintf(stderr, "fuzz_round: sqlite3_deserialize: %s\n", sqlite3_errmsg(store_db(store)));
		abort();
	}
	/* The rules ids and chain heads the store remembered belong to the database just replaced. */
	store_caches_reset(store);
}

/* Everything a refused request must leave as it was. */
struct record_state {
	long long counts[10];
	char head[80];
};

static void
record_state(struct store *s, struct record_state *rs)
{
	static const char SQL[] =
	    "SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM rounds), (SELECT count(*) FROM bets), "
	    "(SELECT count(*) FROM hands), (SELECT count(*) FROM decisions), (SELECT count(*) FROM payouts), "
	    "(SELECT count(*) FROM idempotency), (SELECT count(*) FROM significant_events), "
	    "(SELECT count(*) FROM rounds WHERE state IN ('settled', 'void')), "
	    "(SELECT total(ante) + total(pair_plus) + total(six_card) FROM bets), "
	    "(SELECT hash FROM events ORDER BY id DESC LIMIT 1)";
	sqlite3_stmt *st = NULL;
	const unsigned char *head;

	memset(rs, 0, sizeof(*rs));
	if (sqlite3_prepare_v2(store_db(s), SQL, -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) {
		fprintf(stderr, "fuzz_round: reading the record: %s\n", sqlite3_errmsg(store_db(s)));
		abort();
	}
	for (int i = 0; i < 10; i++)
		rs->counts[i] = sqlite3_column_int64(st, i);
	head = sqlite3_column_text(st, 10);
	snprintf(rs->head, sizeof(rs->head), "%s", head ? (const char *)head : "");
	sqlite3_finalize(st);
}

static void
fail(const char *what, const char *script_line, const json_t *a, const json_t *b)
{
	char *ta = a ? json_dumps(a, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
	char *tb = b ? json_dumps(b, JSON_SORT_KEYS | JSON_COMPACT) : NULL;

	fprintf(stderr, "fuzz_round: %s (at \"%s\")\n  %s\n  %s\n", what, script_line, ta ? ta : "-", tb ? tb : "-");
	free(ta);
	free(tb);
	abort();
}

/* json_equal, with two absent values equal. */
static bool
same(const json_t *a, const json_t *b)
{
	return (a == NULL && b == NULL) || json_equal(a, b);
}

/* The answer of a write and GET /rounds/{id} agree on what the contract promises. */
static void
check_against_get(struct pit *p, const struct actor *a, const json_t *answer, const char *line)
{
	static const char *const KEYS[] = {"id", "table", "state", "bets", "hands", "decisions", "payouts", "dealer", "totals"};
	const json_t *r = json_object_get(answer, "round");
	json_t *got = NULL;
	const json_t *g;
	struct pb_error err;
	int64_t id;

	if (!json_is_object(r) || !json_is_integer(json_object_get(r, "id")))
		fail("an accepted write did not answer a round", line, answer, NULL);
	id = json_integer_value(json_object_get(r, "id"));
	if (pit_round_get(p, a, id, &got, &err) < 0) {
		if (err.status == 403)
			return; /* the reader may not read it (not the case for the demo tokens) */
		fail(err.message, line, answer, NULL);
	}
	g = json_object_get(got, "round");
	for (size_t i = 0; i < sizeof(KEYS) / sizeof(KEYS[0]); i++)
		if (!same(json_object_get(r, KEYS[i]), json_object_get(g, KEYS[i]))) {
			char what[96];
			snprintf(what, sizeof(what), "the answer and GET of the round differ in \"%s\"", KEYS[i]);
			fail(what, line, json_object_get(r, KEYS[i]), json_object_get(g, KEYS[i]));
		}

	if (strcmp(json_string_value(json_object_get(g, "state")), "settled") == 0 ||
	    strcmp(json_string_value(json_object_get(g, "state")), "void") == 0) {
		json_t *v = NULL, *pl = json_object_get(g, "payouts"), *tot = json_object_get(g, "totals"), *l;
		json_int_t sum = 0;
		size_t i;

		if (pit_round_verify(p, a, id, &v, &err) < 0)
			fail(err.message, line, g, NULL);
		if (!json_is_true(json_object_get(v, "ok")))
			fail("a finished round does not verify", line, v, g);
		json_decref(v);
		json_array_foreach(pl, i, l)
			sum += json_integer_value(json_object_get(l, "net"));
		if (!json_is_object(tot) || json_integer_value(json_object_get(tot, "players_net")) != sum)
			fail("the payout lines do not add up to the players' net", line, tot, pl);
	}
	json_decref(got);
}

static void
check_refusal(const struct pb_error *err, const struct record_state *before, struct store *s, const char *line)
{
	struct record_state after;

	if (err->status < 400 || err->status > 499 || err->code[0] == '\0' || err->message[0] == '\0') {
		fprintf(stderr, "fuzz_round: a refusal that is not a 4xx with a code and message: %d %s %s (at \"%s\")\n",
		    err->status, err->code, err->message, line);
		abort();
	}
	record_state(s, &after);
	if (memcmp(before, &after, sizeof(after)) != 0) {
		fprintf(stderr, "fuzz_round: refused (%d %s: %s) but the record changed (at \"%s\")\n", err->status, err->code,
		    err->message, line);
		abort();
	}
}

struct request {
	char verb[16];
	char arg[40];
	bool idem;
	const char *body;
	size_t body_len;
	char line[80];
};

/* Splits the next request off the script; returns false at the end. */
static bool
next_request(const char **pos, const char *end, struct request *rq)
{
	const char *p = *pos, *nl, *body_end;
	size_t n;

	while (p < end && !(*p == '@' && (p == *pos || p[-1] == '\n'))) {
		const char *q = memchr(p, '\n', (size_t)(end - p));
		p = q ? q + 1 : end;
	}
	if (p >= end)
		return false;
	nl = memchr(p, '\n', (size_t)(end - p));
	if (nl == NULL)
		nl = end;
	n = (size_t)(nl - p) < sizeof(rq->line) - 1 ? (size_t)(nl - p) : sizeof(rq->line) - 1;
	memcpy(rq->line, p, n);
	rq->line[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (rq->line[i] == '\0' || rq->line[i] == '\r')
			rq->line[i] = ' ';
	memset(rq->verb, 0, sizeof(rq->verb));
	memset(rq->arg, 0, sizeof(rq->arg));
	sscanf(rq->line + 1, "%15s %39s", rq->verb, rq->arg);
	n = strlen(rq->verb);
	rq->idem = n > 0 && rq->verb[n - 1] == '!';
	if (rq->idem)
		rq->verb[n - 1] = '\0';
	rq->body = nl < end ? nl + 1 : end;
	body_end = rq->body;
	while (body_end < end && !(*body_end == '@' && body_end[-1] == '\n')) {
		const char *q = memchr(body_end, '\n', (size_t)(end - body_end));
		body_end = q ? q + 1 : end;
	}
	rq->body_len = (size_t)(body_end - rq->body);
	*pos = body_end;
	return true;
}

static json_t *
parse_body(const struct request *rq)
{
	size_t i;

	for (i = 0; i < rq->body_len && isspace((unsigned char)rq->body[i]); i++)
		;
	if (i == rq->body_len)
		return json_object();
	return json_loadb(rq->body, rq->body_len, JSON_REJECT_DUPLICATES, NULL);
}

static const struct {
	const char *verb;
	enum round_step step;
} STEPS[] = {
	{"put", STEP_BET_PUT}, {"del", STEP_BET_DELETE}, {"close", STEP_CLOSE}, {"deal", STEP_DEAL},
	{"decide", STEP_DECIDE}, {"reveal", STEP_REVEAL}, {"settle", STEP_SETTLE}, {"void", STEP_VOID},
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pit pit = {0};
	struct actor actor = {0};
	struct pb_error err;
	const char *pos = (const char *)data, *end = (const char *)data + size;
	struct request rq;
	int64_t round_id = 0;
	int requests = 0, keys = 0;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	reset_database();
	pit.store = store;
	pit.cfg = cfg;
	pit.signer = NULL;
	actor.name = "demo-dealer";
	actor.roles = ROLE_BIT(ROLE_DEALER);
	actor.token = demo_token("demo-dealer");

	while (requests++ < FUZZ_MAX_REQUESTS && next_request(&pos, end, &rq)) {
		struct idempotency idem = {0};
		struct record_state before, after;
		json_t *body, *out = NULL, *out2 = NULL;
		int status = 0, status2 = 0, rc, rc2;
		bool known = false;
		enum round_step step = STEP_CLOSE;
		char key[32];

		if (strcmp(rq.verb, "as") == 0) {
			static const char *const ROLES[] = {"dealer", "pitboss", "auditor", "admin"};
			for (int r = 0; r <= ROLE_ADMIN; r++)
				if (strcmp(rq.arg, ROLES[r]) == 0) {
					char secret[32];
					snprintf(secret, sizeof(secret), "demo-%s", ROLES[r]);
					actor.name = demo_token(secret)->name;
					actor.roles = ROLE_BIT((enum role)r);
					actor.token = demo_token(secret);
				}
			continue;
		}
		if (strcmp(rq.verb, "round") == 0) {
			round_id = strtoll(rq.arg, NULL, 10);
			continue;
		}
		body = parse_body(&rq);
		if (body == NULL)
			continue;
		if (rq.idem) {
			snprintf(key, sizeof(key), "fuzz-key-%d", keys++);
			idem.key = key;
			pb_sha256_hex(rq.body, rq.body_len, idem.request_hash);
		}
		record_state(store, &before);
		memset(&err, 0, sizeof(err));
		if (strcmp(rq.verb, "open") == 0) {
			known = true;
			rc = pit_round_open(&pit, &actor, rq.idem ? &idem : NULL, rq.arg[0] ? rq.arg : "T1", body, &out, &status, &err);
		} else {
			for (size_t i = 0; i < sizeof(STEPS) / sizeof(STEPS[0]); i++)
				if (strcmp(rq.verb, STEPS[i].verb) == 0) {
					known = true;
					step = STEPS[i].step;
				}
			rc = known ? pit_round_step(&pit, &actor, rq.idem ? &idem : NULL, round_id, step, atoi(rq.arg), body, &out,
			    &status, &err) : -1;
		}
		if (!known) {
			json_decref(body);
			continue;
		}
		if (rc < 0) {
			if (out != NULL)
				fail("a refused write left an answer", rq.line, out, NULL);
			check_refusal(&err, &before, store, rq.line);
		} else {
			if (out == NULL || (status != 200 && status != 201))
				fail("an accepted write without an answer or with an odd status", rq.line, out, NULL);
			if (strcmp(rq.verb, "open") == 0)
				round_id = json_integer_value(json_object_get(json_object_get(out, "round"), "id"));
			check_against_get(&pit, &actor, out, rq.line);
		}
		if (rq.idem) {
			/* The retry of a lost answer: the same key, the same request. */
			record_state(store, &before);
			memset(&err, 0, sizeof(err));
			if (strcmp(rq.verb, "open") == 0)
				rc2 = pit_round_open(&pit, &actor, &idem, rq.arg[0] ? rq.arg : "T1", body, &out2, &status2, &err);
			else
				rc2 = pit_round_step(&pit, &actor, &idem, round_id, step, atoi(rq.arg), body, &out2, &status2, &err);
			record_state(store, &after);
			if (rc == 0 && (rc2 != 0 || status2 != status || !same(out, out2)))
				fail("the retry with the same Idempotency-Key answered differently", rq.line, out, out2);
			if (memcmp(&before, &after, sizeof(after)) != 0)
				fail("the retry with the same Idempotency-Key recorded something", rq.line, out, out2);
			json_decref(out2);
		}
		json_decref(out);
		json_decref(body);
	}
	return 0;
}
