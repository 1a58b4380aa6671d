/*
 * bench_startup.c - the start-up integrity check on a big database, and
 * what its background walk costs the pit.
 *
 * Starts pitbossd on a database made by bench_load (8 tables T1..T8) with
 * the given checkpoint.startup_check, times the start to the first 200 on
 * /api/v1/health, and at once deals whole rounds (POST
 * /api/v1/tables/{t}/rounds, as bench_http's (a)) from K keep-alive
 * connections.  /metrics is read every 200 ms: phase A lasts while the
 * start-up check's background walk runs (pitboss_startup_check_running 1),
 * phase B as long again after it ended.  For each phase: whole rounds per
 * second, per-request p50 / p99, and the largest WAL seen.  With
 * "since_checkpoint" (no walk) phase A lasts --seconds: the control run.
 *
 * usage: bench_startup --db PATH [--pitbossd PATH] [--mode full|since_checkpoint]
 *                      [--clients K] [--rate R] [--pause-ms P] [--seconds S] [--tables N]
 *                      [--walk-only]
 *   --db         a database of bench_load's (it gets the rounds dealt here)
 *   --mode       checkpoint.startup_check (default full)
 *   --clients    dealing connections (default 4; 0 with --walk-only)
 *   --rate       whole rounds per second in all, paced (default: as fast as
 *                answered); a live pit of 20 tables deals about 0.3 a second
 *   --pause-ms   checkpoint.startup_walk_pause_ms (default: the daemon's)
 *   --seconds    phase A of the control run (default 60)
 *   --tables     the tables of the database (bench_load --tables; default 8)
 *   --walk-only  no dealing: the walk's own duration on an idle pit, then its
 *                anchor: one raw pass over the events in rowid order on one
 *                SQLite connection, each event's hash recomputed and compared
 *                (the least any walk of every chain must do), and the ratio
 *   --cold       drop the kernel's page cache before the walk and before the
 *                anchor (writes /proc/sys/vm/drop_caches: root only), so both
 *                read the file from disk
 * Exit status 0 when every round was answered 201 and the daemon stopped
 * cleanly; 1 otherwise.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "bench_common.h"
#include "cli/http_client.h"
#include "store/store.h"

#define LOAD_TABLES 8
#define BODY_MAX 2048
#define MAX_CLIENTS 32
#define MAX_SAMPLES 4000000

struct options {
	const char *pitbossd;
	const char *db;
	const char *mode;
	int clients;
	double rate;             /* rounds/s in all; 0: as fast as answered */
	int pause_ms;            /* -1: not set */
	double seconds;
	int tables;              /* tables in the configuration (the database's) */
	bool walk_only;
	bool cold;
};

/* One request's end time (since the start) and latency. */
struct sample {
	double at, latency;
};

struct dealing {
	const char *url;
	atomic_bool stop;
	atomic_int errors;
	atomic_size_t next;      /* the next free slot of samples */
	struct sample *samples;
	double t0;
	double interval;         /* seconds between one dealer's rounds; 0: none */
	int tables;              /* rounds go to T1..T<tables> */
};

/* What each dealer thread gets: the shared run and its own seed. */
struct dealer_arg {
	struct dealing *d;
	int seed;
};

static int
parse_args(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = "full";
	o->clients = 4;
	o->pause_ms = -1;
	o->seconds = 60;
	o->tables = LOAD_TABLES;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--db") == 0 && v) {
			o->db = argv[++i];
		} else if (strcmp(a, "--pitbossd") == 0 && v) {
			o->pitbossd = argv[++i];
		} else if (strcmp(a, "--mode") == 0 && v) {
			o->mode = argv[++i];
		} else if (strcmp(a, "--clients") == 0 && v) {
			o->clients = atoi(argv[++i]);
		} else if (strcmp(a, "--rate") == 0 && v) {
			o->rate = atof(argv[++i]);
		} else if (strcmp(a, "--pause-ms") == 0 && v) {
			o->pause_ms = atoi(argv[++i]);
		} else if (strcmp(a, "--seconds") == 0 && v) {
			o->seconds = atof(argv[++i]);
		} else if (strcmp(a, "--tables") == 0 && v) {
			o->tables = atoi(argv[++i]);
		} else if (strcmp(a, "--walk-only") == 0) {
			o->walk_only = true;
		} else if (strcmp(a, "--cold") == 0) {
			o->cold = true;
		} else {
			o->db = NULL;
			break;
		}
	}
	if (o->walk_only)
		o->clients = 0;
	if (o->db == NULL || o->clients < 0 || o->clients > MAX_CLIENTS || o->tables < 1 || o->tables > BENCH_MAX_TABLES ||
	    (strcmp(o->mode, "full") != 0 && strcmp(o->mode, "since_checkpoint") != 0)) {
		fprintf(stderr, "usage: bench_startup --db PATH [--pitbossd PATH] [--mode full|since_checkpoint] [--clients K] [--rate R] "
		    "[--pause-ms P] [--seconds S] [--tables N] [--walk-only [--cold]]\n");
		return -1;
	}
	return 0;
}

