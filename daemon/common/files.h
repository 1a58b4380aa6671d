/*
 * files.h - the modes of the files pitbossd creates: 0600 (directories 0700)
 * by default, whatever the umask; with the configuration's file_group, 0640
 * (directories 0750) and that group, so that an auditor's or a backup agent's
 * account in the group can read the database and its copies.  The signing
 * key is always 0600: it is never the group's.
 */
#ifndef PB_COMMON_FILES_H
#define PB_COMMON_FILES_H

#include <stdbool.h>
#include <sys/types.h>

#include "common/error.h"

/* Sets the process-wide group of pitbossd's files (at start, before any is created); gid -1: none. */
void pb_files_set_group(gid_t gid);

/* The group set, or (gid_t)-1. */
gid_t pb_files_group(void);

/* 0600, or 0640 with a group. */
mode_t pb_files_mode(void);

/* 0700, or 0750 with a group. */
mode_t pb_files_dir_mode(void);

/*
 * Gives a file pitbossd has just created its mode and group (fchmod and
 * fchown: the umask and the directory's group do not decide).  0, or -1
 * with err (what names the file).
 */
int pb_files_secure_fd(int fd, const char *what, struct pb_error *err);

/* The same by path (a file or directory someone else created for us: the WAL, shared memory, a directory). */
int pb_files_secure_path(const char *path, bool directory, struct pb_error *err);

/* The gid of group name; -1 with 400 invalid_config when there is no such group. */
int pb_files_group_of(const char *name, gid_t *gid, struct pb_error *err);

#endif
