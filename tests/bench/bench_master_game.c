/*
 * bench_master_game.c - the master game's reading of a table's window, in a
 * database of bench_load's (--timeline: a round a minute at each table).
 *
 * The master game sums, for each table's window (opener or shift change to
 * closer, at any second), the hand win and the mispays of the rounds settled
 * in it (daemon/store/count_window.c).  This times, over gaming-day windows
 * that are not aligned to hours (06:00 in Los Angeles, PST: 14:00Z, each end
 * moved by a random part of an hour), each table's window read two ways,
 * alternating which goes first:
 *   rounds - the statements before the hourly rows were read (every round of
 *            the window through the index on settled_at alone, as of afd9550);
 *   hours  - store_window_hand_win + store_window_mispays as they are now
 *            (the hourly rows strictly inside the window, the rounds of its
 *            two partial hours).
 * Both must give the same figures; it prints p50 / p99 / max per window and
 * the median floor day (every table's window of a day), each way.
 *
 * usage: bench_master_game --db PATH [--tables N] [--days D] [--corrections K] [--smoke]
 *   --db           a database filled by bench_load --timeline --db PATH
 *   --tables       tables T1..TN in it (default 20)
 *   --days         gaming days sampled (default 10; spread over the record)
 *   --corrections  K corrected payout lines on random rounds first, in a
 *                  transaction rolled back at the end (default 0: the
 *                  database is opened read-only)
 * Exit status 0 when both ways agreed on every window.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/timeutil.h"
#include "store/count_window.h"
#include "store/store.h"
#include "store/store_int.h"

#define HOUR_MS 3600000LL
#define DAY_MS (24 * HOUR_MS)
#define DAY_START_MS (14 * HOUR_MS)   /* 06:00 in Los Angeles, standard time */
#define MAX_SAMPLES 100000

/* The statements before this change (daemon/store/sql/count_window.def at afd9550), house-banked tables. */
static const char *const OLD_HOUSE_WIN = "SELECT coalesce(sum(-players_net), 0), count(*) FROM rounds INDEXED BY "
    "rounds_settled_at WHERE settled_at >= ?2 AND settled_at < ?3 AND table_id = ?1 AND state = 'settled' "
    "AND banking = 'house'";
static const char *const OLD_MISPAYS = "SELECT coalesce(sum(c.owed - c.paid), 0), count(*) FROM rounds r INDEXED BY "
    "rounds_settled_at JOIN corrections c ON c.round_id = r.id WHERE r.settled_at >= ?2 AND r.settled_at < ?3 "
    "AND r.table_id = ?1 AND NOT EXISTS (SELECT 1 FROM corrections n WHERE n.round_id = c.round_id "
    "AND n.seat = c.seat AND n.wager = c.wager AND n.id > c.id)";

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;
#include "../common/xorshift.h"

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The first column of a statement of (?1 table, ?2 from, ?3 to). */
static int64_t
old_sum(sqlite3_stmt *st, const char *table, const char *from, const char *to)
{
	int64_t v = 0;

	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, from, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, to, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return v;
}

/* Opens a transaction and adds k corrected payout lines (ante, seat 1) on rounds drawn at random. */
static int
add_corrections(sqlite3 *db, long k)
{
	sqlite3_stmt *st = NULL;
	int64_t max_id = 0;
	int rc;

	if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT max(id) FROM rounds", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW)
		goto fail;
	max_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(db, "INSERT INTO corrections (id, table_id, round_id, seat, wager, owed, paid, reason, by, "
	    "witness, at) SELECT ?1, table_id, id, 1, 'ante', 500, 600, 'bench', 'bench', 'bench', settled_at FROM rounds "
	    "WHERE id = ?2 AND settled_at IS NOT NULL", -1, &st, NULL) != SQLITE_OK)
		goto fail;
	for (long i = 0; i < k; i++) {
		sqlite3_bind_int64(st, 1, 1000000000 + i);
		sqlite3_bind_int64(st, 2, rng_between(1, max_id));
		rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			goto fail;
	}
	sqlite3_finalize(st);
	return 0;
fail:
	fprintf(stderr, "bench_master_game: adding corrections: %s\n", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return -1;
}

/* p50 / p99 / max of n times, sorted in place. */
static void
print_times(const char *what, double *v, int n)
{
	qsort(v, (size_t)n, sizeof(v[0]), cmp_double);
	printf("  %-28s p50 %8.3f ms  p99 %8.3f ms  max %8.3f ms  (n=%d)\n", what, v[n / 2], v[(n * 99) / 100],
	    v[n - 1], n);
}

