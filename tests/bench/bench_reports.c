/*
 * bench_reports.c - times the summary report over a large record.
 *
 * A temporary database is filled with whole rounds through the daemon's
 * own path (struct pit + pit_round_open: checks, settlement, events with
 * their hash chain, derived rows and the per-hour aggregates, one
 * transaction per round).  The rounds are spread over time as a real pit
 * would deal them: TABLES tables, each dealing about one round a minute,
 * dealers changing every eight hours, by a fake wall clock (this file
 * defines clock_gettime(); CLOCK_REALTIME answers the simulated time, every
 * other clock the kernel's).  The load runs with PRAGMA synchronous=OFF:
 * the durability of the load is not what is measured.
 *
 * At each size (10^5 and 10^6 rounds; 10^7 with PB_BENCH_10M=1) the summary
 * over the whole range is run REPS times for group=day, group=table and
 * group=hour (and shift in a zone), and the statistics report of the last
 * month; each time counts the report and its JSON text (what the HTTP
 * handler does before sending).  p50 and p99 are printed.
 *
 * With --aggregates-only the same rounds (same generator and seed) are
 * settled by the engine and added to the report tables only, through the
 * functions the settling transaction calls (store_round_aggregate,
 * report_rollup_after_round): some 50,000 rounds a second instead of
 * about 1,000, so 10^7 rounds take minutes, not hours.  --smoke first
 * deals 4,500 rounds over two days into one database each way and fails
 * unless every summary (day, table, hour, dealer, shift) is byte-identical.
 *
 * usage: bench_reports [--smoke] [--aggregates-only] [--keep DIR | --reuse DIR | --reuse-db DB CONFIG]
 *   --smoke   the cross-check, then 2,000 rounds and a few repetitions (ctest bench-smoke)
 *   --keep    build the database in DIR and leave it there
 *   --reuse   time the reports again on the database --keep left in DIR
 *   --reuse-db DB CONFIG  the same on another database and the configuration
 *             it was made with (bench_load --timeline's, for one: the figures
 *             at 10^7 whole rounds, docs/performance.md)
 *   PB_BENCH_SIZES=N1,N2,N3 replaces the sizes (ascending, at most three).
 *   PB_BENCH_ZONE=America/New_York makes the property's zone that one (gaming days
 *   from 06:00, shifts 06:00, 14:00, 22:00; its roll-ups in that calendar) and
 *   times the summaries in its gaming days instead of UTC days.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/hash.h"
#include "engine/settle.h"
#include "store/store_int.h"
#include "table/reports/reports.h"
#include "table/rounds/rounds.h"
#include "config/property.h"

#ifndef PB_SOURCE_DIR
#define PB_SOURCE_DIR "."
#endif

#define TABLES 20
#define START_MS 1767225600000LL     /* 2026-01-01T00:00:00Z */
#define MINUTE_MS 60000LL

/* ---- the simulated wall clock ---- */

#include "../common/fake_clock.h"

static double
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;
#include "../common/xorshift.h"

static int
rng_int(int lo, int hi)
{
	return (int)rng_between(lo, hi);
}

/* ---- the pit ---- */

struct bench_table {
	char id[8];
	const char *game;
	int seats;
	bool six;                 /* standard game: six card bonus offered */
	bool pp_alone;
};

static struct bench_table tables[TABLES];

