#include "table/core/signer.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct signer *
signer_load(const char *path, struct pb_error *err)
{
	struct signer *s = calloc(1, sizeof(*s));
	uint8_t seed[32];
	char hex[80];
	size_t bin_len = 0;
	FILE *f;

	if (s == NULL) {
		pb_oom(err);
		return NULL;
	}
	f = fopen(path, "r");
	if (f == NULL && errno == ENOENT) {
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd < 0) {
			pb_fail(err, 500, "signing_key", "cannot create the signing key %s: %s", path, strerror(errno));
			goto fail;
		}
		randombytes_buf(seed, sizeof(seed));
		sodium_bin2hex(hex, sizeof(hex), seed, sizeof(seed));
		strcat(hex, "\n");
		if (write(fd, hex, strlen(hex)) != (ssize_t)strlen(hex) || fsync(fd) < 0) {
			close(fd);
			pb_fail(err, 500, "signing_key", "cannot write the signing key %s", path);
			goto fail;
		}
		close(fd);
	} else if (f == NULL) {
		pb_fail(err, 500, "signing_key", "cannot read the signing key %s: %s", path, strerror(errno));
		goto fail;
	} else {
		if (fgets(hex, sizeof(hex), f) == NULL ||
		    sodium_hex2bin(seed, sizeof(seed), hex, strcspn(hex, "\r\n"), NULL, &bin_len, NULL) != 0 || bin_len != 32) {
			fclose(f);
			pb_fail(err, 500, "signing_key", "%s must hold the key's 32-byte seed as 64 hex digits", path);
			goto fail;
		}
		fclose(f);
	}
	crypto_sign_seed_keypair(s->public_key, s->secret_key, seed);
	sodium_memzero(seed, sizeof(seed));
	sodium_bin2hex(s->public_hex, sizeof(s->public_hex), s->public_key, sizeof(s->public_key));
	return s;
fail:
	free(s);
	return NULL;
}

void
signer_free(struct signer *s)
{
	if (s == NULL)
		return;
	sodium_memzero(s, sizeof(*s));
	free(s);
}

size_t
checkpoint_message(const struct checkpoint *c, char *out, size_t outsz)
{
	int n = snprintf(out, outsz, "pitboss-checkpoint-v1\n%s\n%lld\n%s\n%s", c->table_id, (long long)c->table_seq,
	    c->head_hash, c->at);
	return n < 0 ? 0 : (size_t)n;
}

void
signer_sign_checkpoint(const struct signer *s, struct checkpoint *c)
{
	char msg[256];
	uint8_t sig[crypto_sign_BYTES];
	size_t len = checkpoint_message(c, msg, sizeof(msg));

	crypto_sign_detached(sig, NULL, (const unsigned char *)msg, len, s->secret_key);
	sodium_bin2hex(c->signature, sizeof(c->signature), sig, sizeof(sig));
	snprintf(c->public_key, sizeof(c->public_key), "%s", s->public_hex);
}

int
checkpoint_verify_signature(const struct checkpoint *c, const char *expected_hex)
{
	uint8_t pk[32], sig[crypto_sign_BYTES];
	size_t len = 0;
	char msg[256];

	if (expected_hex != NULL && strcmp(expected_hex, c->public_key) != 0)
		return -1;
	if (sodium_hex2bin(pk, sizeof(pk), c->public_key, strlen(c->public_key), NULL, &len, NULL) != 0 || len != 32)
		return -1;
	if (sodium_hex2bin(sig, sizeof(sig), c->signature, strlen(c->signature), NULL, &len, NULL) != 0 || len != sizeof(sig))
		return -1;
	len = checkpoint_message(c, msg, sizeof(msg));
	return crypto_sign_verify_detached(sig, (const unsigned char *)msg, len, pk) == 0 ? 0 : -1;
}
