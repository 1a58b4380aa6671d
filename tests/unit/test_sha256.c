/*
 * test_sha256.c - common/sha256.c against libsodium: every length from 0 to
 * 300 bytes in one update, random inputs split into random pieces, the
 * FIPS 180-4 test vectors, and the fallback path (PITBOSS_SHA_NI=off is
 * read once per process, so the fallback is checked by comparing with
 * sodium whichever path this processor takes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "common/sha256.h"

static void
digest_of(const uint8_t *p, size_t len, const size_t *cuts, int ncuts, uint8_t out[32])
{
	struct pb_sha256 c;
	size_t at = 0;

	pb_sha256_init(&c);
	for (int i = 0; i < ncuts; i++) {
		pb_sha256_update(&c, p + at, cuts[i] - at);
		at = cuts[i];
	}
	pb_sha256_update(&c, p + at, len - at);
	pb_sha256_final(&c, out);
}

static void
test_every_length(void **state)
{
	uint8_t data[300], a[32], b[32];

	(void)state;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 131 + 7);
	for (size_t n = 0; n <= sizeof(data); n++) {
		digest_of(data, n, NULL, 0, a);
		crypto_hash_sha256(b, data, n);
		assert_memory_equal(a, b, 32);
	}
}

static int
cmp_size(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	return a < b ? -1 : a > b;
}

static void
test_random_splits(void **state)
{
	static uint8_t data[5000];
	uint8_t a[32], b[32];
	size_t cuts[6];

	(void)state;
	for (int round = 0; round < 2000; round++) {
		size_t n = randombytes_uniform(sizeof(data) + 1);
		int ncuts = (int)randombytes_uniform(7);

		randombytes_buf(data, n);
		for (int i = 0; i < ncuts; i++)
			cuts[i] = randombytes_uniform((uint32_t)n + 1);
		qsort(cuts, (size_t)ncuts, sizeof(cuts[0]), cmp_size);
		digest_of(data, n, cuts, ncuts, a);
		crypto_hash_sha256(b, data, n);
		assert_memory_equal(a, b, 32);
	}
}

static void
test_vectors(void **state)
{
	char hex[PB_SHA256_HEX_LEN];

	(void)state;
	pb_sha256_hex("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	pb_sha256_hex("abc", 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	pb_sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_length),
		cmocka_unit_test(test_random_splits),
		cmocka_unit_test(test_vectors),
	};

	if (sodium_init() < 0)
		return 1;
	printf("sha256: %s\n", pb_sha256_hw() ? "SHA instructions" : "libsodium");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
