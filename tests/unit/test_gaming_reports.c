/*
 * test_gaming_reports.c - the summary by the property's gaming days and
 * shifts in its zone, across both daylight-saving changes of 2026 in New
 * York (America/New_York, gaming day from 06:00, shifts day 06:00, swing
 * 14:00, grave 22:00).
 *
 * Rounds are recorded through the pit at fixed instants (a fake wall clock)
 * on both sides of each change:
 *
 *   spring, Sunday 2026-03-08: 02:00 EST becomes 03:00 EDT (07:00Z); gaming
 *   day 2026-03-07 runs from 11:00Z on the 7th to 10:00Z on the 8th: 23 hours.
 *   autumn, Sunday 2026-11-01: 02:00 EDT becomes 01:00 EST (06:00Z); gaming
 *   day 2026-10-31 runs from 10:00Z on the 31st to 11:00Z on 11-01: 25 hours,
 *   the repeated hour 01:00-02:00 in it.
 *
 * Each report's groups are checked by their keys and round counts; the
 * query's bounds by their instants; tz_offset (superseded) keeps its
 * fixed-offset meaning.
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
#include "engine/cards.h"
#include "store/store.h"
#include "table/reports/reports.h"
#include "table/rounds/rounds.h"

#include "../common/fake_clock.h"

#define HOUR_S 3600LL

struct fixture {
	char dir[64];
	char db[128];
	char cfg_path[128];
	struct config *cfg;
	struct store *store;
	struct pit pit;
};

static struct fixture fx;

static const struct actor DEALER = {"dealer-a", ROLE_BIT(ROLE_DEALER), NULL, false};
static const struct actor AUDITOR = {"audit", ROLE_BIT(ROLE_AUDITOR), NULL, false};

/* Unix seconds of a UTC time. */
static int64_t
utc(int y, unsigned m, unsigned d, int h, int min)
{
	return tz_days_from_civil(y, m, d) * 86400 + h * HOUR_S + min * 60;
}

/* The instants of the rounds, with the gaming day and shift each belongs to in New York. */
static const struct {
	int y, m, d, h, min;        /* UTC */
	const char *day, *shift;
} ROUNDS[] = {
	{2026, 3, 7, 11, 30, "2026-03-07", "day"},      /* 06:30 EST */
	{2026, 3, 8, 6, 30, "2026-03-07", "grave"},     /* 01:30 EST, before the change */
	{2026, 3, 8, 7, 30, "2026-03-07", "grave"},     /* 03:30 EDT, after it */
	{2026, 3, 8, 9, 30, "2026-03-07", "grave"},     /* 05:30 EDT: the 23-hour day's last hour */
	{2026, 3, 8, 10, 30, "2026-03-08", "day"},      /* 06:30 EDT */
	{2026, 10, 31, 10, 30, "2026-10-31", "day"},    /* 06:30 EDT */
	{2026, 10, 31, 19, 30, "2026-10-31", "swing"},  /* 15:30 EDT */
	{2026, 11, 1, 5, 30, "2026-10-31", "grave"},    /* 01:30 EDT, the first time */
	{2026, 11, 1, 6, 30, "2026-10-31", "grave"},    /* 01:30 EST, the repeated hour */
	{2026, 11, 1, 10, 30, "2026-10-31", "grave"},   /* 05:30 EST: the 25-hour day's last hour */
	{2026, 11, 1, 11, 30, "2026-11-01", "day"},     /* 06:30 EST */
};

#define ROUND_COUNT ((int)(sizeof(ROUNDS) / sizeof(ROUNDS[0])))

