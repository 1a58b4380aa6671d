/*
 * bench_http.c - pitbossd over HTTP, each figure next to its anchor:
 *
 *   (a) whole rounds per second (POST /api/v1/tables/{t}/rounds with the
 *       whole round), first from one keep-alive connection, then from K;
 *   (b) the anchor: raw SQLite inserting the same rows a whole round writes
 *       (round, bets, hands with the dealer's, decisions, payout lines,
 *       hash-chained events, the report aggregate) with the same schema and
 *       pragmas (WAL, synchronous=FULL), one BEGIN IMMEDIATE transaction per
 *       round, one connection; (a) with K connections and (b) run in
 *       alternating slices and are compared over the sum of the slices;
 *   (b') the raw writer from K connections, waiting for the write lock in
 *       SQLite's busy handler (as pitbossd's workers do), then on a mutex;
 *   (a') (a) with an Idempotency-Key on every request;
 *   (c) rounds played step by step by 8 dealer terminals at 8 tables
 *       (8 threads, one connection each): rounds/s and per-request latency;
 *   (d) GET requests per second on a report (and on game recall, and on
 *       /health) against a trivial libmicrohttpd server in this process with
 *       pitbossd's thread-pool settings (4 threads, epoll), by wrk when it
 *       is installed, else by our own keep-alive loop;
 *   (e) pitbossd's resident memory (VmRSS, VmHWM) after all that.
 *
 * usage: bench_http [--smoke] [--pitbossd PATH] [--rounds N] [--clients K]
 *                   [--step-rounds M] [--get-seconds S] [--no-wrk] [--whole-only] [--keep]
 *   The daemon is PATH, else $PB_BUILD_DIR/pitbossd, else ../pitbossd next
 *   to this binary.  It runs on a free loopback port with a temporary
 *   configuration (8 house tables T1..T8) and database, removed at the end
 *   unless --keep.  --smoke: a few rounds and one-second GET runs (ctest).
 *   --whole-only: (a) and (b) only, for profiling the write path.
 * bench_http --wrk-seconds S [--pairs P]: only the figure users feel, whole
 *   rounds/s under wrk (-t2 -c8 -dS, one 6-seat round posted to T1 by
 *   tests/bench/wrk_round.lua, the rounds counted in the database, every
 *   answer checked to be 201) against the raw SQLite anchor writing the same
 *   round's rows and against the fixed anchor (one transaction of 40 small
 *   rows into one rowid table, one connection, WAL, synchronous=FULL), P
 *   alternating triples (3 unless given; each ratio the median of the
 *   pairs), and pitbossd's CPU (user+system, /proc/PID/stat) per round
 *   recorded.  Exit status 77
 *   (ctest's skip) when wrk is not installed.
 * Exit status: 0 when every request got the answer intended and the daemon
 * stopped cleanly; 1 otherwise.  Missing a goal is reported, not failed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"
#include "cli/http_client.h"
#include "common/hash.h"
#include "common/timeutil.h"
#include "engine/hand3.h"
#include "engine/limits.h"
#include "engine/rules.h"
#include "store/store.h"

#define BENCH_TABLES 8
#define BODY_MAX 2048
#define MAX_CLIENTS 64
#define TRIVIAL_JSON "{\"status\":\"ok\"}\n"

struct options {
	const char *pitbossd;
	bool smoke;
	bool keep;
	bool no_wrk;
	bool whole_only;
	int rounds;          /* (a) and (b) */
	int clients;         /* (a) */
	int step_rounds;     /* (c), per terminal */
	double get_seconds;  /* (d), per endpoint */
	double phase_max;    /* every phase stops after this many seconds */
	int wrk_seconds;     /* --wrk-seconds: whole rounds under wrk against raw SQLite, only */
	int pairs;           /* --pairs: alternating pitbossd/anchor pairs of --wrk-seconds */
};

/* One line of the final table. */
struct row {
	char figure[64];
	char value[48];
	char anchor[48];
	char ratio[16];
	char goal[24];
};

static struct row rows[24];
static int nrows;
static atomic_int failures;

/* Adds a line to the final table; ratio <= 0 prints "-". */
static void
add_row(const char *figure, const char *value, const char *anchor, double ratio, const char *goal)
{
	struct row *r;

	if (nrows == (int)(sizeof(rows) / sizeof(rows[0])))
		return;
	r = &rows[nrows++];
	snprintf(r->figure, sizeof(r->figure), "%s", figure);
	snprintf(r->value, sizeof(r->value), "%s", value);
	snprintf(r->anchor, sizeof(r->anchor), "%s", anchor ? anchor : "-");
	if (ratio > 0)
		snprintf(r->ratio, sizeof(r->ratio), ratio < 0.1 ? "%.3f" : "%.2f", ratio);
	else
		snprintf(r->ratio, sizeof(r->ratio), "-");
	snprintf(r->goal, sizeof(r->goal), "%s", goal ? goal : "-");
}

/* Reports a failure on stderr and counts it: the exit status is 1 when any was counted. */
static void
fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "bench_http: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	atomic_fetch_add(&failures, 1);
}

/* What timed runs did, summed over slices: rounds, seconds, CPU, latencies (ms). */
struct series {
	int done;
	double seconds;
	double cpu_ms;          /* CPU per round, weighted by rounds (raw runs) */
	double *lat;
	size_t nlat, cap;
};

/* Records one latency (ms); silently drops it when out of memory. */
static void
series_add(struct series *s, double ms)
{
	if (s->nlat == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		double *nl = realloc(s->lat, cap * sizeof(double));
		if (nl == NULL)
			return;
		s->lat = nl;
		s->cap = cap;
	}
	s->lat[s->nlat++] = ms;
}

/* The p-th percentile of the latencies recorded from index `from` on (the array is reordered there). */
static double
series_percentile(struct series *s, size_t from, double p)
{
	return from < s->nlat ? bench_percentile(s->lat + from, s->nlat - from, p) : 0;
}

/* Rounds per second over everything recorded. */
static double
series_rate(const struct series *s)
{
	return s->seconds > 0 ? s->done / s->seconds : 0;
}

/* ---- (a) whole rounds over HTTP ---- */

struct whole_run {
	const char *url;
	char **bodies;
	int n;
	bool idempotency;
	double deadline;
	atomic_int next;
	atomic_int done;
	atomic_int errors;
	double *latency;     /* by round index; 0 = not sent */
};

/* One keep-alive connection posting whole rounds until none is left. */
static void *
whole_worker(void *arg)
{
	struct whole_run *w = arg;
	struct pb_error err;
	struct http_client *c = http_client_new(w->url, BENCH_DEALER_TOKEN, &err);
	char path[64], key[64];
	int i;

	if (c == NULL) {
		atomic_fetch_add(&w->errors, 1);
		return NULL;
	}
	while ((i = atomic_fetch_add(&w->next, 1)) < w->n && bench_now() < w->deadline) {
		struct http_response resp = {0};
		double t0 = bench_now();
		int table = i % BENCH_TABLES;

		snprintf(path, sizeof(path), "/api/v1/tables/T%d/rounds", table + 1);
		snprintf(key, sizeof(key), "bench-whole-%d-%lld", i, (long long)(t0 * 1e6));
		if (http_request(c, "POST", path, w->bodies[i], w->idempotency ? key : NULL, &resp, &err) < 0) {
			fail("POST %s: %s", path, err.message);
			atomic_fetch_add(&w->errors, 1);
			continue;
		}
		w->latency[i] = bench_now() - t0;
		if (resp.status != 201) {
			if (atomic_fetch_add(&w->errors, 1) < 5)
				fail("POST %s: %d %.300s", path, resp.status, resp.body);
		} else {
			atomic_fetch_add(&w->done, 1);
		}
		http_response_free(&resp);
	}
	http_client_free(c);
	return NULL;
}

/* Posts n whole rounds from k connections; adds what was done to acc. */
static int
run_whole(const char *url, char **bodies, int n, int k, bool idempotency, double max_s, struct series *acc)
{
	struct whole_run w;
	pthread_t th[MAX_CLIENTS];
	double t0, elapsed;
	size_t first = acc->nlat;

	memset(&w, 0, sizeof(w));
	w.url = url;
	w.bodies = bodies;
	w.n = n;
	w.idempotency = idempotency;
	w.latency = calloc((size_t)n, sizeof(double));
	if (w.latency == NULL)
		return -1;
	t0 = bench_now();
	w.deadline = t0 + max_s;
	for (int i = 0; i < k; i++)
		pthread_create(&th[i], NULL, whole_worker, &w);
	for (int i = 0; i < k; i++)
		pthread_join(th[i], NULL);
	elapsed = bench_now() - t0;
	for (int i = 0; i < n; i++)
		if (w.latency[i] > 0)
			series_add(acc, w.latency[i] * 1e3);
	acc->done += atomic_load(&w.done);
	acc->seconds += elapsed;
	printf("  %d whole rounds from %d connection(s)%s in %.2f s: %.1f rounds/s, latency ms p50 %.2f p99 %.2f, %d errors\n",
	    atomic_load(&w.done), k, idempotency ? " with Idempotency-Key" : "", elapsed, atomic_load(&w.done) / elapsed,
	    series_percentile(acc, first, 50), series_percentile(acc, first, 99), atomic_load(&w.errors));
	free(w.latency);
	return atomic_load(&w.errors) == 0 ? 0 : -1;
}

