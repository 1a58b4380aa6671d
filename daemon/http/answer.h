/*
 * answer.h - filling an answer: the error shape {"error": {"code",
 * "message"}} of every refusal, the 404 and 405 of routing, and the result
 * of a call into the pit.
 */
#ifndef PB_HTTP_ANSWER_H
#define PB_HTTP_ANSWER_H

#include "http/http.h"

/* Fills ans with {"error": {"code", "message"}} from err (500 internal_error when err is empty). */
void answer_error(struct http_answer *ans, const struct pb_error *err);

/* pb_fail and answer_error in one. */
void answer_fail(struct http_answer *ans, int status, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* 405 method_not_allowed "use <allow> here", with the Allow header. */
void answer_method_not_allowed(struct http_answer *ans, const char *allow);

/* 404 not_found for a path no route serves. */
void answer_not_found(struct http_answer *ans, const char *path);

/* The outcome of a pit call: its JSON with status, or the refusal in err when rc < 0. */
void answer_result(struct http_answer *ans, int rc, json_t *out, int status, const struct pb_error *err);

/*
 * 200 with text (malloc'd, taken) as a CSV attachment of that disposition,
 * or 500 out_of_memory when text is NULL (its writer ran out of memory).
 */
void answer_csv(struct http_answer *ans, char *text, size_t len, const char *disposition);

#endif