/* Empties the kernel's page cache (after a sync), so that the next read comes from disk.  -1: not allowed. */
static int
drop_page_cache(void)
{
	FILE *f;

	sync();
	if ((f = fopen("/proc/sys/vm/drop_caches", "w")) == NULL)
		return -1;
	fputs("1\n", f);
	return fclose(f) == 0 ? 0 : -1;
}

/*
 * The walk's anchor: every event read once in rowid order on one read-only
 * connection, its hash recomputed from its fields and compared with the
 * stored one.  Sets *events and *seconds; -1 when the file cannot be read.
 */
static int
anchor_walk(const char *db, double *events, double *seconds)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	char hash[PB_SHA256_HEX_LEN];
	double t0 = bench_now();
	long long n = 0, bad = 0;
	int rc;

	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(h, "SELECT table_id, table_seq, coalesce(round_id, 0), type, at, actor, body, prev_hash, hash "
	    "FROM events ORDER BY id", -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "bench_startup: anchor: %s\n", sqlite3_errmsg(h));
		sqlite3_close(h);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *body = (const char *)sqlite3_column_text(st, 6);

		store_event_hash_fields((const char *)sqlite3_column_text(st, 7), (const char *)sqlite3_column_text(st, 0),
		    sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2), (const char *)sqlite3_column_text(st, 3),
		    (const char *)sqlite3_column_text(st, 4), (const char *)sqlite3_column_text(st, 5), body,
		    (size_t)sqlite3_column_bytes(st, 6), hash);
		bad += strcmp(hash, (const char *)sqlite3_column_text(st, 8)) != 0;
		n++;
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	if (rc != SQLITE_DONE || bad > 0) {
		fprintf(stderr, "bench_startup: anchor: %s (%lld event(s) whose hash differs)\n", rc != SQLITE_DONE ? "read failed" :
		    "the file was altered", bad);
		return -1;
	}
	*events = (double)n;
	*seconds = bench_now() - t0;
	return 0;
}

/* A dealer terminal: whole rounds at random tables until told to stop. */
static void *
dealer(void *arg)
{
	struct dealer_arg *da = arg;
	struct dealing *d = da->d;
	struct pb_error err;
	struct http_client *c = http_client_new(d->url, BENCH_DEALER_TOKEN, &err);
	struct bench_rng rng;
	struct bench_round rd;
	char body[BODY_MAX], path[64];
	double next = bench_now();

	bench_rng_seed(&rng, 0x5eed0000u + (uint64_t)da->seed);
	if (c == NULL) {
		atomic_fetch_add(&d->errors, 1);
		return NULL;
	}
	while (!atomic_load(&d->stop)) {
		struct http_response resp = {0};
		double t0;
		size_t slot;

		if (d->interval > 0) {
			/* Paced: one round every interval, never catching up in a burst. */
			double wait = next - bench_now();
			if (wait > 0)
				usleep((useconds_t)(wait * 1e6));
			next = (next > bench_now() ? next : bench_now()) + d->interval;
		}
		bench_round_plan(&rng, (int)bench_rng_below(&rng, (unsigned)d->tables), &rd);
		bench_round_body(&rd, body, sizeof(body));
		snprintf(path, sizeof(path), "/api/v1/tables/T%d/rounds", rd.table + 1);
		t0 = bench_now();
		if (http_request(c, "POST", path, body, NULL, &resp, &err) < 0 || resp.status != 201) {
			if (atomic_fetch_add(&d->errors, 1) < 5)
				fprintf(stderr, "bench_startup: POST %s: %s %.300s\n", path, resp.status ? "" : err.message,
				    resp.body ? resp.body : "");
			http_response_free(&resp);
			continue;
		}
		http_response_free(&resp);
		slot = atomic_fetch_add(&d->next, 1);
		if (slot < MAX_SAMPLES) {
			d->samples[slot].at = bench_now() - d->t0;
			d->samples[slot].latency = bench_now() - t0;
		}
	}
	http_client_free(c);
	return NULL;
}