/* A counter of pitbossd's /metrics (the pitboss token), or 0 when it is not there. */
static double
metric_value(const char *url, const char *name)
{
	struct pb_error err;
	struct http_client *c = http_client_new(url, BENCH_PITBOSS_TOKEN, &err);
	struct http_response resp = {0};
	double v = 0;
	size_t n = strlen(name);

	if (c == NULL)
		return 0;
	if (http_request(c, "GET", "/metrics", NULL, NULL, &resp, &err) == 0 && resp.status == 200 && resp.body != NULL) {
		for (const char *line = resp.body; line != NULL && *line != '\0'; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
			if (strncmp(line, name, n) == 0 && line[n] == ' ')
				v = strtod(line + n + 1, NULL);
	}
	http_response_free(&resp);
	http_client_free(c);
	return v;
}

/* ---- (b) the raw SQLite anchor ---- */

/* What a whole round writes, prepared before the clock starts. */
struct raw_round {
	const struct bench_round *rd;
	struct settlement set;
	int64_t round_no;
	int nevents;
	const char *type[2 * MAX_SEATS + 4];
	char *body[2 * MAX_SEATS + 4];
};

/* Canonical JSON text of j (sorted keys, compact, ASCII), consuming j. */
static char *
dump(json_t *j)
{
	char *s = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENSURE_ASCII);

	json_decref(j);
	return s;
}

/* ["As","Kd","Qh"] as a JSON array. */
static json_t *
cards_json(const card_t c[3])
{
	char a[3], b[3], d[3];

	card_format(c[0], a);
	card_format(c[1], b);
	card_format(c[2], d);
	return json_pack("[s,s,s]", a, b, d);
}

/* The events of a whole round, with bodies shaped as the daemon's (table/rounds/round.c). */
static void
raw_events(struct raw_round *rr, const struct rules *rules, const struct table_limits *limits)
{
	const struct bench_round *rd = rr->rd;
	json_t *hands = json_object(), *payouts = json_array();
	char key[8];
	int n = 0;

	rr->type[n] = "round_opened";
	rr->body[n++] = dump(json_pack("{s:I,s:i,s:s,s:o,s:o}", "round_no", (json_int_t)rr->round_no, "seats", BENCH_SEATS,
	    "banking", "house", "rules", rules_to_json(rules), "limits", limits_to_json(limits)));
	for (int i = 0; i < rd->nseats; i++) {
		int s = rd->seat[i];
		rr->type[n] = "bet_placed";
		rr->body[n++] = dump(json_pack("{s:i,s:I,s:I,s:I}", "seat", s, "ante", (json_int_t)rd->bet[s].ante,
		    "pair_plus", (json_int_t)rd->bet[s].pair_plus, "six_card", (json_int_t)rd->bet[s].six_card));
	}
	rr->type[n] = "betting_closed";
	rr->body[n++] = dump(json_object());
	for (int i = 0; i < rd->nseats; i++) {
		snprintf(key, sizeof(key), "%d", rd->seat[i]);
		json_object_set_new(hands, key, cards_json(rd->hand[rd->seat[i]]));
	}
	rr->type[n] = "cards_dealt";
	rr->body[n++] = dump(json_pack("{s:o,s:o}", "hands", hands, "dealer", cards_json(rd->hand[0])));
	for (int i = 0; i < rd->nseats; i++) {
		rr->type[n] = "decision";
		rr->body[n++] = dump(json_pack("{s:i,s:s}", "seat", rd->seat[i], "action", decision_name(rd->decision[rd->seat[i]])));
	}
	for (int i = 0; i < rr->set.line_count; i++) {
		const struct payout_line *l = &rr->set.lines[i];
		json_array_append_new(payouts, json_pack("{s:i,s:i,s:s,s:I,s:s,s:I}", "seq", l->seq, "seat", l->seat,
		    "wager", wager_name(l->wager), "stake", (json_int_t)l->stake, "result", result_name(l->result),
		    "net", (json_int_t)l->net));
	}
	rr->type[n] = "round_settled";
	rr->body[n++] = dump(json_pack("{s:b,s:I,s:o}", "dealer_qualifies", rr->set.dealer_qualifies,
	    "players_net", (json_int_t)rr->set.players_net, "payouts", payouts));
	rr->nevents = n;
}

static const char *const RAW_SQL[] = {
	"INSERT INTO rounds (table_id, round_no, state, rules_id, limits_json, seats, banking, opened_at, opened_by, "
	"closed_at, settled_at, dealer_qualifies, players_net) VALUES (?, ?, 'settled', ?, ?, ?, 'house', ?, ?, ?, ?, ?, ?)",
	/* bets, hands and decisions: the rowid round_id * 16 + seat (schema 023) */
	"INSERT INTO bets (round_id, seat, ante, pair_plus, six_card, placed_at, placed_by, id) "
	"VALUES (?, ?, ?, ?, ?, ?, ?, ?1 * 16 + ?2)",
	"INSERT INTO hands (round_id, seat, cards, hand, dealt_at, id) VALUES (?, ?, ?, ?, ?, ?1 * 16 + ?2)",
	"INSERT INTO decisions (round_id, seat, action, decided_at, decided_by, id) VALUES (?, ?, ?, ?, ?, ?1 * 16 + ?2)",
	/* payouts: the rowid round_id * 64 + seq (schema 025) */
	"INSERT INTO payouts (round_id, seq, seat, wager, stake, result, net, id) VALUES (?, ?, ?, ?, ?, ?, ?, ?1 * 64 + ?2)",
	"INSERT INTO events (table_id, table_seq, round_id, type, at, actor, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
	/* the same upsert as daemon/store/aggregates.c */
	"INSERT INTO report_hours (table_id, hour, dealer, rules_id, rounds, voids, hands, "
	"handle_ante, handle_play, handle_pair_plus, handle_six_card, "
	"win_ante, win_play, win_pair_plus, win_six_card, win_ante_bonus, "
	"lines_ante, lines_play, lines_pair_plus, lines_six_card, lines_ante_bonus, first_ms, last_ms) "
	"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
	"ON CONFLICT (table_id, hour, dealer, rules_id) DO UPDATE SET "
	"rounds = rounds + excluded.rounds, voids = voids + excluded.voids, hands = hands + excluded.hands, "
	"handle_ante = handle_ante + excluded.handle_ante, handle_play = handle_play + excluded.handle_play, "
	"handle_pair_plus = handle_pair_plus + excluded.handle_pair_plus, "
	"handle_six_card = handle_six_card + excluded.handle_six_card, "
	"win_ante = win_ante + excluded.win_ante, win_play = win_play + excluded.win_play, "
	"win_pair_plus = win_pair_plus + excluded.win_pair_plus, win_six_card = win_six_card + excluded.win_six_card, "
	"win_ante_bonus = win_ante_bonus + excluded.win_ante_bonus, "
	"lines_ante = lines_ante + excluded.lines_ante, lines_play = lines_play + excluded.lines_play, "
	"lines_pair_plus = lines_pair_plus + excluded.lines_pair_plus, "
	"lines_six_card = lines_six_card + excluded.lines_six_card, "
	"lines_ante_bonus = lines_ante_bonus + excluded.lines_ante_bonus, "
	"first_ms = min(first_ms, excluded.first_ms), last_ms = max(last_ms, excluded.last_ms)",
};

enum { Q_ROUND, Q_BET, Q_HAND, Q_DECISION, Q_PAYOUT, Q_EVENT, Q_AGGREGATE, Q_COUNT };

