/*
 * error.h - the one error type every layer reports through.
 *
 * A failing function returns -1 (or NULL) and fills a struct pb_error: an
 * HTTP-style status, a stable machine code ("duplicate_card") and a sentence
 * that tells the caller what to fix.  Lower layers set status 400/409/422 etc.
 * themselves, so the HTTP layer only copies it out.
 */
#ifndef PB_COMMON_ERROR_H
#define PB_COMMON_ERROR_H

#include <stdbool.h>
#include <stddef.h>

#define PB_ERROR_CODE_MAX 48
#define PB_ERROR_MESSAGE_MAX 320

struct pb_error {
	int status;                         /* 400, 401, 403, 404, 409, 413, 422, 500 ... */
	char code[PB_ERROR_CODE_MAX];       /* snake_case, stable, documented in docs/api.md */
	char message[PB_ERROR_MESSAGE_MAX]; /* what is wrong and what to do */
	bool guess;                         /* a wrong password or witness: counts towards the client address's lockout */
};

/* Fills err (when not NULL; guess false) and returns -1, so callers can `return pb_fail(...)`. */
int pb_fail(struct pb_error *err, int status, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/*
 * Fills err (when not NULL) with the one out-of-memory error, 500
 * out_of_memory "out of memory", and returns -1.  Everything that could not
 * allocate says it through this, so that a check can tell "could not be
 * done" from "found nothing" (docs/audit.md, "Verification fails closed").
 */
int pb_oom(struct pb_error *err);

/* Whether err holds pb_oom's error. */
bool pb_is_oom(const struct pb_error *err);

/* Clears err to "no error" (status 0). */
void pb_error_clear(struct pb_error *err);

#endif
