#include "common/hash.h"

#include "common/sha256.h"

#include <sodium.h>
#include <string.h>

void
pb_sha256_hex(const void *data, size_t len, char out[PB_SHA256_HEX_LEN])
{
	unsigned char digest[crypto_hash_sha256_BYTES];
	struct pb_sha256 c;

	pb_sha256_init(&c);
	pb_sha256_update(&c, data, len);
	pb_sha256_final(&c, digest);
	sodium_bin2hex(out, PB_SHA256_HEX_LEN, digest, sizeof(digest));
}

int
pb_hex_to_sha256(const char *hex, uint8_t out[32])
{
	size_t bin_len = 0;
	const char *end = NULL;

	if (hex == NULL || strlen(hex) != 64)
		return -1;
	if (sodium_hex2bin(out, 32, hex, 64, NULL, &bin_len, &end) != 0 || bin_len != 32 || *end != '\0')
		return -1;
	return 0;
}

int
pb_equal_ct(const void *a, const void *b, size_t len)
{
	return sodium_memcmp(a, b, len) == 0;
}

uint64_t
pb_str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}