/* Runs SQL without results; reports and returns -1 on failure. */
static int
exec_ok(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fail("raw: %s: %s", sql, msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* Steps a statement that returns no row, then resets it and clears its bindings. */
static int
step_ok(sqlite3 *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE) {
		fail("raw: %s", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

/* Writes one round in one transaction; chain heads (seq, hash) per table are kept in memory. */
static int
raw_write(sqlite3 *db, sqlite3_stmt **q, const struct raw_round *rr, const char *limits_text, int64_t rules_id,
    int64_t *seq, char (*head)[PB_SHA256_HEX_LEN])
{
	const struct bench_round *rd = rr->rd;
	int64_t handle[WAGER_COUNT] = {0}, win[WAGER_COUNT] = {0}, lines[WAGER_COUNT] = {0};
	int64_t ms = pb_time_now_ms(), id;
	char at[PB_TIME_LEN], table[8], cards[7];
	int t = rd->table, col;

	pb_time_format_ms(ms, at);
	snprintf(table, sizeof(table), "T%d", t + 1);
	if (exec_ok(db, "BEGIN IMMEDIATE") < 0)
		return -1;
	sqlite3_bind_text(q[Q_ROUND], 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q[Q_ROUND], 2, rr->round_no);
	sqlite3_bind_int64(q[Q_ROUND], 3, rules_id);
	sqlite3_bind_text(q[Q_ROUND], 4, limits_text, -1, SQLITE_STATIC);
	sqlite3_bind_int(q[Q_ROUND], 5, BENCH_SEATS);
	for (int c = 6; c <= 9; c++)
		sqlite3_bind_text(q[Q_ROUND], c, c == 7 ? BENCH_DEALER_NAME : at, -1, SQLITE_STATIC);
	sqlite3_bind_int(q[Q_ROUND], 10, rr->set.dealer_qualifies);
	sqlite3_bind_int64(q[Q_ROUND], 11, rr->set.players_net);
	if (step_ok(db, q[Q_ROUND]) < 0)
		goto fail;
	id = sqlite3_last_insert_rowid(db);
	for (int i = 0; i < rd->nseats; i++) {
		int s = rd->seat[i];
		sqlite3_bind_int64(q[Q_BET], 1, id);
		sqlite3_bind_int(q[Q_BET], 2, s);
		sqlite3_bind_int64(q[Q_BET], 3, rd->bet[s].ante);
		sqlite3_bind_int64(q[Q_BET], 4, rd->bet[s].pair_plus);
		sqlite3_bind_int64(q[Q_BET], 5, rd->bet[s].six_card);
		sqlite3_bind_text(q[Q_BET], 6, at, -1, SQLITE_STATIC);
		sqlite3_bind_text(q[Q_BET], 7, BENCH_DEALER_NAME, -1, SQLITE_STATIC);
		if (step_ok(db, q[Q_BET]) < 0)
			goto fail;
	}
	for (int i = -1; i < rd->nseats; i++) {
		int s = i < 0 ? 0 : rd->seat[i];
		for (int k = 0; k < 3; k++)
			card_format(rd->hand[s][k], cards + 2 * k);
		sqlite3_bind_int64(q[Q_HAND], 1, id);
		sqlite3_bind_int(q[Q_HAND], 2, s);
		sqlite3_bind_text(q[Q_HAND], 3, cards, 6, SQLITE_TRANSIENT);
		sqlite3_bind_text(q[Q_HAND], 4, hand3_category_name(HAND3_CATEGORY(hand3_value(rd->hand[s]))), -1, SQLITE_STATIC);
		sqlite3_bind_text(q[Q_HAND], 5, at, -1, SQLITE_STATIC);
		if (step_ok(db, q[Q_HAND]) < 0)
			goto fail;
	}
	for (int i = 0; i < rd->nseats; i++) {
		int s = rd->seat[i];
		sqlite3_bind_int64(q[Q_DECISION], 1, id);
		sqlite3_bind_int(q[Q_DECISION], 2, s);
		sqlite3_bind_text(q[Q_DECISION], 3, decision_name(rd->decision[s]), -1, SQLITE_STATIC);
		sqlite3_bind_text(q[Q_DECISION], 4, at, -1, SQLITE_STATIC);
		sqlite3_bind_text(q[Q_DECISION], 5, BENCH_DEALER_NAME, -1, SQLITE_STATIC);
		if (step_ok(db, q[Q_DECISION]) < 0)
			goto fail;
	}
	for (int i = 0; i < rr->set.line_count; i++) {
		const struct payout_line *l = &rr->set.lines[i];
		sqlite3_bind_int64(q[Q_PAYOUT], 1, id);
		sqlite3_bind_int(q[Q_PAYOUT], 2, l->seq);
		sqlite3_bind_int(q[Q_PAYOUT], 3, l->seat);
		sqlite3_bind_text(q[Q_PAYOUT], 4, wager_name(l->wager), -1, SQLITE_STATIC);
		sqlite3_bind_int64(q[Q_PAYOUT], 5, l->stake);
		sqlite3_bind_text(q[Q_PAYOUT], 6, result_name(l->result), -1, SQLITE_STATIC);
		sqlite3_bind_int64(q[Q_PAYOUT], 7, l->net);
		if (step_ok(db, q[Q_PAYOUT]) < 0)
			goto fail;
		win[l->wager] -= l->net;
		if (l->result != RESULT_RETURNED) {
			lines[l->wager]++;
			if (l->wager != WAGER_ANTE_BONUS)
				handle[l->wager] += l->stake;
		}
	}
	for (int e = 0; e < rr->nevents; e++) {
		char hash[PB_SHA256_HEX_LEN];
		size_t len;
		char *canon = store_event_canonical(table, seq[t] + 1, id, rr->type[e], at, BENCH_DEALER_NAME, rr->body[e], &len);

		if (canon == NULL)
			goto fail;
		store_event_hash(head[t], canon, len, hash);
		free(canon);
		sqlite3_bind_text(q[Q_EVENT], 1, table, -1, SQLITE_STATIC);
		sqlite3_bind_int64(q[Q_EVENT], 2, seq[t] + 1);
		sqlite3_bind_int64(q[Q_EVENT], 3, id);
		sqlite3_bind_text(q[Q_EVENT], 4, rr->type[e], -1, SQLITE_STATIC);
		sqlite3_bind_text(q[Q_EVENT], 5, at, -1, SQLITE_STATIC);
		sqlite3_bind_text(q[Q_EVENT], 6, BENCH_DEALER_NAME, -1, SQLITE_STATIC);
		sqlite3_bind_text(q[Q_EVENT], 7, rr->body[e], -1, SQLITE_STATIC);
		sqlite3_bind_text(q[Q_EVENT], 8, head[t], -1, SQLITE_STATIC);
		sqlite3_bind_text(q[Q_EVENT], 9, hash, -1, SQLITE_TRANSIENT);
		if (step_ok(db, q[Q_EVENT]) < 0)
			goto fail;
		seq[t]++;
		memcpy(head[t], hash, sizeof(hash));
	}
	sqlite3_bind_text(q[Q_AGGREGATE], 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q[Q_AGGREGATE], 2, ms / 3600000 * 3600);
	sqlite3_bind_text(q[Q_AGGREGATE], 3, BENCH_DEALER_NAME, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q[Q_AGGREGATE], 4, rules_id);
	sqlite3_bind_int64(q[Q_AGGREGATE], 5, 1);
	sqlite3_bind_int64(q[Q_AGGREGATE], 6, 0);
	sqlite3_bind_int64(q[Q_AGGREGATE], 7, rd->nseats);
	col = 8;
	for (int w = WAGER_ANTE; w <= WAGER_SIX_CARD; w++)
		sqlite3_bind_int64(q[Q_AGGREGATE], col++, handle[w]);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		sqlite3_bind_int64(q[Q_AGGREGATE], col++, win[w]);
	for (int w = WAGER_ANTE; w < WAGER_COUNT; w++)
		sqlite3_bind_int64(q[Q_AGGREGATE], col++, lines[w]);
	sqlite3_bind_int64(q[Q_AGGREGATE], col++, ms);
	sqlite3_bind_int64(q[Q_AGGREGATE], col, ms);
	if (step_ok(db, q[Q_AGGREGATE]) < 0)
		goto fail;
	return exec_ok(db, "COMMIT");
fail:
	exec_ok(db, "ROLLBACK");
	return -1;
}

/* Loads config/games/standard.json. */
static int
standard_rules(struct rules *out)
{
	char path[4300];
	json_error_t jerr;
	json_t *j;
	struct pb_error err;
	int rc;

	snprintf(path, sizeof(path), "%s/standard.json", bench_games_dir());
	j = json_load_file(path, 0, &jerr);
	if (j == NULL) {
		fail("%s: %s", path, jerr.text);
		return -1;
	}
	rc = rules_from_json(j, out, &err);
	json_decref(j);
	if (rc < 0)
		fail("%s: %s", path, err.message);
	return rc;
}

/* What the writers of one raw run share. */
struct raw_run {
	const char *path;
	struct raw_round *rr;
	int n;
	const char *limits_text;
	int64_t rules_id;
	bool serialize;               /* writers take `lock` around each transaction */
	pthread_mutex_t lock;
	double deadline;
	atomic_int next;
	atomic_int done;
	atomic_int errors;
	double *latency;              /* by round index, ms: from asking for the lock to the end of COMMIT */
	/* Chain heads: only touched inside a write transaction, which SQLite serialises. */
	int64_t seq[BENCH_TABLES];
	char head[BENCH_TABLES][PB_SHA256_HEX_LEN];
};

/* One connection writing rounds until none is left (pitboss's pragmas and busy timeout). */
static void *
raw_writer(void *arg)
{
	struct raw_run *run = arg;
	sqlite3 *db = NULL;
	sqlite3_stmt *q[Q_COUNT] = {0};
	int i;

	if (sqlite3_open_v2(run->path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		goto fail;
	sqlite3_busy_timeout(db, 10000);
	if (exec_ok(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; "
	    "PRAGMA trusted_schema = OFF") < 0)
		goto fail;
	for (int k = 0; k < Q_COUNT; k++)
		if (sqlite3_prepare_v3(db, RAW_SQL[k], -1, SQLITE_PREPARE_PERSISTENT, &q[k], NULL) != SQLITE_OK) {
			fail("raw: preparing: %s", sqlite3_errmsg(db));
			goto fail;
		}
	while ((i = atomic_fetch_add(&run->next, 1)) < run->n && bench_now() < run->deadline) {
		double t0 = bench_now();
		int rc;

		if (run->serialize)
			pthread_mutex_lock(&run->lock);
		rc = raw_write(db, q, &run->rr[i], run->limits_text, run->rules_id, run->seq, run->head);
		if (run->serialize)
			pthread_mutex_unlock(&run->lock);
		if (rc < 0)
			goto fail;
		run->latency[i] = (bench_now() - t0) * 1e3;
		atomic_fetch_add(&run->done, 1);
	}
	goto out;
fail:
	atomic_fetch_add(&run->errors, 1);
out:
	for (int k = 0; k < Q_COUNT; k++)
		sqlite3_finalize(q[k]);
	sqlite3_close(db);
	return NULL;
}

/*
 * The anchor: a fresh database with pitboss's schema (migrated by
 * store_open, then closed), reopened with plain SQLite and the same pragmas,
 * and the same rows inserted per round in one transaction.  Rounds/s.
 * With conns > 1 the rounds are shared by that many connections, each in
 * its thread, waiting for the write lock in SQLite's busy handler (as
 * pitbossd's worker threads do) or, with serialize, on a mutex.
 */
static int
run_raw(const char *dir, int pass, const struct bench_round *rounds, int n, int conns, bool serialize, double max_s,
    struct series *acc)
{
	struct store_options so = {0};
	struct pb_error err;
	struct store *s;
	struct rules rules;
	struct table_limits limits;
	struct raw_run *run = calloc(1, sizeof(*run));
	pthread_t th[MAX_CLIENTS];
	sqlite3 *db = NULL;
	sqlite3_stmt *st;
	char path[4200], *rules_text = NULL, *limits_text = NULL, hash[PB_SHA256_HEX_LEN];
	int64_t round_no[BENCH_TABLES] = {0}, events = 0;
	json_t *lj;
	double t0, elapsed, cpu0, cpu_ms;
	int done;
	struct timespec ts;
	int rc = -1;

	if (run == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/raw-%d.db", dir, pass);
	so.path = path;
	so.synchronous = "FULL";
	s = store_open(&so, &err);
	if (s == NULL) {
		fail("raw: %s", err.message);
		goto out;
	}
	store_free(s);
	if (standard_rules(&rules) < 0)
		goto out;
	lj = json_loads("{\"ante\":{\"min\":500,\"max\":50000},\"pair_plus\":{\"min\":500,\"max\":10000},"
	    "\"six_card\":{\"min\":500,\"max\":2500}}", 0, NULL);
	if (lj == NULL || limits_from_json(lj, "limits", &limits, &err) < 0) {
		json_decref(lj);
		fail("raw: limits");
		goto out;
	}
	json_decref(lj);
	rules_text = dump(rules_to_json(&rules));
	limits_text = dump(limits_to_json(&limits));
	run->rr = calloc((size_t)n, sizeof(*run->rr));
	run->latency = calloc((size_t)n, sizeof(double));
	if (run->rr == NULL || run->latency == NULL || rules_text == NULL || limits_text == NULL)
		goto out;
	/* Everything but the writes is prepared before the clock starts. */
	for (int i = 0; i < n; i++) {
		struct round_input in;

		run->rr[i].rd = &rounds[i];
		run->rr[i].round_no = ++round_no[rounds[i].table];
		bench_round_input(&rounds[i], &rules, &in);
		if (settle_round(&in, &run->rr[i].set, &err) < 0) {
			fail("raw: round %d: %s", i, err.message);
			goto out;
		}
		raw_events(&run->rr[i], &rules, &limits);
	}
	for (int t = 0; t < BENCH_TABLES; t++) {
		memset(run->head[t], '0', 64);
		run->head[t][64] = '\0';
	}
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		goto out;
	pb_sha256_hex(rules_text, strlen(rules_text), hash);
	if (sqlite3_prepare_v2(db, "INSERT INTO rules_sets (sha256, rules_json) VALUES (?, ?)", -1, &st, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, rules_text, -1, SQLITE_STATIC);
	if (step_ok(db, st) < 0) {
		sqlite3_finalize(st);
		goto out;
	}
	sqlite3_finalize(st);
	run->rules_id = sqlite3_last_insert_rowid(db);
	sqlite3_close(db);
	db = NULL;

	run->path = path;
	run->n = n;
	run->limits_text = limits_text;
	run->serialize = serialize;
	pthread_mutex_init(&run->lock, NULL);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	cpu0 = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	t0 = bench_now();
	run->deadline = t0 + max_s;
	for (int i = 0; i < conns; i++)
		pthread_create(&th[i], NULL, raw_writer, run);
	for (int i = 0; i < conns; i++)
		pthread_join(th[i], NULL);
	elapsed = bench_now() - t0;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	pthread_mutex_destroy(&run->lock);
	done = atomic_load(&run->done);
	cpu_ms = ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9 - cpu0) * 1e3 / (done > 0 ? done : 1);
	acc->cpu_ms = (acc->cpu_ms * acc->done + cpu_ms * done) / (acc->done + done > 0 ? acc->done + done : 1);
	acc->done += done;
	acc->seconds += elapsed;
	for (int t = 0; t < BENCH_TABLES; t++)
		events += run->seq[t];
	{
		size_t from = acc->nlat;
		for (int i = 0; i < n; i++)
			if (run->latency[i] > 0)
				series_add(acc, run->latency[i]);
		printf("  raw SQLite pass %d, %d connection(s)%s: %d rounds in %.2f s: %.1f rounds/s, latency ms p50 %.2f p99 %.2f, "
		    "CPU %.3f ms a round (%lld events)\n", pass, conns,
		    conns == 1 ? "" : serialize ? ", writers serialised by a mutex" : ", waiting in SQLite's busy handler",
		    done, elapsed, done / elapsed, series_percentile(acc, from, 50), series_percentile(acc, from, 99), cpu_ms,
		    (long long)events);
	}
	rc = atomic_load(&run->errors) == 0 ? 0 : -1;
out:
	if (db != NULL)
		sqlite3_close(db);
	for (int i = 0; run->rr != NULL && i < n; i++)
		for (int e = 0; e < run->rr[i].nevents; e++)
			free(run->rr[i].body[e]);
	free(run->rr);
	free(run->latency);
	free(run);
	free(rules_text);
	free(limits_text);
	if (rc < 0)
		fail("raw: the anchor failed");
	return rc;
}

/* ---- (b'') the fixed anchor: a round as one transaction of 40 small rows ---- */

#define FIXED_ROWS 40

/*
 * The fixed anchor the issue measures ingest against, independent of
 * pitboss's schema: a fresh database holding one rowid table of a few
 * integers, one connection, WAL, synchronous=FULL, and for each "round"
 * BEGIN IMMEDIATE, FIXED_ROWS INSERTs of a small row, COMMIT, for max_s
 * seconds.  Adds the transactions and seconds to acc; 0, or -1 on failure.
 */
static int
run_fixed(const char *dir, int pass, double max_s, struct series *acc)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *ins = NULL;
	char path[4200];
	double t0, deadline, elapsed;
	int64_t row = 0;
	int done = 0, rc = -1;

	snprintf(path, sizeof(path), "%s/fixed-%d.db", dir, pass);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		fail("fixed anchor: %s: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
		goto out;
	}
	if (exec_ok(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; "
	    "CREATE TABLE rows_40 (id INTEGER PRIMARY KEY, round INTEGER NOT NULL, seq INTEGER NOT NULL, "
	    "kind INTEGER NOT NULL, amount INTEGER NOT NULL)") < 0)
		goto out;
	if (sqlite3_prepare_v3(db, "INSERT INTO rows_40 (round, seq, kind, amount) VALUES (?, ?, ?, ?)", -1,
	    SQLITE_PREPARE_PERSISTENT, &ins, NULL) != SQLITE_OK) {
		fail("fixed anchor: preparing: %s", sqlite3_errmsg(db));
		goto out;
	}
	t0 = bench_now();
	deadline = t0 + max_s;
	while (bench_now() < deadline) {
		if (exec_ok(db, "BEGIN IMMEDIATE") < 0)
			goto out;
		for (int k = 0; k < FIXED_ROWS; k++) {
			sqlite3_bind_int(ins, 1, done);
			sqlite3_bind_int(ins, 2, k);
			sqlite3_bind_int(ins, 3, k % 7);
			sqlite3_bind_int64(ins, 4, 500 * (int64_t)(k + 1) + row++ % 1000);
			if (step_ok(db, ins) < 0) {
				exec_ok(db, "ROLLBACK");
				goto out;
			}
		}
		if (exec_ok(db, "COMMIT") < 0)
			goto out;
		done++;
	}
	elapsed = bench_now() - t0;
	acc->done += done;
	acc->seconds += elapsed;
	printf("  fixed anchor pass %d: %d transactions of %d rows in %.2f s: %.1f tx/s\n", pass, done, FIXED_ROWS,
	    elapsed, done / elapsed);
	rc = 0;
out:
	sqlite3_finalize(ins);
	sqlite3_close(db);
	if (rc < 0)
		fail("the fixed anchor failed");
	return rc;
}

/* ---- (c) rounds step by step from 8 dealer terminals ---- */

struct steps_run {
	const char *url;
	int rounds;          /* per terminal */
	double deadline;
	atomic_int rounds_done;
	atomic_int errors;
};

struct steps_worker {
	struct steps_run *run;
	int table;
	double *lat;
	size_t nlat, caplat;
};

/* One request of a step-by-step round; its latency is recorded; returns the answer's JSON or NULL. */
static json_t *
step_request(struct steps_worker *w, struct http_client *c, const char *method, const char *path, const char *body,
    int want)
{
	struct http_response resp = {0};
	struct pb_error err;
	double t0 = bench_now();
	json_t *j = NULL;

	if (http_request(c, method, path, body, NULL, &resp, &err) < 0) {
		fail("%s %s: %s", method, path, err.message);
		atomic_fetch_add(&w->run->errors, 1);
		return NULL;
	}
	if (w->nlat == w->caplat) {
		size_t cap = w->caplat ? w->caplat * 2 : 1024;
		double *nl = realloc(w->lat, cap * sizeof(double));
		if (nl != NULL) {
			w->lat = nl;
			w->caplat = cap;
		}
	}
	if (w->nlat < w->caplat)
		w->lat[w->nlat++] = (bench_now() - t0) * 1e3;
	if (resp.status != want) {
		if (atomic_fetch_add(&w->run->errors, 1) < 5)
			fail("%s %s: %d %.300s", method, path, resp.status, resp.body);
	} else {
		j = json_loadb(resp.body, resp.len, 0, NULL);
	}
	http_response_free(&resp);
	return j;
}

/* A dealer terminal at one table: open, bets seat by seat, close, deal, decisions, settle. */
static void *
steps_worker(void *arg)
{
	struct steps_worker *w = arg;
	struct pb_error err;
	struct http_client *c = http_client_new(w->run->url, BENCH_DEALER_TOKEN, &err);
	struct bench_rng rng;
	char path[96], body[BODY_MAX];
	json_t *j;

	if (c == NULL) {
		atomic_fetch_add(&w->run->errors, 1);
		return NULL;
	}
	bench_rng_seed(&rng, 0xc0ffee + (uint64_t)w->table * 7919);
	for (int r = 0; r < w->run->rounds && bench_now() < w->run->deadline; r++) {
		struct bench_round rd;
		long long id;

		bench_round_plan(&rng, w->table, &rd);
		snprintf(path, sizeof(path), "/api/v1/tables/T%d/rounds", w->table + 1);
		if ((j = step_request(w, c, "POST", path, "{}", 201)) == NULL)
			break;
		id = (long long)json_integer_value(json_object_get(json_object_get(j, "round"), "id"));
		json_decref(j);
		for (int i = 0; i < rd.nseats; i++) {
			snprintf(path, sizeof(path), "/api/v1/rounds/%lld/bets/%d", id, rd.seat[i]);
			bench_bet_body(&rd, rd.seat[i], body, sizeof(body));
			if ((j = step_request(w, c, "PUT", path, body, 200)) == NULL)
				goto out;
			json_decref(j);
		}
		snprintf(path, sizeof(path), "/api/v1/rounds/%lld/close", id);
		if ((j = step_request(w, c, "POST", path, NULL, 200)) == NULL)
			break;
		json_decref(j);
		snprintf(path, sizeof(path), "/api/v1/rounds/%lld/deal", id);
		bench_deal_body(&rd, body, sizeof(body));
		if ((j = step_request(w, c, "POST", path, body, 200)) == NULL)
			break;
		json_decref(j);
		for (int i = 0; i < rd.nseats; i++) {
			snprintf(path, sizeof(path), "/api/v1/rounds/%lld/decisions", id);
			snprintf(body, sizeof(body), "{\"seat\":%d,\"action\":\"%s\"}", rd.seat[i], decision_name(rd.decision[rd.seat[i]]));
			if ((j = step_request(w, c, "POST", path, body, 200)) == NULL)
				goto out;
			json_decref(j);
		}
		snprintf(path, sizeof(path), "/api/v1/rounds/%lld/settle", id);
		if ((j = step_request(w, c, "POST", path, NULL, 200)) == NULL)
			break;
		json_decref(j);
		atomic_fetch_add(&w->run->rounds_done, 1);
	}
out:
	http_client_free(c);
	return NULL;
}

/* Eight dealer terminals, one table and one connection each, playing rounds step by step. */
static int
run_steps(const char *url, int terminals, int rounds, double max_s, double *rate, double *req_rate, double *p50,
    double *p99)
{
	struct steps_run run;
	struct steps_worker w[BENCH_TABLES];
	pthread_t th[BENCH_TABLES];
	double t0, elapsed, *all;
	size_t n = 0;

	memset(&run, 0, sizeof(run));
	memset(w, 0, sizeof(w));
	run.url = url;
	run.rounds = rounds;
	t0 = bench_now();
	run.deadline = t0 + max_s;
	for (int i = 0; i < terminals; i++) {
		w[i].run = &run;
		w[i].table = i;
		pthread_create(&th[i], NULL, steps_worker, &w[i]);
	}
	for (int i = 0; i < terminals; i++)
		pthread_join(th[i], NULL);
	elapsed = bench_now() - t0;
	for (int i = 0; i < terminals; i++)
		n += w[i].nlat;
	all = malloc((n + 1) * sizeof(double));
	if (all == NULL)
		return -1;
	n = 0;
	for (int i = 0; i < terminals; i++) {
		memcpy(all + n, w[i].lat, w[i].nlat * sizeof(double));
		n += w[i].nlat;
		free(w[i].lat);
	}
	*rate = atomic_load(&run.rounds_done) / elapsed;
	*req_rate = (double)n / elapsed;
	*p50 = bench_percentile(all, n, 50);
	*p99 = bench_percentile(all, n, 99);
	printf("  %d rounds step by step at %d tables in %.2f s: %.1f rounds/s, %zu requests (%.1f/s), "
	    "latency ms p50 %.2f p99 %.2f max %.2f, %d errors\n", atomic_load(&run.rounds_done), terminals, elapsed, *rate,
	    n, *req_rate, *p50, *p99, n ? all[n - 1] : 0.0, atomic_load(&run.errors));
	free(all);
	return atomic_load(&run.errors) == 0 ? 0 : -1;
}

/* ---- (d) GET throughput: wrk, or our own keep-alive loop ---- */

/* A fixed small JSON, answered on the last call as pitbossd does (keep-alive stays on). */
static enum MHD_Result
trivial_handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method, const char *version,
    const char *upload_data, size_t *upload_data_size, void **con_cls)
{
	static int marker;
	struct MHD_Response *resp;
	enum MHD_Result rc;

	(void)cls;
	(void)url;
	(void)method;
	(void)version;
	(void)upload_data;
	if (*con_cls == NULL) {
		*con_cls = &marker;
		return MHD_YES;
	}
	*upload_data_size = 0;
	resp = MHD_create_response_from_buffer(strlen(TRIVIAL_JSON), (void *)TRIVIAL_JSON, MHD_RESPMEM_PERSISTENT);
	if (resp == NULL)
		return MHD_NO;
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
	rc = MHD_queue_response(conn, MHD_HTTP_OK, resp);
	MHD_destroy_response(resp);
	return rc;
}

/* The trivial server, with pitbossd's settings (daemon/http/server.c and the config defaults). */
static struct MHD_Daemon *
trivial_start(int port)
{
	struct sockaddr_in sa;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG, (uint16_t)port,
	    NULL, NULL, trivial_handle, NULL,
	    MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
	    MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)4,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)512,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)512,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
	    MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)1,
	    MHD_OPTION_END);
}

