/*
 * backup.c - a copy of the database on demand (backup.h).
 */
#include "table/backup.h"

#include <stdio.h>
#include <sys/stat.h>

#include "common/timeutil.h"
#include "store/audit.h"
#include "table/txn.h"

/* Records the "backup" event of the copy at arg (a path) in the write's transaction. */
static int
record_backup(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	json_t *detail = json_pack("{s:s}", "to", (const char *)arg);
	int rc = store_significant(p->store, a->name, "backup", NULL, detail, err);

	json_decref(detail);
	*out = NULL;
	*status = 201;
	return rc;
}

int
pit_backup(struct pit *p, const struct actor *a, json_t **out, struct pb_error *err)
{
	char path[4200], at[PB_TIME_LEN], stamp[32];
	json_t *ignored_out = NULL;
	int ignored_status;
	size_t j = 0;

	if (authorize(a, OP_BACKUP, NULL, err) < 0)
		return -1;
	pb_time_now(at);
	/* 2026-11-21T10:15:00.123Z -> 20261121T101500123Z */
	for (size_t k = 0; at[k] != '\0' && j < sizeof(stamp) - 1; k++)
		if (at[k] != '-' && at[k] != ':' && at[k] != '.')
			stamp[j++] = at[k];
	stamp[j] = '\0';
	mkdir(p->cfg->backup_dir, 0700);
	snprintf(path, sizeof(path), "%s/pitboss-%s.db", p->cfg->backup_dir, stamp);
	if (store_backup(p->store, path, err) < 0)
		return -1;
	pit_write(p, a, NULL, record_backup, path, &ignored_out, &ignored_status, &(struct pb_error){0});
	json_decref(ignored_out);
	*out = json_pack("{s:s,s:s}", "path", path, "at", at);
	return 0;
}
