/*
 * hash.h - SHA-256 helpers over libsodium, as lower-case hex; and the
 * string hash of the tables kept in memory.
 */
#ifndef PB_COMMON_HASH_H
#define PB_COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>

#define PB_SHA256_HEX_LEN 65 /* 64 hex digits + NUL */

/* Hex SHA-256 of a byte string. */
void pb_sha256_hex(const void *data, size_t len, char out[PB_SHA256_HEX_LEN]);

/* Decodes 64 hex digits into 32 bytes; -1 when not exactly that. */
int pb_hex_to_sha256(const char *hex, uint8_t out[32]);

/* Constant-time comparison of two equal-length byte strings: 1 when equal. */
int pb_equal_ct(const void *a, const void *b, size_t len);

/*
 * A hash of the string s for a table in memory (the failed sign-ins'
 * addresses, a report's groups and series), never stored nor sent: FNV-1a's
 * steps from the start value 1469598103934665603, one digit short of FNV's
 * offset basis and kept as it was, since where an entry lands, and so the
 * order a report walks its series in, follows it.
 */
uint64_t pb_str_hash(const char *s);

#endif