struct get_result {
	double rps;
	double p50_ms;
	double p99_ms;
	long non2xx;
};

/* wrk's durations: "512.00us", "1.23ms", "2.00s". */
static double
wrk_ms(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (strncmp(end, "us", 2) == 0)
		return v / 1e3;
	if (strncmp(end, "ms", 2) == 0)
		return v;
	if (end[0] == 's')
		return v * 1e3;
	if (strncmp(end, "m", 1) == 0)
		return v * 60e3;
	return v;
}

/* The wrk binary on $PATH, or NULL. */
static const char *
wrk_path(void)
{
	static char path[4200];
	const char *p = getenv("PATH");

	while (p != NULL && *p) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		snprintf(path, sizeof(path), "%.*s/wrk", (int)n, p);
		if (access(path, X_OK) == 0)
			return path;
		p = e ? e + 1 : NULL;
	}
	return NULL;
}

/* Runs wrk (2 threads, conns connections) and reads requests/s, p50, p99 and non-2xx answers. */
static int
run_wrk(const char *wrk, const char *url, const char *token, double seconds, int conns, struct get_result *out)
{
	char cmd[1024], line[512];
	FILE *f;

	memset(out, 0, sizeof(*out));
	snprintf(cmd, sizeof(cmd), "'%s' -t2 -c%d -d%ds --latency %s%s%s '%s' 2>&1", wrk, conns, (int)(seconds + 0.5),
	    token ? "-H 'Authorization: Bearer " : "", token ? token : "", token ? "'" : "", url);
	f = popen(cmd, "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, "Requests/sec:", 13) == 0)
			out->rps = strtod(p + 13, NULL);
		else if (strncmp(p, "Non-2xx or 3xx responses:", 25) == 0)
			out->non2xx = strtol(p + 25, NULL, 10);
		else if (strncmp(p, "50%", 3) == 0)
			out->p50_ms = wrk_ms(p + 3 + strspn(p + 3, " \t"));
		else if (strncmp(p, "99%", 3) == 0)
			out->p99_ms = wrk_ms(p + 3 + strspn(p + 3, " \t"));
	}
	if (pclose(f) != 0 || out->rps <= 0)
		return -1;
	return 0;
}

