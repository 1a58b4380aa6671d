/*
 * password.c - Argon2id hashes and the password policy (password.h).
 */
#include "common/password.h"

#include <ctype.h>
#include <pthread.h>
#include <sodium.h>
#include <string.h>
#include <strings.h>

/* True when needle (at least 3 bytes) stands inside haystack, ignoring case. */
static bool
contains_folded(const char *haystack, const char *needle, size_t n)
{
	size_t h = strlen(haystack);

	if (n < 3 || n > h)
		return false;
	for (size_t i = 0; i + n <= h; i++)
		if (strncasecmp(haystack + i, needle, n) == 0)
			return true;
	return false;
}

int
password_policy(const char *password, const char *id, const char *name, struct pb_error *err)
{
	size_t n = strlen(password);
	const char *w = name;

	if (n < PASSWORD_MIN || n > PASSWORD_MAX)
		return pb_fail(err, 400, "weak_password", "a password is %d to %d characters long", PASSWORD_MIN, PASSWORD_MAX);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)password[i] < 0x20 || password[i] == 0x7f)
			return pb_fail(err, 400, "weak_password", "a password holds no control characters");
	if (contains_folded(password, id, strlen(id)))
		return pb_fail(err, 400, "weak_password", "the password must not contain the person's id");
	while (w != NULL && *w != '\0') {
		size_t len = 0;
		while (*w != '\0' && !isalpha((unsigned char)*w))
			w++;
		while (isalpha((unsigned char)w[len]))
			len++;
		if (contains_folded(password, w, len))
			return pb_fail(err, 400, "weak_password", "the password must not contain the person's name");
		w += len;
	}
	return 0;
}

int
password_hash(const char *password, char out[PASSWORD_HASH_MAX], struct pb_error *err)
{
	if (crypto_pwhash_str(out, password, strlen(password), crypto_pwhash_OPSLIMIT_INTERACTIVE,
	    crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
		return pb_fail(err, 500, "out_of_memory", "cannot hash the password (out of memory)");
	return 0;
}

/* A hash of a random password, made once. */
static char nobody_hash[PASSWORD_HASH_MAX];
static pthread_once_t nobody_once = PTHREAD_ONCE_INIT;

static void
make_nobody_hash(void)
{
	char random_password[33];
	struct pb_error err;

	randombytes_buf(random_password, sizeof(random_password) - 1);
	for (size_t i = 0; i + 1 < sizeof(random_password); i++)
		random_password[i] = (char)('a' + (unsigned char)random_password[i] % 26);
	random_password[sizeof(random_password) - 1] = '\0';
	if (password_hash(random_password, nobody_hash, &err) < 0)
		nobody_hash[0] = '\0';
}

void
password_verify_nobody(const char *password)
{
	pthread_once(&nobody_once, make_nobody_hash);
	(void)password_verify(nobody_hash, password);
}

bool
password_verify(const char *hash, const char *password)
{
	if (hash == NULL || hash[0] == '\0')
		return false;
	return crypto_pwhash_str_verify(hash, password, strlen(password)) == 0;
}
