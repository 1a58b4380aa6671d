/*
 * backup.h - copies of the database: POST /api/v1/backups (a copy made
 * while the daemon runs, into the configured backup directory, rotated),
 * and what goes beside a copy (the checkpoints' public key, and on request
 * a separate copy of the signing key), shared with `pitboss backup`.
 */
#ifndef PB_TABLE_BACKUP_H
#define PB_TABLE_BACKUP_H

#include <jansson.h>
#include <stdint.h>

#include "common/error.h"

struct actor;
struct pit;
struct signer;
struct store;

/*
 * Copies the database to <backup_dir>/pitboss-<UTC time>.db (the directory
 * made 0700 when missing), writes the signing key's public half beside it
 * (<copy>.public-key), records a "backup" significant event through the
 * write path of every write (txn.h), then removes the oldest copies beyond
 * backup_keep; the admin role's.  *out is {"path", "at", "public_key",
 * "removed": [...]}; the answer's status is 201.  A copy that was made
 * stays made even when its event could not be recorded.
 */
int pit_backup(struct pit *p, const struct actor *a, json_t **out, struct pb_error *err);

/*
 * The copy of pit_backup into dir, keeping keep copies, without the role
 * check: for callers that are the daemon itself (backup_schedule.h).
 * p->cfg is not read.
 */
int backup_into_dir(struct pit *p, const struct actor *a, const char *dir, int64_t keep, json_t **out,
    struct pb_error *err);

/*
 * The public key a copy's checkpoints are verified against: the signer's
 * when given, else the key of the newest checkpoint in the database; ""
 * when there is neither.
 */
int backup_public_key(struct store *s, const struct signer *sg, char out[65], struct pb_error *err);

/* Writes hex and a newline to <copy_path>.public-key (0644, never replacing a file), fsynced. */
int backup_write_public_key(const char *copy_path, const char *hex, struct pb_error *err);

/* Copies the signing key file key_file to `to`, created 0600 (never replacing a file), fsynced. */
int backup_copy_key(const char *key_file, const char *to, struct pb_error *err);

/*
 * Removes the oldest pitboss-*.db copies in dir (and their .public-key)
 * beyond the newest keep; keep 0 removes nothing.  The names removed are
 * appended to removed when it is not NULL.
 */
int backup_rotate(const char *dir, int64_t keep, json_t *removed, struct pb_error *err);

#endif