struct loop_run {
	const char *base;
	const char *path;
	const char *token;
	double deadline;
	atomic_long count;
	atomic_long non2xx;
};

struct loop_worker {
	struct loop_run *run;
	double *lat;
	size_t nlat, caplat;
};

/* One keep-alive connection sending GETs until the deadline. */
static void *
loop_worker(void *arg)
{
	struct loop_worker *w = arg;
	struct pb_error err;
	struct http_client *c = http_client_new(w->run->base, w->run->token, &err);

	if (c == NULL)
		return NULL;
	while (bench_now() < w->run->deadline) {
		struct http_response resp = {0};
		double t0 = bench_now();

		if (http_request(c, "GET", w->run->path, NULL, NULL, &resp, &err) < 0) {
			atomic_fetch_add(&w->run->non2xx, 1);
			continue;
		}
		if (resp.status / 100 != 2)
			atomic_fetch_add(&w->run->non2xx, 1);
		http_response_free(&resp);
		atomic_fetch_add(&w->run->count, 1);
		if (w->nlat == w->caplat) {
			size_t cap = w->caplat ? w->caplat * 2 : 4096;
			double *nl = realloc(w->lat, cap * sizeof(double));
			if (nl == NULL)
				continue;
			w->lat = nl;
			w->caplat = cap;
		}
		w->lat[w->nlat++] = (bench_now() - t0) * 1e3;
	}
	http_client_free(c);
	return NULL;
}

/* Our own load generator: conns threads, one keep-alive connection each. */
static int
run_loop(const char *base, const char *path, const char *token, double seconds, int conns, struct get_result *out)
{
	struct loop_run run;
	struct loop_worker w[MAX_CLIENTS];
	pthread_t th[MAX_CLIENTS];
	double t0, *all;
	size_t n = 0;

	memset(&run, 0, sizeof(run));
	memset(w, 0, sizeof(w));
	memset(out, 0, sizeof(*out));
	run.base = base;
	run.path = path;
	run.token = token;
	t0 = bench_now();
	run.deadline = t0 + seconds;
	for (int i = 0; i < conns; i++) {
		w[i].run = &run;
		pthread_create(&th[i], NULL, loop_worker, &w[i]);
	}
	for (int i = 0; i < conns; i++) {
		pthread_join(th[i], NULL);
		n += w[i].nlat;
	}
	out->rps = atomic_load(&run.count) / (bench_now() - t0);
	out->non2xx = atomic_load(&run.non2xx);
	all = malloc((n + 1) * sizeof(double));
	n = 0;
	for (int i = 0; i < conns; i++) {
		if (all != NULL)
			memcpy(all + n, w[i].lat, w[i].nlat * sizeof(double));
		n += w[i].nlat;
		free(w[i].lat);
	}
	if (all != NULL) {
		out->p50_ms = bench_percentile(all, n, 50);
		out->p99_ms = bench_percentile(all, n, 99);
	}
	free(all);
	return out->rps > 0 ? 0 : -1;
}

/* GET base+path for `seconds` from 8 connections; wrk when there is one. */
static int
run_get(const char *wrk, const char *base, const char *path, const char *token, double seconds, const char *label,
    struct get_result *out)
{
	char url[512];
	int rc;