static void
write_config(const char *path, const char *db)
{
	FILE *f = fopen(path, "w");
	char hex[PB_SHA256_HEX_LEN];

	assert_non_null(f);
	pb_sha256_hex("audit", 5, hex);
	fprintf(f, "{\"listen\": \"127.0.0.1:1\", \"database\": \"%s\",\n"
	    " \"property\": {\"id\": \"B1\", \"name\": \"Bayfront\", \"time_zone\": \"America/New_York\","
	    " \"gaming_day_start\": \"06:00\", \"shifts\": [{\"name\": \"day\", \"start\": \"06:00\"},"
	    " {\"name\": \"swing\", \"start\": \"14:00\"}, {\"name\": \"grave\", \"start\": \"22:00\"}]},\n"
	    " \"games\": {\"standard\": {}},\n"
	    " \"tables\": [{\"id\": \"T1\", \"game\": \"standard\", \"seats\": 6,"
	    " \"limits\": {\"ante\": {\"min\": 500, \"max\": 50000}}}],\n"
	    " \"tokens\": [{\"name\": \"audit\", \"role\": \"auditor\", \"sha256\": \"%s\"}]}\n", db, hex);
	fclose(f);
}

static json_t *
hand(const char *a, const char *b, const char *c)
{
	return json_pack("[s,s,s]", a, b, c);
}

/* One whole round of T1 recorded at the Unix time t (seconds). */
static void
record_round(int64_t t)
{
	struct pb_error err;
	json_t *out = NULL;
	int status = 0;
	json_t *body = json_pack("{s:{s:{s:i}},s:{s:o},s:o,s:{s:s}}", "bets", "1", "ante", 1000, "hands", "1",
	    hand("AS", "KS", "QS"), "dealer", hand("2C", "3D", "5H"), "decisions", "1", "play");

	fake_now_ms = t * 1000;
	if (pit_round_open(&fx.pit, &DEALER, NULL, "T1", body, &out, &status, &err) < 0)
		fail_msg("pit_round_open: %d %s: %s", err.status, err.code, err.message);
	json_decref(out);
	json_decref(body);
}

static int
setup(void **state)
{
	struct store_options opt = {0};
	struct pb_error err;

	(void)state;
	snprintf(fx.dir, sizeof(fx.dir), "/tmp/pbgaming-XXXXXX");
	if (mkdtemp(fx.dir) == NULL)
		return -1;
	snprintf(fx.db, sizeof(fx.db), "%s/pb.db", fx.dir);
	snprintf(fx.cfg_path, sizeof(fx.cfg_path), "%s/pitboss.json", fx.dir);
	write_config(fx.cfg_path, fx.db);
	if ((fx.cfg = config_load(fx.cfg_path, &err)) == NULL) {
		fprintf(stderr, "config: %s\n", err.message);
		return -1;
	}
	opt.path = fx.db;
	opt.synchronous = "NORMAL";
	if ((fx.store = store_open(&opt, &err)) == NULL) {
		fprintf(stderr, "store: %s\n", err.message);
		return -1;
	}
	fx.pit.store = fx.store;
	fx.pit.cfg = fx.cfg;
	fake_now_ms = utc(2026, 3, 1, 0, 0) * 1000;
	if (pit_sync_tables(&fx.pit, &err) < 0) {
		fprintf(stderr, "sync: %s\n", err.message);
		return -1;
	}
	for (int i = 0; i < ROUND_COUNT; i++)
		record_round(utc(ROUNDS[i].y, (unsigned)ROUNDS[i].m, (unsigned)ROUNDS[i].d, ROUNDS[i].h, ROUNDS[i].min));
	return 0;
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	store_free(fx.store);
	config_free(fx.cfg);
	fake_now_ms = -1;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx.dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", fx.dir);
	return 0;
}

/* The summary of rp in the property's calendar, at the Unix time now_s; q filled too. */
static json_t *
summary(struct report_params *rp, int64_t now_s, struct report_query *q)
{
	struct pb_error err;
	json_t *out = NULL;

	rp->property = &fx.cfg->property;
	if (report_query_parse(REPORT_SUMMARY, rp, now_s * 1000, q, &err) < 0)
		fail_msg("report_query_parse: %s", err.message);
	if (pit_report(&fx.pit, &AUDITOR, q, &out, &err) < 0)
		fail_msg("report: %d %s: %s", err.status, err.code, err.message);
	return out;
}

