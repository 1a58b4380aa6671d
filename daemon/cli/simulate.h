/*
 * simulate.h - what the parts of `pitboss simulate` share: the options, the
 * tables being dealt, the counters, the workers.
 *
 *   simulate.c        the command: options, help, threads, signals, progress
 *   simulate_run.c    the runner: rounds sent over HTTP step by step or
 *                     whole, recovery, scheduling
 *   simulate_tables.c the tables to deal at, read from the daemon
 *   simulate_stats.c  counters, latency histogram, progress and summary lines
 *   simulate_plan.c   the pure planner (simulate_plan.h)
 *   simulate_strategy.c  the players' play/fold strategies (simulate_strategy.h)
 *   simulate_json.c   the plan as request bodies, answers read back
 */
#ifndef PB_CLI_SIMULATE_H
#define PB_CLI_SIMULATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/http_client.h"
#include "cli/simulate_plan.h"
#include "cli/simulate_strategy.h"
#include "common/error.h"

#define SIM_MAX_TABLES 64
#define SIM_MAX_CLIENTS 256
#define SIM_MAX_CODES 64
#define SIM_PRINT_MAX 30          /* unexpected answers printed in full */
#define SIM_DEAD_AFTER 5          /* consecutive failed rounds that retire a table */
#define SIM_LAT_BUCKETS 200       /* latency histogram: 20 buckets a decade from 1 us */
#define TABLE_ID_MAX 64
#define ROUND_ID_MAX 32

enum mode { MODE_STEPS, MODE_WHOLE, MODE_MIXED };

enum outcome {
	OUT_SETTLED,
	OUT_VOIDED,
	OUT_FAILED,
	OUT_SKIPPED,     /* nothing played: table closed, or stopping; not counted */
	OUT_RETIRED      /* the token may not deal here: the table is left alone */
};

struct options {
	const char *url;
	const char *token;
	char *tables;              /* comma-separated ids, or NULL for every open table */
	char *except;              /* comma-separated ids left free (for a dealer), or NULL */
	long rounds;               /* per table; 0 = until stopped */
	double rate;               /* rounds per second per table; 0 = as fast as possible */
	enum mode mode;
	double misdeal_rate;
	int clients;               /* 0 = one per table */
	int timeout_ms;
	bool quiet;
	struct sim_strategy strategy;  /* how the simulated players decide (--strategy) */
};

struct sim_table {
	char id[TABLE_ID_MAX];
	struct plan_table game;     /* what the planner needs; its rotation touched only by the worker holding the table */
	bool explicit_choice;       /* named by --tables */
	bool rotation_known;        /* game.banker_seat/banker_run reflect the daemon's record */

	/* Scheduling, under sim.lock. */
	bool busy;
	bool retired;
	long played;                /* rounds started, counting the one in progress */
	double next_due;            /* monotonic seconds */
	int fail_streak;
	double dealer_checked;      /* monotonic seconds of the last look for a person dealing here */
	bool person_dealing;        /* a person was dealing here at that look: the table is left alone */
};

struct refusal {
	char code[PB_ERROR_CODE_MAX];
	unsigned long count;
};

struct stats {
	unsigned long settled;
	unsigned long voided;
	unsigned long failed;
	unsigned long recovered;
	unsigned long requests;
	unsigned long retries;
	unsigned long transport_errors;
	unsigned long unexpected;
	int refusal_count;
	struct refusal refusals[SIM_MAX_CODES];
	unsigned long latency[SIM_LAT_BUCKETS];
	double latency_max_ms;
	double latency_sum_ms;
};

struct sim {
	struct options opt;
	struct sim_table tables[SIM_MAX_TABLES];
	int table_count;
	hand3_value_t raise_min;        /* Q-6-4 */
	struct sim_rng rng;             /* the CSPRNG: stateless, shared by the workers */
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct stats st;
	int workers_running;
	atomic_bool void_forbidden;
	double started;
};

struct worker {
	struct sim *sim;
	struct http_client *http;
	pthread_t thread;
	bool transport_failed;          /* the last round failed for want of a connection */
};

/* simulate_run.c */
extern atomic_int sim_stop_signals;   /* SIGINT/SIGTERM received; > 0: stop after the round */
double now_seconds(void);
int load_tables(struct sim *s, struct worker *w);                        /* simulate_tables.c */

/* simulate_run.c, for simulate_tables.c: a table id percent-encoded into a path between two texts. */
void sim_path_table(char *out, size_t outsz, const char *fmt_before, const char *id, const char *after);

/*
 * simulate_run.c: one request that must succeed (anything but a 2xx is reported as unexpected); steals
 * body; 0 with *answer (when not NULL) the parsed answer, owned by the caller, else -1.
 */
int sim_api_ok(struct worker *w, const struct sim_table *t, const char *method, const char *path, json_t *body,
    json_t **answer);
void *worker_main(void *arg);

/* simulate_stats.c */
void stat_latency(struct sim *s, double ms);
void stat_refusal_locked(struct sim *s, const char *code);
void print_progress(struct sim *s, double elapsed, double rate);
void print_summary(struct sim *s, double elapsed);

#endif
