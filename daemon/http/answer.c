/*
 * answer.c - refusals and results as answers (answer.h).
 */
#include "http/answer.h"

#include <stdarg.h>
#include <stdio.h>

void
answer_error(struct http_answer *ans, const struct pb_error *err)
{
	json_decref(ans->json);
	ans->status = err->status ? err->status : 500;
	ans->guess = err->guess;
	ans->json = json_pack("{s:{s:s,s:s}}", "error", "code", err->code[0] ? err->code : "internal_error",
	    "message", err->message[0] ? err->message : "internal error");
}

void
answer_fail(struct http_answer *ans, int status, const char *code, const char *fmt, ...)
{
	struct pb_error e;
	va_list ap;

	pb_fail(&e, status, code, "%s", "");
	va_start(ap, fmt);
	vsnprintf(e.message, sizeof(e.message), fmt, ap);
	va_end(ap);
	answer_error(ans, &e);
}

void
answer_method_not_allowed(struct http_answer *ans, const char *allow)
{
	answer_fail(ans, 405, "method_not_allowed", "use %s here", allow);
	snprintf(ans->allow, sizeof(ans->allow), "%s", allow);
}

void
answer_not_found(struct http_answer *ans, const char *path)
{
	answer_fail(ans, 404, "not_found", "no such resource: %.100s (see docs/api.md)", path);
}

void
answer_result(struct http_answer *ans, int rc, json_t *out, int status, const struct pb_error *err)
{
	if (rc < 0) {
		answer_error(ans, err);
		return;
	}
	ans->status = status;
	ans->json = out;
}

void
answer_csv(struct http_answer *ans, char *text, size_t len, const char *disposition)
{
	if (text == NULL) {
		answer_fail(ans, 500, "out_of_memory", "out of memory");
		return;
	}
	ans->text = text;
	ans->text_len = len;
	ans->status = 200;
	ans->content_type = "text/csv; charset=utf-8";
	ans->disposition = disposition;
}
