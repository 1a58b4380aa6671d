/*
 * text_table.h - the aligned text tables of the listing commands
 * (`pitboss event-types`, `pitboss routes`): a header row and rows of
 * cells, each column but the last padded to its width and followed by one
 * space, the last cell of a row printed as it is (no trailing spaces).
 */
#ifndef PB_CLI_TEXT_TABLE_H
#define PB_CLI_TEXT_TABLE_H

#include <stdio.h>

struct cli_table {
	FILE *out;
	int columns;
	const int *widths;          /* the width of each column but the last */
	const char *const *header;  /* the columns' titles */
};

/* Prints the header row. */
void cli_table_header(const struct cli_table *t);

/*
 * Prints one row of n cells (1 <= n <= t->columns), from the first column: a
 * row of fewer cells ends at its last cell, unpadded.  A cell wider than its
 * column is printed whole and pushes the rest of the row to the right; a
 * NULL cell is empty.
 */
void cli_table_row(const struct cli_table *t, int n, const char *const *cells);

#endif