	snprintf(url, sizeof(url), "%s%s", base, path);
	rc = wrk ? run_wrk(wrk, url, token, seconds, 8, out) : run_loop(base, path, token, seconds, 8, out);
	printf("  GET %-44s %9.0f requests/s, latency ms p50 %.2f p99 %.2f (%s, 8 connections, %.0f s)%s\n", label, out->rps,
	    out->p50_ms, out->p99_ms, wrk ? "wrk -t2" : "own loop", seconds, out->non2xx ? " NON-2xx ANSWERS" : "");
	if (rc < 0 || out->non2xx > 0) {
		fail("GET %s: %s", path, rc < 0 ? "the load generator failed" : "answers other than 2xx");
		return -1;
	}
	return 0;
}

/* ---- whole rounds under wrk against raw SQLite (--wrk-seconds) ---- */

/* Settled rounds in pitbossd's database (a read-only connection beside the daemon's); -1 on error. */
static long long
count_rounds(const char *db_path)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	long long n = -1;

	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "SELECT count(*) FROM rounds WHERE state = 'settled'", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	else
		fail("counting rounds in %s: %s", db_path, db ? sqlite3_errmsg(db) : "cannot open");
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/*
 * wrk -t2 -c8 -dS posting the one body (tests/bench/wrk_round.lua) to url;
 * reads the script's count of answers and of answers other than 201.
 */
static int
run_wrk_rounds(const char *wrk, const char *lua, const char *body_path, const char *url, int seconds, long *answers,
    long *non201)
{
	char cmd[8192], line[512];
	FILE *f;
	bool seen = false;

	*answers = *non201 = 0;
	snprintf(cmd, sizeof(cmd), "PB_WRK_BODY='%s' PB_WRK_TOKEN='%s' '%s' -t2 -c8 -d%ds -s '%s' '%s' 2>&1", body_path,
	    BENCH_DEALER_TOKEN, wrk, seconds, lua, url);
	f = popen(cmd, "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "wrk_round: answers %ld non201 %ld", answers, non201) == 2)
			seen = true;
		else if (strstr(line, "rror") != NULL || strstr(line, "Socket errors") != NULL)
			printf("    wrk: %s", line);
	}
	if (pclose(f) != 0 || !seen) {
		fail("wrk with %s did not finish (is it wrk 4 with Lua?)", lua);
		return -1;
	}
	return 0;
}

/*
 * The figure users feel: whole rounds/s over HTTP from wrk (2 threads, 8
 * connections, one 6-seat round posted to T1 again and again) counted in the
 * database, against the raw SQLite anchor writing the same round's rows in
 * one transaction (one connection, WAL, synchronous=FULL) in the same
 * directory, alternating `pairs` times, each side `seconds` long; and
 * pitbossd's CPU (user+system from /proc/PID/stat) per recorded round.
 */
static int
wrk_rounds(const struct options *o, const char *pitbossd, const char *wrk)
{
	struct bench_daemon d = {0};
	struct bench_rng rng;
	struct bench_round plan, *same = NULL;
	struct series raw = {0}, fixed = {0};
	char *dir = NULL, cfg[4200], db[4200], log[4200], body_path[4200], lua[4200], url[160], body[BODY_MAX];
	double *pair_raw = NULL, *pair_fixed = NULL;
	const char *src = getenv("PB_SOURCE_DIR") ? getenv("PB_SOURCE_DIR") : PB_SOURCE_DIR;
	double http_s = 0, cpu_s = 0;
	long long http_rounds = 0;
	long non201_total = 0;
	int port, n, stop, rc = 1;
	FILE *f;

	if (wrk == NULL) {
		fprintf(stderr, "bench_http: --wrk-seconds needs wrk on $PATH (skipped)\n");
		return 77;
	}
	snprintf(lua, sizeof(lua), "%s/tests/bench/wrk_round.lua", src);
	dir = bench_tmpdir("pb-bench-wrk");
	if (dir == NULL) {
		perror("bench_http: mkdtemp");
		return 1;
	}
	snprintf(cfg, sizeof(cfg), "%s/pitboss.json", dir);
	snprintf(db, sizeof(db), "%s/pitboss.db", dir);
	snprintf(log, sizeof(log), "%s/pitbossd.log", dir);
	snprintf(body_path, sizeof(body_path), "%s/round.json", dir);
	port = bench_free_port();
	if (port <= 0 || bench_write_config(cfg, BENCH_TABLES, db, port, NULL) < 0) {
		fail("cannot write the configuration in %s", dir);
		goto out;
	}
	/* One 6-seat round on T1: the body wrk posts, and the rows the anchor writes. */
	bench_rng_seed(&rng, 20261126);
	do
		bench_round_plan(&rng, 0, &plan);
	while (plan.nseats != 6);
	bench_round_body(&plan, body, sizeof(body));
	f = fopen(body_path, "w");
	if (f == NULL || fputs(body, f) < 0 || fclose(f) != 0) {
		fail("cannot write %s", body_path);
		goto out;
	}
	/* Enough copies that the anchor runs out of time, not of rounds. */
	n = o->wrk_seconds * 5000;
	same = calloc((size_t)n, sizeof(*same));
	if (same == NULL)
		goto out;
	for (int i = 0; i < n; i++)
		same[i] = plan;
	/* Each pair's ratio to each anchor: the figure is their median. */
	pair_raw = calloc((size_t)o->pairs, sizeof(double));
	pair_fixed = calloc((size_t)o->pairs, sizeof(double));
	if (pair_raw == NULL || pair_fixed == NULL)
		goto out;

	printf("bench_http --wrk-seconds %d: pitbossd %s under wrk -t2 -c8 -d%ds (one 6-seat whole round, POST "
	    "/api/v1/tables/T1/rounds) against raw SQLite (the same rows, one transaction a round, one connection, WAL, "
	    "synchronous=FULL) and the fixed anchor (one transaction of %d small rows into one rowid table, the same "
	    "pragmas) in %s, %d alternating pair(s)%s\n", o->wrk_seconds, pitbossd, o->wrk_seconds, FIXED_ROWS, dir,
	    o->pairs, o->smoke ? " (smoke run: figures not meaningful)" : "");
	if (bench_daemon_start(&d, pitbossd, cfg, port, log, 30) < 0) {
		fail("pitbossd did not start");
		goto out;
	}
	snprintf(url, sizeof(url), "%s/api/v1/tables/T1/rounds", d.url);
	for (int p = 1; p <= o->pairs; p++) {
		struct series one = {0}, fix = {0};
		long answers, non201;
		long long r0, r1;
		double t0, el, c0, c1, rate;

		if (run_raw(dir, p, same, n, 1, false, o->wrk_seconds, &one) < 0)
			goto stop;
		raw.done += one.done;
		raw.seconds += one.seconds;
		raw.cpu_ms = one.cpu_ms;
		free(one.lat);
		if (run_fixed(dir, p, o->wrk_seconds, &fix) < 0)
			goto stop;
		fixed.done += fix.done;
		fixed.seconds += fix.seconds;
		if ((r0 = count_rounds(db)) < 0)
			goto stop;
		c0 = bench_cpu_seconds(d.pid);
		t0 = bench_now();
		if (run_wrk_rounds(wrk, lua, body_path, url, o->wrk_seconds, &answers, &non201) < 0)
			goto stop;
		el = bench_now() - t0;
		/* The requests wrk left in flight when it stopped land (and are counted, and cost CPU) meanwhile. */
		usleep(300 * 1000);
		c1 = bench_cpu_seconds(d.pid);
		if ((r1 = count_rounds(db)) < 0)
			goto stop;
		http_rounds += r1 - r0;
		http_s += el;
		cpu_s += c1 - c0;
		non201_total += non201;
		rate = (r1 - r0) / el;
		pair_raw[p - 1] = rate / (one.done / one.seconds);
		pair_fixed[p - 1] = rate / (fix.done / fix.seconds);
		printf("  pair %d: raw SQLite %.1f rounds/s; fixed anchor %.1f tx/s; pitbossd %lld rounds recorded in %.2f s: "
		    "%.1f rounds/s (%ld answers, %ld not 201), CPU %.3f ms a round; ratio to raw %.2f, to the fixed anchor "
		    "%.2f\n", p, one.done / one.seconds, fix.done / fix.seconds, r1 - r0, el, rate, answers, non201,
		    (c1 - c0) * 1e3 / (r1 > r0 ? r1 - r0 : 1), pair_raw[p - 1], pair_fixed[p - 1]);
		if (non201 > 0)
			fail("pair %d: %ld answers were not 201 Created", p, non201);
		if (r1 - r0 < answers - non201)
			fail("pair %d: %lld rounds recorded, %ld answered 201", p, r1 - r0, answers - non201);
	}
	printf("\nwhole rounds under wrk, %d pair(s) of %d s:\n", o->pairs, o->wrk_seconds);
	printf("  rounds/s (pitbossd)         %.1f\n", http_rounds / http_s);
	printf("  rounds/s (raw SQLite)       %.1f\n", raw.done / raw.seconds);
	printf("  tx/s (fixed %d-row anchor)  %.1f\n", FIXED_ROWS, fixed.done / fixed.seconds);
	printf("  ratio to raw SQLite         %.2f (over the sums), median of pairs %.2f\n",
	    http_rounds / http_s / (raw.done / raw.seconds), bench_percentile(pair_raw, (size_t)o->pairs, 50));
	printf("  ratio to the fixed anchor   %.2f (over the sums), median of pairs %.2f (goal >= 0.5)\n",
	    http_rounds / http_s / (fixed.done / fixed.seconds), bench_percentile(pair_fixed, (size_t)o->pairs, 50));
	printf("  CPU ms per round (pitbossd) %.3f\n", cpu_s * 1e3 / (http_rounds > 0 ? http_rounds : 1));
	printf("  non-201 answers             %ld\n", non201_total);
	rc = 0;
stop:
	stop = bench_daemon_stop(&d, 30);
	if (stop != 0)
		fail("pitbossd did not stop cleanly (exit %d); see %s", stop, log);
out:
	free(same);
	free(pair_raw);
	free(pair_fixed);
	if (atomic_load(&failures) > 0)
		rc = 1;
	if (dir != NULL) {
		if (o->keep || rc != 0)
			printf("kept %s\n", dir);
		else
			bench_rmdir(dir);
	}
	free(dir);
	return rc;
}

