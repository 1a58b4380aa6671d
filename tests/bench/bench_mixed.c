/*
 * bench_mixed.c - a dealer's latency while everyone else is busy too.
 *
 * Starts pitbossd on a database of N recorded rounds (filled through the
 * daemon itself, whole rounds from four connections, when it holds fewer),
 * then for S seconds runs at once:
 *   - a dealer posting a whole round to T1 every 100 ms (the measured one);
 *   - three auditors walking the chains: GET /integrity, then /rounds/{id}/verify, in turn;
 *   - three pit bosses pulling reports and CSVs: the summary by day, table and
 *     dealer, the statistics, and the CSV forms of each;
 *   - one auditor verifying single rounds (GET /rounds/{id}/verify);
 *   - eight clients trying wrong passwords (POST /sessions), each attempt from
 *     another address: the bench's configuration trusts 127.0.0.1 as a proxy,
 *     so the address is the request's X-Forwarded-For;
 *   - K processes spinning on the CPU (--hogs; 2 by default: both cores of the
 *     machine this is measured on are busy), in every other phase;
 *   - the anchor: a thread of the bench writing 96 KB (the WAL frames of a round) to a
 *     file beside the database and syncing it (fdatasync) every 100 ms, as the
 *     dealer's COMMIT does: the disk's own tail, which no daemon can beat.
 * Phases alternate without hogs and with them, --pairs times; each prints the
 * dealer's whole-round p50, p99, max and count, and what every other client
 * got done.  The last lines are the medians over the pairs beside the target
 * (p99 < 50 ms, max < 250 ms with the hogs).  Every client loops without a
 * pause (a closed loop); the dealer's round is timed from its send to its answer.
 *
 * usage: bench_mixed [--smoke] [--rounds N] [--db PATH] [--seconds S] [--hogs K] [--pairs P]
 *                    [--tables N] [--pitbossd PATH]
 *   --rounds   rounds in the database before the phases (default 10000; --smoke 300)
 *   --db PATH  keep the database there and reuse it (e.g. one of 10^7 rounds
 *              made by bench_load --db, whose --tables it must be given)
 *   --seconds  length of each phase (default 20; --smoke 3)
 *   --hogs     CPU-spinning processes in the phases with hogs (default 2)
 *   --pairs    pairs of phases, without and with hogs (default 3; --smoke 1)
 * Exit status 0 when every dealer round was answered 201 (the smoke test's
 * only assertion), 1 otherwise; the target is printed, not asserted.
 */
#include <pthread.h>
#include <signal.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_common.h"
#include "cli/http_client.h"
#include "common/priority.h"

#define BODY_MAX 2048
#define DEALER_PERIOD_S 0.100
#define AUDITORS 3
#define BOSSES 3
#define SIGNERS 8
#define FILL_CONNECTIONS 4
#define HOGS_MAX 16
#define PAIRS_MAX 9
#define TARGET_P99_MS 50.0
#define TARGET_MAX_MS 250.0
#define DEALER_CLIENT_NICE (-10)
#define CLIENT_TIMEOUT_MS 300000
#define ANCHOR_BYTES (96 * 1024)       /* about the WAL frames one whole round's COMMIT writes */

struct options {
	const char *pitbossd;
	const char *db;
	long rounds;
	double seconds;
	int hogs;
	int pairs;
	int tables;
	bool smoke;
};

/* What one kind of client got done in a phase. */
enum client_kind { KIND_INTEGRITY, KIND_VERIFY, KIND_REPORT, KIND_CSV, KIND_SIGN_IN, KIND_COUNT };

static const char *const KIND_NAMES[KIND_COUNT] = {"integrity", "verify", "reports", "csv", "sign-ins"};

struct tally {
	atomic_long ok;          /* 2xx */
	atomic_long refused;     /* 4xx (a wrong password's 401, a lockout's 429) */
	atomic_long busy;        /* 503 */
	atomic_long failed;      /* 5xx but 503, or no answer */
};