/* The groups are exactly keys[i] with rounds[i] rounds, in this order. */
static void
assert_groups(const json_t *out, const char *const *keys, const int *rounds, int n)
{
	const json_t *groups = json_object_get(out, "groups");

	if ((int)json_array_size(groups) != n) {
		char *text = json_dumps(groups, JSON_COMPACT);
		fail_msg("%zu groups, expected %d: %.600s", json_array_size(groups), n, text);
	}
	for (int i = 0; i < n; i++) {
		const json_t *g = json_array_get(groups, (size_t)i);
		assert_string_equal(json_string_value(json_object_get(g, "key")), keys[i]);
		assert_int_equal(json_integer_value(json_object_get(g, "rounds")), rounds[i]);
	}
}

/* Gaming days across the spring change: 2026-03-07 lasts 23 hours and keeps the hours after 02:00 EST. */
static void
test_spring_gaming_days(void **state)
{
	struct report_params rp = {.group = "day", .from = "2026-03-07", .to = "2026-03-08"};
	struct report_query q;
	json_t *out;

	(void)state;
	out = summary(&rp, utc(2026, 3, 20, 0, 0), &q);
	assert_int_equal(q.from_ms, utc(2026, 3, 7, 11, 0) * 1000);     /* 06:00 EST */
	assert_int_equal(q.to_ms, utc(2026, 3, 9, 10, 0) * 1000);       /* 06:00 EDT on the 9th */
	assert_groups(out, (const char *const[]){"2026-03-07", "2026-03-08"}, (const int[]){4, 1}, 2);
	assert_string_equal(json_string_value(json_object_get(out, "time_zone")), "America/New_York");
	assert_string_equal(json_string_value(json_object_get(out, "gaming_day_start")), "06:00");
	assert_int_equal(json_integer_value(json_object_get(out, "tz_offset")), -300);
	json_decref(out);

	/* one gaming day, from its start to its end: 23 hours */
	rp.to = "2026-03-07";
	out = summary(&rp, utc(2026, 3, 20, 0, 0), &q);
	assert_int_equal(q.to_ms - q.from_ms, 23 * HOUR_S * 1000);
	assert_groups(out, (const char *const[]){"2026-03-07"}, (const int[]){4}, 1);
	json_decref(out);
}

/* Gaming days across the autumn change: 2026-10-31 lasts 25 hours; the repeated hour stays in it. */
static void
test_autumn_gaming_days(void **state)
{
	struct report_params rp = {.group = "day", .from = "2026-10-31", .to = "2026-10-31"};
	struct report_query q;
	json_t *out;

	(void)state;
	out = summary(&rp, utc(2026, 11, 20, 0, 0), &q);
	assert_int_equal(q.from_ms, utc(2026, 10, 31, 10, 0) * 1000);   /* 06:00 EDT */
	assert_int_equal(q.to_ms, utc(2026, 11, 1, 11, 0) * 1000);      /* 06:00 EST */
	assert_groups(out, (const char *const[]){"2026-10-31"}, (const int[]){5}, 1);
	json_decref(out);

	rp.to = "2026-11-01";
	out = summary(&rp, utc(2026, 11, 20, 0, 0), &q);
	assert_groups(out, (const char *const[]){"2026-10-31", "2026-11-01"}, (const int[]){5, 1}, 2);
	json_decref(out);

	/* New York's days are not UTC days: the day roll-ups are not read for them */
	assert_false(q.utc_days);
}

