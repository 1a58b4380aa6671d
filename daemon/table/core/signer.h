/*
 * signer.h - the daemon's Ed25519 key for signing checkpoints.  The key file
 * holds the 32-byte seed as 64 hex digits; pitbossd creates it (mode 0600)
 * when it does not exist.
 */
#ifndef PB_TABLE_SIGNER_H
#define PB_TABLE_SIGNER_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "store/audit.h"

struct signer {
	uint8_t public_key[32];
	uint8_t secret_key[64];
	char public_hex[65];
};

/* Loads the seed from path, creating a new random one there when the file does not exist. */
struct signer *signer_load(const char *path, struct pb_error *err);
void signer_free(struct signer *s);

/* The bytes a checkpoint's signature covers. */
size_t checkpoint_message(const struct checkpoint *c, char *out, size_t outsz);

/* Fills c->public_key and c->signature. */
void signer_sign_checkpoint(const struct signer *s, struct checkpoint *c);

/* 0 when c's signature verifies under c->public_key (and, when expected_hex is not NULL, that key is expected_hex). */
int checkpoint_verify_signature(const struct checkpoint *c, const char *expected_hex);

#endif
