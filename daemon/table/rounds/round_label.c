/*
 * round_label.c - a round named by its label: the table's id and the
 * table's number of the round, "T1-277" (the number the dealer page and
 * the pit page show), or by its global id, "1390".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "store/store.h"
#include "table/rounds/rounds_private.h"

/*
 * Splits "TABLE-NO" at its last '-' into a table id (1..32 of
 * [A-Za-z0-9_.-]) and a positive number of at most 18 digits without a
 * sign or a leading zero; -1 when the text is not of that shape.
 */
int
round_label_parse(const char *text, char table[PB_ID_MAX], int64_t *round_no)
{
	const char *dash = text != NULL ? strrchr(text, '-') : NULL;
	size_t tlen, nlen;
	char *end;
	long long n;

	if (dash == NULL)
		return -1;
	tlen = (size_t)(dash - text);
	nlen = strlen(dash + 1);
	if (tlen == 0 || tlen >= PB_ID_MAX || nlen == 0 || nlen > 18 || dash[1] < '1' || dash[1] > '9')
		return -1;
	memcpy(table, text, tlen);
	table[tlen] = '\0';
	if (!pb_valid_id(table))
		return -1;
	errno = 0;
	n = strtoll(dash + 1, &end, 10);
	if (*end != '\0' || errno != 0 || n <= 0)
		return -1;
	*round_no = n;
	return 0;
}

int
pit_round_find(struct pit *p, const char *text, int64_t *round_id, struct pb_error *err)
{
	char table[PB_ID_MAX];
	int64_t round_no;

	*round_id = 0;
	if (round_label_parse(text, table, &round_no) < 0)
		return pb_fail(err, 404, "round_not_found", "\"%.40s\" is not a round id or label (a table and its "
		    "round's number, as T1-277)", text != NULL ? text : "");
	if (store_round_by_no(p->store, table, round_no, round_id, err) < 0)
		return -1;
	if (*round_id == 0)
		return pb_fail(err, 404, "round_not_found", "there is no round %s: table %s has no round number %lld",
		    text, table, (long long)round_no);
	return 0;
}
