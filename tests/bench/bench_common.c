/*
 * bench_common.c - rounds, configuration, the daemon's life and the
 * statistics shared by bench_http and bench_load (see bench_common.h).
 */
#include "bench_common.h"

#include <arpa/inet.h>
#include <sqlite3.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/http_client.h"
#include "common/hash.h"
#include "engine/hand3.h"

#define P_PAIR_PLUS 45   /* percent of betting seats */
#define P_SIX_CARD 20

/* Seeds the generator; 0 is replaced by a fixed non-zero seed. */
void
bench_rng_seed(struct bench_rng *r, uint64_t seed)
{
	r->s = seed ? seed : 0x9e3779b97f4a7c15ull;
}

/* The next 64 random bits. */
uint64_t
bench_rng_next(struct bench_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dull;
}

/* A number in 0..n-1 (n > 0; the modulo bias is irrelevant here). */
unsigned
bench_rng_below(struct bench_rng *r, unsigned n)
{
	return (unsigned)(bench_rng_next(r) % n);
}

/* An amount on a 100-cent grid: mostly one to four times the minimum, sometimes up to the maximum. */
static int64_t
amount(struct bench_rng *r, int64_t min, int64_t max)
{
	int64_t v;

	if (bench_rng_below(r, 10) < 8)
		v = min * (1 + (int64_t)bench_rng_below(r, 4));
	else
		v = min + (int64_t)bench_rng_below(r, (unsigned)((max - min) / 100 + 1)) * 100;
	return v > max ? max : v;
}

/* The Q-6-4 rule's threshold, computed once. */
static hand3_value_t
q64(void)
{
	static hand3_value_t v;
	static int done;

	if (!done) {
		hand3_parse_high_card("Q-6-4", &v, NULL);
		done = 1;
	}
	return v;
}

/* Plans a whole round: seats, bets within the BENCH_* limits, a shuffled deck, Q-6-4 decisions. */
void
bench_round_plan(struct bench_rng *r, int table, struct bench_round *out)
{
	card_t deck[CARD_COUNT];
	bool taken[BENCH_SEATS + 1] = {false};
	int next = 0;
	hand3_value_t rule = q64();

	memset(out, 0, sizeof(*out));
	out->table = table;
	for (int i = 0; i < CARD_COUNT; i++)
		deck[i] = (card_t)i;
	for (int i = CARD_COUNT - 1; i > 0; i--) {
		unsigned j = bench_rng_below(r, (unsigned)i + 1);
		card_t t = deck[i];
		deck[i] = deck[j];
		deck[j] = t;
	}
	out->nseats = 3 + (int)bench_rng_below(r, 4);
	for (int n = 0; n < out->nseats;) {
		int s = 1 + (int)bench_rng_below(r, BENCH_SEATS);
		if (!taken[s]) {
			taken[s] = true;
			n++;
		}
	}
	for (int s = 1, n = 0; s <= BENCH_SEATS; s++) {
		if (!taken[s])
			continue;
		out->seat[n++] = s;
		out->bet[s].ante = amount(r, BENCH_ANTE_MIN, BENCH_ANTE_MAX);
		if ((int)bench_rng_below(r, 100) < P_PAIR_PLUS)
			out->bet[s].pair_plus = amount(r, BENCH_PP_MIN, BENCH_PP_MAX);
		if ((int)bench_rng_below(r, 100) < P_SIX_CARD)
			out->bet[s].six_card = amount(r, BENCH_SIX_MIN, BENCH_SIX_MAX);
		for (int i = 0; i < 3; i++)
			out->hand[s][i] = deck[next++];
		out->decision[s] = hand3_value(out->hand[s]) >= rule ? DECISION_PLAY : DECISION_FOLD;
	}
	for (int i = 0; i < 3; i++)
		out->hand[0][i] = deck[next++];
}

