/*
 * sha256.h - SHA-256 with the processor's SHA instructions when it has them.
 *
 * The same digest as libsodium's crypto_hash_sha256 (which it falls back
 * to when the processor lacks the SHA extensions, or when the environment
 * says PITBOSS_SHA_NI=off), about five times faster on x86-64 processors
 * that have them.  The event chain hashes every event with it.
 */
#ifndef PB_COMMON_SHA256_H
#define PB_COMMON_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

struct pb_sha256 {
	bool hw;                       /* the SHA instructions, else sodium below */
	uint32_t h[8];
	uint8_t buf[64];
	size_t buf_len;
	uint64_t total;
	crypto_hash_sha256_state sodium;
};

/* Whether the SHA instructions are used (checked once per process). */
bool pb_sha256_hw(void);

void pb_sha256_init(struct pb_sha256 *c);
void pb_sha256_update(struct pb_sha256 *c, const void *data, size_t len);
void pb_sha256_final(struct pb_sha256 *c, uint8_t out[32]);

#endif