/* ---- the run ---- */

static int
parse_args(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->rounds = 2000;
	o->clients = 4;
	o->step_rounds = 40;
	o->get_seconds = 5;
	o->phase_max = 60;
	o->pairs = 3;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--smoke") == 0) {
			o->smoke = true;
			o->rounds = 80;
			o->step_rounds = 2;
			o->get_seconds = 1;
			o->phase_max = 15;
		} else if (strcmp(a, "--keep") == 0) {
			o->keep = true;
		} else if (strcmp(a, "--no-wrk") == 0) {
			o->no_wrk = true;
		} else if (strcmp(a, "--whole-only") == 0) {
			o->whole_only = true;
		} else if (strcmp(a, "--pitbossd") == 0 && v) {
			o->pitbossd = v;
			i++;
		} else if (strcmp(a, "--rounds") == 0 && v) {
			o->rounds = atoi(v);
			i++;
		} else if (strcmp(a, "--clients") == 0 && v) {
			o->clients = atoi(v);
			i++;
		} else if (strcmp(a, "--step-rounds") == 0 && v) {
			o->step_rounds = atoi(v);
			i++;
		} else if (strcmp(a, "--wrk-seconds") == 0 && v) {
			o->wrk_seconds = atoi(v);
			i++;
		} else if (strcmp(a, "--pairs") == 0 && v) {
			o->pairs = atoi(v);
			i++;
		} else if (strcmp(a, "--get-seconds") == 0 && v) {
			o->get_seconds = atof(v);
			i++;
		} else {
			fprintf(stderr, "usage: bench_http [--smoke] [--pitbossd PATH] [--rounds N] [--clients K] "
			    "[--step-rounds M] [--get-seconds S] [--no-wrk] [--whole-only] [--keep]\n"
			    "       bench_http --wrk-seconds S [--pairs P] [--smoke] [--pitbossd PATH] [--keep]\n");
			return -1;
		}
	}
	if (o->rounds < 1 || o->clients < 1 || o->clients > MAX_CLIENTS || o->step_rounds < 1 || o->get_seconds < 1 ||
	    o->wrk_seconds < 0 || o->pairs < 1) {
		fprintf(stderr, "bench_http: --rounds, --step-rounds >= 1, --clients 1..%d, --get-seconds >= 1\n", MAX_CLIENTS);
		return -1;
	}
	return 0;
}

/* Prints the table of figures. */
static void
print_table(void)
{
	printf("\n%-46s %-22s %-26s %-6s %s\n", "figure", "value", "anchor", "ratio", "goal");
	for (int i = 0; i < nrows; i++)
		printf("%-46s %-22s %-26s %-6s %s\n", rows[i].figure, rows[i].value, rows[i].anchor, rows[i].ratio, rows[i].goal);
}

/* Marks a ratio against its goal in the goal column. */
static const char *
goal_mark(char *buf, size_t n, const char *goal, double ratio, double want)
{
	snprintf(buf, n, "%s %s", goal, ratio >= want ? "(met)" : "(MISSED)");
	return buf;
}

