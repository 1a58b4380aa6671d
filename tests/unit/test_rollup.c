/*
 * test_rollup.c - the day and month roll-ups of the report aggregates (report_spans,
 * daemon/table/rounds/rollup.c) against the hours they sum.
 *
 * Random report_hours rows (several tables, dealers and games, play that
 * runs across hours and across midnight, breaks longer and shorter than the
 * join gap, rounds opened in the hour before, single-hour days) are written
 * with SQL, the days before the last are rolled up, and every summary that
 * may read the roll-ups (group=table, dealer, and day at UTC), over random
 * hour-aligned ranges, must equal the same summary read from the hours
 * alone, value for value (play time and hands per hour included).  Then a
 * late row lands in a day already rolled up: after report_rollup_after_round
 * the summaries agree again, and they did not before.  Also: the play-time
 * corrections of a day row by hand, the mark, and days-without-rows.
 * Last, the same in Los Angeles' gaming days (from 06:00, three shifts,
 * the change to daylight time on 2026-03-08 in the range): the roll-ups
 * rebuilt for that calendar, and summaries by gaming day and shift too.
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

#include "common/hash.h"
#include "store/reports.h"
#include "store/store_int.h"
#include "table/reports/reports.h"
#include "table/rounds/rounds.h"

#ifndef PB_SOURCE_DIR
#define PB_SOURCE_DIR "."
#endif

#define DAY0 1772323200LL            /* 2026-03-01T00:00:00Z, Unix seconds */
#define DAYS 75
#define H 3600LL
#define MIN_MS 60000LL

static uint64_t rng_state = 0x8f1bbcdcca62c1d6ULL;
#include "../common/xorshift.h"

struct fixture {
	char dir[64], db[128], cfg_path[128];
	struct config *cfg;
	struct store *store;
	struct pit pit;
	int64_t rules_ids[3];
};

static struct fixture fx;
static const struct actor BOSS = {"boss", ROLE_BIT(ROLE_PITBOSS), NULL, false};
static const char *const TABLES[] = {"T1", "T2", "T3"};
static const char *const DEALERS[] = {"dealer-a", "dealer-b"};

/* The configuration of the fixture; with `property` (a JSON object's text) that property section too. */
static void
write_config(const char *path, const char *db, const char *property)
{
	FILE *f = fopen(path, "w");
	char hex[PB_SHA256_HEX_LEN];

	assert_non_null(f);
	pb_sha256_hex("boss", 4, hex);
	fprintf(f, "{\"listen\": \"127.0.0.1:1\", \"database\": \"%s\",\n", db);
	if (property != NULL)
		fprintf(f, " \"property\": %s,\n", property);
	fprintf(f, " \"games\": {\"standard\": \"%s/config/games/standard.json\", \"tricard\": \"%s/config/games/tricard.json\","
	    " \"florida\": \"%s/config/games/florida.json\"},\n \"tables\": [\n", PB_SOURCE_DIR, PB_SOURCE_DIR, PB_SOURCE_DIR);
	fprintf(f, "  {\"id\": \"T1\", \"name\": \"a\", \"game\": \"standard\", \"seats\": 6, \"banking\": \"house\","
	    " \"limits\": {\"ante\": {\"min\": 500, \"max\": 50000}, \"pair_plus\": {\"min\": 500, \"max\": 10000}}},\n");
	fprintf(f, "  {\"id\": \"T2\", \"name\": \"b\", \"game\": \"tricard\", \"seats\": 7, \"banking\": \"house\","
	    " \"limits\": {\"ante\": {\"min\": 500, \"max\": 25000}, \"pair_plus\": {\"min\": 500, \"max\": 10000}}},\n");
	fprintf(f, "  {\"id\": \"T3\", \"name\": \"c\", \"game\": \"florida\", \"seats\": 7, \"banking\": \"house\","
	    " \"limits\": {\"ante\": {\"min\": 200, \"max\": 20000}, \"pair_plus\": {\"min\": 200, \"max\": 5000}}}\n");
	fprintf(f, " ],\n \"tokens\": [{\"name\": \"boss\", \"role\": \"pitboss\", \"sha256\": \"%s\"}]}\n", hex);
	fclose(f);
}

