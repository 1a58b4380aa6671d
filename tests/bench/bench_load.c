/*
 * bench_load.c - round reconstruction and verification in a big database.
 *
 * Phase 1 fills a database through the real code path, without HTTP: the
 * configuration is loaded as pitbossd loads it, the store opened and
 * migrated, the tables synchronised, and every round is a whole-round JSON
 * body given to pit_round_open() (one BEGIN IMMEDIATE transaction per
 * round: checks, settlement, rows, hash-chained events, aggregates,
 * checkpoints every 100 rounds of a table).  Only the load runs with
 * PRAGMA synchronous=OFF (no fsync per commit); the daemon measured after it
 * runs with FULL.
 *
 * Phase 2 starts pitbossd on that file (start-up chain check from the last
 * checkpoint) and measures, over round ids drawn uniformly at random, the
 * latency of GET /api/v1/rounds/{id} (the round read back from its events)
 * and of GET /api/v1/rounds/{id}/verify (replayed, every payout recomputed,
 * the chain around each event checked): p50, p99, max; one keep-alive
 * connection, one request at a time.
 *
 * usage: bench_load [--smoke] [--rounds N] [--samples S] [--db PATH] [--pitbossd PATH]
 *                   [--tables N] [--timeline]
 *   --rounds   rounds in the database (default 1000000; --smoke: 1000)
 *   --tables   tables dealing (default 8, at most BENCH_MAX_TABLES)
 *   --timeline deal on a simulated clock instead of the real one, as a pit
 *              would over months: each table a round a minute from
 *              TIMELINE_START_MS (the tables interleaved), 64 dealers changing
 *              every eight hours; the record then spans days, so the summary
 *              by day, table and dealer has work to do (at 20 tables, 10^7
 *              rounds are 347 days).  Must be the same on every run that
 *              reuses a database.
 *   --samples  requests per endpoint (default 2000; --smoke: 200)
 *   --db PATH  keep the database at PATH and reuse it on the next run when
 *              it already holds the rounds asked for (default: a temp dir,
 *              removed at the end); its configuration is kept at PATH.json
 * Exit status 0 when every answer was 200 (and verify said ok), 1 otherwise.
 */
#include <jansson.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "cli/http_client.h"
#include "store/store_int.h"
#include "config/config.h"
#include "../common/fake_clock.h"
#include "table/rounds/rounds.h"

#define BODY_MAX 2048
#define MINUTE_MS 60000LL
#define TIMELINE_START_MS 1764547200000LL   /* 2025-12-01T00:00:00Z: 10^7 rounds at 20 tables end before 2026-11-26 */
#define TIMELINE_DEALERS 64

struct options {
	const char *pitbossd;
	const char *db;
	long rounds;
	int samples;
	int tables;
	bool smoke;
	bool timeline;
};

/* Reads the options; -1 on a usage error (printed). */
static int
parse_args(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->rounds = 1000000;
	o->samples = 2000;
	o->tables = 8;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--smoke") == 0) {
			o->smoke = true;
			o->rounds = 1000;
			o->samples = 200;
		} else if (strcmp(a, "--rounds") == 0 && v) {
			o->rounds = atol(v);
			i++;
		} else if (strcmp(a, "--samples") == 0 && v) {
			o->samples = atoi(v);
			i++;
		} else if (strcmp(a, "--tables") == 0 && v) {
			o->tables = atoi(v);
			i++;
		} else if (strcmp(a, "--timeline") == 0) {
			o->timeline = true;
		} else if (strcmp(a, "--db") == 0 && v) {
			o->db = v;
			i++;
		} else if (strcmp(a, "--pitbossd") == 0 && v) {
			o->pitbossd = v;
			i++;
		} else {
			fprintf(stderr, "usage: bench_load [--smoke] [--rounds N] [--samples S] [--db PATH] [--pitbossd PATH] "
			    "[--tables N] [--timeline]\n");
			return -1;
		}
	}
	if (o->rounds < 1 || o->samples < 1 || o->tables < 1 || o->tables > BENCH_MAX_TABLES) {
		fprintf(stderr, "bench_load: --rounds and --samples must be at least 1, --tables 1 to %d\n", BENCH_MAX_TABLES);
		return -1;
	}
	return 0;
}

