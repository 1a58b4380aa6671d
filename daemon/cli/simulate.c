/*
 * simulate.c - `pitboss simulate`: dealer terminals that play realistic
 * rounds against a running pitbossd through its public HTTP API.  This file
 * is the command: options and help, the HTTP clients and worker threads,
 * signals, the progress lines.  The rounds are planned by simulate_plan.c
 * and sent by simulate_run.c (see simulate.h).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/simulate.h"

/* ---- options ---- */

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: pitboss simulate --url URL --token TOKEN [--tables T1,T2] [--except T3] [--rounds N]\n"
	    "                        [--rate R] [--mode steps|whole|mixed] [--misdeal-rate P]\n"
	    "                        [--strategy S] [--clients K] [--timeout MS] [--quiet]\n"
	    "  --url URL          pitbossd's base URL (default $PITBOSS_URL or http://127.0.0.1:8080)\n"
	    "  --token TOKEN      a dealer token for the tables (default $PITBOSS_TOKEN)\n"
	    "  --tables LIST      tables to deal at, comma-separated (default: every open table)\n"
	    "  --except LIST      tables to leave free, e.g. for a dealer's page (comma-separated)\n"
	    "  --rounds N         rounds per table, then stop (default 0: until interrupted)\n"
	    "  --rate R           rounds per second per table (default 1; 0: as fast as possible)\n"
	    "  --mode M           steps, whole (one request a round) or mixed (default mixed)\n"
	    "  --misdeal-rate P   share of rounds voided as misdeals (default 0.01)\n"
	    "  --strategy S       how players play or fold: q64 (default), optimal, always,\n"
	    "                     hole:P (sees the dealer's cards on P%% of hands) or share\n"
	    "                     (neighbours show each other their cards)\n"
	    "  --clients K        parallel connections/threads (default: one per table)\n"
	    "  --timeout MS       network timeout per request (default 10000)\n"
	    "  --quiet            no progress lines, only the final summary\n");
}

static int
parse_long(const char *opt, const char *v, long lo, long hi, long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno != 0 || end == v || *end != '\0' || n < lo || n > hi) {
		fprintf(stderr, "pitboss simulate: %s: expected a whole number %ld..%ld, got \"%s\"\n", opt, lo, hi, v);
		return -1;
	}
	*out = n;
	return 0;
}

static int
parse_double(const char *opt, const char *v, double lo, double hi, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (errno != 0 || end == v || *end != '\0' || !isfinite(d) || d < lo || d > hi) {
		fprintf(stderr, "pitboss simulate: %s: expected a number %g..%g, got \"%s\"\n", opt, lo, hi, v);
		return -1;
	}
	*out = d;
	return 0;
}

/*
 * Applies one option of the command line (getopt_long's ch and its argument)
 * to o: 0, 1 for --help, -1 after saying what is wrong.
 */
static int
set_option(struct options *o, int ch, char *arg)
{
	long n;

	switch (ch) {
	case 'u':
		o->url = arg;
		break;
	case 't':
		o->token = arg;
		break;
	case 'T':
		o->tables = arg;
		break;
	case 'x':
		o->except = arg;
		break;
	case 'n':
		if (parse_long("--rounds", arg, 0, LONG_MAX / 2, &o->rounds) == -1)
			return -1;
		break;
	case 'r':
		if (parse_double("--rate", arg, 0, 1e6, &o->rate) == -1)
			return -1;
		break;
	case 'm':
		if (strcmp(arg, "steps") == 0)
			o->mode = MODE_STEPS;
		else if (strcmp(arg, "whole") == 0)
			o->mode = MODE_WHOLE;
		else if (strcmp(arg, "mixed") == 0)
			o->mode = MODE_MIXED;
		else {
			fprintf(stderr, "pitboss simulate: --mode: steps, whole or mixed, not \"%s\"\n", arg);
			return -1;
		}
		break;
	case 'd':
		if (parse_double("--misdeal-rate", arg, 0, 1, &o->misdeal_rate) == -1)
			return -1;
		break;
	case 'k':
		if (parse_long("--clients", arg, 1, SIM_MAX_CLIENTS, &n) == -1)
			return -1;
		o->clients = (int)n;
		break;
	case 'w':
		if (parse_long("--timeout", arg, 1, 3600000, &n) == -1)
			return -1;
		o->timeout_ms = (int)n;
		break;
	case 's': {
		char why[128];

		if (strategy_parse(arg, &o->strategy, why, sizeof(why)) == -1) {
			fprintf(stderr, "pitboss simulate: --strategy: %s\n", why);
			return -1;
		}
		break;
	}
	case 'q':
		o->quiet = true;
		break;
	case 'h':
		return 1;
	default:
		return -1;    /* getopt_long said what is wrong */
	}
	return 0;
}