static int
setup(void **state)
{
	struct store_options opt = {0};
	struct pb_error err;

	(void)state;
	snprintf(fx.dir, sizeof(fx.dir), "/tmp/pb-rollup-XXXXXX");
	assert_non_null(mkdtemp(fx.dir));
	snprintf(fx.db, sizeof(fx.db), "%s/pit.db", fx.dir);
	snprintf(fx.cfg_path, sizeof(fx.cfg_path), "%s/pitboss.json", fx.dir);
	write_config(fx.cfg_path, fx.db, NULL);
	fx.cfg = config_load(fx.cfg_path, &err);
	if (fx.cfg == NULL)
		fail_msg("config_load: %s", err.message);
	opt.path = fx.db;
	opt.synchronous = "NORMAL";
	fx.store = store_open(&opt, &err);
	if (fx.store == NULL)
		fail_msg("store_open: %s", err.message);
	fx.pit.store = fx.store;
	fx.pit.cfg = fx.cfg;
	assert_int_equal(store_begin(fx.store, &err), 0);
	for (int i = 0; i < 3; i++)
		if (store_rules_id(fx.store, fx.cfg->tables[i].rules, &fx.rules_ids[i], &err) < 0)
			fail_msg("store_rules_id: %s", err.message);
	assert_int_equal(store_commit(fx.store, &err), 0);
	return 0;
}

static int
teardown(void **state)
{
	char cmd[160];

	(void)state;
	store_free(fx.store);
	config_free(fx.cfg);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx.dir);
	if (system(cmd) != 0)
		return -1;
	return 0;
}

static void
exec_sql(const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(store_db(fx.store), sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg ? msg : "?");
}

/*
 * Writes (or replaces) one report_hours row with random sums; about half the
 * rows have a random player-banked part (schema 013: at most the row's
 * handle and lines) and collections, which the roll-ups must sum too.
 */