/* One phase: the clients' shared state. */
struct phase {
	const char *url;
	long max_id;             /* round ids drawn for verify: 1..max_id */
	atomic_bool stop;
	struct tally tally[KIND_COUNT];
	double *latency;         /* the dealer's rounds, ms */
	int nlat, cap;
	int dealer_bad;          /* dealer rounds not answered 201 */
	uint64_t seed;
	const char *anchor_path; /* the anchor's file, beside the database */
	double *anchor;          /* its syncs, ms */
	int nanchor;
};

struct client_arg {
	struct phase *ph;
	int index;
};

/* The reports the pit bosses pull, in turn (each boss starts at its own place). */
static const char *const REPORTS[] = {
	"/api/v1/reports/summary?group=day",
	"/api/v1/reports/summary?group=table",
	"/api/v1/reports/summary?group=dealer",
	"/api/v1/reports/statistics",
	"/api/v1/reports/summary?group=day&format=csv",
	"/api/v1/reports/summary?group=table&format=csv",
	"/api/v1/reports/summary?group=dealer&format=csv",
	"/api/v1/reports/statistics?format=csv",
};
#define NREPORTS (sizeof(REPORTS) / sizeof(REPORTS[0]))

/* Reads the options; -1 on a usage error (printed). */
static int
parse_args(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->rounds = 10000;
	o->seconds = 20;
	o->hogs = 2;
	o->pairs = 3;
	o->tables = 8;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--smoke") == 0) {
			o->smoke = true;
			o->rounds = 300;
			o->seconds = 3;
			o->pairs = 1;
		} else if (strcmp(a, "--rounds") == 0 && v) {
			o->rounds = atol(argv[++i]);
		} else if (strcmp(a, "--db") == 0 && v) {
			o->db = argv[++i];
		} else if (strcmp(a, "--seconds") == 0 && v) {
			o->seconds = atof(argv[++i]);
		} else if (strcmp(a, "--hogs") == 0 && v) {
			o->hogs = atoi(argv[++i]);
		} else if (strcmp(a, "--pairs") == 0 && v) {
			o->pairs = atoi(argv[++i]);
		} else if (strcmp(a, "--tables") == 0 && v) {
			o->tables = atoi(argv[++i]);
		} else if (strcmp(a, "--pitbossd") == 0 && v) {
			o->pitbossd = argv[++i];
		} else {
			fprintf(stderr, "usage: bench_mixed [--smoke] [--rounds N] [--db PATH] [--seconds S] [--hogs K] "
			    "[--pairs P] [--tables N] [--pitbossd PATH]\n");
			return -1;
		}
	}
	if (o->rounds < 1 || o->seconds <= 0 || o->hogs < 0 || o->hogs > HOGS_MAX || o->pairs < 1 ||
	    o->pairs > PAIRS_MAX || o->tables < 1 || o->tables > BENCH_MAX_TABLES) {
		fprintf(stderr, "bench_mixed: --rounds >= 1, --seconds > 0, --hogs 0..%d, --pairs 1..%d, --tables 1..%d\n",
		    HOGS_MAX, PAIRS_MAX, BENCH_MAX_TABLES);
		return -1;
	}
	return 0;
}

/* Counts an answer (or a transport failure: status 0) in the kind's tally. */
static void
count(struct tally *t, int status)
{
	if (status >= 200 && status < 300)
		atomic_fetch_add(&t->ok, 1);
	else if (status >= 400 && status < 500)
		atomic_fetch_add(&t->refused, 1);
	else if (status == 503)
		atomic_fetch_add(&t->busy, 1);
	else
		atomic_fetch_add(&t->failed, 1);
}

/* One GET; its status, 0 when no answer came. */
static int
get(struct http_client *c, const char *path)
{
	struct http_response resp = {0};
	struct pb_error err;
	int status;

	if (http_request(c, "GET", path, NULL, NULL, &resp, &err) < 0)
		return 0;
	status = resp.status;
	http_response_free(&resp);
	return status;
}