/* Runs (a) to (e) against one daemon and prints the table; see the top of this file. */
int
main(int argc, char **argv)
{
	struct options o;
	struct bench_daemon d = {0};
	struct bench_rng rng;
	struct bench_round *rounds = NULL;
	struct get_result gr = {0}, trivial = {0};
	struct MHD_Daemon *mhd = NULL;
	const char *pitbossd, *wrk;
	char *dir = NULL, **bodies = NULL, cfg[4200], db[4200], log[4200], v[48], a[48], g[48], base[64], tbase[64];
	struct series one = {0}, http = {0}, raw = {0};
	double rate, p50, p99, rreq, cpu = 0, dcpu, kcpu = 0, groups0, jobs0, groups, jobs;
	char fig_k[64];
	long rss0 = -1, hwm0 = -1, rss, hwm;
	int port, stop, total = 0, first, slices;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (parse_args(argc, argv, &o) < 0)
		return 2;
	pitbossd = bench_find_pitbossd(o.pitbossd, argv[0]);
	if (pitbossd == NULL) {
		fprintf(stderr, "bench_http: no pitbossd (give --pitbossd PATH or set PB_BUILD_DIR)\n");
		return 2;
	}
	wrk = o.no_wrk ? NULL : wrk_path();
	if (o.wrk_seconds > 0)
		return wrk_rounds(&o, pitbossd, wrk);
	slices = o.smoke ? 1 : 4;
	dir = bench_tmpdir("pb-bench-http");
	if (dir == NULL) {
		perror("bench_http: mkdtemp");
		return 1;
	}
	snprintf(cfg, sizeof(cfg), "%s/pitboss.json", dir);
	snprintf(db, sizeof(db), "%s/pitboss.db", dir);
	snprintf(log, sizeof(log), "%s/pitbossd.log", dir);
	port = bench_free_port();
	if (port <= 0 || bench_write_config(cfg, BENCH_TABLES, db, port, NULL) < 0) {
		fail("cannot write the configuration in %s", dir);
		goto out;
	}
	printf("bench_http: pitbossd %s, %d tables, synchronous=FULL, WAL, database in %s%s\n", pitbossd, BENCH_TABLES, dir,
	    o.smoke ? " (smoke run: figures not meaningful)" : "");

	/*
	 * The rounds (a) and (b) write: the same rounds for both.  A quarter
	 * more go first, over one connection, to see a round without contention.
	 */
	total = o.rounds + o.rounds / 4;
	rounds = calloc((size_t)total, sizeof(*rounds));
	bodies = calloc((size_t)total, sizeof(*bodies));
	if (rounds == NULL || bodies == NULL)
		goto out;
	bench_rng_seed(&rng, 20261121);
	for (int i = 0; i < total; i++) {
		char body[BODY_MAX];
		bench_round_plan(&rng, i % BENCH_TABLES, &rounds[i]);
		bench_round_body(&rounds[i], body, sizeof(body));
		bodies[i] = strdup(body);
	}
	first = o.rounds / 4;

	if (bench_daemon_start(&d, pitbossd, cfg, port, log, 30) < 0) {
		fail("pitbossd did not start");
		goto out;
	}
	bench_rss_kib(d.pid, &rss0, &hwm0);
	printf("\npitbossd started in %.2f s, pid %d, VmRSS %ld KiB\n", d.start_seconds, (int)d.pid, rss0);

	printf("\n(a) whole rounds over HTTP, one connection (POST /api/v1/tables/T1..T8/rounds)\n");
	dcpu = bench_cpu_seconds(d.pid);
	if (first > 0 && run_whole(d.url, bodies, first, 1, false, o.phase_max, &one) < 0)
		goto stop;
	/* pitbossd's CPU for a whole round, without contention. */
	cpu = (bench_cpu_seconds(d.pid) - dcpu) * 1e3 / (one.done > 0 ? one.done : 1);
	printf("  pitbossd CPU (user+system, /proc/%d/stat): %.3f ms a round\n", (int)d.pid, cpu);

	/*
	 * (a) against (b) in alternating slices, so that the disk's and the
	 * machine's moods (fsync times vary by 2x on a shared VM) hit both alike.
	 */
	printf("\n(a) whole rounds over HTTP from %d connections against (b) raw SQLite, one connection, one transaction a round,\n"
	    "    in %d alternating slices\n", o.clients, slices);
	groups0 = metric_value(d.url, "pitboss_write_groups_total");
	jobs0 = metric_value(d.url, "pitboss_write_jobs_total");
	for (int sl = 0; sl < slices; sl++) {
		int from = first + sl * o.rounds / slices, to = first + (sl + 1) * o.rounds / slices;
		double c0;

		if (run_raw(dir, sl + 1, rounds + from, to - from, 1, false, o.phase_max / slices, &raw) < 0)
			goto stop;
		c0 = bench_cpu_seconds(d.pid);
		if (run_whole(d.url, bodies + from, to - from, o.clients, false, o.phase_max / slices, &http) < 0)
			goto stop;
		kcpu += bench_cpu_seconds(d.pid) - c0;
	}
	groups = metric_value(d.url, "pitboss_write_groups_total") - groups0;
	jobs = metric_value(d.url, "pitboss_write_jobs_total") - jobs0;
	snprintf(a, sizeof(a), "raw SQLite %.1f/s", series_rate(&raw));
	snprintf(v, sizeof(v), "%.1f rounds/s", series_rate(&http));
	{
		char fig[64];
		double ratio = series_rate(&http) / series_rate(&raw);
		snprintf(fig, sizeof(fig), "(a) whole rounds/s, HTTP, %d connections", o.clients);
		add_row(fig, v, a, ratio, goal_mark(g, sizeof(g), ">= 0.5", ratio, 0.5));
	}
	snprintf(v, sizeof(v), "%.2f / %.2f ms", series_percentile(&http, 0, 50), series_percentile(&http, 0, 99));
	add_row("    latency p50 / p99 per whole round", v, NULL, 0, NULL);
	snprintf(v, sizeof(v), "%.1f rounds/s", series_rate(&one));
	add_row("(a) whole rounds/s, HTTP, 1 connection", v, a, series_rate(&one) / series_rate(&raw), NULL);
	snprintf(v, sizeof(v), "%.2f / %.2f ms", series_percentile(&one, 0, 50), series_percentile(&one, 0, 99));
	add_row("    latency p50 / p99 per whole round", v, NULL, 0, NULL);
	snprintf(v, sizeof(v), "%.2f / %.2f ms", series_percentile(&raw, 0, 50), series_percentile(&raw, 0, 99));
	add_row("(b) raw SQLite: latency p50 / p99 per round", v, NULL, 0, NULL);
	snprintf(v, sizeof(v), "%.2f ms pitbossd", cpu);
	snprintf(g, sizeof(g), "%.2f ms raw SQLite", raw.cpu_ms);
	add_row("    CPU per whole round (user+system)", v, g, 0, NULL);
	snprintf(fig_k, sizeof(fig_k), "    CPU per whole round, %d connections", o.clients);
	snprintf(v, sizeof(v), "%.2f ms pitbossd", http.done > 0 ? kcpu * 1e3 / http.done : 0);
	add_row(fig_k, v, NULL, 0, NULL);
	snprintf(fig_k, sizeof(fig_k), "    rounds per COMMIT, %d connections", o.clients);
	snprintf(v, sizeof(v), "%.2f (%.0f groups)", groups > 0 ? jobs / groups : 0, groups);
	add_row(fig_k, v, NULL, 0, NULL);
	if (o.whole_only)
		goto stop;

	/* Why K connections may be slower than one: the write lock is waited for by sleeping. */
	printf("\n(b') raw SQLite with %d connections: waiting in SQLite's busy handler (as pitbossd), then on a mutex\n",
	    o.clients);
	{
		struct series busy = {0}, mutex = {0};
		char fig[64];

		if (run_raw(dir, slices + 1, rounds + first, o.rounds, o.clients, false, o.phase_max, &busy) < 0 ||
		    run_raw(dir, slices + 2, rounds + first, o.rounds, o.clients, true, o.phase_max, &mutex) < 0)
			goto stop;
		snprintf(v, sizeof(v), "%.1f rounds/s", series_rate(&busy));
		snprintf(fig, sizeof(fig), "(b') raw, %d conns, busy handler waits", o.clients);
		add_row(fig, v, a, series_rate(&busy) / series_rate(&raw), NULL);
		snprintf(v, sizeof(v), "%.2f / %.2f ms", series_percentile(&busy, 0, 50), series_percentile(&busy, 0, 99));
		add_row("    latency p50 / p99 per round", v, NULL, 0, NULL);
		snprintf(v, sizeof(v), "%.1f rounds/s", series_rate(&mutex));
		snprintf(fig, sizeof(fig), "(b') raw, %d conns, mutex around writes", o.clients);
		add_row(fig, v, a, series_rate(&mutex) / series_rate(&raw), NULL);
		snprintf(v, sizeof(v), "%.2f / %.2f ms", series_percentile(&mutex, 0, 50), series_percentile(&mutex, 0, 99));
		add_row("    latency p50 / p99 per round", v, NULL, 0, NULL);
		free(busy.lat);
		free(mutex.lat);
	}

	printf("\n(a') whole rounds with an Idempotency-Key (the answer is stored with the round)\n");
	{
		int n = o.rounds / 2 > 0 ? o.rounds / 2 : 1;
		struct bench_rng r2;
		struct series idem = {0};
		char **b2 = calloc((size_t)n, sizeof(*b2));

		bench_rng_seed(&r2, 77);
		for (int i = 0; b2 != NULL && i < n; i++) {
			struct bench_round rd;
			char body[BODY_MAX];
			bench_round_plan(&r2, i % BENCH_TABLES, &rd);
			bench_round_body(&rd, body, sizeof(body));
			b2[i] = strdup(body);
		}
		if (b2 == NULL || run_whole(d.url, b2, n, o.clients, true, o.phase_max, &idem) < 0) {
			for (int i = 0; b2 != NULL && i < n; i++)
				free(b2[i]);
			free(b2);
			free(idem.lat);
			goto stop;
		}
		for (int i = 0; i < n; i++)
			free(b2[i]);
		free(b2);
		free(idem.lat);
		snprintf(v, sizeof(v), "%.1f rounds/s", series_rate(&idem));
		add_row("(a') whole rounds/s with Idempotency-Key", v, a, series_rate(&idem) / series_rate(&raw), NULL);
	}

	printf("\n(c) rounds step by step, 8 dealer terminals at 8 tables, one connection each\n");
	if (run_steps(d.url, BENCH_TABLES, o.step_rounds, o.phase_max, &rate, &rreq, &p50, &p99) < 0)
		goto stop;
	snprintf(v, sizeof(v), "%.1f rounds/s", rate);
	snprintf(a, sizeof(a), "%.0f requests/s", rreq);
	add_row("(c) step-by-step rounds/s, 8 terminals", v, a, 0, NULL);
	snprintf(v, sizeof(v), "%.2f / %.2f ms", p50, p99);
	add_row("    latency p50 / p99 per request", v, NULL, 0, NULL);

	printf("\n(d) GET requests per second\n");
	snprintf(base, sizeof(base), "http://127.0.0.1:%d", port);
	{
		/* The report route is new; fall back to the tables list where it is not there yet. */
		const char *report = "/api/v1/reports/summary?group=table";
		struct http_client *c = http_client_new(base, BENCH_PITBOSS_TOKEN, &(struct pb_error){0});
		struct http_response resp = {0};
		struct pb_error err;
		struct get_result recall, health;
		int tport = bench_free_port();

		if (c != NULL && http_request(c, "GET", report, NULL, NULL, &resp, &err) == 0 && resp.status != 200) {
			printf("  %s answered %d: measuring GET /api/v1/tables instead\n", report, resp.status);
			report = "/api/v1/tables";
		}
		http_response_free(&resp);
		http_client_free(c);
		/* The anchor and the report twice each, alternating; then game recall and /health. */
		mhd = trivial_start(tport);
		if (mhd == NULL) {
			fail("the trivial libmicrohttpd server did not start on port %d", tport);
			goto stop;
		}
		snprintf(tbase, sizeof(tbase), "http://127.0.0.1:%d", tport);
		for (int rep = 0; rep < 2; rep++) {
			struct get_result t1, r1;

			if (run_get(wrk, tbase, "/", NULL, o.get_seconds, "trivial libmicrohttpd (4 threads, epoll)", &t1) < 0 ||
			    run_get(wrk, base, report, BENCH_PITBOSS_TOKEN, o.get_seconds, report, &r1) < 0)
				goto stop;
			trivial.rps += t1.rps / 2;
			gr.rps += r1.rps / 2;
			if (rep == 0)
				gr.p50_ms = r1.p50_ms, gr.p99_ms = r1.p99_ms;
			else
				gr.p50_ms = (gr.p50_ms + r1.p50_ms) / 2, gr.p99_ms = (gr.p99_ms + r1.p99_ms) / 2;
		}
		if (run_get(wrk, base, "/api/v1/tables/T1/rounds?limit=10", BENCH_PITBOSS_TOKEN, o.get_seconds,
		    "/api/v1/tables/T1/rounds?limit=10", &recall) < 0 ||
		    run_get(wrk, base, "/api/v1/health", NULL, o.get_seconds, "/api/v1/health (no token, no SQL)", &health) < 0)
			goto stop;
		MHD_stop_daemon(mhd);
		mhd = NULL;
		printf("  means of the two runs: report %.0f requests/s, trivial %.0f requests/s\n", gr.rps, trivial.rps);
		snprintf(a, sizeof(a), "trivial MHD %.0f/s", trivial.rps);
		snprintf(v, sizeof(v), "%.0f requests/s", gr.rps);
		{
			char fig[64];
			snprintf(fig, sizeof(fig), "(d) GET %.40s", report + strlen("/api/v1"));
			add_row(fig, v, a, gr.rps / trivial.rps, goal_mark(g, sizeof(g), ">= 0.4", gr.rps / trivial.rps, 0.4));
		}
		snprintf(v, sizeof(v), "%.2f / %.2f ms", gr.p50_ms, gr.p99_ms);
		add_row("    latency p50 / p99 (8 connections, wrk)", v, NULL, 0, NULL);
		snprintf(v, sizeof(v), "%.0f requests/s", recall.rps);
		add_row("(d) GET /tables/T1/rounds?limit=10", v, a, recall.rps / trivial.rps, NULL);
		snprintf(v, sizeof(v), "%.0f requests/s", health.rps);
		add_row("(d) GET /health (HTTP layer only)", v, a, health.rps / trivial.rps, NULL);
	}

	if (bench_rss_kib(d.pid, &rss, &hwm) == 0) {
		printf("\n(e) pitbossd after the load: VmRSS %ld KiB, VmHWM %ld KiB (at start: VmRSS %ld KiB)\n", rss, hwm, rss0);
		snprintf(v, sizeof(v), "%.1f MiB", rss / 1024.0);
		snprintf(a, sizeof(a), "at start %.1f MiB", rss0 / 1024.0);
		add_row("(e) pitbossd VmRSS after the load", v, a, 0, NULL);
		snprintf(v, sizeof(v), "%.1f MiB", hwm / 1024.0);
		add_row("(e) pitbossd VmHWM (peak)", v, NULL, 0, NULL);
	} else {
		fail("cannot read /proc/%d/status", (int)d.pid);
	}
	snprintf(log, sizeof(log), "%s-wal", db);
	printf("\ndatabase after the run: %lld bytes, WAL %lld bytes\n", bench_file_size(db), bench_file_size(log));
stop:
	if (mhd != NULL)
		MHD_stop_daemon(mhd);
	stop = bench_daemon_stop(&d, 30);
	if (stop != 0)
		fail("pitbossd did not stop cleanly (exit %d); see %s/pitbossd.log", stop, dir);
out:
	print_table();
	for (int i = 0; bodies != NULL && i < total; i++)
		free(bodies[i]);
	free(one.lat);
	free(http.lat);
	free(raw.lat);
	free(bodies);
	free(rounds);
	if (dir != NULL) {
		if (o.keep || atomic_load(&failures) > 0)
			printf("\nkept %s\n", dir);
		else
			bench_rmdir(dir);
	}
	free(dir);
	if (atomic_load(&failures) > 0) {
		printf("bench_http: %d failure(s)\n", atomic_load(&failures));
		return 1;
	}
	return 0;
}
