/*
 * main.c - pitbossd: reads the configuration, opens and migrates the
 * database, brings the tables in line with the config, checks the chains
 * since their last checkpoints (the rest, with startup_check "full", in the
 * background once listening: table/ops/ops.h), serves HTTP, and
 * waits for signals: SIGHUP reloads tables, limits and tokens; SIGTERM and
 * SIGINT stop accepting, let in-flight requests finish and close the
 * database cleanly.  Between signals it signs checkpoints, deletes
 * the stored Idempotency-Key answers older than their retention and writes
 * the failed sign-ins' bounded events (table/people/people.h).
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "common/faults.h"
#include "common/files.h"
#include "common/instance_lock.h"
#include "common/json_alloc.h"
#include "common/log.h"
#include "common/testclock.h"
#include "common/version.h"
#include "http/http.h"
#include "store/audit.h"
#include "store/writer.h"
#include "table/people/people.h"
#include "table/ops/ops.h"
#include "table/rounds/rounds.h"
#include "central/central.h"

int config_parse_listen(const char *text, char *host, size_t hostsz, int *port);

/*
 * Expired Idempotency-Key answers are deleted this many rows per transaction,
 * so a request waits behind one short batch at most.  While a batch comes
 * back full (a backlog: the first start after an upgrade) the next one
 * follows after this gap, in which the writers waiting for the lock get it.
 */
#define IDEMPOTENCY_PRUNE_BATCH 1000
#define IDEMPOTENCY_PRUNE_GAP_MS 100

/* The expiry of stored answers, driven by the main loop. */
struct pruner {
	int64_t last_ms;     /* when the last pass started */
	int64_t removed;     /* rows removed so far by the pass in progress */
	bool backlog;        /* the last batch was full: the pass goes on after the gap */
};

struct options {
	const char *config_path;
	const char *listen;
	const char *database;
	bool check_only;
	bool foreground;
};

static void
usage(FILE *f)
{
	fprintf(f, "usage: pitbossd -c FILE [--listen ADDR:PORT] [--database PATH] [-t] [-f]\n"
	    "       pitbossd --version | --help\n"
	    "  -c FILE      the configuration (see pitbossd(8), pitboss.json(5))\n"
	    "  --listen     override \"listen\"\n"
	    "  --database   override \"database\"\n"
	    "  -t           check the configuration, the database's directory and the page, and exit\n"
	    "  -f           stay in the foreground and log to stderr (default: detach, log to syslog)\n"
	    "  --version    print the version and exit\n"
	    "exit status: 0 stopped cleanly (or -t: all good), 1 could not start (or -t: the first problem),\n"
	    "  2 bad command line\n");
}