/* A client of its role with the bench's long timeout; NULL when it cannot be made. */
static struct http_client *
client(const char *url, const char *token)
{
	struct pb_error err;
	struct http_client *c = http_client_new(url, token, &err);

	if (c == NULL)
		fprintf(stderr, "bench_mixed: %s\n", err.message);
	else
		http_client_set_timeout(c, CLIENT_TIMEOUT_MS);
	return c;
}

/* Whether the dealer's client thread runs at DEALER_CLIENT_NICE (1), or could not be raised (0); -1: not started yet. */
static atomic_int dealer_raised = -1;

/*
 * The dealer: a whole round to T1 every 100 ms (at once when the last was late), each timed.
 * A dealer's terminal is another machine: its client thread here is raised above the hogs and
 * the other clients when allowed (root), so that what is timed is the daemon, not the bench's
 * own thread waiting for a CPU.
 */
static void *
dealer_main(void *arg)
{
	struct phase *ph = arg;
	struct http_client *c = client(ph->url, BENCH_DEALER_TOKEN);
	struct bench_rng rng;
	double next = bench_now();

	atomic_store(&dealer_raised, pb_set_thread_nice(DEALER_CLIENT_NICE) == 0);
	bench_rng_seed(&rng, ph->seed);
	while (c != NULL && !atomic_load(&ph->stop)) {
		struct bench_round rd;
		struct http_response resp = {0};
		struct pb_error err;
		char body[BODY_MAX];
		double now = bench_now(), t0;

		if (now < next) {
			usleep((useconds_t)((next - now) * 1e6));
			continue;
		}
		next += DEALER_PERIOD_S;
		if (next < now)
			next = now;
		bench_round_plan(&rng, 0, &rd);
		bench_round_body(&rd, body, sizeof(body));
		t0 = bench_now();
		if (http_request(c, "POST", "/api/v1/tables/T1/rounds", body, NULL, &resp, &err) < 0) {
			fprintf(stderr, "bench_mixed: dealer: %s\n", err.message);
			ph->dealer_bad++;
			continue;
		}
		if (resp.status != 201 && ph->dealer_bad++ < 5)
			fprintf(stderr, "bench_mixed: dealer: %d %.300s\n", resp.status, resp.body);
		if (ph->nlat < ph->cap)
			ph->latency[ph->nlat++] = (bench_now() - t0) * 1e3;
		http_response_free(&resp);
	}
	http_client_free(c);
	return NULL;
}