/* The value of a /metrics line starting with name (and a space), or -1. */
static double
metric(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = text; p != NULL && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, name, n) == 0 && p[n] == ' ')
			return atof(p + n + 1);
	return -1;
}

struct phase {
	double from, to;         /* seconds since the start */
	long long wal_max;       /* bytes */
};

/* Rounds per second and latency percentiles of the samples that ended in the phase. */
static void
report(const char *name, const struct dealing *d, size_t n, const struct phase *ph)
{
	double *lat = malloc(sizeof(double) * (n ? n : 1));
	size_t k = 0;

	for (size_t i = 0; lat != NULL && i < n; i++)
		if (d->samples[i].at >= ph->from && d->samples[i].at < ph->to)
			lat[k++] = d->samples[i].latency * 1000.0;
	if (k == 0) {
		printf("%-34s %6.1f s  no rounds\n", name, ph->to - ph->from);
	} else {
		double p50 = bench_percentile(lat, k, 50), p99 = bench_percentile(lat, k, 99);
		printf("%-34s %6.1f s  %7zu rounds  %7.1f rounds/s  p50 %6.2f ms  p99 %6.2f ms  WAL max %.1f MiB\n", name,
		    ph->to - ph->from, k, (double)k / (ph->to - ph->from), p50, p99, (double)ph->wal_max / 1048576.0);
	}
	free(lat);
}

