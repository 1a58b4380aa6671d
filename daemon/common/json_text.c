/*
 * json_text.c - compact, ASCII-only JSON text written directly into one
 * growing buffer (json_text.h): the canonical form of an event body
 * (docs/audit.md, "The canonical form"), and the same writer with keys in
 * insertion order for answers.  The bytes are those jansson 2.14's
 * json_dumps(JSON_COMPACT | JSON_ENSURE_ASCII [| JSON_SORT_KEYS]) writes
 * for the same value (tests/unit/test_canonical.c checks both that and
 * fixed byte vectors), but no byte of the canonical form comes from
 * jansson: keys sorted bytewise over their UTF-8 (memcmp over the shorter
 * length, then the shorter first); strings escape '"', '\\', \b \f \n \r
 * \t by name, other code points below 0x20 and every one above 0x7F as
 * \uXXXX (capital hex; a surrogate pair above the BMP); '/' and 0x7F as
 * they are; integers in decimal; reals as "%.17g" with jansson's touches.
 * The canonical form refuses what it does not cover (text that is not
 * UTF-8, nesting deeper than JSON_TEXT_MAX_DEPTH, a loop); an answer hands
 * those to json_dumps.
 */
#include "common/json_text.h"

#include "common/json_alloc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CANON_SMALL_KEYS 32

/* Why a text was not written: outside the canonical form (CANON_NOT_UTF8, CANON_TOO_DEEP) or not at all. */
enum { CANON_OK = 0, CANON_NOT_UTF8 = 1, CANON_TOO_DEEP = 2, CANON_REFUSED = -2, CANON_NOMEM = -1 };

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
			return CANON_NOT_UTF8;
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

/*
 * A real as jansson 2.14 writes it (strconv.c, jsonp_dtostr): "%.17g" in
 * the C locale, ".0" appended when there is neither '.' nor 'e', and the
 * exponent without '+' and without leading zeros.  jansson holds no NaN
 * or infinity.
 */
static int
put_real(struct out *o, double v)
{
	char b[48], *e;
	int n = snprintf(b, sizeof(b) - 3, "%.17g", v);
	size_t len;

	if (n < 0 || (size_t)n >= sizeof(b) - 3)
		return CANON_REFUSED;
	len = (size_t)n;
	for (size_t i = 0; i < len; i++)
		if (b[i] == ',')               /* a decimal comma, were a locale ever set */
			b[i] = '.';
	if (strchr(b, '.') == NULL && strchr(b, 'e') == NULL) {
		memcpy(b + len, ".0", 3);
		len += 2;
	}
	if ((e = strchr(b, 'e')) != NULL) {
		char *start = e + 1, *end = e + 2;

		if (*start == '-')
			start++;
		while (*end == '0')
			end++;
		if (end != start) {
			memmove(start, end, len - (size_t)(end - b) + 1);
			len -= (size_t)(end - start);
		}
	}
	return put(o, b, len);
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
	case JSON_REAL: return put_real(o, json_real_value(v));
	case JSON_STRING: return put_string(o, json_string_value(v), json_string_length(v));
	case JSON_ARRAY:
		if (depth >= JSON_TEXT_MAX_DEPTH)
			return CANON_TOO_DEEP;
		rc = put(o, "[", 1);
		for (size_t i = 0; i < json_array_size(v) && rc == CANON_OK; i++) {
			if (i > 0)
				rc = put(o, ",", 1);
			if (rc == CANON_OK)
				rc = put_value(o, json_array_get(v, i), depth + 1);
		}
		return rc == CANON_OK ? put(o, "]", 1) : rc;
	case JSON_OBJECT:
		if (depth >= JSON_TEXT_MAX_DEPTH)
			return CANON_TOO_DEEP;
		return put_object(o, v, depth);
	}
	return CANON_REFUSED;
}

/*
 * The text of v (an object or an array) in a malloc'd buffer, its length
 * in *len; CANON_OK, or why not (nothing allocated then).
 */
static int
write_text(const json_t *v, bool sort_keys, char **text, size_t *len)
{
	struct out o = {NULL, 0, 0, sort_keys};
	int rc;

	if (!json_is_object(v) && !json_is_array(v))
		return CANON_REFUSED;
	rc = put_value(&o, v, 0);
	if (rc == CANON_OK)
		rc = put(&o, "", 1);          /* the terminating NUL */
	if (rc != CANON_OK) {
		free(o.p);
		return rc;
	}
	*text = o.p;
	*len = o.len - 1;
	return CANON_OK;
}

char *
json_text(const json_t *v, bool sort_keys, size_t *len)
{
	size_t flags = JSON_COMPACT | JSON_ENSURE_ASCII | (sort_keys ? JSON_SORT_KEYS : 0);
	size_t n = 0;
	char *text = NULL;
	int rc = write_text(v, sort_keys, &text, &n);

	/*
	 * Outside the canonical form, an answer keeps jansson's bytes: deeper
	 * than anything pitbossd builds (or a loop: NULL), or not UTF-8 (NULL
	 * for a string; for a key, jansson 2.14 writes the key's opening quote
	 * and goes on).
	 */
	if (rc == CANON_TOO_DEEP || rc == CANON_NOT_UTF8) {
		text = json_dumps(v, flags);
		n = text ? strlen(text) : 0;
	} else if (rc != CANON_OK) {
		return NULL;
	}
	if (text != NULL && len != NULL)
		*len = n;
	return text;
}

char *
canonical_text(const json_t *body, size_t *len)
{
	bool oom;

	return canonical_text_why(body, len, &oom);
}

char *
canonical_text_why(const json_t *body, size_t *len, bool *oom)
{
	size_t n = 0;
	char *text = NULL;
	int rc = write_text(body, true, &text, &n);

	*oom = rc == CANON_NOMEM;
	if (rc != CANON_OK)
		return NULL;
	if (len != NULL)
		*len = n;
	return text;
}

json_t *
json_parse_checked(const char *text, bool *oom)
{
	unsigned long before = json_alloc_failures();
	json_t *v;

	json_alloc_rescue(true);
	v = json_loads(text, 0, NULL);
	*oom = json_alloc_failures() != before;
	if (*oom) {
		json_decref(v);
		v = NULL;
	}
	json_alloc_rescue(false);
	return v;
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