static void
put_hour(const char *table, const char *dealer, int64_t rules_id, int64_t hour, int64_t first_ms, int64_t last_ms)
{
	sqlite3_stmt *st = NULL;
	int col = 1;
	int64_t rounds = rng_between(1, 60), handle[4], lines[5];
	bool banked = rng_between(0, 1) == 1;

	assert_int_equal(sqlite3_prepare_v2(store_db(fx.store), "INSERT OR REPLACE INTO report_hours (table_id, hour, dealer, "
	    "rules_id, rounds, voids, hands, handle_ante, handle_play, handle_pair_plus, handle_six_card, win_ante, "
	    "win_play, win_pair_plus, win_six_card, win_ante_bonus, lines_ante, lines_play, lines_pair_plus, "
	    "lines_six_card, lines_ante_bonus, first_ms, last_ms, banked_rounds, banked_handle_ante, banked_handle_play, "
	    "banked_handle_pair_plus, banked_handle_six_card, banked_win_ante, banked_win_play, banked_win_pair_plus, "
	    "banked_win_six_card, banked_win_ante_bonus, banked_lines_ante, banked_lines_play, banked_lines_pair_plus, "
	    "banked_lines_six_card, banked_lines_ante_bonus, collections) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, col++, table, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, col++, hour);
	sqlite3_bind_text(st, col++, dealer, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, col++, rules_id);
	sqlite3_bind_int64(st, col++, rounds);                      /* rounds */
	sqlite3_bind_int64(st, col++, rng_between(0, 2));           /* voids */
	sqlite3_bind_int64(st, col++, rng_between(1, 300));         /* hands */
	for (int i = 0; i < 4; i++)
		sqlite3_bind_int64(st, col++, handle[i] = rng_between(0, 5000000));  /* handle */
	for (int i = 0; i < 5; i++)
		sqlite3_bind_int64(st, col++, rng_between(-800000, 900000)); /* house win */
	for (int i = 0; i < 5; i++)
		sqlite3_bind_int64(st, col++, lines[i] = rng_between(0, 400));       /* lines */
	sqlite3_bind_int64(st, col++, first_ms);
	sqlite3_bind_int64(st, col++, last_ms);
	sqlite3_bind_int64(st, col++, banked ? rng_between(0, rounds) : 0);
	for (int i = 0; i < 4; i++)
		sqlite3_bind_int64(st, col++, banked ? rng_between(0, handle[i]) : 0);
	for (int i = 0; i < 5; i++)
		sqlite3_bind_int64(st, col++, banked ? rng_between(-800000, 900000) : 0);
	for (int i = 0; i < 5; i++)
		sqlite3_bind_int64(st, col++, banked ? rng_between(0, lines[i]) : 0);
	sqlite3_bind_int64(st, col, banked ? rng_between(0, 20000) : 0);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
}

/*
 * Each series plays in sessions: runs of consecutive hours whose rows begin
 * close to the hour before's end (joined) or after a long break; some
 * first rounds were opened in the hour before; some sessions cross midnight;
 * some days have one hour of a series.
 */
static void
fill_random(void)
{
	exec_sql("BEGIN");
	for (int t = 0; t < 3; t++) {
		for (int d = 0; d < 2; d++) {
			int64_t hour = DAY0 + rng_between(0, 30) * H;
			int64_t end = DAY0 + DAYS * 86400LL;

			while (hour < end) {
				int len = (int)rng_between(1, 30);
				for (int i = 0; i < len && hour < end; i++, hour += H) {
					int64_t hs = hour * 1000, he = hs + 3600000LL;
					int64_t first, last;
					switch (rng() % 4) {
					case 0: first = hs + rng_between(0, 5) * MIN_MS; break;          /* near the start: joins */
					case 1: first = hs + rng_between(10, 50) * MIN_MS; break;        /* late: a long break */
					case 2: first = hs - rng_between(1, 20) * MIN_MS; break;         /* opened in the hour before */
					default: first = hs + rng_between(0, 20) * MIN_MS; break;
					}
					switch (rng() % 3) {
					case 0: last = he - rng_between(0, 5) * MIN_MS - 1; break;
					case 1: last = he - rng_between(10, 55) * MIN_MS; break;
					default: last = he - rng_between(0, 30) * MIN_MS - 1; break;
					}
					if (last < first)
						last = first + rng_between(0, 2) * MIN_MS;
					put_hour(TABLES[t], DEALERS[(t + d + (int)(hour / 43200)) % 2], fx.rules_ids[t % 2], hour, first, last);
				}
				hour += rng_between(1, 20) * H;    /* a break */
			}
		}
	}
	exec_sql("COMMIT");
}

/* The summary as JSON text, through the day roll-ups or from the hours only. */
static const char *summary_table;  /* the table= parameter of summary(), or NULL */
static const struct property_config *summary_property;   /* the property's calendar, or NULL: UTC days */

static char *
summary(const char *group, int64_t from_s, int64_t to_s, bool hours_only)
{
	struct report_params rp = {0};
	struct report_query q;
	struct pb_error err;
	char from[PB_TIME_LEN], to[PB_TIME_LEN];
	json_t *out = NULL;
	char *text;

	pb_time_format_ms(from_s * 1000, from);
	pb_time_format_ms(to_s * 1000, to);
	rp.from = from;
	rp.to = to;
	rp.group = group;
	rp.table = summary_table;
	rp.property = summary_property;
	if (report_query_parse(REPORT_SUMMARY, &rp, DAY0 * 1000, &q, &err) < 0)
		fail_msg("report_query_parse: %s", err.message);
	q.hours_only = hours_only;
	if (pit_report_summary(&fx.pit, &BOSS, &q, &out, &err) < 0)
		fail_msg("pit_report_summary: %s", err.message);
	text = json_dumps(out, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(out);
	return text;
}

/* The statistics report of a month (YYYY-MM) at the Unix time now_s, through the day roll-ups or from the hours only. */
static char *
statistics(const char *month, int64_t now_s, bool hours_only)
{
	struct report_params rp = {.month = month, .property = &fx.pit.cfg->property};
	struct report_query q;
	struct pb_error err;
	json_t *out = NULL;
	char *text;

	if (report_query_parse(REPORT_STATISTICS, &rp, now_s * 1000, &q, &err) < 0)
		fail_msg("report_query_parse: %s", err.message);
	q.hours_only = hours_only;
	if (pit_report_statistics(&fx.pit, &BOSS, &q, &out, &err) < 0)
		fail_msg("pit_report_statistics: %s", err.message);
	text = json_dumps(out, JSON_SORT_KEYS | JSON_COMPACT);
	json_decref(out);
	return text;
}

/* The statistics of March, April and May 2026 (to date on now_s) both ways: how many differ. */
static int
compare_statistics(int64_t now_s)
{
	static const char *const months[] = {"2026-03", "2026-04", "2026-05"};
	int differing = 0;

	for (int m = 0; m < 3; m++) {
		char *a = statistics(months[m], now_s, false), *b = statistics(months[m], now_s, true);
		if (strcmp(a, b) != 0 && differing++ == 0) {
			size_t k = 0;
			while (a[k] == b[k])
				k++;
			k = k > 200 ? k - 200 : 0;
			print_message("statistics %s\n rollup: ...%.400s\n hours:  ...%.400s\n", months[m], a + k, b + k);
		}
		free(a);
		free(b);
	}
	return differing;
}

static int64_t
count_rows(const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t n;

	assert_int_equal(sqlite3_prepare_v2(store_db(fx.store), sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/*
 * Every grouping that may read roll-ups, over random ranges: the same answer
 * both ways (by the property's shifts too when the summary follows a
 * property's calendar).
 */
static int
compare_random_ranges(int ranges)
{
	static const char *const groups[] = {"table", "dealer", "day", "shift"};
	int group_count = summary_property != NULL ? 4 : 3;
	int differing = 0;

	for (int i = 0; i < ranges; i++) {
		int64_t from = DAY0 + rng_between(-30, DAYS * 24) * H;
		int64_t to = from + rng_between(1, DAYS * 24 + 30) * H;

		if (i == 0) {
			from = DAY0 - 86400;
			to = DAY0 + (DAYS + 1) * 86400LL;
		}
		/* Every third range as a reader of table T2 alone: the roll-ups per table, not over every table. */
		summary_table = i % 3 == 2 ? "T2" : NULL;
		for (int g = 0; g < group_count; g++) {
			char *a = summary(groups[g], from, to, false);
			char *b = summary(groups[g], from, to, true);
			if (strcmp(a, b) != 0) {
				if (differing++ == 0) {
					size_t k = 0;
					while (a[k] == b[k])
						k++;
					k = k > 200 ? k - 200 : 0;
					print_message("group=%s %lld..%lld\n rollup: ...%.400s\n hours:  ...%.400s\n", groups[g],
					    (long long)from, (long long)to, a + k, b + k);
				}
			}
			free(a);
			free(b);
		}
	}
	summary_table = NULL;
	return differing;
}

static void
test_rollup_equals_hours(void **state)
{
	struct pb_error err;
	int64_t days_before;

	(void)state;
	fill_random();
	/* Roll up every day but the last, as the daemon does at start-up on its last day. */
	assert_int_equal(report_rollup_catch_up(fx.store, (DAY0 + (DAYS - 1) * 86400LL) * 1000 + 5000, &err), 0);
	assert_int_equal(store_report_rollup_get(fx.store, &days_before, &err), 0);
	assert_int_equal(days_before, DAY0 + (DAYS - 1) * 86400LL);
	assert_true(count_rows("SELECT count(*) FROM report_spans WHERE kind = 2") >= (DAYS - 1) * 3);
	assert_true(count_rows("SELECT count(*) FROM report_spans WHERE kind = 4") >= 2 * 3);   /* March and April */
	assert_true(count_rows("SELECT count(*) FROM report_spans WHERE kind = 6 AND table_id = ''") >= 2 * 2);
	assert_int_equal(count_rows("SELECT count(*) FROM report_spans WHERE start >= (SELECT days_before FROM report_rollup)"), 0);
	/* The sums of the days equal the sums of their hours. */
	assert_int_equal(count_rows("SELECT sum(rounds) + sum(win_pair_plus) + sum(lines_ante) FROM report_spans WHERE kind = 1"),
	    count_rows("SELECT sum(rounds) + sum(win_pair_plus) + sum(lines_ante) FROM report_hours "
	    "WHERE hour < (SELECT days_before FROM report_rollup)"));
	assert_int_equal(compare_random_ranges(60), 0);
	assert_int_equal(compare_statistics(DAY0 + 80 * 86400LL), 0);
	/* A second catch-up on the same day changes nothing. */
	assert_int_equal(report_rollup_catch_up(fx.store, (DAY0 + (DAYS - 1) * 86400LL) * 1000 + 9000, &err), 0);
	assert_int_equal(compare_random_ranges(5), 0);
}

/* A row recorded late into a rolled-up day: wrong until its series' day is rebuilt, right after. */
static void
test_late_row_rebuilds_its_day(void **state)
{
	struct pb_error err;
	int64_t hour = DAY0 + 2 * 86400LL + 23 * H;    /* 23:00 on the third day, rolled up */
	char *a, *b;

	(void)state;
	exec_sql("BEGIN");
	put_hour("T2", "dealer-late", fx.rules_ids[1], hour, hour * 1000 + 120000, hour * 1000 + 3599000);
	exec_sql("COMMIT");
	a = summary("table", DAY0, DAY0 + DAYS * 86400LL, false);
	b = summary("table", DAY0, DAY0 + DAYS * 86400LL, true);
	assert_string_not_equal(a, b);     /* the day row does not know the late hour yet */
	free(a);
	free(b);
	assert_int_equal(store_begin(fx.store, &err), 0);
	assert_int_equal(report_rollup_after_round(fx.store, hour * 1000 + 3599000, &err), 0);
	assert_int_equal(store_commit(fx.store, &err), 0);
	assert_int_equal(compare_random_ranges(20), 0);
	/* A round of a later day moves the mark: the last day is rolled up too. */
	assert_int_equal(store_begin(fx.store, &err), 0);
	assert_int_equal(report_rollup_after_round(fx.store, (DAY0 + (DAYS + 3) * 86400LL) * 1000, &err), 0);
	assert_int_equal(store_commit(fx.store, &err), 0);
	assert_int_equal(count_rows("SELECT days_before FROM report_rollup"), DAY0 + (DAYS + 3) * 86400LL);
	/* The last day (the 75th) is rolled up now: its rows by dealer are its series. */
	assert_true(count_rows("SELECT count(*) FROM report_spans WHERE kind = 1 AND start = 1772323200 + 74 * 86400") > 0);
	assert_int_equal(count_rows("SELECT count(*) FROM report_spans WHERE kind = 1 AND start = 1772323200 + 74 * 86400"),
	    count_rows("SELECT count(*) FROM (SELECT DISTINCT table_id, dealer, rules_id FROM report_hours "
	    "WHERE hour >= 1772323200 + 74 * 86400 AND hour < 1772323200 + 75 * 86400)"));
	assert_int_equal(compare_random_ranges(20), 0);
}

/* Play going on across midnight, by hand: the day after carries the extension of the day before's last hour. */
static void
test_carry_by_hand(void **state)
{
	struct pb_error err;
	int64_t day = DAY0 + 110 * 86400LL;        /* 2026-06-19, after the random rows */
	int64_t h23 = day + 23 * H, h00 = day + 86400;

	(void)state;
	exec_sql("BEGIN");
	put_hour("H1", "dealer-h", fx.rules_ids[0], h23, h23 * 1000 + 10 * MIN_MS, h23 * 1000 + 58 * MIN_MS);
	put_hour("H1", "dealer-h", fx.rules_ids[0], h00, h00 * 1000 + 5 * MIN_MS, h00 * 1000 + 40 * MIN_MS);
	exec_sql("COMMIT");
	assert_int_equal(report_rollup_catch_up(fx.store, (day + 3 * 86400) * 1000, &err), 0);
	/* Day one: 23:10-23:58, not extended into day two: 48 minutes, no carry. */
	assert_int_equal(count_rows("SELECT play_ms FROM report_spans WHERE kind = 2 AND table_id = 'H1' AND start = 1772323200 + 110 * 86400"),
	    48 * MIN_MS);
	assert_int_equal(count_rows("SELECT carry_ms FROM report_spans WHERE kind = 2 AND table_id = 'H1' AND start = 1772323200 + 110 * 86400"), 0);
	/* Day two: joined (00:05 is 7 minutes after 23:58): 00:00-00:40, and the 2 minutes 23:58-24:00 owed to day one. */
	assert_int_equal(count_rows("SELECT play_ms FROM report_spans WHERE kind = 2 AND table_id = 'H1' AND start = 1772323200 + 111 * 86400"),
	    40 * MIN_MS);
	assert_int_equal(count_rows("SELECT carry_ms FROM report_spans WHERE kind = 2 AND table_id = 'H1' AND start = 1772323200 + 111 * 86400"),
	    2 * MIN_MS);
	/* The month (June 2026) is not over on June 22: no month row for it. */
	assert_int_equal(count_rows("SELECT count(*) FROM report_spans WHERE kind = 4 AND table_id = 'H1'"), 0);
	assert_int_equal(report_month_start(day + 5000), 1780272000);   /* 2026-06-01 */
	assert_int_equal(report_month_next(1780272000), 1782864000);          /* 2026-07-01 */
	assert_int_equal(report_month_next(1764547200), 1767225600);          /* 2025-12-01 -> 2026-01-01 */
}

/* Los Angeles, gaming day from 06:00, three shifts: 2026-03-07 (DST begins at 02:00 on the 8th) has 23 hours. */
#define LA_PROPERTY "{\"id\": \"P1\", \"name\": \"Pacific\", \"time_zone\": \"America/Los_Angeles\", " \
	"\"gaming_day_start\": \"06:00\", \"shifts\": [{\"name\": \"day\", \"start\": \"06:00\"}, " \
	"{\"name\": \"swing\", \"start\": \"14:00\"}, {\"name\": \"grave\", \"start\": \"22:00\"}]}"

/* The sum of rounds of a roll-up kind with start in [from, to), and of report_hours with hour in [from, to). */
static void
assert_span_sums_hours(int kind, int64_t from, int64_t to)
{
	char a[200], b[200];

	snprintf(a, sizeof(a), "SELECT coalesce(sum(rounds), 0) + coalesce(sum(win_play), 0) FROM report_spans "
	    "WHERE kind = %d AND start >= %lld AND start < %lld", kind, (long long)from, (long long)to);
	snprintf(b, sizeof(b), "SELECT coalesce(sum(rounds), 0) + coalesce(sum(win_play), 0) FROM report_hours "
	    "WHERE hour >= %lld AND hour < %lld", (long long)from, (long long)to);
	if (count_rows(a) != count_rows(b))
		print_message("kind %d [%lld, %lld): the roll-ups sum %lld, the hours %lld\n", kind, (long long)from,
		    (long long)to, (long long)count_rows(a), (long long)count_rows(b));
	assert_int_equal(count_rows(a), count_rows(b));
}

/*
 * The property moves to Los Angeles with gaming days from 06:00 and three
 * shifts: the roll-ups made for UTC days are replaced by roll-ups of its
 * gaming days (the 23-hour 2026-03-08 among them), months and shifts, and
 * every summary that reads them (by table, dealer, gaming day and shift,
 * for every table or one) equals the same summary from the hours.  A late
 * row makes the roll-ups read stale (so they are read) until its day is
 * rebuilt; a summary by UTC day no longer reads them.
 */
static void
test_zone_rollup_equals_hours(void **state)
{
	char path[160], text[REPORT_CALENDAR_MAX];
	struct config *cfg;
	struct pb_error err;
	int64_t days_before, day_0307 = 1772892000;    /* 2026-03-07T06:00-08:00 */
	int64_t day_0308 = 1772974800;                  /* 2026-03-08T06:00-07:00: 23 hours later */
	int64_t late = day_0308 + 9 * H;                /* 2026-03-08 15:00 PDT: the swing shift */
	char *a, *b;

	(void)state;
	snprintf(path, sizeof(path), "%s/zone.json", fx.dir);
	write_config(path, fx.db, LA_PROPERTY);
	if ((cfg = config_load(path, &err)) == NULL)
		fail_msg("config_load: %s", err.message);
	/* Start-up on 2026-04-30 at 05:00 UTC (22:00 PDT on the 29th). */
	assert_int_equal(store_begin(fx.store, &err), 0);
	assert_int_equal(report_rollup_follow(fx.store, &cfg->property.calendar, (DAY0 + 60 * 86400LL + 5 * H) * 1000, &err), 0);
	assert_int_equal(store_commit(fx.store, &err), 0);
	assert_int_equal(store_report_rollup_calendar(fx.store, &days_before, text, &err), 0);
	assert_string_equal(text, "America/Los_Angeles 06:00 06:00 14:00 22:00");
	assert_int_equal(days_before, DAY0 + 59 * 86400LL + 13 * H);   /* 2026-04-29T06:00-07:00 */
	assert_int_equal(report_day_next(report_calendar_of(text, &err), day_0307), day_0308);
	/* The 23-hour day, its shifts, the months: each sums its hours; nothing left of the UTC days. */
	assert_int_equal(count_rows("SELECT count(*) FROM report_spans WHERE kind = 9 AND start % 3600 <> 0"), 0);
	assert_int_equal(count_rows("SELECT count(*) FROM report_spans WHERE kind = 9 AND start = 1772928000"), 0);
	assert_span_sums_hours(REPORT_SPAN_DAY_ALL, day_0307, day_0308);
	assert_span_sums_hours(REPORT_SPAN_DAY_TABLE, day_0307, day_0308);
	assert_span_sums_hours(REPORT_SPAN_SHIFT_ALL, day_0307, day_0308);
	assert_span_sums_hours(REPORT_SPAN_SHIFT_ALL, day_0307 + 16 * H, day_0308);  /* grave: 22:00 PST .. 06:00 PDT, 7 hours */
	assert_int_equal(count_rows("SELECT count(*) FROM report_spans WHERE kind = 8 AND start = 1772892000 + 16 * 3600"),
	    count_rows("SELECT count(DISTINCT rules_id) FROM report_hours WHERE hour >= 1772892000 + 16 * 3600 "
	    "AND hour < 1772974800"));
	assert_span_sums_hours(REPORT_SPAN_MONTH_TABLE, DAY0 + 14 * H, DAY0 + 31 * 86400LL + 13 * H);   /* March */
	assert_span_sums_hours(REPORT_SPAN_DAY_DEALER, DAY0 - 10 * H, days_before);    /* from 2026-02-28T06:00-08:00 */
	assert_int_equal(count_rows("SELECT count(*) FROM report_spans "
	    "WHERE start >= (SELECT days_before FROM report_rollup)"), 0);
	summary_property = &cfg->property;
	fx.pit.cfg = cfg;                           /* the statistics follow the pit's property */
	assert_int_equal(compare_random_ranges(40), 0);
	assert_int_equal(compare_statistics(DAY0 + 80 * 86400LL), 0);
	/*
	 * A late row in the swing shift of 2026-03-08, of another game than its table's (a day of two games): the
	 * roll-ups are read, so they differ until it is rolled up.
	 */
	exec_sql("BEGIN");
	put_hour("T3", "dealer-late", fx.rules_ids[1], late, late * 1000 + 60000, late * 1000 + 3000000);
	exec_sql("COMMIT");
	for (int g = 0; g < 3; g++) {
		static const char *const groups[] = {"day", "shift", "table"};
		a = summary(groups[g], DAY0, DAY0 + 30 * 86400LL, false);
		b = summary(groups[g], DAY0, DAY0 + 30 * 86400LL, true);
		assert_string_not_equal(a, b);
		free(a);
		free(b);
	}
	a = statistics("2026-03", DAY0 + 80 * 86400LL, false);
	b = statistics("2026-03", DAY0 + 80 * 86400LL, true);
	assert_string_not_equal(a, b);
	free(a);
	free(b);
	assert_int_equal(store_begin(fx.store, &err), 0);
	assert_int_equal(report_rollup_after_round(fx.store, late * 1000 + 3000000, &err), 0);
	assert_int_equal(store_commit(fx.store, &err), 0);
	assert_int_equal(count_rows("SELECT count(DISTINCT rules_id) FROM report_spans WHERE kind = 2 AND table_id = 'T3' "
	    "AND start = 1772974800"), 2);
	assert_int_equal(compare_random_ranges(20), 0);
	assert_int_equal(compare_statistics(DAY0 + 80 * 86400LL), 0);
	/* A round on a later gaming day rolls up the days before it in Los Angeles' calendar. */
	assert_int_equal(store_begin(fx.store, &err), 0);
	assert_int_equal(report_rollup_after_round(fx.store, (DAY0 + 70 * 86400LL) * 1000, &err), 0);
	assert_int_equal(store_commit(fx.store, &err), 0);
	assert_int_equal(count_rows("SELECT days_before FROM report_rollup"), DAY0 + 69 * 86400LL + 13 * H);
	assert_int_equal(compare_random_ranges(20), 0);
	/* By UTC days (no calendar) the summary cannot read gaming days: it reads the hours, and agrees. */
	summary_property = NULL;
	assert_int_equal(compare_random_ranges(10), 0);
	/* The same calendar again changes nothing; back to UTC, the roll-ups are UTC days again. */
	assert_int_equal(store_begin(fx.store, &err), 0);
	assert_int_equal(report_rollup_follow(fx.store, &cfg->property.calendar, (DAY0 + 70 * 86400LL) * 1000, &err), 0);
	assert_int_equal(count_rows("SELECT days_before FROM report_rollup"), DAY0 + 69 * 86400LL + 13 * H);
	assert_int_equal(report_rollup_follow(fx.store, &fx.cfg->property.calendar, (DAY0 + 70 * 86400LL) * 1000, &err), 0);
	assert_int_equal(store_commit(fx.store, &err), 0);
	assert_int_equal(count_rows("SELECT days_before FROM report_rollup"), DAY0 + 70 * 86400LL);
	assert_int_equal(count_rows("SELECT count(*) FROM report_spans WHERE kind = 9 AND start % 86400 <> 0"), 0);
	assert_int_equal(compare_random_ranges(10), 0);
	fx.pit.cfg = fx.cfg;
	assert_int_equal(compare_statistics(DAY0 + 80 * 86400LL), 0);
	config_free(cfg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rollup_equals_hours),
		cmocka_unit_test(test_late_row_rebuilds_its_day),
		cmocka_unit_test(test_carry_by_hand),
		cmocka_unit_test(test_zone_rollup_equals_hours),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