/* The configured shifts name the groups, in the order of the gaming day (not of their names). */
static void
test_named_shifts(void **state)
{
	struct report_params rp = {.group = "shift", .from = "2026-10-31", .to = "2026-11-01"};
	struct report_query q;
	json_t *out, *names;

	(void)state;
	out = summary(&rp, utc(2026, 11, 20, 0, 0), &q);
	assert_groups(out, (const char *const[]){"2026-10-31 day", "2026-10-31 swing", "2026-10-31 grave", "2026-11-01 day"},
	    (const int[]){1, 1, 3, 1}, 4);
	names = json_object_get(out, "shift_names");
	assert_int_equal(json_array_size(names), 3);
	assert_string_equal(json_string_value(json_array_get(names, 2)), "grave");
	assert_string_equal(json_string_value(json_array_get(json_object_get(out, "shifts"), 1)), "14:00");
	json_decref(out);

	/* spring: the grave shift of 2026-03-07 holds the hours either side of the jump */
	rp.from = "2026-03-07";
	rp.to = "2026-03-08";
	out = summary(&rp, utc(2026, 3, 20, 0, 0), &q);
	assert_groups(out, (const char *const[]){"2026-03-07 day", "2026-03-07 grave", "2026-03-08 day"},
	    (const int[]){1, 3, 1}, 3);
	json_decref(out);

	/* shifts= in the query keeps its meaning: local start times, keys by local date and times */
	rp.shifts = "06:00,18:00";
	rp.from = "2026-10-31";
	rp.to = "2026-10-31";
	out = summary(&rp, utc(2026, 11, 20, 0, 0), &q);
	assert_groups(out, (const char *const[]){"2026-10-31 06:00-18:00", "2026-10-31 18:00-06:00"}, (const int[]){2, 3}, 2);
	assert_null(json_object_get(out, "shift_names"));
	json_decref(out);
}

/* Without from and to: the current gaming day, whatever the UTC date. */
static void
test_default_range(void **state)
{
	struct report_params rp = {.group = "day"};
	struct report_query q;
	json_t *out;

	(void)state;
	/* 2026-11-01T10:30Z is 05:30 EST: still gaming day 2026-10-31 */
	out = summary(&rp, utc(2026, 11, 1, 10, 30), &q);
	assert_int_equal(q.from_ms, utc(2026, 10, 31, 10, 0) * 1000);
	assert_int_equal(q.to_ms, utc(2026, 11, 1, 11, 0) * 1000);
	assert_groups(out, (const char *const[]){"2026-10-31"}, (const int[]){5}, 1);
	json_decref(out);
	/* an hour later, 06:30 EST: gaming day 2026-11-01 */
	out = summary(&rp, utc(2026, 11, 1, 11, 30), &q);
	assert_int_equal(q.from_ms, utc(2026, 11, 1, 11, 0) * 1000);
	assert_groups(out, (const char *const[]){"2026-11-01"}, (const int[]){1}, 1);
	json_decref(out);
}

/* tz_offset (superseded) keeps today's meaning exactly: UTC dates, calendar days at the fixed offset. */
static void
test_tz_offset_unchanged(void **state)
{
	struct report_params rp = {.group = "day", .from = "2026-10-31", .to = "2026-11-01", .tz_offset = "-240"};
	struct report_query q;
	json_t *out;

	(void)state;
	out = summary(&rp, utc(2026, 11, 20, 0, 0), &q);
	assert_int_equal(q.from_ms, utc(2026, 10, 31, 0, 0) * 1000);
	assert_int_equal(q.to_ms, utc(2026, 11, 2, 0, 0) * 1000);
	assert_null(q.cal);
	assert_groups(out, (const char *const[]){"2026-10-31", "2026-11-01"}, (const int[]){2, 4}, 2);
	assert_null(json_object_get(out, "time_zone"));
	assert_int_equal(json_integer_value(json_object_get(out, "tz_offset")), -240);
	json_decref(out);
}

/* A shifts= start that is not a UTC hour at one of the zone's offsets is refused, as at a fixed offset. */
static void
test_refusals(void **state)
{
	struct report_params rp = {.group = "shift", .shifts = "06:30", .property = NULL};
	struct report_query q;
	struct pb_error err;

	(void)state;
	rp.property = &fx.cfg->property;
	assert_int_equal(report_query_parse(REPORT_SUMMARY, &rp, 0, &q, &err), -1);
	assert_string_equal(err.code, "invalid_query");
	assert_non_null(strstr(err.message, "America/New_York"));
	rp.shifts = NULL;
	rp.group = "day";
	rp.from = "2026-02-30";
	assert_int_equal(report_query_parse(REPORT_SUMMARY, &rp, 0, &q, &err), -1);
	assert_string_equal(err.code, "invalid_query");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spring_gaming_days),
		cmocka_unit_test(test_autumn_gaming_days),
		cmocka_unit_test(test_named_shifts),
		cmocka_unit_test(test_default_range),
		cmocka_unit_test(test_tz_offset_unchanged),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