static void
write_config(const char *path, const char *db)
{
	FILE *f = fopen(path, "w");
	char hex[PB_SHA256_HEX_LEN];

	if (f == NULL) {
		perror(path);
		exit(1);
	}
	fprintf(f, "{\"listen\": \"127.0.0.1:1\", \"database\": \"%s\",\n", db);
	/* In PB_BENCH_ZONE the property is there (its roll-ups are made for its calendar), as bench_property() says. */
	if (getenv("PB_BENCH_ZONE") != NULL && *getenv("PB_BENCH_ZONE") != '\0')
		fprintf(f, " \"property\": {\"id\": \"bench\", \"time_zone\": \"%s\", \"gaming_day_start\": \"06:00\", "
		    "\"shifts\": [{\"name\": \"day\", \"start\": \"06:00\"}, {\"name\": \"swing\", \"start\": \"14:00\"}, "
		    "{\"name\": \"grave\", \"start\": \"22:00\"}]},\n", getenv("PB_BENCH_ZONE"));
	fprintf(f, " \"games\": {\"standard\": \"%s/config/games/standard.json\", \"tricard\": \"%s/config/games/tricard.json\","
	    " \"florida\": \"%s/config/games/florida.json\"},\n \"tables\": [\n", PB_SOURCE_DIR, PB_SOURCE_DIR, PB_SOURCE_DIR);
	for (int i = 0; i < TABLES; i++) {
		struct bench_table *t = &tables[i];
		snprintf(t->id, sizeof(t->id), "T%02d", i + 1);
		t->game = i % 4 == 2 ? "tricard" : i % 4 == 3 ? "florida" : "standard";
		t->seats = 6 + i % 2;
		t->six = strcmp(t->game, "standard") == 0;
		t->pp_alone = !t->six;
		fprintf(f, "  {\"id\": \"%s\", \"name\": \"bench %d\", \"game\": \"%s\", \"seats\": %d, \"banking\": \"house\","
		    " \"limits\": {\"ante\": {\"min\": 500, \"max\": 50000}, \"pair_plus\": {\"min\": 500, \"max\": 10000}%s}}%s\n",
		    t->id, i + 1, t->game, t->seats, t->six ? ", \"six_card\": {\"min\": 500, \"max\": 2500}" : "",
		    i + 1 < TABLES ? "," : "");
	}
	pb_sha256_hex("bench-boss", 10, hex);
	fprintf(f, " ],\n \"tokens\": [{\"name\": \"bench-boss\", \"role\": \"pitboss\", \"sha256\": \"%s\"}]}\n", hex);
	fclose(f);
}

static json_t *
cards3(const card_t *c)
{
	json_t *a = json_array();
	char t[3];

	for (int i = 0; i < 3; i++) {
		card_format(c[i], t);
		json_array_append_new(a, json_string(t));
	}
	return a;
}

static json_t *
random_round(const struct bench_table *t)
{
	json_t *bets = json_object(), *hands = json_object(), *dec = json_object();
	card_t deck[52];
	int used = 0, n = 0;
	char key[4];

	for (int i = 0; i < 52; i++)
		deck[i] = (card_t)i;
	for (int i = 51; i > 0; i--) {
		int j = rng_int(0, i);
		card_t x = deck[i];
		deck[i] = deck[j];
		deck[j] = x;
	}
	for (int s = 1; s <= t->seats; s++) {
		json_t *b;
		bool ante;
		if (rng_int(0, 99) < 35 && !(s == t->seats && n == 0))
			continue;
		ante = !t->pp_alone || rng_int(0, 99) < 85;
		b = json_object();
		if (ante)
			json_object_set_new(b, "ante", json_integer(rng_int(5, 100) * 100));
		if (!ante || rng_int(0, 99) < 50)
			json_object_set_new(b, "pair_plus", json_integer(rng_int(5, 50) * 100));
		if (ante && t->six && rng_int(0, 99) < 30)
			json_object_set_new(b, "six_card", json_integer(rng_int(5, 25) * 100));
		snprintf(key, sizeof(key), "%d", s);
		json_object_set_new(bets, key, b);
		json_object_set_new(hands, key, cards3(deck + used));
		used += 3;
		if (ante)
			json_object_set_new(dec, key, json_string(rng_int(0, 99) < 75 ? "play" : "fold"));
		n++;
	}
	return json_pack("{s:o,s:o,s:o,s:o}", "bets", bets, "hands", hands, "dealer", cards3(deck + used), "decisions", dec);
}