int
main(int argc, char **argv)
{
	const char *db = NULL;
	int tables = 20, days = 10, bad = 0, n = 0, nd = 0;
	long corrections = 0;
	struct store_options opt = {0};
	struct pb_error err;
	struct store *s;
	sqlite3_stmt *first = NULL, *house = NULL, *mispays = NULL;
	static double t_old[MAX_SAMPLES], t_new[MAX_SAMPLES], d_old[1000], d_new[1000];
	int64_t lo_ms, hi_ms, day0, day_count;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
			db = argv[++i];
		else if (strcmp(argv[i], "--tables") == 0 && i + 1 < argc)
			tables = atoi(argv[++i]);
		else if (strcmp(argv[i], "--days") == 0 && i + 1 < argc)
			days = atoi(argv[++i]);
		else if (strcmp(argv[i], "--corrections") == 0 && i + 1 < argc)
			corrections = atol(argv[++i]);
		else if (strcmp(argv[i], "--smoke") == 0)
			days = 2;
		else {
			fprintf(stderr, "usage: bench_master_game --db PATH [--tables N] [--days D] [--corrections K] "
			    "[--smoke]\n");
			return 2;
		}
	}
	if (db == NULL || tables < 1 || tables > 1000 || days < 1 || days > 1000 || (int64_t)days * tables > MAX_SAMPLES) {
		fprintf(stderr, "bench_master_game: --db PATH is needed; --tables 1..1000, --days 1..1000\n");
		return 2;
	}
	opt.path = db;
	opt.read_only = corrections == 0;
	if ((s = store_open(&opt, &err)) == NULL) {
		fprintf(stderr, "bench_master_game: %s: %s\n", db, err.message);
		return 1;
	}
	if (sqlite3_prepare_v2(store_db(s), "SELECT min(settled_at), max(settled_at) FROM rounds", -1, &first, NULL) ||
	    sqlite3_prepare_v2(store_db(s), OLD_HOUSE_WIN, -1, &house, NULL) ||
	    sqlite3_prepare_v2(store_db(s), OLD_MISPAYS, -1, &mispays, NULL) || sqlite3_step(first) != SQLITE_ROW ||
	    sqlite3_column_type(first, 0) == SQLITE_NULL ||
	    pb_time_parse((const char *)sqlite3_column_text(first, 0), &lo_ms) < 0 ||
	    pb_time_parse((const char *)sqlite3_column_text(first, 1), &hi_ms) < 0) {
		fprintf(stderr, "bench_master_game: %s: no settled rounds to read (%s)\n", db, sqlite3_errmsg(store_db(s)));
		return 1;
	}
	if (corrections > 0 && add_corrections(store_db(s), corrections) < 0)
		return 1;
	/* The whole gaming days in the record: [day0, day0 + day_count) */
	day0 = (lo_ms - DAY_START_MS + DAY_MS - 1) / DAY_MS;
	day_count = (hi_ms - DAY_START_MS) / DAY_MS - day0;
	if (day_count < 1)
		day_count = 1;
	printf("master game windows: %s, %d tables, %d gaming days of %lld in the record, %ld corrections\n", db,
	    tables, days, (long long)day_count, corrections);
	for (int d = 0; d < days; d++) {
		int64_t day = day0 + (day_count * d) / days;
		double day_old = 0, day_new = 0;

		for (int t = 1; t <= tables; t++) {
			char table[16], from[PB_TIME_LEN], to[PB_TIME_LEN];
			int64_t f = day * DAY_MS + DAY_START_MS + rng_between(0, HOUR_MS - 1);
			int64_t o_win = 0, o_mis = 0, win, rounds, mis, lines;
			double a, b, c;
			bool old_first = (n % 2) == 0;

			snprintf(table, sizeof(table), "T%d", t);
			pb_time_format_ms(f, from);
			pb_time_format_ms(f + DAY_MS - rng_between(0, HOUR_MS - 1), to);
			a = now_ms();
			if (old_first) {
				o_win = old_sum(house, table, from, to);
				o_mis = old_sum(mispays, table, from, to);
			}
			b = now_ms();
			if (store_window_hand_win(s, table, false, from, to, &win, &rounds, &err) < 0 ||
			    store_window_mispays(s, table, from, to, &mis, &lines, &err) < 0) {
				fprintf(stderr, "bench_master_game: %s\n", err.message);
				return 1;
			}
			c = now_ms();
			if (!old_first) {
				o_win = old_sum(house, table, from, to);
				o_mis = old_sum(mispays, table, from, to);
			}
			t_new[n] = c - b;
			t_old[n] = old_first ? b - a : now_ms() - c;
			day_old += t_old[n];
			day_new += t_new[n];
			n++;
			if (o_win != win || o_mis != mis) {
				fprintf(stderr, "bench_master_game: %s [%s, %s): rounds %lld / %lld, hours %lld / %lld\n",
				    table, from, to, (long long)o_win, (long long)o_mis, (long long)win, (long long)mis);
				bad++;
			}
		}
		d_old[nd] = day_old;
		d_new[nd++] = day_new;
	}
	print_times("window, rounds (before)", t_old, n);
	print_times("window, hours (now)", t_new, n);
	print_times("floor day, rounds (before)", d_old, nd);
	print_times("floor day, hours (now)", d_new, nd);
	printf("  both ways agreed on %d of %d windows\n", n - bad, n);
	if (corrections > 0)
		sqlite3_exec(store_db(s), "ROLLBACK", NULL, NULL, NULL);
	sqlite3_finalize(first);
	sqlite3_finalize(house);
	sqlite3_finalize(mispays);
	store_free(s);
	return bad == 0 ? 0 : 1;
}
