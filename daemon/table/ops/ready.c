/*
 * ready.c - GET /api/v1/ready (ops.h pit_ready): can this pitbossd
 * record a round now?  Health says the process answers; readiness says a
 * dealer terminal sent here would get its rounds recorded.
 *
 * "The database can be written" is checked truthfully and cheaply: a job
 * that writes nothing goes through the write path every round takes (the
 * group commit: the write lock, BEGIN IMMEDIATE, a savepoint, COMMIT; a
 * transaction that changed nothing writes nothing to the disk), the
 * database's file and directory must be writable by the daemon (a
 * read-only remount or a changed owner shows here before a write fails),
 * and the file system must have READY_MIN_FREE_BYTES free.  A write that
 * failed for the storage (disk full, I/O error: store_writer_fault) keeps
 * the daemon not ready until a write that changes something succeeds: the
 * probe alone cannot say, as an empty COMMIT writes nothing.  The probe runs
 * once a second at most, whatever the number of callers.  Then every
 * table of the configuration must be free of an integrity hold.
 */
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <pthread.h>

#include "common/timeutil.h"
#include "store/audit.h"
#include "store/writer.h"
#include "table/ops/ops.h"

/* The write probe's result is reused this long: a flood of /ready (it needs no token) adds one write job a second at most. */
#define READY_PROBE_REUSE_MS 1000

/* Below this much free space the next checkpoint of the WAL or a backup may fail: not ready. */
#define READY_MIN_FREE_BYTES (64LL * 1024 * 1024)

/* The write path's probe: joins a group and changes nothing. */
static int
write_nothing(struct store *s, void *arg, struct pb_error *err)
{
	(void)s;
	(void)arg;
	(void)err;
	return 0;
}

/*
 * Whether the write path takes a write now: 0, or -1 with the message in
 * err.  One probe a READY_PROBE_REUSE_MS; callers in between get its result.
 */
static int
probe_write(struct store_writer *w, struct pb_error *err)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static int64_t last_ms = -READY_PROBE_REUSE_MS;
	static int last_rc;
	static struct pb_error last_err;
	int64_t now = pb_time_now_ms();
	int rc;

	pthread_mutex_lock(&lock);
	if (now < last_ms || now - last_ms >= READY_PROBE_REUSE_MS) {
		last_rc = store_writer_run(w, write_nothing, NULL, &last_err);
		last_ms = pb_time_now_ms();
	}
	rc = last_rc;
	if (rc < 0)
		*err = last_err;
	pthread_mutex_unlock(&lock);
	return rc;
}

/* Appends a sentence to reasons. */
static void
reason(json_t *reasons, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
reason(json_t *reasons, const char *fmt, ...)
{
	char text[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	json_array_append_new(reasons, json_string(text));
}

/* The database's file, its directory and the space left on their file system. */
static void
check_disk(const char *database, json_t *reasons)
{
	char copy[4096];
	const char *dir;
	struct statvfs vfs;

	snprintf(copy, sizeof(copy), "%s", database);
	dir = dirname(copy);
	if (access(database, W_OK) < 0)
		reason(reasons, "the database cannot be written: %s: %s", database, strerror(errno));
	else if (access(dir, W_OK | X_OK) < 0)
		reason(reasons, "the database cannot be written: its directory %s: %s", dir, strerror(errno));
	if (statvfs(dir, &vfs) == 0 && (long long)vfs.f_bavail * (long long)vfs.f_frsize < READY_MIN_FREE_BYTES)
		reason(reasons, "the database's file system has %lld MiB free, under the %lld MiB needed",
		    (long long)vfs.f_bavail * (long long)vfs.f_frsize / (1024 * 1024), READY_MIN_FREE_BYTES / (1024 * 1024));
}

int
pit_ready(struct pit *p, const char *database, json_t **reasons_out, struct pb_error *err)
{
	json_t *reasons = json_array();
	struct pb_error werr;
	char fault[PB_ERROR_MESSAGE_MAX];
	int64_t since_ms = 0;

	if (reasons == NULL)
		return pb_oom(err);
	if (p->writer != NULL && probe_write(p->writer, &werr) < 0)
		reason(reasons, "the database cannot be written: %s", werr.message);
	if (p->writer != NULL && store_writer_fault(p->writer, fault, sizeof(fault), &since_ms)) {
		char at[PB_TIME_LEN];
		pb_time_format_ms(since_ms, at);
		reason(reasons, "writes have been failing since %s (the last: %s); ready again when a write succeeds", at, fault);
	}
	check_disk(database, reasons);
	for (size_t i = 0; i < p->cfg->table_count; i++) {
		const char *id = p->cfg->tables[i].id;
		char why[400];
		bool held = false;
		if (store_table_hold_get(p->store, id, why, sizeof(why), &held, err) < 0) {
			json_decref(reasons);
			return -1;
		}
		if (held)
			reason(reasons, "table %s is on integrity hold (%s); a pit boss acknowledges it with POST "
			    "/api/v1/tables/%s/acknowledge", id, why, id);
	}
	*reasons_out = reasons;
	return 0;
}
