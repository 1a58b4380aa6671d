/*
 * backup.c - a copy of the database on demand, its key files and its
 * rotation (ops.h).
 */
#include "table/ops/ops_private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "common/files.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "store/audit.h"

/* The Unix time of the daemon's last successful backup (0: none since start), for /metrics. */
static _Atomic int64_t last_backup_unix;

int64_t
pit_last_backup_unix(void)
{
	return atomic_load(&last_backup_unix);
}

/* Writes len bytes to a new file (O_EXCL, mode) and fsyncs it; removes it on failure. */
static int
write_new_file(const char *path, const void *data, size_t len, mode_t mode, struct pb_error *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	ssize_t n = 0;

	if (fd < 0)
		return pb_fail(err, errno == EEXIST ? 409 : 500, errno == EEXIST ? "backup_exists" : "backup_failed",
		    "cannot create %s: %s", path, strerror(errno));
	for (size_t done = 0; done < len; done += (size_t)n)
		if ((n = write(fd, (const char *)data + done, len - done)) < 0)
			break;
	if (n < 0 || fsync(fd) < 0 || close(fd) < 0) {
		int e = errno;
		close(fd);
		unlink(path);
		return pb_fail(err, 500, "backup_failed", "cannot write %s: %s", path, strerror(e));
	}
	return 0;
}

int
backup_public_key(struct store *s, const struct signer *sg, char out[65], struct pb_error *err)
{
	char (*ids)[PB_ID_MAX];
	char newest[PB_TIME_LEN] = "";
	int n = 0, rc = 0;

	out[0] = '\0';
	if (sg != NULL) {
		snprintf(out, 65, "%s", sg->public_hex);
		return 0;
	}
	if ((ids = calloc(CHAIN_TABLES_MAX, PB_ID_MAX)) == NULL)
		return pb_oom(err);
	if (store_event_tables(s, ids, CHAIN_TABLES_MAX, &n, err) < 0)
		rc = -1;
	for (int t = 0; rc == 0 && t < n; t++) {
		struct checkpoint c;
		bool found = false;

		if (store_checkpoint_last(s, ids[t], &c, &found, err) < 0)
			rc = -1;
		else if (found && strcmp(c.at, newest) > 0) {
			snprintf(newest, sizeof(newest), "%s", c.at);
			snprintf(out, 65, "%s", c.public_key);
		}
	}
	free(ids);
	return rc;
}

int
backup_write_public_key(const char *copy_path, const char *hex, struct pb_error *err)
{
	char path[4200], line[80];
	int len = snprintf(line, sizeof(line), "%s\n", hex);

	snprintf(path, sizeof(path), "%s.public-key", copy_path);
	return write_new_file(path, line, (size_t)len, 0644, err);
}

int
backup_copy_key(const char *key_file, const char *to, struct pb_error *err)
{
	char buf[512];
	FILE *f = fopen(key_file, "re");
	size_t n;
	int rc;

	if (f == NULL)
		return pb_fail(err, 500, "backup_failed", "cannot read the signing key %s: %s", key_file, strerror(errno));
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	rc = write_new_file(to, buf, n, 0600, err);
	sodium_memzero(buf, sizeof(buf));
	return rc;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Is name a copy this daemon made: pitboss-<stamp>.db? */
static bool
is_copy_name(const char *name)
{
	size_t n = strlen(name);

	return strncmp(name, "pitboss-", 8) == 0 && n > 11 && strcmp(name + n - 3, ".db") == 0;
}

int
backup_rotate(const char *dir, int64_t keep, json_t *removed, struct pb_error *err)
{
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t count = 0, cap = 0;

	if (keep <= 0)
		return 0;
	if ((d = opendir(dir)) == NULL)
		return pb_fail(err, 500, "backup_failed", "cannot read %s: %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (!is_copy_name(e->d_name))
			continue;
		if (count == cap) {
			char **more = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof(*names));
			if (more == NULL)
				break;
			names = more;
		}
		if ((names[count] = strdup(e->d_name)) != NULL)
			count++;
	}
	closedir(d);
	qsort(names, count, sizeof(*names), compare_names);
	for (size_t i = 0; i + (size_t)keep < count; i++) {
		char path[4400];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (unlink(path) == 0 && removed != NULL)
			json_array_append_new(removed, json_string(path));
		snprintf(path, sizeof(path), "%s/%s.public-key", dir, names[i]);
		unlink(path);
	}
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
	return 0;
}

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
	if (authorize(a, OP_BACKUP, NULL, err) < 0)
		return -1;
	return backup_into_dir(p, a, p->cfg->backup_dir, p->cfg->backup_keep, out, err);
}

int
backup_into_dir(struct pit *p, const struct actor *a, const char *dir, int64_t keep, json_t **out, struct pb_error *err)
{
	char path[4200], at[PB_TIME_LEN], stamp[32], pub[65];
	json_t *ignored_out = NULL, *removed;
	struct pb_error rerr;
	int ignored_status;
	size_t j = 0;

	pb_time_now(at);
	/* 2026-11-21T10:15:00.123Z -> 20261121T101500123Z */
	for (size_t k = 0; at[k] != '\0' && j < sizeof(stamp) - 1; k++)
		if (at[k] != '-' && at[k] != ':' && at[k] != '.')
			stamp[j++] = at[k];
	stamp[j] = '\0';
	if (mkdir(dir, pb_files_dir_mode()) == 0 && pb_files_secure_path(dir, true, err) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/pitboss-%s.db", dir, stamp);
	if (store_backup(p->store, path, err) < 0)
		return -1;
	atomic_store(&last_backup_unix, pb_time_now_ms() / 1000);
	if (backup_public_key(p->store, p->signer, pub, err) < 0 || (pub[0] != '\0' && backup_write_public_key(path, pub, err) < 0))
		return -1;
	pit_write(p, a, NULL, record_backup, path, &ignored_out, &ignored_status, &(struct pb_error){0});
	json_decref(ignored_out);
	removed = json_array();
	if (backup_rotate(dir, keep, removed, &rerr) < 0)
		log_warn("backup: %s is made, but the rotation failed: %s", path, rerr.message);
	*out = json_pack("{s:s,s:s,s:s,s:o}", "path", path, "at", at, "public_key", pub, "removed", removed);
	return 0;
}
