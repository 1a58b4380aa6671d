/*
 * signer.h - core's own: what the signing key does with a checkpoint
 * (signer.c), for checkpoint.c.  The key itself is in core.h.
 */
#ifndef PB_TABLE_SIGNER_H
#define PB_TABLE_SIGNER_H

#include <stddef.h>

#include "store/audit.h"
#include "table/core/core.h"

/* The bytes a checkpoint's signature covers. */
size_t checkpoint_message(const struct checkpoint *c, char *out, size_t outsz);

/* Fills c->public_key and c->signature. */
void signer_sign_checkpoint(const struct signer *s, struct checkpoint *c);

#endif