int
main(int argc, char **argv)
{
	struct options o;
	struct bench_daemon bd;
	struct dealing d;
	struct phase a = {0}, b = {0};
	pthread_t th[MAX_CLIENTS];
	struct dealer_arg da[MAX_CLIENTS];
	struct pb_error err;
	struct http_client *mc = NULL;
	const char *pitbossd;
	char *dir = NULL, cfg[4300], log[4300], extra[256], wal[4300];
	double walk_s = -1, events = -1, end_a = 0;
	int port, status = 1, started = 0, stop;
	bool in_a = true;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (parse_args(argc, argv, &o) < 0)
		return 2;
	pitbossd = bench_find_pitbossd(o.pitbossd, argv[0]);
	if (pitbossd == NULL) {
		fprintf(stderr, "bench_startup: no pitbossd (give --pitbossd PATH or set PB_BUILD_DIR)\n");
		return 2;
	}
	memset(&d, 0, sizeof(d));
	d.samples = calloc(MAX_SAMPLES, sizeof(*d.samples));
	dir = bench_tmpdir("pb-bench-startup");
	if (dir == NULL || d.samples == NULL)
		goto out;
	snprintf(cfg, sizeof(cfg), "%s/pitboss.json", dir);
	snprintf(log, sizeof(log), "%s/pitbossd.log", dir);
	snprintf(wal, sizeof(wal), "%s-wal", o.db);
	if (o.pause_ms >= 0)
		snprintf(extra, sizeof(extra), "\"checkpoint\": {\"startup_check\": \"%s\", \"startup_walk_pause_ms\": %d}", o.mode,
		    o.pause_ms);
	else
		snprintf(extra, sizeof(extra), "\"checkpoint\": {\"startup_check\": \"%s\"}", o.mode);
	port = bench_free_port();
	if (port <= 0 || bench_write_config(cfg, o.tables, o.db, port, extra) < 0)
		goto out;
	if (o.cold && drop_page_cache() < 0) {
		fprintf(stderr, "bench_startup: --cold: cannot drop the page cache (root only)\n");
		goto out;
	}
	if (bench_daemon_start(&bd, pitbossd, cfg, port, log, 1800) < 0)
		goto out;
	printf("pitbossd listening %.2f s after exec (startup_check %s), database %s (%.1f MiB)\n", bd.start_seconds, o.mode,
	    o.db, bench_file_size(o.db) / 1048576.0);
	d.url = bd.url;
	d.t0 = bench_now();
	d.interval = o.rate > 0 && o.clients > 0 ? (double)o.clients / o.rate : 0;
	d.tables = o.tables;
	for (; started < o.clients; started++) {
		da[started].d = &d;
		da[started].seed = started;
		if (pthread_create(&th[started], NULL, dealer, &da[started]) != 0)
			break;
	}
	mc = http_client_new(bd.url, BENCH_AUDITOR_TOKEN, &err);
	if (mc == NULL)
		goto stop;
	for (;;) {
		struct http_response resp = {0};
		double now = bench_now() - d.t0, running;
		long long w = bench_file_size(wal);

		if (http_request(mc, "GET", "/metrics", NULL, NULL, &resp, &err) < 0 || resp.status != 200) {
			fprintf(stderr, "bench_startup: GET /metrics: %s\n", err.message);
			http_response_free(&resp);
			goto stop;
		}
		running = metric(resp.body, "pitboss_startup_check_running");
		if (in_a && (strcmp(o.mode, "full") == 0 ? running == 0 : now >= o.seconds)) {
			walk_s = metric(resp.body, "pitboss_startup_check_seconds");
			events = metric(resp.body, "pitboss_startup_check_events{progress=\"checked\"}");
			end_a = now;
			in_a = false;
		}
		http_response_free(&resp);
		if (in_a && w > a.wal_max)
			a.wal_max = w;
		if (!in_a && w > b.wal_max)
			b.wal_max = w;
		if (!in_a && (o.walk_only || now >= 2 * end_a))
			break;
		usleep(200000);
	}
	atomic_store(&d.stop, true);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	started = 0;
	a.from = 0;
	a.to = end_a;
	b.from = end_a;
	b.to = bench_now() - d.t0;
	printf("start-up check: %.0f events checked in %.1f s since the start (%.0f events/s), %d dealing connection(s)%s\n",
	    events, walk_s, walk_s > 0 ? events / walk_s : 0.0, o.clients, o.rate > 0 ? ", paced" : ", as fast as answered");
	if (o.clients > 0) {
		size_t n = atomic_load(&d.next);
		if (n > MAX_SAMPLES)
			n = MAX_SAMPLES;
		report(strcmp(o.mode, "full") == 0 ? "A: while the walk runs" : "A: first phase (no walk)", &d, n, &a);
		report("B: as long again, after", &d, n, &b);
	}
	status = atomic_load(&d.errors) == 0 ? 0 : 1;
	if (o.walk_only) {
		double an = 0, as = 0;

		if ((o.cold && drop_page_cache() < 0) || anchor_walk(o.db, &an, &as) < 0) {
			status = 1;
		} else {
			printf("anchor (every event read in rowid order on one connection, its hash recomputed%s): %.0f events in %.1f s "
			    "(%.0f events/s)\n", o.cold ? ", from disk" : "", an, as, as > 0 ? an / as : 0.0);
			if (walk_s > 0 && as > 0)
				printf("walk / anchor: %.2f of the anchor's rate\n", (events / walk_s) / (an / as));
		}
	}
	if (atomic_load(&d.errors) > 0)
		printf("%d round(s) not answered 201\n", atomic_load(&d.errors));
stop:
	atomic_store(&d.stop, true);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	http_client_free(mc);
	stop = bench_daemon_stop(&bd, 120);
	if (stop != 0) {
		fprintf(stderr, "bench_startup: pitbossd did not stop cleanly (exit %d); see %s\n", stop, log);
		status = 1;
	}
out:
	if (status == 0 && dir != NULL)
		bench_rmdir(dir);
	else if (dir != NULL)
		printf("kept %s\n", dir);
	free(dir);
	free(d.samples);
	return status;
}
