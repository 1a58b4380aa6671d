/*
 * bench_common.h - what the HTTP benchmarks share: a reproducible source of
 * realistic rounds, the configuration they run pitbossd with, starting and
 * stopping the real daemon on a free loopback port, its memory, timing and
 * percentiles.  Everything is bounded; nothing leaves loopback.
 */
#ifndef PB_BENCH_COMMON_H
#define PB_BENCH_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/cards.h"
#include "engine/settle.h"

#ifndef PB_SOURCE_DIR
#define PB_SOURCE_DIR "."
#endif

#define BENCH_MAX_TABLES 32
#define BENCH_SEATS 7                  /* every bench table has 7 seats */

/* The tokens of the bench configuration (their SHA-256 goes into the config). */
#define BENCH_DEALER_TOKEN "bench-dealer-secret"
#define BENCH_PITBOSS_TOKEN "bench-pitboss-secret"
#define BENCH_AUDITOR_TOKEN "bench-auditor-secret"
#define BENCH_DEALER_NAME "bench-dealer"

/* Table limits of the bench tables (cents), as written into the config. */
#define BENCH_ANTE_MIN 500
#define BENCH_ANTE_MAX 50000
#define BENCH_PP_MIN 500
#define BENCH_PP_MAX 10000
#define BENCH_SIX_MIN 500
#define BENCH_SIX_MAX 2500

/* xorshift64*: fast and reproducible (the deals of a benchmark, not of a casino). */
struct bench_rng {
	uint64_t s;
};

void bench_rng_seed(struct bench_rng *r, uint64_t seed);
uint64_t bench_rng_next(struct bench_rng *r);
unsigned bench_rng_below(struct bench_rng *r, unsigned n);

/*
 * One complete house-banked round as a dealer terminal reports it: 3 to 6
 * of the table's 7 seats bet (Ante always, Pair Plus 45%, six card 20%),
 * cards from a freshly shuffled deck, Q-6-4 play/fold decisions.
 */
struct bench_round {
	int table;                             /* 0-based index: table "T<table+1>" */
	int nseats;
	int seat[MAX_SEATS];                   /* the betting seats, ascending */
	struct seat_bet bet[MAX_SEATS + 1];    /* by seat number */
	card_t hand[MAX_SEATS + 1][3];         /* by seat number; [0] = the dealer */
	enum decision decision[MAX_SEATS + 1]; /* by seat number */
};

/* Plans a round for table index `table`. */
void bench_round_plan(struct bench_rng *r, int table, struct bench_round *out);

/* The whole-round body of POST /api/v1/tables/{t}/rounds; returns its length. */
size_t bench_round_body(const struct bench_round *rd, char *out, size_t outsz);

/* The body of POST /rounds/{id}/deal (every seat's cards and the dealer's). */
size_t bench_deal_body(const struct bench_round *rd, char *out, size_t outsz);

/* The body of PUT /rounds/{id}/bets/{seat}. */
size_t bench_bet_body(const struct bench_round *rd, int seat, char *out, size_t outsz);

/* Fills the engine's input for the round (rules given), e.g. to settle it without the daemon. */
void bench_round_input(const struct bench_round *rd, const struct rules *rules, struct round_input *in);

/* ---- time and statistics ---- */

double bench_now(void);                   /* monotonic seconds */

/* The p-th percentile (0..100) of v (n values; v is sorted in place). */
double bench_percentile(double *v, size_t n, double p);

/* ---- files and the temp dir ---- */

/* A fresh directory under $TMPDIR (or /tmp), or NULL. */
char *bench_tmpdir(const char *prefix);

/* Removes the directory and the files in it (one level, as the benches make it). */
void bench_rmdir(const char *dir);

int bench_write_file(const char *path, const char *text);

/* Bytes of a file, 0 when absent. */
long long bench_file_size(const char *path);

/* The games directory: $PB_SOURCE_DIR/config/games, else the compiled-in source dir's. */
const char *bench_games_dir(void);

/*
 * Writes a pitbossd configuration with `tables` house-banked tables T1..Tn
 * (standard rules, 7 seats, the BENCH_* limits), the bench tokens (dealer,
 * pitboss, auditor; every table), the database and listen port given.
 * extra_json, when not NULL, is inserted as further top-level keys
 * ("\"checkpoint\": {...}").  Returns 0 or -1.
 */
int bench_write_config(const char *path, int tables, const char *database, int port, const char *extra_json);

/* A loopback TCP port that was free a moment ago. */
int bench_free_port(void);

/* ---- the daemon ---- */

struct bench_daemon {
	pid_t pid;
	int port;
	char url[64];
	char log[4200];
	double start_seconds;   /* from exec to the first 200 on /api/v1/health */
};

/*
 * The pitbossd binary: `explicit` when given, else $PB_BUILD_DIR/pitbossd,
 * else ./pitbossd next to the bench (BUILD/tests/../pitbossd).  NULL when none
 * is executable.
 */
const char *bench_find_pitbossd(const char *explicit_path, const char *argv0);

/* Starts `pitbossd -f -c config` (stderr to log_path) and waits up to timeout_s for health. */
int bench_daemon_start(struct bench_daemon *d, const char *binary, const char *config, int port, const char *log_path,
    double timeout_s);

/* SIGTERM, then waits up to timeout_s (SIGKILL after); returns the exit status, or -1 when killed. */
int bench_daemon_stop(struct bench_daemon *d, double timeout_s);

/* CPU seconds (user + system) a process has used so far, from /proc/PID/stat; -1 when unreadable. */
double bench_cpu_seconds(pid_t pid);

/* VmRSS and VmHWM of a process in KiB (from /proc/PID/status); -1 when unreadable. */
int bench_rss_kib(pid_t pid, long *rss, long *hwm);

/* The rounds in the database at path and the highest round id: 0 and 0 when there is no file yet; -1 when unreadable. */
int bench_count_rounds(const char *path, long *count, long *max_id);

#endif