/*
 * --aggregates-only: the round of `body` settled by the engine and added to
 * the report tables through the same functions the pit calls in the
 * settling transaction (store_round_aggregate, report_rollup_after_round),
 * without the round record itself (rounds, bets, hands, payouts, events),
 * which the summary never reads.  --cross-check shows that the summaries of
 * the two databases are the same, byte for byte.
 */
static int
aggregate_round(struct store *s, const struct table_config *tc, int64_t rules_id, const char *dealer,
    const json_t *body, int64_t now_ms, struct pb_error *err)
{
	static struct round_record rec;
	static struct settlement set;
	struct round_input in;
	const char *key;
	json_t *b;

	memset(&rec, 0, sizeof(rec));
	memset(&in, 0, sizeof(in));
	in.rules = tc->rules;
	in.seats = tc->seats;
	for (int seat = 1; seat <= MAX_SEATS; seat++)
		memset(in.hands[seat], CARD_NONE, 3);
	if (input_three_cards(json_object_get(body, "dealer"), "dealer", in.dealer, err) < 0)
		return -1;
	json_object_foreach(json_object_get(body, "bets"), key, b) {
		int seat = atoi(key);
		const char *d = json_string_value(json_object_get(json_object_get(body, "decisions"), key));

		in.bets[seat].ante = json_integer_value(json_object_get(b, "ante"));
		in.bets[seat].pair_plus = json_integer_value(json_object_get(b, "pair_plus"));
		in.bets[seat].six_card = json_integer_value(json_object_get(b, "six_card"));
		if (input_three_cards(json_object_get(json_object_get(body, "hands"), key), "hand", in.hands[seat], err) < 0)
			return -1;
		in.decisions[seat] = d == NULL ? DECISION_NONE : strcmp(d, "play") == 0 ? DECISION_PLAY : DECISION_FOLD;
		rec.has_bet[seat] = true;
	}
	if (settle_round(&in, &set, err) < 0)
		return -1;
	snprintf(rec.table_id, sizeof(rec.table_id), "%s", tc->id);
	snprintf(rec.opened_by, sizeof(rec.opened_by), "%s", dealer);
	rec.rules_id = rules_id;
	rec.state = ROUND_SETTLED;
	pb_time_format_ms(now_ms, rec.opened_at);
	memcpy(rec.settled_at, rec.opened_at, sizeof(rec.settled_at));
	rec.payout_count = set.line_count;
	memcpy(rec.payouts, set.lines, sizeof(set.lines[0]) * (size_t)set.line_count);
	if (store_round_aggregate(s, &rec, err) < 0)
		return -1;
	return report_rollup_after_round(s, now_ms, err);
}

/* ---- measuring ---- */

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* PB_BENCH_ZONE's property (a New York-like calendar in that zone), or NULL. */
static const struct property_config *
bench_property(void)
{
	static struct config *cfg;
	const char *zone = getenv("PB_BENCH_ZONE");
	struct pb_error err;

	if (zone == NULL || *zone == '\0')
		return NULL;
	if (cfg != NULL)
		return &cfg->property;
	if ((cfg = calloc(1, sizeof(*cfg))) == NULL)
		exit(1);
	snprintf(cfg->property.id, sizeof(cfg->property.id), "bench");
	snprintf(cfg->property.time_zone, sizeof(cfg->property.time_zone), "%s", zone);
	cfg->property.calendar.day_start_min = 360;
	cfg->property.calendar.shift_count = 3;
	for (int i = 0; i < 3; i++) {
		snprintf(cfg->property.calendar.shifts[i].name, GAMING_SHIFT_NAME_MAX, "%s", (const char *[]){"day", "swing", "grave"}[i]);
		cfg->property.calendar.shifts[i].start_min = 360 + 480 * i;
	}
	if (property_finish(cfg, &err) < 0) {
		fprintf(stderr, "bench_reports: PB_BENCH_ZONE: %s\n", err.message);
		exit(1);
	}
	return &cfg->property;
}

