/*
 * json_text.c - JSON text as jansson's json_dumps(JSON_COMPACT |
 * JSON_ENSURE_ASCII [| JSON_SORT_KEYS]) writes it (json_text.h), written
 * directly into one growing buffer.  The rules copied from jansson 2.14's
 * dump.c: keys in insertion order, or with JSON_SORT_KEYS ordered by memcmp
 * over the shorter length, then the shorter first; strings escape '"',
 * '\\', \b \f \n \r \t by name, other code points below 0x20 and every one
 * above 0x7F as \uXXXX (capital hex; a surrogate pair above the BMP); '/'
 * and 0x7F as they are; integers "%lld".  Anything else goes to json_dumps
 * itself, so the text stays its text.
 */
#include "common/json_text.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define CANON_MAX_DEPTH 64      /* deeper (or a loop): json_dumps decides */
#define CANON_SMALL_KEYS 32

enum { CANON_OK = 0, CANON_FALLBACK = 1, CANON_NOMEM = -1 };

struct out {
	char *p;
	size_t len, cap;
	bool sort_keys;
};

struct key_ref {
	const char *key;
	size_t len;
	const json_t *value;
};

static int
grow(struct out *o, size_t more)
{
	size_t cap = o->cap ? o->cap : 256;
	char *p;

	while (cap - o->len <= more)
		cap *= 2;
	if (cap == o->cap)
		return CANON_OK;
	p = realloc(o->p, cap);
	if (p == NULL)
		return CANON_NOMEM;
	o->p = p;
	o->cap = cap;
	return CANON_OK;
}

static int
put(struct out *o, const char *s, size_t n)
{
	if (o->cap - o->len <= n && grow(o, n) < 0)
		return CANON_NOMEM;
	memcpy(o->p + o->len, s, n);
	o->len += n;
	return CANON_OK;
}

/*
 * The code point at s (n bytes left) and its length, with jansson's idea of
 * valid UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF);
 * 0 when invalid.
 */
static size_t
utf8_next(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned c = s[0], v;
	size_t len;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c < 0xC2 || c > 0xF4)
		return 0;
	len = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
	if (len > n)
		return 0;
	v = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3F);
	}
	if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || (len == 3 && v < 0x800) || (len == 4 && v < 0x10000))
		return 0;
	*cp = v;
	return len;
}

static void
hex4(char *d, unsigned v)
{
	static const char HEX[] = "0123456789ABCDEF";

	d[0] = '\\';
	d[1] = 'u';
	d[2] = HEX[(v >> 12) & 0xF];
	d[3] = HEX[(v >> 8) & 0xF];
	d[4] = HEX[(v >> 4) & 0xF];
	d[5] = HEX[v & 0xF];
}

/* A JSON string, quoted and escaped as jansson does with JSON_ENSURE_ASCII. */
static int
put_string(struct out *o, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0;

	/* The worst case is 12 bytes out for 4 in, 6 for 1: reserve once. */
	if (grow(o, n * 6 + 2) < 0)
		return CANON_NOMEM;
	o->p[o->len++] = '"';
	while (i < n) {
		unsigned c = s[i], cp;
		size_t len;
		char *d;

		if (c - 0x20u < 0x60u && c != '"' && c != '\\') {   /* 0x20..0x7F but '"' and '\\': as they are */
			i++;
			run++;
			continue;
		}
		memcpy(o->p + o->len, str + i - run, run);
		o->len += run;
		run = 0;
		if ((len = utf8_next(s + i, n - i, &cp)) == 0)
			return CANON_FALLBACK;
		i += len;
		d = o->p + o->len;
		switch (cp) {
		case '"': d[0] = '\\'; d[1] = '"'; o->len += 2; continue;
		case '\\': d[0] = '\\'; d[1] = '\\'; o->len += 2; continue;
		case '\b': d[0] = '\\'; d[1] = 'b'; o->len += 2; continue;
		case '\f': d[0] = '\\'; d[1] = 'f'; o->len += 2; continue;
		case '\n': d[0] = '\\'; d[1] = 'n'; o->len += 2; continue;
		case '\r': d[0] = '\\'; d[1] = 'r'; o->len += 2; continue;
		case '\t': d[0] = '\\'; d[1] = 't'; o->len += 2; continue;
		}
		if (cp < 0x10000) {
			hex4(d, cp);
			o->len += 6;
		} else {
			cp -= 0x10000;
			hex4(d, 0xD800 | ((cp & 0xFFC00) >> 10));
			hex4(d + 6, 0xDC00 | (cp & 0x3FF));
			o->len += 12;
		}
	}
	memcpy(o->p + o->len, str + i - run, run);
	o->len += run;
	o->p[o->len++] = '"';
	return CANON_OK;
}