/* The anchor: ANCHOR_BYTES written and fdatasync'd every 100 ms, each sync timed. */
static void *
anchor_main(void *arg)
{
	struct phase *ph = arg;
	static char buf[ANCHOR_BYTES];
	int fd = open(ph->anchor_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	double next = bench_now();

	memset(buf, 0x5a, sizeof(buf));
	while (fd >= 0 && !atomic_load(&ph->stop) && ph->nanchor < ph->cap) {
		double now = bench_now(), t0;

		if (now < next) {
			usleep((useconds_t)((next - now) * 1e6));
			continue;
		}
		next = now + DEALER_PERIOD_S;
		if (pwrite(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf))
			break;
		t0 = bench_now();
		if (fdatasync(fd) < 0)
			break;
		ph->anchor[ph->nanchor++] = (bench_now() - t0) * 1e3;
	}
	if (fd >= 0) {
		close(fd);
		unlink(ph->anchor_path);
	}
	return NULL;
}

/* A round id drawn uniformly from 1..max_id. */
static long
random_round(struct bench_rng *rng, long max_id)
{
	return 1 + (long)(bench_rng_next(rng) % (uint64_t)max_id);
}

/* An auditor: the whole chain's check, then one round's verify, in turn. */
static void *
auditor_main(void *arg)
{
	struct client_arg *a = arg;
	struct phase *ph = a->ph;
	struct http_client *c = client(ph->url, BENCH_AUDITOR_TOKEN);
	struct bench_rng rng;
	char path[96];

	bench_rng_seed(&rng, ph->seed + 100 + (uint64_t)a->index);
	while (c != NULL && !atomic_load(&ph->stop)) {
		count(&ph->tally[KIND_INTEGRITY], get(c, "/api/v1/integrity"));
		if (atomic_load(&ph->stop))
			break;
		snprintf(path, sizeof(path), "/api/v1/rounds/%ld/verify", random_round(&rng, ph->max_id));
		count(&ph->tally[KIND_VERIFY], get(c, path));
	}
	http_client_free(c);
	return NULL;
}

/* A pit boss: the reports and their CSV forms, in turn. */
static void *
boss_main(void *arg)
{
	struct client_arg *a = arg;
	struct phase *ph = a->ph;
	struct http_client *c = client(ph->url, BENCH_PITBOSS_TOKEN);

	for (size_t i = (size_t)a->index; c != NULL && !atomic_load(&ph->stop); i++) {
		const char *path = REPORTS[i % NREPORTS];
		count(&ph->tally[strstr(path, "format=csv") ? KIND_CSV : KIND_REPORT], get(c, path));
	}
	http_client_free(c);
	return NULL;
}

/* The verifier: single rounds drawn at random. */
static void *
verifier_main(void *arg)
{
	struct client_arg *a = arg;
	struct phase *ph = a->ph;
	struct http_client *c = client(ph->url, BENCH_AUDITOR_TOKEN);
	struct bench_rng rng;
	char path[96];

	bench_rng_seed(&rng, ph->seed + 200 + (uint64_t)a->index);
	while (c != NULL && !atomic_load(&ph->stop)) {
		snprintf(path, sizeof(path), "/api/v1/rounds/%ld/verify", random_round(&rng, ph->max_id));
		count(&ph->tally[KIND_VERIFY], get(c, path));
	}
	http_client_free(c);
	return NULL;
}

/* A password guesser: a wrong password for an id that does not exist, each attempt from a new address. */
static void *
signer_main(void *arg)
{
	struct client_arg *a = arg;
	struct phase *ph = a->ph;
	struct http_client *c = client(ph->url, NULL);

	for (long n = 0; c != NULL && !atomic_load(&ph->stop); n++) {
		struct http_response resp = {0};
		struct pb_error err;
		char forwarded[64], body[128];
		const char *headers[] = {forwarded, NULL};
		int len;

		snprintf(forwarded, sizeof(forwarded), "X-Forwarded-For: 10.%d.%ld.%ld", 16 + a->index, n / 250 % 250,
		    n % 250 + 1);
		len = snprintf(body, sizeof(body), "{\"person\": \"G%d_%ld\", \"password\": \"not-the-password-%ld\"}", a->index,
		    n, n);
		if (http_request_ex(c, "POST", "/api/v1/sessions", headers, body, (size_t)len, &resp, &err) < 0) {
			count(&ph->tally[KIND_SIGN_IN], 0);
			continue;
		}
		count(&ph->tally[KIND_SIGN_IN], resp.status);
		http_response_free(&resp);
	}
	http_client_free(c);
	return NULL;
}

/* K processes spinning on the CPU until killed; their ids in pids. */
static int
hogs_start(int k, pid_t *pids)
{
	for (int i = 0; i < k; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return -1;
		if (pids[i] == 0) {
			volatile unsigned long spin = 0;
			for (;;)
				spin++;
		}
	}
	return 0;
}

static void
hogs_stop(int k, pid_t *pids)
{
	for (int i = 0; i < k; i++) {
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
	}
}

/* A dealer's figures in one phase, and the anchor's beside them. */
struct dealer_figures {
	double p50, p99, max;
	int count, bad;
	double sync_p50, sync_p99, sync_max;
};

/* Runs every client for o->seconds (with `hogs` spinning processes); the dealer's figures in *fig. */
static int
run_phase(const struct options *o, const char *url, long max_id, int hogs, uint64_t seed, const char *anchor_path,
    struct dealer_figures *fig)
{
	struct phase ph;
	struct client_arg args[AUDITORS + BOSSES + 1 + SIGNERS];
	pthread_t th[2 + AUDITORS + BOSSES + 1 + SIGNERS];
	pid_t hog_pids[HOGS_MAX] = {0};
	int nth = 0, na = 0;
	double t0;

	memset(&ph, 0, sizeof(ph));
	ph.url = url;
	ph.max_id = max_id;
	ph.seed = seed;
	ph.cap = (int)(o->seconds / DEALER_PERIOD_S) + 64;
	ph.latency = calloc((size_t)ph.cap, sizeof(double));
	ph.anchor = calloc((size_t)ph.cap, sizeof(double));
	ph.anchor_path = anchor_path;
	if (ph.latency == NULL || ph.anchor == NULL) {
		free(ph.latency);
		free(ph.anchor);
		return -1;
	}
	if (hogs_start(hogs, hog_pids) < 0) {
		perror("bench_mixed: fork");
		hogs_stop(hogs, hog_pids);
		free(ph.latency);
		free(ph.anchor);
		return -1;
	}
	t0 = bench_now();
	pthread_create(&th[nth++], NULL, dealer_main, &ph);
	pthread_create(&th[nth++], NULL, anchor_main, &ph);
	for (int i = 0; i < AUDITORS; i++, na++) {
		args[na] = (struct client_arg){&ph, i};
		pthread_create(&th[nth++], NULL, auditor_main, &args[na]);
	}
	for (int i = 0; i < BOSSES; i++, na++) {
		args[na] = (struct client_arg){&ph, i * 3};
		pthread_create(&th[nth++], NULL, boss_main, &args[na]);
	}
	args[na] = (struct client_arg){&ph, 0};
	pthread_create(&th[nth++], NULL, verifier_main, &args[na++]);
	for (int i = 0; i < SIGNERS; i++, na++) {
		args[na] = (struct client_arg){&ph, i};
		pthread_create(&th[nth++], NULL, signer_main, &args[na]);
	}
	while (bench_now() - t0 < o->seconds)
		usleep(50000);
	atomic_store(&ph.stop, true);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	hogs_stop(hogs, hog_pids);
	for (int i = 2; i < nth; i++)
		pthread_join(th[i], NULL);
	fig->count = ph.nlat;
	fig->bad = ph.dealer_bad;
	fig->p50 = ph.nlat ? bench_percentile(ph.latency, (size_t)ph.nlat, 50) : 0;
	fig->p99 = ph.nlat ? bench_percentile(ph.latency, (size_t)ph.nlat, 99) : 0;
	fig->max = ph.nlat ? ph.latency[ph.nlat - 1] : 0;
	fig->sync_p50 = ph.nanchor ? bench_percentile(ph.anchor, (size_t)ph.nanchor, 50) : 0;
	fig->sync_p99 = ph.nanchor ? bench_percentile(ph.anchor, (size_t)ph.nanchor, 99) : 0;
	fig->sync_max = ph.nanchor ? ph.anchor[ph.nanchor - 1] : 0;
	printf("  %-4s %2d  %5d  %8.1f %8.1f %8.1f   %6.1f %6.1f %6.1f   ", hogs ? "with" : "no", hogs, fig->count, fig->p50,
	    fig->p99, fig->max, fig->sync_p50, fig->sync_p99, fig->sync_max);
	for (int k = 0; k < KIND_COUNT; k++)
		printf(" %s %ld/%ld/%ld/%ld", KIND_NAMES[k], atomic_load(&ph.tally[k].ok), atomic_load(&ph.tally[k].refused),
		    atomic_load(&ph.tally[k].busy), atomic_load(&ph.tally[k].failed));
	printf("%s\n", fig->bad ? "  DEALER ROUNDS REFUSED OR LOST" : "");
	free(ph.latency);
	free(ph.anchor);
	return 0;
}

/* The dealer's rounds of the fill: n whole rounds across the tables from one connection. */
struct fill_arg {
	const char *url;
	long n;
	int tables, index;
	atomic_int *bad;
};

static void *
fill_main(void *arg)
{
	struct fill_arg *f = arg;
	struct http_client *c = client(f->url, BENCH_DEALER_TOKEN);
	struct bench_rng rng;

	bench_rng_seed(&rng, 0xf111 + (uint64_t)f->index);
	for (long i = 0; c != NULL && i < f->n && atomic_load(f->bad) == 0; i++) {
		struct bench_round rd;
		struct http_response resp = {0};
		struct pb_error err;
		char body[BODY_MAX], path[64];

		bench_round_plan(&rng, (int)((i * FILL_CONNECTIONS + f->index) % f->tables), &rd);
		bench_round_body(&rd, body, sizeof(body));
		snprintf(path, sizeof(path), "/api/v1/tables/T%d/rounds", rd.table + 1);
		if (http_request(c, "POST", path, body, NULL, &resp, &err) < 0 || resp.status != 201) {
			fprintf(stderr, "bench_mixed: fill: %s %d %.200s\n", path, resp.status, resp.body ? resp.body : err.message);
			atomic_fetch_add(f->bad, 1);
		}
		http_response_free(&resp);
	}
	if (c == NULL)
		atomic_fetch_add(f->bad, 1);
	http_client_free(c);
	return NULL;
}

/* Adds `want` whole rounds through the running daemon from FILL_CONNECTIONS connections. */
static int
fill(const char *url, long want, int tables)
{
	pthread_t th[FILL_CONNECTIONS];
	struct fill_arg args[FILL_CONNECTIONS];
	atomic_int bad = 0;
	double t0 = bench_now();

	for (int i = 0; i < FILL_CONNECTIONS; i++) {
		args[i] = (struct fill_arg){url, want / FILL_CONNECTIONS + (i < want % FILL_CONNECTIONS), tables, i, &bad};
		pthread_create(&th[i], NULL, fill_main, &args[i]);
	}
	for (int i = 0; i < FILL_CONNECTIONS; i++)
		pthread_join(th[i], NULL);
	printf("filled %ld rounds through pitbossd in %.1f s\n", want, bench_now() - t0);
	return atomic_load(&bad) == 0 ? 0 : -1;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of n values (n <= PAIRS_MAX; sorted in place). */
static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The medians over the pairs of one setting, with the target beside them. */
static void
print_medians(const char *label, struct dealer_figures *f, int n, bool target)
{
	double p50[PAIRS_MAX], p99[PAIRS_MAX], mx[PAIRS_MAX], s50[PAIRS_MAX], s99[PAIRS_MAX], smx[PAIRS_MAX];
	double m99, mmax;

	for (int i = 0; i < n; i++) {
		p50[i] = f[i].p50;
		p99[i] = f[i].p99;
		mx[i] = f[i].max;
		s50[i] = f[i].sync_p50;
		s99[i] = f[i].sync_p99;
		smx[i] = f[i].sync_max;
	}
	m99 = median(p99, n);
	mmax = median(mx, n);
	printf("%-34s p50 %6.1f  p99 %6.1f  max %6.1f ms  (anchor: a 96 KB fdatasync p50 %.1f p99 %.1f max %.1f ms)", label,
	    median(p50, n), m99, mmax, median(s50, n), median(s99, n), median(smx, n));
	if (target)
		printf("   target p99 < %.0f, max < %.0f: %s", TARGET_P99_MS, TARGET_MAX_MS,
		    m99 < TARGET_P99_MS && mmax < TARGET_MAX_MS ? "met" : "MISSED");
	printf("\n");
}

/* Fills (or reuses) the database, then runs the phases; see the top of this file. */
int
main(int argc, char **argv)
{
	struct options o;
	struct bench_daemon d = {0};
	struct dealer_figures quiet[PAIRS_MAX], busy[PAIRS_MAX];
	const char *pitbossd;
	char *dir = NULL, cfg[4200], db[4200], log[4200], anchor[4300];
	long have = 0, max_id = 0;
	int port, status = 1, bad = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	if (parse_args(argc, argv, &o) < 0)
		return 2;
	pitbossd = bench_find_pitbossd(o.pitbossd, argv[0]);
	if (pitbossd == NULL) {
		fprintf(stderr, "bench_mixed: no pitbossd (give --pitbossd PATH or set PB_BUILD_DIR)\n");
		return 2;
	}
	dir = bench_tmpdir("pb-bench-mixed");
	if (dir == NULL) {
		perror("bench_mixed: mkdtemp");
		return 1;
	}
	snprintf(cfg, sizeof(cfg), "%s/pitboss.json", dir);
	snprintf(db, sizeof(db), "%s", o.db ? o.db : "");
	if (o.db == NULL)
		snprintf(db, sizeof(db), "%s/pitboss.db", dir);
	snprintf(log, sizeof(log), "%s/pitbossd.log", dir);
	snprintf(anchor, sizeof(anchor), "%s.anchor", db);
	port = bench_free_port();
	/* 127.0.0.1 is a trusted proxy: each sign-in's address is its X-Forwarded-For. */
	if (port <= 0 || bench_write_config(cfg, o.tables, db, port, "\"trusted_proxies\": [\"127.0.0.1\"], "
	    "\"checkpoint\": {\"startup_check\": \"since_checkpoint\"}") < 0) {
		fprintf(stderr, "bench_mixed: cannot write the configuration in %s\n", dir);
		goto out;
	}
	if (bench_count_rounds(db, &have, &max_id) < 0) {
		fprintf(stderr, "bench_mixed: %s is not a pitboss database\n", db);
		goto out;
	}
	printf("bench_mixed: %ld rounds wanted in %s (%ld there), phases of %.0f s, %d pair(s), %d hog(s)%s\n", o.rounds, db,
	    have, o.seconds, o.pairs, o.hogs, o.smoke ? " (smoke run: figures not meaningful)" : "");
	printf("machine: %ld CPU(s)\n", sysconf(_SC_NPROCESSORS_ONLN));
	if (bench_daemon_start(&d, pitbossd, cfg, port, log, 600) < 0)
		goto out;
	if (have < o.rounds && fill(d.url, o.rounds - have, o.tables) < 0)
		goto stop;
	if (bench_count_rounds(db, &have, &max_id) < 0 || max_id < 1)
		goto stop;
	printf("database: %ld rounds\n", have);
	printf("  hogs     dealer: rounds p50 / p99 / max ms    anchor: fdatasync p50 / p99 / max ms    "
	    "other clients: ok/refused/busy(503)/failed\n");
	for (int p = 0; p < o.pairs; p++) {
		if (run_phase(&o, d.url, max_id, 0, 0xdea1 + 2 * (uint64_t)p, anchor, &quiet[p]) < 0 ||
		    run_phase(&o, d.url, max_id, o.hogs, 0xdea1 + 2 * (uint64_t)p + 1, anchor, &busy[p]) < 0)
			goto stop;
		bad += quiet[p].bad + busy[p].bad;
	}
	printf("\ndealer's whole round (POST /tables/T1/rounds every 100 ms), median of %d phase(s) of %.0f s:\n", o.pairs,
	    o.seconds);
	printf("  (the dealer's client thread %s)\n", atomic_load(&dealer_raised) == 1 ?
	    "at nice -10, above the hogs and the other clients: a terminal is another machine" :
	    "at the hogs' priority: not allowed to raise it (run as root for the daemon's own figure)");
	print_medians("  without hogs", quiet, o.pairs, false);
	{
		char label[64];
		snprintf(label, sizeof(label), "  with %d hog(s) (both cores busy)", o.hogs);
		print_medians(label, busy, o.pairs, true);
	}
	status = bad == 0 ? 0 : 1;
	if (bad)
		fprintf(stderr, "bench_mixed: %d dealer round(s) not answered 201\n", bad);
stop:
	if (bench_daemon_stop(&d, 120) != 0) {
		fprintf(stderr, "bench_mixed: pitbossd did not stop cleanly; see %s\n", log);
		status = 1;
	}
out:
	if (status == 0)
		bench_rmdir(dir);
	else
		printf("kept %s\n", dir);
	free(dir);
	return status;
}