/* Appends printf output at *pos, never past outsz. */
static void
put(char *out, size_t outsz, size_t *pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
put(char *out, size_t outsz, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos >= outsz)
		return;
	va_start(ap, fmt);
	n = vsnprintf(out + *pos, outsz - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos += (size_t)n;
	if (*pos >= outsz)
		*pos = outsz - 1;
}

/* Appends ["As","Kd","Qh"]. */
static void
put_cards(char *out, size_t outsz, size_t *pos, const card_t c[3])
{
	char a[3], b[3], d[3];

	card_format(c[0], a);
	card_format(c[1], b);
	card_format(c[2], d);
	put(out, outsz, pos, "[\"%s\",\"%s\",\"%s\"]", a, b, d);
}

/* Appends a seat's bet object, leaving out the side wagers it did not make. */
static void
put_bet(const struct bench_round *rd, int s, char *out, size_t outsz, size_t *pos)
{
	put(out, outsz, pos, "{\"ante\":%lld", (long long)rd->bet[s].ante);
	if (rd->bet[s].pair_plus > 0)
		put(out, outsz, pos, ",\"pair_plus\":%lld", (long long)rd->bet[s].pair_plus);
	if (rd->bet[s].six_card > 0)
		put(out, outsz, pos, ",\"six_card\":%lld", (long long)rd->bet[s].six_card);
	put(out, outsz, pos, "}");
}

/* Appends "hands": {...}, "dealer": [...]. */
static void
put_hands(const struct bench_round *rd, char *out, size_t outsz, size_t *pos)
{
	put(out, outsz, pos, "\"hands\":{");
	for (int i = 0; i < rd->nseats; i++) {
		put(out, outsz, pos, "%s\"%d\":", i ? "," : "", rd->seat[i]);
		put_cards(out, outsz, pos, rd->hand[rd->seat[i]]);
	}
	put(out, outsz, pos, "},\"dealer\":");
	put_cards(out, outsz, pos, rd->hand[0]);
}

/* The whole-round JSON body, as a shuffler would report it. */
size_t
bench_round_body(const struct bench_round *rd, char *out, size_t outsz)
{
	size_t pos = 0;

	put(out, outsz, &pos, "{\"bets\":{");
	for (int i = 0; i < rd->nseats; i++) {
		put(out, outsz, &pos, "%s\"%d\":", i ? "," : "", rd->seat[i]);
		put_bet(rd, rd->seat[i], out, outsz, &pos);
	}
	put(out, outsz, &pos, "},");
	put_hands(rd, out, outsz, &pos);
	put(out, outsz, &pos, ",\"decisions\":{");
	for (int i = 0; i < rd->nseats; i++)
		put(out, outsz, &pos, "%s\"%d\":\"%s\"", i ? "," : "", rd->seat[i], decision_name(rd->decision[rd->seat[i]]));
	put(out, outsz, &pos, "}}");
	return pos;
}

/* The body of the deal step: every seat's cards and the dealer's. */
size_t
bench_deal_body(const struct bench_round *rd, char *out, size_t outsz)
{
	size_t pos = 0;

	put(out, outsz, &pos, "{");
	put_hands(rd, out, outsz, &pos);
	put(out, outsz, &pos, "}");
	return pos;
}

/* The body of one bet step. */
size_t
bench_bet_body(const struct bench_round *rd, int seat, char *out, size_t outsz)
{
	size_t pos = 0;

	put_bet(rd, seat, out, outsz, &pos);
	return pos;
}

/* The engine's view of a planned round (7 seats, house-banked). */
void
bench_round_input(const struct bench_round *rd, const struct rules *rules, struct round_input *in)
{
	memset(in, 0, sizeof(*in));
	memset(in->hands, CARD_NONE, sizeof(in->hands));
	in->rules = rules;
	in->seats = BENCH_SEATS;
	for (int i = 0; i < rd->nseats; i++) {
		int s = rd->seat[i];
		in->bets[s] = rd->bet[s];
		memcpy(in->hands[s], rd->hand[s], 3);
		in->decisions[s] = rd->decision[s];
	}
	memcpy(in->dealer, rd->hand[0], 3);
}

/* ---- time and statistics ---- */

double
bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* qsort order for doubles. */
static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of n values, sorting them in place. */
double
bench_percentile(double *v, size_t n, double p)
{
	size_t i;

	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	i = (size_t)(p / 100.0 * (double)(n - 1) + 0.5);
	return v[i < n ? i : n - 1];
}

/* ---- files ---- */

char *
bench_tmpdir(const char *prefix)
{
	const char *base = getenv("TMPDIR");
	char *path;

	if (base == NULL || base[0] == '\0')
		base = "/tmp";
	path = malloc(strlen(base) + strlen(prefix) + 16);
	if (path == NULL)
		return NULL;
	sprintf(path, "%s/%s-XXXXXX", base, prefix);
	if (mkdtemp(path) == NULL) {
		free(path);
		return NULL;
	}
	return path;
}

/* Removes a directory and the files directly in it. */
void
bench_rmdir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4200];

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/* Writes text to path, replacing it. */
int
bench_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int rc = 0;

	if (f == NULL)
		return -1;
	if (fputs(text, f) < 0)
		rc = -1;
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