static int
put_integer(struct out *o, json_int_t v)
{
	char b[24], *e = b + sizeof(b), *d = e;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do {
		*--d = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		*--d = '-';
	return put(o, d, (size_t)(e - d));
}

static int
key_cmp(const void *a, const void *b)
{
	const struct key_ref *x = a, *y = b;
	int r = memcmp(x->key, y->key, x->len < y->len ? x->len : y->len);

	if (r != 0)
		return r;
	return x->len < y->len ? -1 : x->len > y->len;
}

static int put_value(struct out *o, const json_t *v, int depth);

static int
put_object(struct out *o, const json_t *v, int depth)
{
	struct key_ref small[CANON_SMALL_KEYS], *keys = small;
	size_t n = json_object_size(v), i = 0, klen;
	const char *k;
	json_t *x;
	int rc = CANON_OK;

	if (!o->sort_keys) {
		rc = put(o, "{", 1);
		json_object_keylen_foreach((json_t *)v, k, klen, x) {
			if (rc == CANON_OK && i++ > 0)
				rc = put(o, ",", 1);
			if (rc == CANON_OK)
				rc = put_string(o, k, klen);
			if (rc == CANON_OK)
				rc = put(o, ":", 1);
			if (rc == CANON_OK)
				rc = put_value(o, x, depth + 1);
		}
		return rc == CANON_OK ? put(o, "}", 1) : rc;
	}
	if (n > CANON_SMALL_KEYS && (keys = malloc(n * sizeof(*keys))) == NULL)
		return CANON_NOMEM;
	json_object_keylen_foreach((json_t *)v, k, klen, x) {
		keys[i].key = k;
		keys[i].len = klen;
		keys[i].value = x;
		i++;
	}
	qsort(keys, n, sizeof(*keys), key_cmp);
	rc = put(o, "{", 1);
	for (i = 0; i < n && rc == CANON_OK; i++) {
		if (i > 0)
			rc = put(o, ",", 1);
		if (rc == CANON_OK)
			rc = put_string(o, keys[i].key, keys[i].len);
		if (rc == CANON_OK)
			rc = put(o, ":", 1);
		if (rc == CANON_OK)
			rc = put_value(o, keys[i].value, depth + 1);
	}
	if (rc == CANON_OK)
		rc = put(o, "}", 1);
	if (keys != small)
		free(keys);
	return rc;
}

static int
put_value(struct out *o, const json_t *v, int depth)
{
	int rc;

	switch (json_typeof(v)) {
	case JSON_NULL: return put(o, "null", 4);
	case JSON_TRUE: return put(o, "true", 4);
	case JSON_FALSE: return put(o, "false", 5);
	case JSON_INTEGER: return put_integer(o, json_integer_value(v));
	case JSON_REAL: return CANON_FALLBACK;
	case JSON_STRING: return put_string(o, json_string_value(v), json_string_length(v));
	case JSON_ARRAY:
		if (depth >= CANON_MAX_DEPTH)
			return CANON_FALLBACK;
		rc = put(o, "[", 1);
		for (size_t i = 0; i < json_array_size(v) && rc == CANON_OK; i++) {
			if (i > 0)
				rc = put(o, ",", 1);
			if (rc == CANON_OK)
				rc = put_value(o, json_array_get(v, i), depth + 1);
		}
		return rc == CANON_OK ? put(o, "]", 1) : rc;
	case JSON_OBJECT:
		if (depth >= CANON_MAX_DEPTH)
			return CANON_FALLBACK;
		return put_object(o, v, depth);
	}
	return CANON_FALLBACK;
}

char *
json_text(const json_t *v, bool sort_keys, size_t *len)
{
	struct out o = {NULL, 0, 0, sort_keys};
	size_t flags = JSON_COMPACT | JSON_ENSURE_ASCII | (sort_keys ? JSON_SORT_KEYS : 0);
	char *text;
	int rc;

	if (!json_is_object(v) && !json_is_array(v))
		return NULL;
	rc = put_value(&o, v, 0);
	if (rc == CANON_OK)
		rc = put(&o, "", 1);          /* the terminating NUL */
	if (rc == CANON_OK) {
		if (len != NULL)
			*len = o.len - 1;
		return o.p;
	}
	free(o.p);
	if (rc != CANON_FALLBACK)
		return NULL;
	text = json_dumps(v, flags);
	if (text != NULL && len != NULL)
		*len = strlen(text);
	return text;
}

char *
canonical_json(const json_t *body)
{
	return json_text(body, true, NULL);
}

char *
json_text_line(const json_t *v, size_t *len)
{
	size_t n;
	char *text = json_text(v, false, &n), *grown;

	if (text == NULL)
		return NULL;
	grown = realloc(text, n + 2);
	if (grown == NULL) {
		free(text);
		return NULL;
	}
	grown[n++] = '\n';
	grown[n] = '\0';
	*len = n;
	return grown;
}
