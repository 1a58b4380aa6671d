/*
 * sha256.c - SHA-256 on the x86 SHA extensions, libsodium otherwise.
 *
 * The compression function is the usual one for these instructions
 * (sha256rnds2 does two rounds on the ABEF/CDGH halves of the state,
 * sha256msg1/msg2 extend the message schedule four words at a time); the
 * padding and the byte order are FIPS 180-4's.  tests/unit/test_sha256.c
 * compares it with libsodium on every length up to a few blocks and on
 * random splits of the input.
 */
#include "common/sha256.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PB_SHA_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

static const uint32_t H0[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

#ifdef PB_SHA_X86
static const uint32_t K[64] __attribute__((aligned(16))) = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* Compresses n 64-byte blocks into h. */
__attribute__((target("sha,sse4.1,ssse3"))) static void
blocks_hw(uint32_t h[8], const uint8_t *p, size_t n)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i s0, s1, t, w[4], m, abef, cdgh;

	t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xB1);   /* CDAB */
	s1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1B);  /* EFGH */
	s0 = _mm_alignr_epi8(t, s1, 8);                                           /* ABEF */
	s1 = _mm_blend_epi16(s1, t, 0xF0);                                        /* CDGH */
	for (; n > 0; n--, p += 64) {
		abef = s0;
		cdgh = s1;
		for (int i = 0; i < 16; i++) {
			if (i < 4) {
				w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
			} else {
				__m128i x = _mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]);
				x = _mm_add_epi32(x, _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4));
				w[i & 3] = _mm_sha256msg2_epu32(x, w[(i + 3) & 3]);
			}
			m = _mm_add_epi32(w[i & 3], _mm_load_si128((const __m128i *)&K[4 * i]));
			s1 = _mm_sha256rnds2_epu32(s1, s0, m);
			s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(m, 0x0E));
		}
		s0 = _mm_add_epi32(s0, abef);
		s1 = _mm_add_epi32(s1, cdgh);
	}
	t = _mm_shuffle_epi32(s0, 0x1B);          /* FEBA */
	s1 = _mm_shuffle_epi32(s1, 0xB1);         /* DCHG */
	s0 = _mm_blend_epi16(t, s1, 0xF0);        /* DCBA */
	s1 = _mm_alignr_epi8(s1, t, 8);           /* HGFE */
	_mm_storeu_si128((__m128i *)&h[0], s0);
	_mm_storeu_si128((__m128i *)&h[4], s1);
}

static bool hw_ok;
static pthread_once_t hw_once = PTHREAD_ONCE_INIT;

/*
 * Known-answer check before the SHA instructions are used at all: inputs
 * of every length that exercises the padding (0, 1, 55, 56, 63, 64, 65,
 * 119, 120, 200 bytes, fed whole and in two parts) hashed by this code and
 * by libsodium must agree, else libsodium alone is used.
 */
static bool
hw_self_test(void)
{
	static const size_t LENS[] = {0, 1, 3, 55, 56, 63, 64, 65, 119, 120, 128, 200};
	uint8_t in[200], a[32], b[32];
	struct pb_sha256 c;

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 131 + 7);
	for (size_t k = 0; k < sizeof(LENS) / sizeof(LENS[0]); k++) {
		size_t len = LENS[k];
		memset(&c, 0, sizeof(c));
		c.hw = true;
		memcpy(c.h, H0, sizeof(H0));
		pb_sha256_update(&c, in, len / 3);
		pb_sha256_update(&c, in + len / 3, len - len / 3);
		pb_sha256_final(&c, a);
		crypto_hash_sha256(b, in, len);
		if (memcmp(a, b, sizeof(a)) != 0)
			return false;
	}
	return true;
}

static void
hw_detect(void)
{
	unsigned a, b, c, d;
	const char *env = getenv("PITBOSS_SHA_NI");

	if (env != NULL && strcmp(env, "off") == 0)
		return;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1) || !(c & bit_SSSE3))
		return;
	if (__get_cpuid_max(0, NULL) < 7)
		return;
	__cpuid_count(7, 0, a, b, c, d);
	hw_ok = (b & (1u << 29)) != 0;   /* CPUID.(EAX=7,ECX=0):EBX.SHA[bit 29] */
	if (hw_ok && !hw_self_test())
		hw_ok = false;           /* never trusted on a processor where it disagrees with libsodium */
}

bool
pb_sha256_hw(void)
{
	pthread_once(&hw_once, hw_detect);
	return hw_ok;
}
#else
bool
pb_sha256_hw(void)
{
	return false;
}

static void
blocks_hw(uint32_t h[8], const uint8_t *p, size_t n)
{
	(void)h, (void)p, (void)n;
	abort();
}
#endif

void
pb_sha256_init(struct pb_sha256 *c)
{
	c->hw = pb_sha256_hw();
	c->buf_len = 0;
	c->total = 0;
	if (c->hw)
		memcpy(c->h, H0, sizeof(H0));
	else
		crypto_hash_sha256_init(&c->sodium);
}

void
pb_sha256_update(struct pb_sha256 *c, const void *data, size_t len)
{
	const uint8_t *p = data;

	if (!c->hw) {
		crypto_hash_sha256_update(&c->sodium, p, len);
		return;
	}
	c->total += len;
	if (c->buf_len > 0) {
		size_t take = 64 - c->buf_len < len ? 64 - c->buf_len : len;
		memcpy(c->buf + c->buf_len, p, take);
		c->buf_len += take;
		p += take;
		len -= take;
		if (c->buf_len < 64)
			return;
		blocks_hw(c->h, c->buf, 1);
		c->buf_len = 0;
	}
	if (len >= 64) {
		blocks_hw(c->h, p, len / 64);
		p += len / 64 * 64;
		len %= 64;
	}
	memcpy(c->buf, p, len);
	c->buf_len = len;
}

void
pb_sha256_final(struct pb_sha256 *c, uint8_t out[32])
{
	uint64_t bits = c->total * 8;

	if (!c->hw) {
		crypto_hash_sha256_final(&c->sodium, out);
		return;
	}
	c->buf[c->buf_len++] = 0x80;
	if (c->buf_len > 56) {
		memset(c->buf + c->buf_len, 0, 64 - c->buf_len);
		blocks_hw(c->h, c->buf, 1);
		c->buf_len = 0;
	}
	memset(c->buf + c->buf_len, 0, 56 - c->buf_len);
	for (int i = 0; i < 8; i++)
		c->buf[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
	blocks_hw(c->h, c->buf, 1);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t)(c->h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(c->h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(c->h[i] >> 8);
		out[4 * i + 3] = (uint8_t)c->h[i];
	}
}
