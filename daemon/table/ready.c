/*
 * ready.c - GET /api/v1/ready (context.h pit_ready): can this pitbossd
 * record a round now?  Health says the process answers; readiness says a
 * dealer terminal sent here would get its rounds recorded.
 *
 * "The database can be written" is checked truthfully and cheaply: a job
 * that writes nothing goes through the write path every round takes (the
 * group commit: the write lock, BEGIN IMMEDIATE, a savepoint, COMMIT; a
 * transaction that changed nothing writes nothing to the disk), the
 * database's file and directory must be writable by the daemon (a
 * read-only remount or a changed owner shows here before a write fails),
 * and the file system must have READY_MIN_FREE_BYTES free.  Then every
 * table of the configuration must be free of an integrity hold.
 */
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "store/audit.h"
#include "store/writer.h"
#include "table/context.h"
#include "table/pit.h"

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

	if (reasons == NULL)
		return pb_fail(err, 500, "out_of_memory", "out of memory");
	if (p->writer != NULL && store_writer_run(p->writer, write_nothing, NULL, &werr) < 0)
		reason(reasons, "the database cannot be written: %s", werr.message);
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
