/*
 * text_table.c - the aligned text tables of the listing commands
 * (text_table.h).
 */
#include "cli/text_table.h"

void
cli_table_row(const struct cli_table *t, int n, const char *const *cells)
{
	if (n > t->columns)
		n = t->columns;
	for (int i = 0; i < n; i++) {
		const char *cell = cells[i] != NULL ? cells[i] : "";

		if (i + 1 < n)
			fprintf(t->out, "%-*s ", t->widths[i], cell);
		else
			fputs(cell, t->out);
	}
	fputc('\n', t->out);
}

void
cli_table_header(const struct cli_table *t)
{
	cli_table_row(t, t->columns, t->header);
}
