/*
 * password.h - people's passwords: hashed with Argon2id (libsodium's
 * crypto_pwhash_str, the interactive limits), never kept in clear, and a
 * policy every new password must pass.
 */
#ifndef PB_COMMON_PASSWORD_H
#define PB_COMMON_PASSWORD_H

#include <stdbool.h>

#include "common/error.h"

#define PASSWORD_MIN 10
#define PASSWORD_MAX 128
#define PASSWORD_HASH_MAX 128   /* crypto_pwhash_STRBYTES */

/*
 * Checks a new password: PASSWORD_MIN..PASSWORD_MAX bytes, no control
 * character, and neither the person's id nor their name (any word of three
 * letters or more of it) inside it, whatever the case.  400 weak_password
 * saying what to change.
 */
int password_policy(const char *password, const char *id, const char *name, struct pb_error *err);

/* The Argon2id string of password into out (NUL-terminated); 500 when out of memory. */
int password_hash(const char *password, char out[PASSWORD_HASH_MAX], struct pb_error *err);

/* True when password matches the stored Argon2id string (false for an empty hash). */
bool password_verify(const char *hash, const char *password);

/*
 * Spends the time a verification takes, against a hash of no one's
 * password: a sign-in for an unknown id then answers as slowly as a wrong
 * password, so the time of the answer does not tell which ids exist.
 */
void password_verify_nobody(const char *password);

#endif