/* Reads the options; returns 0, 1 for --help, -1 on a usage error (printed). */
static int
parse_options(int argc, char **argv, struct options *o)
{
	static const struct option LONG[] = {
		{"url", required_argument, NULL, 'u'},
		{"token", required_argument, NULL, 't'},
		{"tables", required_argument, NULL, 'T'},
		{"except", required_argument, NULL, 'x'},
		{"rounds", required_argument, NULL, 'n'},
		{"rate", required_argument, NULL, 'r'},
		{"mode", required_argument, NULL, 'm'},
		{"misdeal-rate", required_argument, NULL, 'd'},
		{"clients", required_argument, NULL, 'k'},
		{"timeout", required_argument, NULL, 'w'},
		{"strategy", required_argument, NULL, 's'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int ch, rc;

	memset(o, 0, sizeof(*o));
	o->url = getenv("PITBOSS_URL") ? getenv("PITBOSS_URL") : "http://127.0.0.1:8080";
	o->token = getenv("PITBOSS_TOKEN");
	o->rate = 1.0;
	o->mode = MODE_MIXED;
	o->misdeal_rate = 0.01;
	o->timeout_ms = HTTP_CLIENT_DEFAULT_TIMEOUT_MS;
	optind = 1;
	opterr = 1;
	while ((ch = getopt_long(argc, argv, "qh", LONG, NULL)) != -1)
		if ((rc = set_option(o, ch, optarg)) != 0)
			return rc;
	if (optind < argc) {
		fprintf(stderr, "pitboss simulate: unexpected argument \"%s\"\n", argv[optind]);
		return -1;
	}
	if (o->token == NULL || *o->token == '\0') {
		fprintf(stderr, "pitboss simulate: --token is required (or set PITBOSS_TOKEN)\n");
		return -1;
	}
	return 0;
}

/* ---- signals ---- */

/* SIGINT/SIGTERM: the first asks the workers to stop after their round; the second quits at once. */
static void
on_signal(int sig)
{
	static const char msg[] = "\npitboss simulate: stopping after the current rounds (again to quit now)\n";

	(void)sig;
	if (atomic_fetch_add(&sim_stop_signals, 1) > 0)
		_exit(130);
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
}


/* ---- the command ---- */

/* One HTTP client for worker w, with the timeout asked for; NULL after saying why (prefix: "--url: " or ""). */
static int
worker_connect(struct sim *s, struct worker *w, const char *what)
{
	struct pb_error err;

	w->sim = s;
	if ((w->http = http_client_new(s->opt.url, s->opt.token, &err)) == NULL) {
		fprintf(stderr, "pitboss simulate: %s%s\n", what, err.message);
		return -1;
	}
	http_client_set_timeout(w->http, s->opt.timeout_ms);
	return 0;
}

/*
 * Makes the clients beyond the first: --clients of them, or one per table,
 * never more than the tables (a table takes one client at a time).  Counts
 * them in *nworkers; -1 when one could not be made.
 */
static int
more_clients(struct sim *s, struct worker *workers, int *nworkers)
{
	int want = s->opt.clients > 0 ? s->opt.clients : s->table_count;

	if (want > s->table_count) {
		if (s->opt.clients > 0)
			fprintf(stderr, "pitboss simulate: %d clients for %d tables: one table takes one "
			    "client at a time, using %d\n", want, s->table_count, s->table_count);
		want = s->table_count;
	}
	for (; *nworkers < want; (*nworkers)++)
		if (worker_connect(s, &workers[*nworkers], "") == -1)
			return -1;
	return 0;
}

/* The line that says where the simulator deals, unless --quiet. */
static void
announce(const struct sim *s, int nworkers)
{
	if (s->opt.quiet)
		return;
	fprintf(stderr, "simulate: dealing at %d table%s (", s->table_count, s->table_count == 1 ? "" : "s");
	for (int i = 0; i < s->table_count; i++)
		fprintf(stderr, "%s%s%s", i ? ", " : "", s->tables[i].id,
		    s->tables[i].game.player_banked ? " player-banked" : "");
	fprintf(stderr, ") with %d client%s", nworkers, nworkers == 1 ? "" : "s");
	if (s->opt.strategy.kind != STRATEGY_Q64) {
		char name[32];

		strategy_format(&s->opt.strategy, name, sizeof(name));
		fprintf(stderr, "; players' strategy %s", name);
	}
	fputc('\n', stderr);
}

/*
 * Starts the worker threads with SIGINT/SIGTERM blocked, so that this thread
 * alone takes them (and turns them into a stop request).  Returns how many
 * started; a thread that cannot start stops the others after their round.
 */
static int
start_workers(struct sim *s, struct worker *workers, int nworkers)
{
	sigset_t block, saved;
	int started;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &saved);
	for (started = 0; started < nworkers; started++) {
		pthread_mutex_lock(&s->lock);
		s->workers_running++;
		pthread_mutex_unlock(&s->lock);
		if (pthread_create(&workers[started].thread, NULL, worker_main, &workers[started]) != 0) {
			pthread_mutex_lock(&s->lock);
			s->workers_running--;
			pthread_mutex_unlock(&s->lock);
			fprintf(stderr, "pitboss simulate: cannot start a thread\n");
			atomic_fetch_add(&sim_stop_signals, 1);
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	return started;
}

/* Waits for the workers to finish, printing a progress line every second unless --quiet. */
static void
watch_progress(struct sim *s)
{
	unsigned long last_rounds = 0;
	double last_print = s->started;

	for (;;) {
		struct timespec nap = {0, 100 * 1000000L};
		bool running;
		double now;

		nanosleep(&nap, NULL);
		now = now_seconds();
		pthread_mutex_lock(&s->lock);
		running = s->workers_running > 0;
		if (!s->opt.quiet && running && now - last_print >= 1.0) {
			unsigned long rounds = s->st.settled + s->st.voided + s->st.failed;
			print_progress(s, now - s->started, (double)(rounds - last_rounds) / (now - last_print));
			last_rounds = rounds;
			last_print = now;
		}
		pthread_mutex_unlock(&s->lock);
		if (!running)
			break;
	}
}

/*
 * Deals with the clients made: starts the workers, watches them to the end
 * with SIGINT/SIGTERM caught, prints the summary.  Returns the exit status:
 * 0 when every answer was intended, 1 otherwise.
 */
static int
deal(struct sim *s, struct worker *workers, int nworkers)
{
	struct sigaction sa, old_int, old_term;
	int started;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	s->started = now_seconds();
	started = start_workers(s, workers, nworkers);
	watch_progress(s);
	for (int i = 0; i < started; i++)
		pthread_join(workers[i].thread, NULL);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);

	print_summary(s, now_seconds() - s->started);
	return (s->st.unexpected > 0 || s->st.transport_errors > 0 || s->st.failed > 0) ? 1 : 0;
}

/*
 * `pitboss simulate`: reads the options and the tables, starts the workers,
 * prints progress every second, joins the workers and prints the summary.
 * Exit status 0 when every answer was intended, 1 otherwise, 2 on usage or
 * setup failure.
 */
int
cmd_simulate(int argc, char **argv)
{
	struct sim *s = NULL;
	struct worker *workers = NULL;
	struct pb_error err;
	int nworkers = 0, rc = 2, opt_rc;

	if ((s = calloc(1, sizeof(*s))) == NULL) {
		fprintf(stderr, "pitboss simulate: out of memory\n");
		return 2;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->changed, NULL);
	atomic_init(&s->void_forbidden, false);
	atomic_store(&sim_stop_signals, 0);
	sim_rng_system(&s->rng);
	if ((opt_rc = parse_options(argc, argv, &s->opt)) != 0) {
		usage(opt_rc == 1 ? stdout : stderr);
		rc = opt_rc == 1 ? 0 : 2;
		goto out;
	}
	if (sodium_init() < 0) {
		fprintf(stderr, "pitboss simulate: libsodium failed to initialise\n");
		goto out;
	}
	if (hand3_parse_high_card("Q-6-4", &s->raise_min, &err) == -1) {
		fprintf(stderr, "pitboss simulate: %s\n", err.message);
		goto out;
	}
	/* One worker first, to read the tables; the others once their number is known. */
	if ((workers = calloc(SIM_MAX_CLIENTS, sizeof(*workers))) == NULL) {
		fprintf(stderr, "pitboss simulate: out of memory\n");
		goto out;
	}
	if (worker_connect(s, &workers[0], "--url: ") == -1)
		goto out;
	nworkers = 1;
	if (load_tables(s, &workers[0]) == -1 || more_clients(s, workers, &nworkers) == -1)
		goto out;
	announce(s, nworkers);
	rc = deal(s, workers, nworkers);
out:
	if (workers != NULL)
		for (int i = 0; i < nworkers; i++)
			http_client_free(workers[i].http);
	free(workers);
	pthread_cond_destroy(&s->changed);
	pthread_mutex_destroy(&s->lock);
	free(s);
	return rc;
}
