/*
 * csv.h - the one writer of CSV cells: every CSV the daemon and the command
 * line write (the reports, the ratings and Title 31, the central summary)
 * is made of these calls, and nothing else writes a cell.
 *
 * RFC 4180: rows end in CRLF; a cell holding a quote, a comma, a CR or a
 * line feed is quoted, its quotes doubled.  A cell is written so that a
 * spreadsheet shows it and a terminal prints it, never obeys it:
 *
 *   - a cell that starts with = + - @ tab or CR is prefixed with ', unless
 *     the whole cell is a plain number (-?[0-9]+(\.[0-9]+)?: -1250, -12.50),
 *     which stays a number;
 *   - no control character is written raw but the line feed inside a
 *     quoted cell: each other one (CR, tab, ESC, DEL, U+0080..U+009F) is
 *     written as its JSON escape, \u001B for ESC (common/text.h says which
 *     characters are control characters).
 *
 * Numbers are formatted here and then written through the same rule
 * (a formatted number is always a plain number, so it is never prefixed).
 */
#ifndef PB_COMMON_CSV_H
#define PB_COMMON_CSV_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* A CSV text being written.  Zeroed by pb_csv_init; its text is taken by pb_csv_finish or freed by pb_csv_free. */
struct pb_csv {
	char *buf;
	size_t len, cap;
	bool oom;                  /* an allocation failed: every later call does nothing */
	bool row_start;            /* the next cell is the first of its row */
};

void pb_csv_init(struct pb_csv *c);

/* A cell of text (NUL-terminated), written by the rules above. */
void pb_csv_text(struct pb_csv *c, const char *s);

/* An empty cell (a JSON null, a value not known). */
void pb_csv_empty(struct pb_csv *c);

/* An integer cell: -1250. */
void pb_csv_integer(struct pb_csv *c, long long v);

/*
 * A real cell: the shortest decimal that reads back as the same double,
 * without an exponent (0.0000125, not 1.25e-05); a NaN or an infinity,
 * which no report holds, is an empty cell.
 */
void pb_csv_real(struct pb_csv *c, double v);

/* Cents as an amount with two decimals: 123456 as 1234.56, -5 as -0.05. */
void pb_csv_cents(struct pb_csv *c, long long cents);

/*
 * A JSON value as a cell: null (or NULL) empty, integers and reals as
 * above, strings as text, true and false, an array as its strings joined
 * by spaces ("As Ks Qs"); an object is an empty cell.
 */
void pb_csv_json(struct pb_csv *c, const json_t *v);

/* Ends the row (CRLF); the next cell starts a new one. */
void pb_csv_end_row(struct pb_csv *c);

/*
 * The text written (malloc'd, NUL-terminated, "" when nothing was) and its
 * length in *len; NULL when an allocation failed.  Either way c holds
 * nothing afterwards.
 */
char *pb_csv_finish(struct pb_csv *c, size_t *len);

/* Frees what c holds (for a writer abandoned before pb_csv_finish). */
void pb_csv_free(struct pb_csv *c);

/* True when s is a plain number: an optional -, digits, optionally a . and digits. */
bool pb_csv_plain_number(const char *s);

#endif