/* The size of a file in bytes, 0 when it does not exist. */
long long
bench_file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

/* config/games of the source tree ($PB_SOURCE_DIR or the compiled-in path). */
const char *
bench_games_dir(void)
{
	static char dir[4200];
	const char *src = getenv("PB_SOURCE_DIR");

	snprintf(dir, sizeof(dir), "%s/config/games", src && src[0] ? src : PB_SOURCE_DIR);
	return dir;
}

/* Writes the bench configuration (see bench_common.h). */
int
bench_write_config(const char *path, int tables, const char *database, int port, const char *extra_json)
{
	size_t cap = 8192 + (size_t)tables * 512, pos = 0;
	char *text = malloc(cap);
	char dealer[PB_SHA256_HEX_LEN], pitboss[PB_SHA256_HEX_LEN], auditor[PB_SHA256_HEX_LEN];
	int rc;

	if (text == NULL)
		return -1;
	pb_sha256_hex(BENCH_DEALER_TOKEN, strlen(BENCH_DEALER_TOKEN), dealer);
	pb_sha256_hex(BENCH_PITBOSS_TOKEN, strlen(BENCH_PITBOSS_TOKEN), pitboss);
	pb_sha256_hex(BENCH_AUDITOR_TOKEN, strlen(BENCH_AUDITOR_TOKEN), auditor);
	put(text, cap, &pos, "{\n  \"listen\": \"127.0.0.1:%d\",\n  \"database\": \"%s\",\n  \"synchronous\": \"FULL\",\n"
	    "  \"games\": {\"standard\": \"%s/standard.json\"},\n", port, database, bench_games_dir());
	if (extra_json != NULL)
		put(text, cap, &pos, "  %s,\n", extra_json);
	put(text, cap, &pos, "  \"tables\": [\n");
	for (int t = 1; t <= tables; t++)
		put(text, cap, &pos, "    {\"id\": \"T%d\", \"name\": \"Bench %d\", \"game\": \"standard\", \"seats\": %d, \"banking\": \"house\",\n"
		    "     \"limits\": {\"ante\": {\"min\": %d, \"max\": %d}, \"pair_plus\": {\"min\": %d, \"max\": %d}, "
		    "\"six_card\": {\"min\": %d, \"max\": %d}}}%s\n", t, t, BENCH_SEATS, BENCH_ANTE_MIN, BENCH_ANTE_MAX,
		    BENCH_PP_MIN, BENCH_PP_MAX, BENCH_SIX_MIN, BENCH_SIX_MAX, t < tables ? "," : "");
	put(text, cap, &pos, "  ],\n  \"tokens\": [\n"
	    "    {\"name\": \"%s\", \"role\": \"dealer\", \"sha256\": \"%s\"},\n"
	    "    {\"name\": \"bench-pitboss\", \"role\": \"pitboss\", \"sha256\": \"%s\"},\n"
	    "    {\"name\": \"bench-auditor\", \"role\": \"auditor\", \"sha256\": \"%s\"}\n  ]\n}\n",
	    BENCH_DEALER_NAME, dealer, pitboss, auditor);
	rc = bench_write_file(path, text);
	free(text);
	return rc;
}

/* Binds port 0 on loopback and returns the port the kernel chose. */
int
bench_free_port(void)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;

	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 && getsockname(fd, (struct sockaddr *)&sa, &len) == 0)
		port = ntohs(sa.sin_port);
	close(fd);
	return port;
}

/* ---- the daemon ---- */

static bool
executable(const char *p)
{
	return p != NULL && access(p, X_OK) == 0;
}

/* Finds the daemon: the given path, $PB_BUILD_DIR/pitbossd, or next to the bench. */
const char *
bench_find_pitbossd(const char *explicit_path, const char *argv0)
{
	static char path[4200];
	const char *build = getenv("PB_BUILD_DIR");
	const char *slash;

	if (explicit_path != NULL)
		return executable(explicit_path) ? explicit_path : NULL;
	if (build != NULL && build[0] != '\0') {
		snprintf(path, sizeof(path), "%s/pitbossd", build);
		if (executable(path))
			return path;
	}
	/* BUILD/tests/bench_http -> BUILD/pitbossd */
	slash = argv0 ? strrchr(argv0, '/') : NULL;
	if (slash != NULL) {
		snprintf(path, sizeof(path), "%.*s/../pitbossd", (int)(slash - argv0), argv0);
		if (executable(path))
			return path;
	}
	return NULL;
}

