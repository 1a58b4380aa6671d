/*
 * players_csv.c - the ratings and Title 31 reports as CSV (players.h;
 * columns in docs/players.md): RFC 4180, CRLF, a header row.
 */
#include "table/players.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	char *p;
	size_t len, cap;
	bool bad;
};

static void
put(struct buf *b, const char *s, size_t n)
{
	if (b->bad)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 1024) + n;
		char *q = realloc(b->p, cap);
		if (q == NULL) {
			b->bad = true;
			return;
		}
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* One field: numbers as they are, text quoted when it holds a comma, quote or line break; null empty. */
static void
field(struct buf *b, const json_t *v, bool last)
{
	char num[32];

	if (json_is_integer(v)) {
		snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
		put(b, num, strlen(num));
	} else if (json_is_real(v)) {
		snprintf(num, sizeof(num), "%.6f", json_real_value(v));
		put(b, num, strlen(num));
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v);
		if (strpbrk(s, ",\"\r\n") == NULL) {
			put(b, s, strlen(s));
		} else {
			put(b, "\"", 1);
			for (; *s; s++) {
				if (*s == '"')
					put(b, "\"\"", 2);
				else
					put(b, s, 1);
			}
			put(b, "\"", 1);
		}
	} else if (json_is_object(v)) {   /* an acknowledgment: its note */
		field(b, json_object_get(v, "note"), last);
		return;
	}
	put(b, last ? "\r\n" : ",", last ? 2 : 1);
}

static void
row(struct buf *b, const json_t *o, const char *const *cols)
{
	for (int i = 0; cols[i] != NULL; i++)
		field(b, json_object_get(o, cols[i]), cols[i + 1] == NULL);
}

static void
header(struct buf *b, const char *const *cols)
{
	for (int i = 0; cols[i] != NULL; i++) {
		put(b, cols[i], strlen(cols[i]));
		put(b, cols[i + 1] == NULL ? "\r\n" : ",", cols[i + 1] == NULL ? 2 : 1);
	}
}

char *
players_csv(bool title31, const json_t *report, size_t *len)
{
	static const char *const RATING[] = {"player", "hands", "wagered", "average_bet", "result", "theoretical",
	    "estimated_theoretical", "seconds", "comps", NULL};
	static const char *const T31[] = {"record", "player", "patron", "table", "direction", "kind", "amount", "total", "at",
	    "acknowledged", NULL};
	struct buf b = {NULL, 0, 0, false};
	size_t i;
	const json_t *v;

	if (!title31) {
		header(&b, RATING);
		json_array_foreach(json_object_get(report, "players"), i, v)
			row(&b, v, RATING);
	} else {
		static const char *const KINDS[] = {"mtl", "alerts", "ctr"};
		header(&b, T31);
		for (int k = 0; k < 3; k++)
			json_array_foreach(json_object_get(report, KINDS[k]), i, v) {
				json_t *o = json_deep_copy(v);
				json_object_set_new(o, "record", json_string(KINDS[k]));
				row(&b, o, T31);
				json_decref(o);
			}
	}
	if (b.bad || b.p == NULL) {
		free(b.p);
		return NULL;
	}
	*len = b.len;
	return b.p;
}