static int
parse_args(int argc, char **argv, struct options *o)
{
	static const struct option LONG[] = {
		{"config", required_argument, NULL, 'c'}, {"listen", required_argument, NULL, 'l'},
		{"database", required_argument, NULL, 'd'}, {"test", no_argument, NULL, 't'},
		{"foreground", no_argument, NULL, 'f'}, {"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'}, {NULL, 0, NULL, 0},
	};
	int c;

	memset(o, 0, sizeof(*o));
	while ((c = getopt_long(argc, argv, "c:tfh", LONG, NULL)) != -1) {
		switch (c) {
		case 'c': o->config_path = optarg; break;
		case 'l': o->listen = optarg; break;
		case 'd': o->database = optarg; break;
		case 't': o->check_only = true; break;
		case 'f': o->foreground = true; break;
		case 'h': usage(stdout); exit(0);
		case 'V':
			pb_version_print(stdout, "pitbossd", true);
			exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (o->config_path == NULL || optind != argc) {
		usage(stderr);
		return -1;
	}
	return 0;
}

static bool
is_loopback(const char *host)
{
	return strcmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0;
}

/* Loads the configuration and applies the command line's overrides. */
static struct config *
load_config(const struct options *o, struct pb_error *err)
{
	struct config *cfg = config_load(o->config_path, err);

	if (cfg == NULL)
		return NULL;
	if (o->listen != NULL &&
	    config_parse_listen(o->listen, cfg->listen_host, sizeof(cfg->listen_host), &cfg->listen_port) < 0) {
		config_free(cfg);
		pb_fail(err, 400, "invalid_config", "--listen: must be ADDRESS:PORT, e.g. 127.0.0.1:8080");
		return NULL;
	}
	if (o->database != NULL) {
		char defaulted[4200];
		snprintf(defaulted, sizeof(defaulted), "%s.signing-key", cfg->database);
		if (strcmp(defaulted, cfg->checkpoint_key) == 0)
			snprintf(cfg->checkpoint_key, sizeof(cfg->checkpoint_key), "%s.signing-key", o->database);
		snprintf(cfg->database, sizeof(cfg->database), "%s", o->database);
	}
	if (cfg->backup_dir[0] == '\0') {
		char copy[4096];
		snprintf(copy, sizeof(copy), "%s", cfg->database);
		snprintf(cfg->backup_dir, sizeof(cfg->backup_dir), "%s/backups", dirname(copy));
	}
	if (!is_loopback(cfg->listen_host) && config_has_demo_tokens(cfg) && !cfg->allow_demo_tokens_remote) {
		config_free(cfg);
		pb_fail(err, 400, "invalid_config",
		    "%s: refusing to listen on %s with the demo tokens of config/; make your own with `pitboss token new`",
		    o->config_path, o->listen ? o->listen : "a non-loopback address");
		return NULL;
	}
	return cfg;
}

/* A directory that exists, or -1 with a message naming the key and the path. */
static int
check_directory(const char *key, const char *dir, int mode, struct pb_error *err)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return pb_fail(err, 400, "invalid_config", "%s: the directory %s does not exist (%s)", key, dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return pb_fail(err, 400, "invalid_config", "%s: %s is not a directory", key, dir);
	if (access(dir, mode) < 0)
		return pb_fail(err, 400, "invalid_config", "%s: the directory %s is not %s by this user (uid %ld): %s", key, dir,
		    (mode & W_OK) ? "writable" : "readable", (long)geteuid(), strerror(errno));
	return 0;
}

/*
 * pitbossd -t, beyond the file itself: the database can be created or
 * written (its directory exists and is writable: the WAL, the lock file
 * and the backups go there too; an existing file is readable and
 * writable), and the page exists (web_root is a directory with
 * index.html).  The checks are made as the user running -t.
 */
static int
check_setup(const struct config *cfg, struct pb_error *err)
{
	char copy[4096], index[4200];

	snprintf(copy, sizeof(copy), "%s", cfg->database);
	if (check_directory("database", dirname(copy), W_OK | X_OK, err) < 0)
		return -1;
	if (access(cfg->database, F_OK) == 0 && access(cfg->database, R_OK | W_OK) < 0)
		return pb_fail(err, 400, "invalid_config", "database: %s is not readable and writable by this user (uid %ld): %s",
		    cfg->database, (long)geteuid(), strerror(errno));
	if (check_directory("web_root", cfg->web_root, R_OK | X_OK, err) < 0)
		return -1;
	snprintf(index, sizeof(index), "%s/index.html", cfg->web_root);
	if (access(index, R_OK) < 0)
		return pb_fail(err, 400, "invalid_config", "web_root: %s has no readable index.html, so the page cannot be served "
		    "(leave web_root out to serve the installed page)", cfg->web_root);
	return 0;
}

/* At start: a page that is not there is said in the log (the API works without it). */
static void
warn_missing_page(const struct config *cfg)
{
	char index[4200];

	snprintf(index, sizeof(index), "%s/index.html", cfg->web_root);
	if (access(index, R_OK) < 0)
		log_warn("web_root %s has no readable index.html: the page will answer 404 (the API is not affected)",
		    cfg->web_root);
}

/* What a significant event of the daemon's own says of a configuration: its file, what was loaded, its size. */
static json_t *
config_detail(const struct config *cfg)
{
	return json_pack("{s:s,s:s,s:s,s:o,s:i,s:i}", "config", cfg->path, "config_sha256", cfg->sha256, "loaded_sha256",
	    cfg->loaded_sha256, "files", config_files_json(cfg), "tables", (int)cfg->table_count, "tokens",
	    (int)cfg->token_count);
}

/* Records a significant event of the daemon's own (detail: stolen, NULL for none), logging (not failing) when it cannot. */
static void
significant(struct store *store, const char *code, json_t *detail)
{
	struct pb_error err;

	if (detail == NULL)
		detail = json_object();
	if (store_significant(store, "pitbossd", code, NULL, detail, &err) < 0)
		log_error("recording significant event %s: %s", code, err.message);
	json_decref(detail);
}

/* A refused reload: the log line and the significant event config_reload_refused, with the message. */
static void
reload_refused(struct store *store, const struct options *o, const char *message)
{
	log_error("reload refused, keeping the running configuration: %s", message);
	significant(store, "config_reload_refused", json_pack("{s:s,s:s}", "config", o->config_path, "message", message));
}

/*
 * SIGHUP: a new configuration for tables, limits and tokens; the old one
 * stays on any problem.  The event config_reloaded says what was loaded
 * (every file and its hash) and what changed; a table whose game's rules
 * changed, its own entry not, gets the table event rules_changed.
 */
static void
reload(struct app *app, const struct options *o, struct store *store)
{
	struct pb_error err;
	struct config *next = load_config(o, &err), *old;
	struct pit pit = {0};
	json_t *detail;

	if (next == NULL)
		return reload_refused(store, o, err.message);
	if (strcmp(next->database, app->database) != 0 || strcmp(next->listen_host, app->cfg->listen_host) != 0 ||
	    next->listen_port != app->cfg->listen_port)
		log_warn("reload: listen and database changes take effect only after a restart");
	pthread_rwlock_wrlock(&app->lock);
	old = app->cfg;
	app->cfg = next;
	pit.store = store;
	pit.cfg = next;
	pit.signer = app->signer;
	if (pit_sync_tables(&pit, &err) < 0 || pit_record_rules_changes(&pit, old, &err) < 0)
		log_error("reload: recording table settings failed: %s", err.message);
	detail = config_detail(next);
	json_object_set_new(detail, "changes", config_changes(old, next));
	json_object_set_new(detail, "previous_loaded_sha256", json_string(old->loaded_sha256));
	significant(store, "config_reloaded", detail);
	pthread_rwlock_unlock(&app->lock);
	config_free(old);
	log_info("configuration reloaded from %s (sha256 %s, all files %s): %zu tables, %zu tokens", next->path,
	    next->sha256, next->loaded_sha256, next->table_count, next->token_count);
}

/* How often to look for expired answers: a tenth of the retention, at least every minute, at most every second. */
static int64_t
prune_interval_ms(unsigned retention_seconds)
{
	unsigned s = retention_seconds / 10;

	if (s > 60)
		s = 60;
	if (s < 1)
		s = 1;
	return (int64_t)s * 1000;
}

/*
 * One batch of a pass: deletes up to IDEMPOTENCY_PRUNE_BATCH stored answers
 * older than the retention.  When the pass ends (a batch that was not full,
 * or a failure) it logs how many the whole pass removed, if any.
 */
static void
prune_idempotency(struct pruner *p, struct store *store, unsigned retention_seconds)
{
	struct pb_error err;
	int64_t n = 0;
	int rc;

	rc = store_idempotency_prune(store, pb_time_now_ms() - (int64_t)retention_seconds * 1000,
	    IDEMPOTENCY_PRUNE_BATCH, 1, &n, &err);
	p->removed += n;
	p->backlog = rc == 0 && n == IDEMPOTENCY_PRUNE_BATCH;
	if (rc < 0)
		log_error("pruning stored idempotency answers: %s", err.message);
	if (p->backlog)
		return;
	if (p->removed > 0)
		log_info("idempotency: pruned %lld stored answer%s older than %u s", (long long)p->removed,
		    p->removed == 1 ? "" : "s", retention_seconds);
	p->removed = 0;
}

/* What the daemon runs with between start and stop. */
struct daemon_state {
	struct options o;
	struct app app;
	struct store *store;           /* the main thread's connection: start-up, checkpoints, pruning, reloads */
	struct signer *signer;
	struct pit pit;
	struct server *srv;
	struct startup_result startup;
	struct startup_walk *walk;
	struct backup_schedule *backups; /* backup_every_seconds: NULL when none */
	struct shipper *shipper;       /* "central": the record shipped to PostgreSQL; NULL when none */
	char central_conninfo[1024];   /* "central.reports": the server the summary across properties reads */
	struct instance_lock *lock;    /* one pitbossd per database, held from before the first write to the exit */
	int listen_fd;                 /* bound before the database is opened, handed to the server */
};

/* Blocks the signals the main loop waits for, before any worker starts: they are taken by this thread alone. */
static void
block_signals(sigset_t *sigs)
{
	sigemptyset(sigs);
	sigaddset(sigs, SIGTERM);
	sigaddset(sigs, SIGINT);
	sigaddset(sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/*
 * The WAL and shared-memory files SQLite made beside the database: the
 * database's mode and, with file_group, its group (SQLite gives them the
 * mode; the group only when it runs as root).  A failure is a warning: the
 * daemon's own access does not depend on it.
 */
static void
secure_companions(const char *database)
{
	static const char *const SUFFIXES[] = {"-wal", "-shm"};
	char path[4200];
	struct pb_error err;

	if (pb_files_group() == (gid_t)-1)
		return;
	for (size_t i = 0; i < sizeof(SUFFIXES) / sizeof(SUFFIXES[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", database, SUFFIXES[i]);
		if (access(path, F_OK) == 0 && pb_files_secure_path(path, false, &err) < 0)
			log_warn("file_group: %s", err.message);
	}
}

/*
 * Opens the database (the main thread's connection and the writer every
 * API write goes through, store/writer.h), loads the checkpoint key, brings
 * the tables in line with the configuration and checks the chains since
 * their checkpoints.  Logs and returns -1 on the first failure.
 */
static int
open_database(struct daemon_state *d)
{
	struct store_options so = {0};
	struct pb_error err;

	so.path = d->app.database;
	so.synchronous = d->app.synchronous;
	d->store = store_open(&so, &err);
	if (d->store != NULL)
		d->app.writer = store_writer_open(&so, &err);
	if (d->app.writer != NULL)
		secure_companions(d->app.database);
	if (d->app.writer != NULL)
		d->signer = signer_load(d->app.cfg->checkpoint_key, &err);
	if (d->signer == NULL) {
		log_error("%s", err.message);
		return -1;
	}
	d->app.signer = d->signer;
	d->pit.store = d->store;
	d->pit.cfg = d->app.cfg;
	d->pit.signer = d->signer;
	if (pit_sync_tables(&d->pit, &err) < 0) {
		log_error("recording table settings: %s", err.message);
		return -1;
	}
	significant(d->store, "daemon_started", config_detail(d->app.cfg));
	/* The checkpoints and the chains since them now; with "full", the chains before them once listening. */
	startup_check_before_listening(&d->pit, &d->startup);
	return 0;
}

/*
 * Files the daemon needs besides its connections: the standard streams, the
 * log, the instance lock, the listening socket, the database, its WAL and
 * shared memory on the writer's and each worker's connection, each worker's
 * epoll and wake-up pipe, the start-up walk's connection, a backup's files.
 */
#define FILES_BESIDES_CONNECTIONS(threads) (32 + 6 * (unsigned)(threads))

/*
 * Makes connection_limit fit the open-file limit: raises the soft limit
 * (up to the hard one) when it is too low, and when even that is not
 * enough clamps connection_limit, with a warning.  Past the limit accept()
 * fails with EMFILE and libmicrohttpd stops accepting while clients wait
 * (issue 15); at connection_limit it refuses a connection at once instead.
 */
static void
fit_open_files(struct config *cfg)
{
	unsigned besides = FILES_BESIDES_CONNECTIONS(cfg->threads);
	rlim_t need = (rlim_t)cfg->connection_limit + besides;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > rl.rlim_cur) {
		struct rlimit up = {rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need ? rl.rlim_max : need, rl.rlim_max};
		if (setrlimit(RLIMIT_NOFILE, &up) == 0)
			rl.rlim_cur = up.rlim_cur;
	}
	if (rl.rlim_cur >= need)
		return;
	unsigned fit = rl.rlim_cur > besides + 4 ? (unsigned)(rl.rlim_cur - besides) : 4;
	log_warn("connection_limit %u does not fit the open-file limit %llu (ulimit -n; LimitNOFILE= under systemd) with the "
	    "%u files the daemon needs besides: %u connections at most", cfg->connection_limit,
	    (unsigned long long)rl.rlim_cur, besides, fit);
	cfg->connection_limit = fit;
}

/* The daemon's own backups, when backup_every_seconds says so (taken at start). */
static void
start_backup_schedule(struct daemon_state *d)
{
	struct backup_schedule_options o = {
		.database = d->app.database, .backup_dir = d->app.cfg->backup_dir, .keep = d->app.cfg->backup_keep,
		.every_seconds = d->app.cfg->backup_every_seconds, .signer = d->signer, .writer = d->app.writer,
	};
	struct pb_error err;

	if (backup_schedule_start(&o, &d->backups, &err) < 0)
		log_error("scheduled backups: %s", err.message);
}

static void
shipping_status_of(void *arg, struct store *reader, struct shipping_status *out)
{
	shipper_status(arg, reader, out);
}

/* GET /api/v1/central/summary: the summary across properties, from the central server configured at start. */
static int
central_report_of(void *arg, const struct central_report_options *o, json_t **out, struct pb_error *err)
{
	struct central_report_options mine = *o;

	mine.conninfo = arg;
	return central_report(&mine, out, err);
}

/* The shipper to the central PostgreSQL, and its reports, when "central" is configured (taken at start). */
static void
start_shipper(struct daemon_state *d)
{
	struct shipper_options o = {
		.conninfo = d->app.cfg->central_conninfo, .property = d->app.cfg->property.id,
		.calendar = &d->app.cfg->property, .database = d->app.database, .writer = d->app.writer,
		.statement_timeout_ms = (int)d->app.cfg->central_statement_timeout_ms,
	};
	struct pb_error err;

	if (d->app.cfg->central_conninfo[0] == '\0')
		return;
	if (d->app.cfg->central_reports) {
		snprintf(d->central_conninfo, sizeof(d->central_conninfo), "%s", d->app.cfg->central_conninfo);
		d->app.central_report_arg = d->central_conninfo;
		d->app.central_report = central_report_of;
		log_info("central: serving the summary across properties (GET /api/v1/central/summary)");
	}
	if (!d->app.cfg->central_ship)
		return;
	if (shipper_start(&o, &d->shipper, &err) < 0) {
		log_error("central: the shipper cannot start: %s", err.message);
		return;
	}
	d->app.shipping_arg = d->shipper;
	d->app.shipping = shipping_status_of;
}

/* Listens, and starts the background part of the start-up check and the scheduled backups. */
static int
start_serving(struct daemon_state *d)
{
	struct startup_walk_options walk_opts = {0};
	struct pb_error err;

	fit_open_files(d->app.cfg);
	d->srv = server_start(&d->app, d->listen_fd, &err);
	d->listen_fd = -1;             /* the server's now, closed with it (or by its failure) */
	if (d->srv == NULL) {
		log_error("%s", err.message);
		return -1;
	}
	log_info("listening on %s:%d, database %s (schema %d, synchronous=%s), %zu tables, config sha256 %s",
	    d->app.cfg->listen_host, d->app.cfg->listen_port, d->app.database, store_schema_version(d->store),
	    d->app.synchronous, d->app.cfg->table_count, d->app.cfg->sha256);
	walk_opts.database = d->app.database;
	walk_opts.synchronous = d->app.synchronous;
	walk_opts.pause_ms = d->app.cfg->startup_walk_pause_ms;
	walk_opts.chunk = (int)d->app.cfg->startup_walk_chunk;
	if (startup_walk_start(&walk_opts, &d->startup, &d->walk, &err) < 0)
		log_error("start-up integrity check: %s", err.message);
	start_backup_schedule(d);
	start_shipper(d);
	return 0;
}

/* Between signals: every checkpoint_every_seconds a checkpoint of each moved chain head, and the pruning. */
static void
tick(struct daemon_state *d, int64_t *last_checkpoint_ms, struct pruner *pruner)
{
	struct pb_error err;
	unsigned retention;

	if (pb_time_now_ms() - *last_checkpoint_ms >= (int64_t)d->app.cfg->checkpoint_every_seconds * 1000) {
		*last_checkpoint_ms = pb_time_now_ms();
		pthread_rwlock_rdlock(&d->app.lock);
		d->pit.cfg = d->app.cfg;
		if (audit_checkpoint_all(&d->pit, &err) < 0)
			log_error("checkpoint: %s", err.message);
		pthread_rwlock_unlock(&d->app.lock);
	}
	/* The lockouts noted since the last tick, and the failed sign-ins' summary once a minute. */
	authlog_flush(&d->pit, false, pb_time_now_ms(), &err);
	/* Every min(retention / 10, 60 s) a pass drops the expired answers, a batch per tick. */
	pthread_rwlock_rdlock(&d->app.lock);
	retention = d->app.cfg->idempotency_retention_seconds;
	pthread_rwlock_unlock(&d->app.lock);
	if (pruner->backlog || pb_time_now_ms() - pruner->last_ms >= prune_interval_ms(retention)) {
		if (!pruner->backlog)
			pruner->last_ms = pb_time_now_ms();
		prune_idempotency(pruner, d->store, retention);
	}
}

/* Waits for signals: SIGHUP reloads, SIGTERM and SIGINT return; ticks in between. */
static void
serve_until_stopped(struct daemon_state *d, const sigset_t *sigs)
{
	struct pruner pruner = {0};
	struct timespec wait;
	int64_t last_checkpoint_ms = pb_time_now_ms();
	int sig;

	for (;;) {
		wait.tv_sec = pruner.backlog ? 0 : 1;
		wait.tv_nsec = pruner.backlog ? IDEMPOTENCY_PRUNE_GAP_MS * 1000000L : 0;
		sig = sigtimedwait(sigs, NULL, &wait);
		if (sig < 0) {
			tick(d, &last_checkpoint_ms, &pruner);
			continue;
		}
		if (sig == SIGHUP) {
			reload(&d->app, &d->o, d->store);
			continue;
		}
		log_info("signal %d: finishing requests in flight and stopping", sig);
		return;
	}
}

/* Stops serving and closes everything; after a clean run, a last checkpoint and the "daemon_stopped" event. */
static void
shut_down(struct daemon_state *d, bool clean)
{
	struct pb_error err;

	startup_walk_free(d->walk);
	startup_result_free(&d->startup);
	backup_schedule_free(d->backups);
	server_stop(d->srv);
	d->app.shipping = NULL;
	shipper_free(d->shipper);
	if (d->store != NULL && clean) {
		d->pit.cfg = d->app.cfg;
		if (audit_checkpoint_all(&d->pit, &err) < 0)
			log_error("checkpoint at stop: %s", err.message);
		authlog_flush(&d->pit, true, pb_time_now_ms(), &err);
		significant(d->store, "daemon_stopped", NULL);
	}
	store_free(d->store);
	store_writer_free(d->app.writer);
	d->app.writer = NULL;
	app_free(&d->app);
	signer_free(d->signer);
	if (d->listen_fd >= 0)
		close(d->listen_fd);
	instance_lock_free(d->lock);
	if (clean)
		log_info("stopped cleanly");
}

/*
 * Before anything is written: the database's lock (a second pitbossd on it
 * is refused, naming the holder's pid) and the listening socket (an address
 * another process listens on is refused), so that a daemon that cannot run
 * leaves no trace in the database.
 */
static int
claim_instance(struct daemon_state *d, const struct config *cfg)
{
	struct pb_error err;

	d->lock = instance_lock_take(cfg->database, &err);
	if (d->lock != NULL)
		d->listen_fd = server_listen(cfg->listen_host, cfg->listen_port, &err);
	if (d->lock == NULL || d->listen_fd < 0) {
		log_error("%s", err.message);
		return -1;
	}
	return 0;
}

/*
 * The test clock, when this build has it and the environment names its file
 * (common/testclock.h): said loudly in the log, since every time the daemon
 * records and every expiry then follow the tests' offset.  -1 when the file
 * named cannot be used: a test asking for a clock must not get the real one.
 */
static int
use_test_clock(void)
{
	const char *path = getenv(PB_TEST_CLOCK_ENV);
	struct pb_error err;

	if (path != NULL && path[0] == '\0')
		path = NULL;
	if (!pb_test_clock_built()) {
		if (path != NULL)
			log_warn("%s is set, but this build has no test clock: it is ignored", PB_TEST_CLOCK_ENV);
		return 0;
	}
	if (path == NULL) {
		log_info("this build has the test clock (for tests only); not in use: the wall clock is the real one");
		return 0;
	}
	if (pb_test_clock_open(path, &err) < 0) {
		log_error("%s", err.message);
		return -1;
	}
	log_warn("TEST CLOCK IN USE (%s=%s): the wall clock is the real one plus the offset written there, "
	    "now %lld ms; never in production", PB_TEST_CLOCK_ENV, path, (long long)pb_test_clock_offset_ms());
	return 0;
}

/* pitbossd -t: the configuration, then the database's directory and the page (check_setup). */
static int
check_only(struct config *cfg)
{
	struct pb_error err;

	if (check_setup(cfg, &err) < 0) {
		fprintf(stderr, "pitbossd: %s: %s\n", cfg->path, err.message);
		config_free(cfg);
		return 1;
	}
	printf("%s: configuration ok (%zu games, %zu tables, %zu tokens; database %s, page %s)\n", cfg->path,
	    cfg->game_count, cfg->table_count, cfg->token_count, cfg->database, cfg->web_root);
	config_free(cfg);
	return 0;
}

/* pitbossd: -t checks the configuration; otherwise detach (unless -f), open, serve until a signal, stop. */
int
main(int argc, char **argv)
{
	static struct daemon_state d = {.listen_fd = -1};
	struct pb_error err;
	struct config *cfg;
	sigset_t sigs;

	if (parse_args(argc, argv, &d.o) < 0)
		return 2;
	/* The database, its WAL, the lock, the key and the backups: the daemon's user alone, with or without systemd. */
	umask(077);
	/* Before any JSON value exists: jansson's small blocks through per-thread free lists. */
	json_alloc_init();
	if (sodium_init() < 0) {
		fprintf(stderr, "pitbossd: libsodium failed to initialise\n");
		return 1;
	}
	cfg = load_config(&d.o, &err);
	if (cfg == NULL) {
		fprintf(stderr, "pitbossd: %s\n", err.message);
		return 1;
	}
	if (d.o.check_only)
		return check_only(cfg);
	/* With file_group its members read the database and its copies (0640); the key stays 0600 (signer.c). */
	pb_files_set_group(cfg->file_gid < 0 ? (gid_t)-1 : (gid_t)cfg->file_gid);
	umask(cfg->file_gid < 0 ? 077 : 027);
	log_open("pitbossd", !d.o.foreground);
	if (!d.o.foreground && daemon(1, 0) < 0) {
		log_error("cannot detach");
		config_free(cfg);
		return 1;
	}
	log_info("pitbossd %s starting, configuration %s", pb_version_long(), cfg->path);
	/*
	 * Before any thread starts, and before anything reads the time to keep
	 * it.  Allocation failures on demand (common/faults.h): only those of
	 * the allocations made while a request is handled; said loudly in the log.
	 */
	if (use_test_clock() < 0 || pb_faults_use(false, true, log_warn, log_error) < 0) {
		config_free(cfg);
		return 1;
	}
	warn_missing_page(cfg);
	block_signals(&sigs);
	if (claim_instance(&d, cfg) < 0 || app_init(&d.app, cfg, &err) < 0) {
		if (d.lock != NULL && d.listen_fd >= 0)
			log_error("%s", err.message);
		config_free(cfg);
		if (d.listen_fd >= 0)
			close(d.listen_fd);
		instance_lock_free(d.lock);
		return 1;
	}
	if (open_database(&d) < 0 || start_serving(&d) < 0) {
		shut_down(&d, false);
		return 1;
	}
	serve_until_stopped(&d, &sigs);
	shut_down(&d, true);
	return 0;
}
