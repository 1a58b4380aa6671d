/*
 * pgarray.c - PostgreSQL array literals ("{"a","b",NULL}") built from
 * values, so that a whole batch binds as a few parameters and goes in one
 * statement (unnest): every element is double-quoted with its quotes and
 * backslashes escaped, so any text (a JSON body) passes unchanged.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "central/central_int.h"

/* Room for n more bytes; false (and the array marked failed) when memory runs out. */
static bool
reserve(struct pg_array *a, size_t n)
{
	if (a->failed)
		return false;
	if (a->len + n + 1 > a->cap) {
		size_t cap = a->cap ? a->cap : 256;
		while (a->len + n + 1 > cap)
			cap *= 2;
		char *t = realloc(a->text, cap);
		if (t == NULL) {
			a->failed = true;
			return false;
		}
		a->text = t;
		a->cap = cap;
	}
	return true;
}

/* The separator before an element ('{' before the first). */
static bool
begin_element(struct pg_array *a)
{
	if (!reserve(a, 1))
		return false;
	a->text[a->len++] = a->count++ == 0 ? '{' : ',';
	return true;
}

void
pg_array_text(struct pg_array *a, const char *value)
{
	size_t n;

	if (value == NULL) {
		if (begin_element(a) && reserve(a, 4)) {
			memcpy(a->text + a->len, "NULL", 4);
			a->len += 4;
		}
		return;
	}
	n = strlen(value);
	if (!begin_element(a) || !reserve(a, 2 * n + 2))
		return;
	a->text[a->len++] = '"';
	for (size_t i = 0; i < n; i++) {
		if (value[i] == '"' || value[i] == '\\')
			a->text[a->len++] = '\\';
		a->text[a->len++] = value[i];
	}
	a->text[a->len++] = '"';
}

void
pg_array_int64(struct pg_array *a, int64_t value)
{
	char t[24];

	snprintf(t, sizeof(t), "%" PRId64, value);
	pg_array_text(a, t);
}

const char *
pg_array_end(struct pg_array *a)
{
	if (a->count == 0) {
		if (!reserve(a, 2))
			return NULL;
		a->text[a->len++] = '{';
	}
	if (!reserve(a, 1))
		return NULL;
	a->text[a->len++] = '}';
	a->text[a->len] = '\0';
	return a->failed ? NULL : a->text;
}

void
pg_array_free(struct pg_array *a)
{
	free(a->text);
	memset(a, 0, sizeof(*a));
}