/* Forks and execs pitbossd, then polls /api/v1/health until it answers 200. */
int
bench_daemon_start(struct bench_daemon *d, const char *binary, const char *config, int port, const char *log_path,
    double timeout_s)
{
	struct pb_error err;
	struct http_client *c;
	double start = bench_now();
	int status;

	memset(d, 0, sizeof(*d));
	d->port = port;
	snprintf(d->url, sizeof(d->url), "http://127.0.0.1:%d", port);
	snprintf(d->log, sizeof(d->log), "%s", log_path);
	d->pid = fork();
	if (d->pid < 0)
		return -1;
	if (d->pid == 0) {
		int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
		int null = open("/dev/null", O_RDONLY);

		/* The daemon never outlives the benchmark. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (null >= 0)
			dup2(null, 0);
		execl(binary, "pitbossd", "-f", "-c", config, (char *)NULL);
		_exit(127);
	}
	c = http_client_new(d->url, NULL, &err);
	if (c == NULL)
		return -1;
	http_client_set_timeout(c, 2000);
	while (bench_now() - start < timeout_s) {
		struct http_response resp = {0};

		if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
			fprintf(stderr, "bench: pitbossd exited while starting (status %d); see %s\n", status, log_path);
			d->pid = 0;
			http_client_free(c);
			return -1;
		}
		if (http_request(c, "GET", "/api/v1/health", NULL, NULL, &resp, &err) == 0 && resp.status == 200) {
			http_response_free(&resp);
			http_client_free(c);
			d->start_seconds = bench_now() - start;
			return 0;
		}
		http_response_free(&resp);
		http_client_close(c);
		usleep(20000);
	}
	http_client_free(c);
	fprintf(stderr, "bench: pitbossd did not answer /api/v1/health within %.0f s; see %s\n", timeout_s, log_path);
	kill(d->pid, SIGKILL);
	waitpid(d->pid, &status, 0);
	d->pid = 0;
	return -1;
}

/* Stops the daemon with SIGTERM (SIGKILL after the timeout) and reaps it. */
int
bench_daemon_stop(struct bench_daemon *d, double timeout_s)
{
	double start = bench_now();
	int status;

	if (d->pid <= 0)
		return -1;
	kill(d->pid, SIGTERM);
	while (bench_now() - start < timeout_s) {
		if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
			d->pid = 0;
			return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		}
		usleep(10000);
	}
	kill(d->pid, SIGKILL);
	waitpid(d->pid, &status, 0);
	d->pid = 0;
	return -1;
}

/* Reads VmRSS and VmHWM from /proc/PID/status. */
int
bench_rss_kib(pid_t pid, long *rss, long *hwm)
{
	char path[64], line[256];
	FILE *f;

	*rss = -1;
	*hwm = -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "VmRSS:", 6) == 0)
			*rss = strtol(line + 6, NULL, 10);
		else if (strncmp(line, "VmHWM:", 6) == 0)
			*hwm = strtol(line + 6, NULL, 10);
	}
	fclose(f);
	return *rss >= 0 && *hwm >= 0 ? 0 : -1;
}

/* Reads utime + stime from /proc/PID/stat. */
double
bench_cpu_seconds(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long utime, stime;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* After the command name in parentheses: state is field 3, utime 14, stime 15. */
	p = strrchr(buf, ')');
	if (p == NULL || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2)
		return -1;
	return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

int
bench_count_rounds(const char *path, long *count, long *max_id)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int rc = -1;

	*count = 0;
	*max_id = 0;
	if (access(path, F_OK) != 0)
		return 0;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		goto out;
	if (sqlite3_prepare_v2(db, "SELECT count(*), coalesce(max(id), 0) FROM rounds", -1, &st, NULL) != SQLITE_OK)
		goto out;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*count = (long)sqlite3_column_int64(st, 0);
		*max_id = (long)sqlite3_column_int64(st, 1);
		rc = 0;
	}
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc;
}
