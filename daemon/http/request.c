/*
 * request.c - the request read at the edge (request.h).
 */
#include "http/request.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "common/json_text.h"
#include "http/answer.h"

#define IDEMPOTENCY_KEY_MAX 128

const char *
query(const struct http_request *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, name);
}

struct query_check {
	const char *const *names;
	const char *unknown;        /* the first argument not among names */
};

/* MHD_get_connection_values callback: stops at the first unknown argument. */
static enum MHD_Result
query_known(void *cls, enum MHD_ValueKind kind, const char *name, const char *value)
{
	struct query_check *qc = cls;

	(void)kind;
	(void)value;
	for (size_t i = 0; qc->names[i] != NULL; i++)
		if (strcmp(qc->names[i], name) == 0)
			return MHD_YES;
	qc->unknown = name;
	return MHD_NO;
}

int
query_only(const struct http_request *req, const char *const *names, struct http_answer *ans)
{
	struct query_check qc = {.names = names, .unknown = NULL};
	char list[256];
	size_t len = 0;

	MHD_get_connection_values(req->conn, MHD_GET_ARGUMENT_KIND, query_known, &qc);
	if (qc.unknown == NULL)
		return 0;
	list[0] = '\0';
	for (size_t i = 0; names[i] != NULL && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "", names[i]);
	if (names[0] == NULL)
		snprintf(list, sizeof(list), "none");
	answer_fail(ans, 400, "unknown_parameter", "%.40s: unknown parameter; this route takes %s", qc.unknown, list);
	return -1;
}

int
query_format(const struct http_request *req, struct http_answer *ans, bool *csv)
{
	const char *format = query(req, "format");

	*csv = format != NULL && strcmp(format, "csv") == 0;
	if (format == NULL || *csv || strcmp(format, "json") == 0)
		return 0;
	answer_fail(ans, 400, "invalid_query", "format: json (the default) or csv (got \"%.20s\")", format);
	return -1;
}

int
query_int(const struct http_request *req, const char *name, int64_t def, int64_t *out)
{
	const char *v = query(req, name);
	char *end;
	long long n;

	*out = def;
	if (v == NULL)
		return 0;
	n = strtoll(v, &end, 10);
	if (*v == '\0' || *end != '\0' || n < 0)
		return -1;
	*out = n;
	return 0;
}

int
parse_id(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (s == NULL || *s < '0' || *s > '9')
		return -1;
	v = strtoll(s, &end, 10);
	if (*end != '\0' || v <= 0)
		return -1;
	*out = v;
	return 0;
}

json_t *
parse_body(const struct http_request *req, struct pb_error *err)
{
	json_error_t jerr;
	json_t *v;
	size_t i;

	for (i = 0; i < req->body_len && isspace((unsigned char)req->body[i]); i++)
		;
	if (i == req->body_len)
		return json_object();
	v = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &jerr);
	if (v == NULL)
		pb_fail(err, 400, "malformed_json", "the body is not valid JSON: %s (line %d, column %d)", jerr.text, jerr.line, jerr.column);
	return v;
}

int
read_idempotency(const struct http_request *req, struct idempotency *idem, struct pb_error *err)
{
	size_t n;

	idem->key = req->idempotency_key;
	if (idem->key == NULL)
		return 0;
	n = strlen(idem->key);
	if (n == 0 || n > IDEMPOTENCY_KEY_MAX)
		return pb_fail(err, 400, "invalid_idempotency_key", "Idempotency-Key: 1..%d printable characters", IDEMPOTENCY_KEY_MAX);
	for (size_t i = 0; i < n; i++)
		if (!isprint((unsigned char)idem->key[i]))
			return pb_fail(err, 400, "invalid_idempotency_key", "Idempotency-Key: 1..%d printable characters", IDEMPOTENCY_KEY_MAX);
	return 0;
}

/*
 * The bytes a request's hash covers: its body as sent, except that a
 * signer's password (a witness's, each of the witnesses', an approval's)
 * never goes into a stored hash (an unsalted SHA-256 of it would be a
 * password hash anyone reading the database could attack): a body with a
 * "witness", "witnesses" or "approval" is taken as its sorted JSON text with
 * every such password left out.
 */
static char *
hashed_body(const struct http_request *req, const json_t *body, size_t *len)
{
	json_t *copy, *w;
	char *text;
	size_t i;

	if (!json_is_object(body) || (json_object_get(body, "witness") == NULL && json_object_get(body, "witnesses") == NULL &&
	    json_object_get(body, "approval") == NULL)) {
		*len = req->body_len;
		return NULL;
	}
	if ((copy = json_deep_copy(body)) == NULL) {
		*len = 0;
		return NULL;
	}
	json_object_del(json_object_get(copy, "witness"), "password");
	json_object_del(json_object_get(copy, "approval"), "password");
	json_array_foreach(json_object_get(copy, "witnesses"), i, w)
		json_object_del(w, "password");
	if ((text = json_text(copy, true, len)) == NULL)
		*len = 0;
	json_decref(copy);
	return text;
}

int
idempotency_hash(const struct http_request *req, const json_t *body, struct idempotency *idem, struct pb_error *err)
{
	char *buf, *text;
	size_t n, len;

	if (idem->key == NULL)
		return 0;
	text = hashed_body(req, body, &len);
	if (text == NULL && len == 0 && req->body_len != 0)
		return pb_oom(err);            /* never the witnesses' passwords in a stored hash */
	buf = malloc(strlen(req->method) + strlen(req->path) + len + 3);
	if (buf == NULL) {
		free(text);
		return pb_oom(err);
	}
	n = (size_t)sprintf(buf, "%s %s\n", req->method, req->path);
	memcpy(buf + n, text ? text : req->body, len);
	pb_sha256_hex(buf, n + len, idem->request_hash);
	free(buf);
	free(text);
	return 0;
}