/*
 * Adds rounds until the database holds `want`, through pit_round_open() as
 * the HTTP handler calls it.  Prints progress and the load rate.
 */
/*
 * --timeline: sets the simulated clock for round i and names its dealer.
 * Table k deals its n-th round at TIMELINE_START_MS + n minutes, offset by
 * k/tables of a minute and up to 2 s of jitter; dealers change every 8 h.
 */
static void
timeline_step(const struct options *o, long i, struct bench_rng *rng, struct actor *actor)
{
	static char names[TIMELINE_DEALERS][16];
	long k = i % o->tables, n = i / o->tables;
	int64_t shift;

	if (names[0][0] == '\0')
		for (int d = 0; d < TIMELINE_DEALERS; d++)
			snprintf(names[d], sizeof(names[d]), "dealer-%02d", d + 1);
	fake_now_ms = TIMELINE_START_MS + n * MINUTE_MS + k * (MINUTE_MS / o->tables) + (int64_t)bench_rng_below(rng, 2000);
	shift = (fake_now_ms - TIMELINE_START_MS) / (8 * 60 * MINUTE_MS);
	actor->name = names[(k * 3 + shift) % TIMELINE_DEALERS];
}

static int
load(const struct options *o, const char *cfg_path, long have, long want)
{
	struct pb_error err;
	struct config *cfg = config_load(cfg_path, &err);
	struct store_options so = {0};
	struct store *s = NULL;
	struct signer *signer = NULL;
	struct pit pit = {0};
	struct actor actor = {BENCH_DEALER_NAME, ROLE_BIT(ROLE_DEALER), NULL, false};
	struct bench_rng rng, clock_rng;
	double t0 = bench_now();
	char wal[4200];
	long step = (want - have) / 20 > 0 ? (want - have) / 20 : 1;
	int rc = -1;
	char *msg = NULL;

	if (cfg == NULL) {
		fprintf(stderr, "bench_load: %s\n", err.message);
		return -1;
	}
	/* Before the store opens: opening catches the report roll-ups up to "now", which must be the simulated start. */
	if (o->timeline && have == 0)
		fake_now_ms = TIMELINE_START_MS;
	so.path = cfg->database;
	so.synchronous = "FULL";
	s = store_open(&so, &err);
	if (s == NULL) {
		fprintf(stderr, "bench_load: %s\n", err.message);
		goto out;
	}
	/* The load phase only: store_open accepts FULL, EXTRA or NORMAL. */
	if (sqlite3_exec(store_db(s), "PRAGMA synchronous = OFF", NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "bench_load: PRAGMA synchronous = OFF: %s\n", msg ? msg : "");
		sqlite3_free(msg);
		goto out;
	}
	signer = signer_load(cfg->checkpoint_key, &err);
	if (signer == NULL) {
		fprintf(stderr, "bench_load: %s\n", err.message);
		goto out;
	}
	pit.store = s;
	pit.cfg = cfg;
	pit.signer = signer;
	if (pit_sync_tables(&pit, &err) < 0) {
		fprintf(stderr, "bench_load: %s\n", err.message);
		goto out;
	}
	snprintf(wal, sizeof(wal), "%s-wal", cfg->database);
	printf("loading %ld rounds through pit_round_open (whole rounds, %d tables, %s clock, synchronous=OFF for the load "
	    "only)\n", want - have, o->tables, o->timeline ? "simulated" : "real");
	bench_rng_seed(&rng, 0x10ad0000 + (uint64_t)have);
	bench_rng_seed(&clock_rng, 0xc10c0000 + (uint64_t)have);
	for (long i = have; i < want; i++) {
		struct bench_round rd;
		char body[BODY_MAX], table[8];
		json_t *j, *out = NULL;
		int status = 0;

		if (o->timeline)
			timeline_step(o, i, &clock_rng, &actor);
		bench_round_plan(&rng, (int)(i % o->tables), &rd);
		bench_round_body(&rd, body, sizeof(body));
		snprintf(table, sizeof(table), "T%d", rd.table + 1);
		j = json_loads(body, JSON_REJECT_DUPLICATES, NULL);
		if (j == NULL || pit_round_open(&pit, &actor, NULL, table, j, &out, &status, &err) < 0) {
			fprintf(stderr, "bench_load: round %ld: %s\n  body: %s\n", i + 1, j ? err.message : "unparsable body", body);
			json_decref(j);
			goto out;
		}
		json_decref(j);
		json_decref(out);
		if ((i + 1 - have) % step == 0 || i + 1 == want) {
			double now = bench_now();
			printf("  %9ld rounds  %7.1f s  %7.0f rounds/s so far  (database %lld bytes, WAL %lld)\n", i + 1, now - t0,
			    (double)(i + 1 - have) / (now - t0), bench_file_size(cfg->database), bench_file_size(wal));
		}
	}
	/* A checkpoint at every chain head, so that pitbossd's start-up check has little to walk. */
	if (audit_checkpoint_all(&pit, &err) < 0) {
		fprintf(stderr, "bench_load: checkpoint: %s\n", err.message);
		goto out;
	}
	fake_now_ms = -1;
	sqlite3_exec(store_db(s), "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
	printf("loaded %ld rounds in %.1f s (%.0f rounds/s)\n", want - have, bench_now() - t0,
	    (double)(want - have) / (bench_now() - t0));
	rc = 0;
out:
	store_free(s);
	signer_free(signer);
	config_free(cfg);
	return rc;
}

/* S requests of path_fmt (with a random round id) on one connection; latency percentiles in ms. */
static int
measure(const char *url, const char *path_fmt, long max_id, int samples, bool verify, double *p50, double *p99,
    double *mx, double *mean)
{
	struct pb_error err;
	struct http_client *c = http_client_new(url, BENCH_AUDITOR_TOKEN, &err);
	struct bench_rng rng;
	double *lat = calloc((size_t)samples, sizeof(double)), sum = 0;
	char path[128];
	int bad = 0;

	if (c == NULL || lat == NULL) {
		http_client_free(c);
		free(lat);
		return -1;
	}
	http_client_set_timeout(c, 60000);
	bench_rng_seed(&rng, 4242 + (uint64_t)verify);
	for (int i = 0; i < samples; i++) {
		struct http_response resp = {0};
		long id = 1 + (long)(bench_rng_next(&rng) % (uint64_t)max_id);
		double t0;

		snprintf(path, sizeof(path), path_fmt, id);
		t0 = bench_now();
		if (http_request(c, "GET", path, NULL, NULL, &resp, &err) < 0) {
			fprintf(stderr, "bench_load: GET %s: %s\n", path, err.message);
			bad++;
			continue;
		}
		lat[i] = (bench_now() - t0) * 1e3;
		sum += lat[i];
		if (resp.status != 200 || (verify && strstr(resp.body, "\"ok\":true") == NULL)) {
			if (bad++ < 5)
				fprintf(stderr, "bench_load: GET %s: %d %.300s\n", path, resp.status, resp.body);
		}
		http_response_free(&resp);
	}
	http_client_free(c);
	*mean = sum / samples;
	*p50 = bench_percentile(lat, (size_t)samples, 50);
	*p99 = bench_percentile(lat, (size_t)samples, 99);
	*mx = lat[samples - 1];
	free(lat);
	return bad == 0 ? 0 : -1;
}

/* Loads (or reuses) the database, then measures pitbossd on it; see the top of this file. */
int
main(int argc, char **argv)
{
	struct options o;
	struct bench_daemon d = {0};
	const char *pitbossd;
	char *dir = NULL, cfg[4200], db[4200], log[4200];
	long have = 0, max_id = 0, rss = -1, hwm = -1;
	double mx, mean, r50, r99, v50, v99;
	int port, status = 1, stop;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (parse_args(argc, argv, &o) < 0)
		return 2;
	if (sodium_init() < 0)
		return 1;
	pitbossd = bench_find_pitbossd(o.pitbossd, argv[0]);
	if (pitbossd == NULL) {
		fprintf(stderr, "bench_load: no pitbossd (give --pitbossd PATH or set PB_BUILD_DIR)\n");
		return 2;
	}
	dir = bench_tmpdir("pb-bench-load");
	if (dir == NULL) {
		perror("bench_load: mkdtemp");
		return 1;
	}
	snprintf(cfg, sizeof(cfg), "%s/pitboss.json", dir);
	snprintf(db, sizeof(db), "%s", o.db ? o.db : "");
	if (o.db == NULL)
		snprintf(db, sizeof(db), "%s/pitboss.db", dir);
	snprintf(log, sizeof(log), "%s/pitbossd.log", dir);
	port = bench_free_port();
	if (port <= 0 || bench_write_config(cfg, o.tables, db, port,
	    "\"checkpoint\": {\"startup_check\": \"since_checkpoint\"}") < 0) {
		fprintf(stderr, "bench_load: cannot write the configuration in %s\n", dir);
		goto out;
	}
	/* A kept database keeps its configuration beside it (DB.json): its tables, for bench_reports --reuse-db. */
	if (o.db != NULL) {
		char kept[4300];
		snprintf(kept, sizeof(kept), "%s.json", db);
		if (bench_write_config(kept, o.tables, db, port, "\"checkpoint\": {\"startup_check\": \"since_checkpoint\"}") < 0) {
			fprintf(stderr, "bench_load: cannot write %s\n", kept);
			goto out;
		}
	}
	if (bench_count_rounds(db, &have, &max_id) < 0) {
		fprintf(stderr, "bench_load: %s is not a pitboss database\n", db);
		goto out;
	}
	printf("bench_load: %ld rounds wanted in %s (%ld there)%s\n", o.rounds, db, have,
	    o.smoke ? " (smoke run: figures not meaningful)" : "");
	if (have < o.rounds && load(&o, cfg, have, o.rounds) < 0)
		goto out;
	if (bench_count_rounds(db, &have, &max_id) < 0 || max_id < 1)
		goto out;
	printf("database: %ld rounds, %lld bytes\n", have, bench_file_size(db));

	if (bench_daemon_start(&d, pitbossd, cfg, port, log, 600) < 0)
		goto out;
	printf("pitbossd started in %.2f s on the %ld-round database (start-up chain check since the last checkpoint), "
	    "synchronous=FULL\n", d.start_seconds, have);
	if (measure(d.url, "/api/v1/rounds/%ld", max_id, o.samples, false, &r50, &r99, &mx, &mean) < 0)
		goto stop;
	printf("GET /api/v1/rounds/{id}         %d random ids: ms mean %.2f p50 %.2f p99 %.2f max %.2f\n", o.samples, mean, r50,
	    r99, mx);
	if (measure(d.url, "/api/v1/rounds/%ld/verify", max_id, o.samples, true, &v50, &v99, &mx, &mean) < 0)
		goto stop;
	printf("GET /api/v1/rounds/{id}/verify  %d random ids: ms mean %.2f p50 %.2f p99 %.2f max %.2f\n", o.samples, mean,
	    v50, v99, mx);
	bench_rss_kib(d.pid, &rss, &hwm);
	printf("\n%-46s %s\n", "figure", "value");
	printf("%-46s %ld rounds, %.1f MiB\n", "database", have, bench_file_size(db) / 1048576.0);
	printf("%-46s %.2f s\n", "pitbossd start (health answers)", d.start_seconds);
	printf("%-46s %.2f / %.2f ms\n", "GET /rounds/{id} p50 / p99", r50, r99);
	printf("%-46s %.2f / %.2f ms\n", "GET /rounds/{id}/verify p50 / p99", v50, v99);
	printf("%-46s %.1f / %.1f MiB\n", "pitbossd VmRSS / VmHWM after", rss / 1024.0, hwm / 1024.0);
	status = 0;
stop:
	stop = bench_daemon_stop(&d, 120);
	if (stop != 0) {
		fprintf(stderr, "bench_load: pitbossd did not stop cleanly (exit %d); see %s\n", stop, log);
		status = 1;
	}
out:
	if (status == 0 && o.db == NULL)
		bench_rmdir(dir);
	else if (status == 0)
		bench_rmdir(dir);   /* the config and the log; the database is elsewhere */
	else
		printf("kept %s\n", dir);
	free(dir);
	return status;
}
