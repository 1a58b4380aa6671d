/*
 * acct_receipts.c - a fill or credit received at the table (accounting.h
 * pit_acct_receipt): the slip the cage issued, found by its serial at the
 * table, received once by the dealer and a floor supervisor or pit boss
 * (acct_signatures.c).  Under accounting.signatures "nj" only a received
 * slip counts in the master game (acct_counts.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "table/accounting/acct_private.h"

/* One receipt being recorded: what the request said, checked and signed before the write. */
struct receipt_call {
	const char *table_id;
	char kind[ACCT_KIND_MAX];          /* fill_receipt, credit_receipt */
	char serial[PB_ID_MAX];
	int64_t year;                      /* 0: the current gaming day's */
	struct acct_signed s;
};

static int
do_receipt(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	struct receipt_call *c = arg;
	bool credit = strcmp(c->kind, "credit_receipt") == 0;
	struct acct_document d;

	if (pit_check_hold(p, c->table_id, err) < 0)
		return -1;
	memset(&d, 0, sizeof(d));
	snprintf(d.table_id, sizeof(d.table_id), "%s", c->table_id);
	snprintf(d.kind, sizeof(d.kind), "%s", c->kind);
	snprintf(d.signer, sizeof(d.signer), "%s", a->name);
	snprintf(d.witness, sizeof(d.witness), "%s", c->s.witness);
	snprintf(d.witnesses, sizeof(d.witnesses), "%s", c->s.witnesses);
	acct_now(p->cfg, &d);
	d.year = c->year ? c->year : atoi(d.gaming_day);
	return acct_record_follow_up(p, a, &d, credit ? "credit" : "fill", c->serial, out, status, err);
}

int
pit_acct_receipt(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    bool credit, const char *serial, const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	static const char *const KEYS[] = {"year", "witness", "witnesses", NULL};
	const char *what = credit ? "receiving a credit" : "receiving a fill";
	struct receipt_call c = {.table_id = table_id};
	const struct table_config *t = config_table(p->cfg, table_id);
	const json_t *year;

	if (t == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", table_id);
	if (authorize(a, OP_TRANSFER_RECEIPT, t->id, err) < 0)
		return -1;
	if (!a->is_person)
		return pb_fail(err, 403, "person_required", "%s is signed by a person: sign in (POST /api/v1/sessions) and "
		    "send your session's token; a terminal's token signs no document", what);
	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is {\"witnesses\": [{\"person\", \"password\"}], \"year\"?}");
	if (input_known_keys(body, "receipt", KEYS, err) < 0)
		return -1;
	if (!pb_valid_id(serial))
		return pb_fail(err, 404, "document_not_found", "\"%.40s\" is not a serial", serial);
	snprintf(c.kind, sizeof(c.kind), "%s", credit ? "credit_receipt" : "fill_receipt");
	snprintf(c.serial, sizeof(c.serial), "%s", serial);
	year = json_object_get(body, "year");
	if (year != NULL && (!json_is_integer(year) || json_integer_value(year) < 1970 || json_integer_value(year) > 9999))
		return pb_fail(err, 400, "invalid_body", "year: the year of the serial, e.g. 2026 (default: the current gaming "
		    "day's)");
	c.year = year ? json_integer_value(year) : 0;
	if (acct_sign(p, a, c.kind, body, 0, what, &c.s, err) < 0)
		return -1;
	return pit_write(p, a, idem, do_receipt, &c, out, status, err);
}