/* The dealt range's first and last UTC days (START_MS .. the simulated now), as YYYY-MM-DD. */
static void
dealt_range(char from[16], char to[16])
{
	time_t t = (time_t)(START_MS / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(from, 16, "%Y-%m-%d", &tm);
	t = (time_t)(fake_now_ms / 1000);
	gmtime_r(&t, &tm);
	strftime(to, 16, "%Y-%m-%d", &tm);
}

/* A report of the pit: pit_report_summary or pit_report_statistics. */
typedef int (*report_fn)(struct pit *p, const struct actor *a, const struct report_query *q, json_t **out,
    struct pb_error *err);

/*
 * Runs the report of kind (its parameters rp) `reps` times as a pit boss,
 * each timed with its answer's text; t gets the times sorted, *last the last
 * answer (the caller's to free).  Exits on a failure.
 */
static void
time_report(struct pit *p, enum report_kind kind, const struct report_params *rp, report_fn fn, const char *what,
    int reps, double *t, json_t **last, size_t *bytes)
{
	const struct actor boss = {"bench-boss", ROLE_BIT(ROLE_PITBOSS), NULL, false};
	struct report_query q;
	struct pb_error err;

	*last = NULL;
	if (report_query_parse(kind, rp, fake_now_ms, &q, &err) < 0) {
		fprintf(stderr, "bench_reports: %s\n", err.message);
		exit(1);
	}
	for (int i = 0; i < reps; i++) {
		json_t *out = NULL;
		char *text;
		double t0 = mono_ms();

		if (fn(p, &boss, &q, &out, &err) < 0) {
			fprintf(stderr, "bench_reports: %s: %s\n", what, err.message);
			exit(1);
		}
		text = json_dumps(out, JSON_COMPACT);
		t[i] = mono_ms() - t0;
		*bytes = text ? strlen(text) : 0;
		free(text);
		json_decref(*last);
		*last = out;
	}
	qsort(t, (size_t)reps, sizeof(*t), cmp_double);
}

/* The p99 of n sorted times. */
static double
p99_of(const double *t, int n)
{
	return t[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1];
}

/* p50 and p99 of `reps` runs of the summary grouped by `group` over [from, to]. */
static void
time_summary(struct pit *p, const char *group, const char *from, const char *to, int reps, int64_t rounds)
{
	struct report_params rp = {.group = group, .from = from, .to = to, .property = bench_property()};
	double *t = calloc((size_t)reps, sizeof(*t));
	size_t groups, bytes = 0;
	int64_t counted;
	json_t *out;

	if (t == NULL) {
		fprintf(stderr, "bench_reports: out of memory\n");
		exit(1);
	}
	time_report(p, REPORT_SUMMARY, &rp, pit_report_summary, "summary", reps, t, &out, &bytes);
	groups = json_array_size(json_object_get(out, "groups"));
	counted = json_integer_value(json_object_get(json_object_get(out, "totals"), "rounds")) +
	    json_integer_value(json_object_get(json_object_get(out, "totals"), "voids"));
	json_decref(out);
	printf("  summary group=%-6s %6zu groups %8zu bytes  p50 %8.3f ms  p99 %8.3f ms  (%d runs)%s\n", group, groups, bytes,
	    t[reps / 2], p99_of(t, reps), reps,
	    rp.property != NULL ? "  (gaming days: the range's ends differ from UTC days)" :
	    counted == rounds ? "" : "  ROUND COUNT MISMATCH");
	if (counted != rounds && rp.property == NULL) {
		fprintf(stderr, "bench_reports: the totals count %lld rounds, %lld were dealt\n", (long long)counted, (long long)rounds);
		exit(1);
	}
	free(t);
}

/*
 * p50 and p99 of `reps` runs of the statistics report of the current month
 * (its days, the month to date, the year to date, the month before) in the
 * property's calendar (UTC days from midnight without PB_BENCH_ZONE).
 */
static void
time_statistics(struct pit *p, int reps)
{
	struct report_params rp = {.property = &p->cfg->property};
	double *t = calloc((size_t)reps, sizeof(*t));
	size_t bytes = 0;
	json_t *out;

	if (t == NULL) {
		fprintf(stderr, "bench_reports: out of memory\n");
		exit(1);
	}
	time_report(p, REPORT_STATISTICS, &rp, pit_report_statistics, "statistics", reps, t, &out, &bytes);
	json_decref(out);
	printf("  statistics (month, year to date) %8zu bytes  p50 %8.3f ms  p99 %8.3f ms  (%d runs)\n", bytes, t[reps / 2],
	    p99_of(t, reps), reps);
	free(t);
}

static int64_t
count_rows(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	int64_t n = -1;

	if (sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static long long
file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
}

/* --reuse: the reports again over the whole of an existing bench database, which is not changed. */
static int
retime(const char *db, const char *cfgp)
{
	struct store_options opt = {0};
	struct pb_error err;
	struct config *cfg;
	struct store *store;
	struct pit pit = {0};
	sqlite3_stmt *st;
	char from[16] = "", to[16] = "";
	int64_t rounds;

	if ((cfg = config_load(cfgp, &err)) == NULL) {
		fprintf(stderr, "bench_reports: %s\n", err.message);
		return 1;
	}
	opt.path = db;
	opt.read_only = true;
	if ((store = store_open(&opt, &err)) == NULL) {
		fprintf(stderr, "bench_reports: %s\n", err.message);
		return 1;
	}
	pit.store = store;
	pit.cfg = cfg;
	/* From the aggregates: an --aggregates-only database has no rounds table rows. */
	rounds = count_rows(store, "SELECT sum(rounds) + sum(voids) FROM report_hours");
	if (sqlite3_prepare_v2(store_db(store), "SELECT date(min(hour), 'unixepoch'), date(max(hour), 'unixepoch') FROM report_hours",
	    -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL) {
		snprintf(from, sizeof(from), "%s", (const char *)sqlite3_column_text(st, 0));
		snprintf(to, sizeof(to), "%s", (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	/* "Now" is a day after the record's last hour (another program's database may end after START_MS's year). */
	fake_now_ms = START_MS;
	if (sqlite3_prepare_v2(store_db(store), "SELECT max(hour) FROM report_hours", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW && (sqlite3_column_int64(st, 0) + 86400) * 1000 > fake_now_ms)
		fake_now_ms = (sqlite3_column_int64(st, 0) + 86400) * 1000;
	sqlite3_finalize(st);
	printf("%lld rounds (%s .. %s) in %s; report_hours %lld rows\n", (long long)rounds, from, to, db,
	    (long long)count_rows(store, "SELECT count(*) FROM report_hours"));
	time_summary(&pit, "day", from, to, 200, rounds);
	time_summary(&pit, "table", from, to, 200, rounds);
	time_summary(&pit, "hour", from, to, 20, rounds);
	time_summary(&pit, "dealer", from, to, 50, rounds);
	time_summary(&pit, "shift", from, to, 50, rounds);
	store_free(store);
	config_free(cfg);
	return 0;
}

static int64_t rules_ids[TABLES];
static bool cross_spacing;         /* load(): the cross-check's sparser timeline */
static char dealer_names[64][PB_ID_MAX];

/* Opens (creating) a bench database for cfg's tables, at the start of the simulated time. */
static struct store *
open_bench(const char *db, struct config *cfg, struct pit *pit)
{
	struct store_options opt = {0};
	struct pb_error err;
	struct store *store;
	char wal[320];

	snprintf(wal, sizeof(wal), "%s-wal", db);
	unlink(db);
	unlink(wal);
	opt.path = db;
	opt.synchronous = "NORMAL";
	if ((store = store_open(&opt, &err)) == NULL) {
		fprintf(stderr, "bench_reports: %s\n", err.message);
		exit(1);
	}
	/* The load phase only: no fsync at all. */
	sqlite3_exec(store_db(store), "PRAGMA synchronous = OFF", NULL, NULL, NULL);
	memset(pit, 0, sizeof(*pit));
	pit->store = store;
	pit->cfg = cfg;
	fake_now_ms = START_MS;
	if (pit_sync_tables(pit, &err) < 0 || store_begin(store, &err) < 0) {
		fprintf(stderr, "bench_reports: %s\n", err.message);
		exit(1);
	}
	for (int k = 0; k < TABLES; k++)
		if (store_rules_id(store, cfg->tables[k].rules, &rules_ids[k], &err) < 0) {
			fprintf(stderr, "bench_reports: %s\n", err.message);
			exit(1);
		}
	if (store_commit(store, &err) < 0)
		exit(1);
	for (int i = 0; i < 64; i++)
		snprintf(dealer_names[i], sizeof(dealer_names[i]), "dealer-%02d", i + 1);
	return store;
}

/*
 * Deals rounds *dealt .. target-1: table k deals at START + n minutes + its
 * own offset (the tables interleave in time), dealers change every 8 h.
 * Through pit_round_open, or (aggregates_only) into the report tables only,
 * 2000 rounds a transaction.
 */
static void
load(struct pit *pit, int64_t *dealt, int64_t target, bool aggregates_only)
{
	const struct actor dealer_base = {NULL, ROLE_BIT(ROLE_DEALER), NULL, false};
	struct pb_error err;
	bool in_txn = false;

	for (; *dealt < target; (*dealt)++) {
		int k = (int)(*dealt % TABLES);
		int64_t n = *dealt / TABLES;
		struct actor d = dealer_base;
		json_t *body, *out = NULL;
		int status, rc;

		if (cross_spacing)
			/* The cross-check: 11 minutes apart, with a three-hour break every 40: days, joins and breaks. */
			fake_now_ms = START_MS + n * 11 * MINUTE_MS + (n / 40) * 180 * MINUTE_MS + k * (MINUTE_MS / TABLES) +
			    rng_int(0, 2000);
		else
			fake_now_ms = START_MS + n * MINUTE_MS + k * (MINUTE_MS / TABLES) + rng_int(0, 2000);
		d.name = dealer_names[(k * 3 + (fake_now_ms - START_MS) / (8 * 60 * MINUTE_MS)) % 64];
		body = random_round(&tables[k]);
		if (aggregates_only) {
			if (!in_txn && store_begin(pit->store, &err) < 0)
				goto fail;
			in_txn = true;
			rc = aggregate_round(pit->store, &pit->cfg->tables[k], rules_ids[k], d.name, body, fake_now_ms, &err);
			if (rc == 0 && (*dealt + 1) % 2000 == 0) {
				rc = store_commit(pit->store, &err);
				in_txn = false;
			}
		} else {
			rc = pit_round_open(pit, &d, NULL, tables[k].id, body, &out, &status, &err);
		}
		if (rc < 0) {
			fprintf(stderr, "bench_reports: round %lld at %s: %s\n%s\n", (long long)*dealt, tables[k].id, err.message,
			    json_dumps(body, JSON_COMPACT));
			exit(1);
		}
		json_decref(out);
		json_decref(body);
	}
	if (in_txn && store_commit(pit->store, &err) < 0)
		goto fail;
	return;
fail:
	fprintf(stderr, "bench_reports: %s\n", err.message);
	exit(1);
}

/* The summary over [from, to] grouped by `group`, as compact JSON text. */
static char *
summary_text(struct pit *p, const char *group, const char *from, const char *to)
{
	const struct actor boss = {"bench-boss", ROLE_BIT(ROLE_PITBOSS), NULL, false};
	struct report_params rp = {.group = group, .from = from, .to = to};
	struct report_query q;
	struct pb_error err;
	json_t *out = NULL;
	char *text;

	if (report_query_parse(REPORT_SUMMARY, &rp, fake_now_ms, &q, &err) < 0 ||
	    pit_report_summary(p, &boss, &q, &out, &err) < 0) {
		fprintf(stderr, "bench_reports: summary: %s\n", err.message);
		exit(1);
	}
	text = json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(out);
	return text;
}

/*
 * The same n rounds (same seed) into two databases, through pit_round_open
 * and through the report tables only: every summary must be the same text.
 */
static int
cross_check(const char *dir, struct config *cfg, int64_t n)
{
	static const char *const groups[] = {"day", "table", "hour", "dealer", "shift"};
	char db_a[300], db_b[300], from[16], to[16];
	struct pit pa, pb;
	struct store *sa, *sb;
	int64_t dealt;
	uint64_t seed = rng_state;
	int bad = 0;

	snprintf(db_a, sizeof(db_a), "%s/cross-full.db", dir);
	snprintf(db_b, sizeof(db_b), "%s/cross-aggregates.db", dir);
	cross_spacing = true;
	sa = open_bench(db_a, cfg, &pa);
	dealt = 0;
	load(&pa, &dealt, n, false);
	sb = open_bench(db_b, cfg, &pb);
	rng_state = seed;
	dealt = 0;
	load(&pb, &dealt, n, true);
	dealt_range(from, to);
	cross_spacing = false;
	if (count_rows(sb, "SELECT count(*) FROM report_spans") <= 0) {
		fprintf(stderr, "bench_reports: cross-check: no day was rolled up\n");
		bad++;
	}
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		char *a = summary_text(&pa, groups[g], from, to), *b = summary_text(&pb, groups[g], from, to);
		if (strcmp(a, b) != 0) {
			fprintf(stderr, "bench_reports: cross-check: group=%s differs between the two databases\n", groups[g]);
			bad++;
		}
		free(a);
		free(b);
	}
	store_free(sa);
	store_free(sb);
	for (int i = 0; i < 2; i++) {
		char path[320];
		const char *db = i ? db_b : db_a;
		unlink(db);
		snprintf(path, sizeof(path), "%s-wal", db);
		unlink(path);
		snprintf(path, sizeof(path), "%s-shm", db);
		unlink(path);
	}
	printf("cross-check: %lld rounds through pit_round_open and through the report tables only: "
	    "summaries by day, table, hour, dealer, shift %s\n", (long long)n, bad ? "DIFFER" : "identical");
	return bad ? -1 : 0;
}

/*
 * One size: deals rounds *dealt .. target-1 (adding the time to *load_ms),
 * prints the database's figures and times the summaries over the whole range.
 */
static void
grow_and_time(struct pit *pit, const char *db, int64_t *dealt, int64_t target, bool aggregates_only, bool smoke,
    double *load_ms)
{
	char wal[320], from[16], to[16];
	double t0 = mono_ms();
	int reps = smoke ? 5 : target >= 1000000 ? 100 : 200;

	load(pit, dealt, target, aggregates_only);
	*load_ms += mono_ms() - t0;
	snprintf(wal, sizeof(wal), "%s-wal", db);
	dealt_range(from, to);
	sqlite3_exec(store_db(pit->store), "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
	printf("\n%lld rounds (%s .. %s): loaded at %.0f rounds/s overall; database %.1f MB; "
	    "report_hours %lld rows, report_spans %lld rows\n",
	    (long long)*dealt, from, to, (double)*dealt / (*load_ms / 1000.0), (double)(file_size(db) + file_size(wal)) / 1e6,
	    (long long)count_rows(pit->store, "SELECT count(*) FROM report_hours"),
	    (long long)count_rows(pit->store, "SELECT count(*) FROM report_spans"));
	fflush(stdout);
	time_summary(pit, "day", from, to, reps, *dealt);
	time_summary(pit, "table", from, to, reps, *dealt);
	time_summary(pit, "dealer", from, to, reps, *dealt);
	time_summary(pit, "hour", from, to, smoke ? 3 : 20, *dealt);
	if (bench_property() != NULL)
		time_summary(pit, "shift", from, to, reps, *dealt);
	time_statistics(pit, smoke ? 3 : reps / 2);
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	bool smoke = false, reuse = false, aggregates_only = getenv("PB_BENCH_AGGREGATES_ONLY") != NULL;
	const char *keep = NULL;
	char dir[256], db[300], cfgp[300], wal[320];
	struct config *cfg;
	struct store *store;
	struct pit pit = {0};
	struct pb_error err;
	int64_t sizes[3] = {100000, 1000000, 10000000}, dealt = 0;
	int nsizes = getenv("PB_BENCH_10M") ? 3 : 2;
	double load_ms = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--smoke") == 0) {
			smoke = true;
		} else if (strcmp(argv[i], "--aggregates-only") == 0) {
			aggregates_only = true;
		} else if (strcmp(argv[i], "--keep") == 0 && i + 1 < argc) {
			keep = argv[++i];
		} else if (strcmp(argv[i], "--reuse") == 0 && i + 1 < argc) {
			keep = argv[++i];
			reuse = true;
		} else if (strcmp(argv[i], "--reuse-db") == 0 && i + 2 < argc) {
			return retime(argv[i + 1], argv[i + 2]);
		} else {
			fprintf(stderr, "usage: bench_reports [--smoke] [--aggregates-only] [--keep DIR | --reuse DIR | "
			    "--reuse-db DB CONFIG]\n");
			return 2;
		}
	}
	if (smoke) {
		sizes[0] = 2000;
		nsizes = 1;
	}
	if (getenv("PB_BENCH_SIZES") != NULL) {
		/* e.g. PB_BENCH_SIZES=20000,50000: other sizes, ascending */
		char *p = getenv("PB_BENCH_SIZES"), *end;
		for (nsizes = 0; nsizes < 3 && *p; p = *end ? end + 1 : end) {
			sizes[nsizes++] = strtoll(p, &end, 10);
			if (end == p)
				break;
		}
	}
	if (keep != NULL) {
		snprintf(dir, sizeof(dir), "%s", keep);
		mkdir(dir, 0700);
	} else {
		snprintf(dir, sizeof(dir), "%s/pbbench-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (mkdtemp(dir) == NULL) {
			perror("mkdtemp");
			return 1;
		}
	}
	snprintf(db, sizeof(db), "%s/bench.db", dir);
	snprintf(wal, sizeof(wal), "%s-wal", db);
	snprintf(cfgp, sizeof(cfgp), "%s/pitboss.json", dir);
	if (reuse)
		return retime(db, cfgp);
	write_config(cfgp, db);
	if ((cfg = config_load(cfgp, &err)) == NULL) {
		fprintf(stderr, "bench_reports: %s\n", err.message);
		return 1;
	}
	if (smoke && cross_check(dir, cfg, 4500) < 0)
		return 1;
	store = open_bench(db, cfg, &pit);

	printf("bench_reports: %d tables (standard with six card, tricard, florida), ~1 round/min each, "
	    "dealers change every 8 h; %s with synchronous=OFF\n", TABLES,
	    aggregates_only ? "rounds settled by the engine into the report tables only (--aggregates-only)"
	    : "load through pit_round_open");
	for (int si = 0; si < nsizes; si++)
		grow_and_time(&pit, db, &dealt, sizes[si], aggregates_only, smoke, &load_ms);
	store_free(store);
	config_free(cfg);
	if (keep == NULL) {
		unlink(db);
		unlink(wal);
		snprintf(wal, sizeof(wal), "%s-shm", db);
		unlink(wal);
		unlink(cfgp);
		rmdir(dir);
	}
	return 0;
}
