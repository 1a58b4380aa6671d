/*
 * csv.c - the one writer of CSV cells (csv.h): quoting, the formula
 * prefix, control characters escaped, numbers formatted.
 */
#include "common/csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"

/* The first characters that make a spreadsheet read a cell as a formula (or hide what follows). */
static const char FORMULA_START[] = "=+-@\t\r";

/* Room for any double in fixed notation: 309 digits before the point, or 323 zeros and 17 digits after it. */
#define REAL_MAX 400

void
pb_csv_init(struct pb_csv *c)
{
	memset(c, 0, sizeof(*c));
	c->row_start = true;
}

/* Appends n bytes, growing the buffer (kept NUL-terminated); on failure sets oom and drops everything after. */
static void
put(struct pb_csv *c, const char *s, size_t n)
{
	if (c->oom)
		return;
	if (c->len + n + 1 > c->cap) {
		size_t cap = c->cap ? c->cap : 4096;
		char *nb;
		while (c->len + n + 1 > cap)
			cap *= 2;
		if ((nb = realloc(c->buf, cap)) == NULL) {
			c->oom = true;
			return;
		}
		c->buf = nb;
		c->cap = cap;
	}
	memcpy(c->buf + c->len, s, n);
	c->len += n;
	c->buf[c->len] = '\0';
}

/* The comma before every cell but a row's first. */
static void
separate(struct pb_csv *c)
{
	if (!c->row_start)
		put(c, ",", 1);
	c->row_start = false;
}

bool
pb_csv_plain_number(const char *s)
{
	const char *p = s + (s[0] == '-');
	size_t whole = strspn(p, "0123456789"), part;

	if (whole == 0)
		return false;
	p += whole;
	if (*p == '\0')
		return true;
	if (*p != '.')
		return false;
	part = strspn(p + 1, "0123456789");
	return part > 0 && p[1 + part] == '\0';
}

/*
 * The cell: quoted when it holds a quote, comma, CR or LF; ' first when it
 * starts like a formula and is no plain number; each control character but
 * LF as its JSON escape, quotes doubled, all else (UTF-8 too) as it is.
 */
void
pb_csv_text(struct pb_csv *c, const char *s)
{
	const char *end = s + strlen(s);
	bool quote = strpbrk(s, ",\"\r\n") != NULL;
	unsigned cp;
	size_t n;

	separate(c);
	if (quote)
		put(c, "\"", 1);
	if (s[0] != '\0' && strchr(FORMULA_START, s[0]) != NULL && !pb_csv_plain_number(s))
		put(c, "'", 1);
	for (const char *p = s; p < end; p += n ? n : 1) {
		char esc[8];
		n = pb_text_control_len(p, end, &cp);
		if (n > 0 && cp != '\n') {
			snprintf(esc, sizeof(esc), "\\u%04X", cp);
			put(c, esc, 6);
		} else if (*p == '"') {
			put(c, "\"\"", 2);
		} else {
			put(c, p, n ? n : 1);
		}
	}
	if (quote)
		put(c, "\"", 1);
}

void
pb_csv_empty(struct pb_csv *c)
{
	separate(c);
}

void
pb_csv_integer(struct pb_csv *c, long long v)
{
	char t[24];

	snprintf(t, sizeof(t), "%lld", v);
	pb_csv_text(c, t);
}

/*
 * v (finite) in fixed notation with the fewest significant digits (15 to
 * 17) that read back as v: the digits of %.*e, the point moved by its
 * exponent, trailing zeros of the fraction dropped.  out holds REAL_MAX.
 */
static void
format_real(double v, char *out)
{
	char e[40], digits[20];
	int nd = 0, point;
	size_t o = 0;
	const char *x;

	for (int prec = 15; prec <= 17; prec++) {
		snprintf(e, sizeof(e), "%.*e", prec - 1, v);
		if (strtod(e, NULL) == v)
			break;
	}
	x = strchr(e, 'e');                 /* "-d.ddde+XX" */
	point = atoi(x + 1) + 1;            /* the digits before the point */
	if (e[0] == '-')
		out[o++] = '-';
	for (const char *p = e + (e[0] == '-'); p < x; p++)
		if (*p != '.' && nd < (int)sizeof(digits))
			digits[nd++] = *p;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	if (point <= 0) {
		out[o++] = '0';
		out[o++] = '.';
		for (int i = 0; i < -point; i++)
			out[o++] = '0';
		memcpy(out + o, digits, (size_t)nd);
		o += (size_t)nd;
	} else {
		for (int i = 0; i < point; i++)
			out[o++] = i < nd ? digits[i] : '0';
		if (nd > point) {
			out[o++] = '.';
			memcpy(out + o, digits + point, (size_t)(nd - point));
			o += (size_t)(nd - point);
		}
	}
	out[o] = '\0';
}

void
pb_csv_real(struct pb_csv *c, double v)
{
	char t[REAL_MAX];

	if (!isfinite(v)) {
		pb_csv_empty(c);
		return;
	}
	format_real(v, t);
	pb_csv_text(c, t);
}

void
pb_csv_cents(struct pb_csv *c, long long cents)
{
	char t[40];
	long long whole = cents / 100, part = cents % 100;

	snprintf(t, sizeof(t), "%s%lld.%02lld", cents < 0 ? "-" : "", whole < 0 ? -whole : whole, part < 0 ? -part : part);
	pb_csv_text(c, t);
}

void
pb_csv_json(struct pb_csv *c, const json_t *v)
{
	if (json_is_integer(v)) {
		pb_csv_integer(c, (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		pb_csv_real(c, json_real_value(v));
	} else if (json_is_string(v)) {
		pb_csv_text(c, json_string_value(v));
	} else if (json_is_boolean(v)) {
		pb_csv_text(c, json_is_true(v) ? "true" : "false");
	} else if (json_is_array(v)) {
		struct pb_csv joined;
		const json_t *x;
		size_t i;
		pb_csv_init(&joined);
		json_array_foreach(v, i, x) {
			if (i > 0)
				put(&joined, " ", 1);
			if (json_is_string(x))
				put(&joined, json_string_value(x), strlen(json_string_value(x)));
		}
		c->oom = c->oom || joined.oom;
		pb_csv_text(c, joined.buf ? joined.buf : "");
		pb_csv_free(&joined);
	} else {
		pb_csv_empty(c);
	}
}

void
pb_csv_end_row(struct pb_csv *c)
{
	put(c, "\r\n", 2);
	c->row_start = true;
}

char *
pb_csv_finish(struct pb_csv *c, size_t *len)
{
	char *text = c->buf;

	if (!c->oom && text == NULL)
		text = strdup("");
	if (c->oom || text == NULL) {
		pb_csv_free(c);
		return NULL;
	}
	*len = c->len;
	pb_csv_init(c);
	return text;
}

void
pb_csv_free(struct pb_csv *c)
{
	free(c->buf);
	pb_csv_init(c);
}
