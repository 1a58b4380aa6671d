/*
 * acct_verify.c - the full check's look at the accounting rows (pitboss
 * verify, GET /integrity): the master game report reads acct_documents and
 * the exceptions acct_acknowledgments, so each row must be exactly what its
 * event in the chain says (read back by acct_from_body, as a restore does),
 * and no row may be without its event.  An altered count, fill or drop
 * then shows even though the chain itself is intact.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/json_text.h"
#include "store/audit.h"
#include "table/accounting/acct_private.h"

/* At most this many rows named one by one; the rest are counted. */
#define ACCT_PROBLEMS_MAX 20

struct acct_check {
	struct pit *p;
	json_t *problems;
	int64_t documents, acknowledgments;   /* events seen */
	int named;
};

/* The first field in which two documents differ, or NULL. */
static const char *
document_differs(const struct acct_document *a, const struct acct_document *b)
{
	if (strcmp(a->table_id, b->table_id) != 0)
		return "table";
	if (strcmp(a->kind, b->kind) != 0)
		return "kind";
	if (strcmp(a->at, b->at) != 0 || strcmp(a->gaming_day, b->gaming_day) != 0 || strcmp(a->shift, b->shift) != 0)
		return "time, gaming day or shift";
	if (strcmp(a->serial, b->serial) != 0 || a->year != b->year)
		return "serial or box";
	if (a->total != b->total || strcmp(a->chips_json, b->chips_json) != 0)
		return "chips or total";
	if (a->cash != b->cash || a->chip_value != b->chip_value || a->markers != b->markers ||
	    a->collections != b->collections)
		return "cash, chips, markers or collections";
	if (a->has_discrepancy != b->has_discrepancy || a->discrepancy != b->discrepancy || strcmp(a->reason, b->reason) != 0)
		return "discrepancy or reason";
	if (a->voids != b->voids)
		return "document voided";
	if (strcmp(a->signer, b->signer) != 0 || strcmp(a->witness, b->witness) != 0 || strcmp(a->runner, b->runner) != 0 ||
	    strcmp(a->requester, b->requester) != 0)
		return "signers";
	return NULL;
}

/*
 * A problem with the event's row, named while there are fewer than
 * ACCT_PROBLEMS_MAX, else counted.  0, or -1 (err out_of_memory) when it
 * could not be recorded.
 */
static int __attribute__((format(printf, 4, 5)))
problem(struct acct_check *c, const struct stored_event *e, struct pb_error *err, const char *fmt, ...)
{
	char text[256];
	va_list ap;

	if (c->named++ >= ACCT_PROBLEMS_MAX)
		return 0;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return audit_problem(c->problems, e->table_id, 0, e->table_seq, "%s", text) < 0 ? pb_oom(err) : 0;
}

/* An acknowledgment's row against its event. */
static int
check_acknowledgment(struct acct_check *c, const struct stored_event *e, const json_t *b, struct pb_error *err)
{
	const char *kind = json_string_value(json_object_get(b, "kind"));
	const char *ref = json_string_value(json_object_get(b, "ref"));
	const char *note = json_string_value(json_object_get(b, "note"));
	struct acct_ack ack;
	bool found;

	c->acknowledgments++;
	if (kind == NULL || ref == NULL || note == NULL)
		return problem(c, e, err, "an acknowledgment event that names no exception");
	if (store_acct_ack_get(c->p->store, e->table_id, kind, ref, &ack, &found, err) < 0)
		return -1;
	if (!found)
		return problem(c, e, err, "the acknowledgment of %s has no row: the exceptions report does not show it", ref);
	if (strcmp(ack.note, note) != 0 || strcmp(ack.by, e->actor) != 0 || strcmp(ack.at, e->at) != 0)
		return problem(c, e, err, "the acknowledgment of %s: its row differs from its event (note, who or when)", ref);
	return 0;
}

/* One accounting event against its row.  0, or -1 with err when it could not be checked. */
static int
check_event(void *ctx, const struct stored_event *e, struct pb_error *err)
{
	struct acct_check *c = ctx;
	struct acct_document want, got;
	struct pb_error sub;
	bool oom;
	json_t *b = json_parse_checked(e->body, &oom);
	const char *field;
	bool found;
	int rc = 0;

	if (oom)
		return pb_oom(err);
	if (b == NULL)
		return problem(c, e, err, "a %s event whose body is not JSON", e->type);
	if (strcmp(e->type, "exception_acknowledged") == 0) {
		rc = check_acknowledgment(c, e, b, err);
	} else if (c->documents++, acct_from_body(e->table_id, e->type, e->at, b, &want, &sub) < 0) {
		rc = pb_is_oom(&sub) ? pb_oom(err) : problem(c, e, err, "a %s event that is not an accounting document", e->type);
	} else if ((rc = store_acct_get(c->p->store, want.id, &got, &found, err)) == 0) {
		if (!found)
			rc = problem(c, e, err, "accounting document %lld has no row: the master game report does not count it",
			    (long long)want.id);
		else if ((field = document_differs(&want, &got)) != NULL)
			rc = problem(c, e, err, "accounting document %lld: its row's %s differs from its event", (long long)want.id,
			    field);
	}
	json_decref(b);
	return rc;
}

int
acct_verify(struct pit *p, json_t *problems, struct pb_error *err)
{
	struct acct_check c = {.p = p, .problems = problems};
	int64_t documents, acknowledgments;

	if (store_acct_events(p->store, check_event, &c, err) < 0 ||
	    store_acct_counts(p->store, &documents, &acknowledgments, err) < 0)
		return -1;
	if (c.named > ACCT_PROBLEMS_MAX && audit_problem(problems, "", 0, 0, "%d more accounting rows differ from their "
	    "events", c.named - ACCT_PROBLEMS_MAX) < 0)
		return pb_oom(err);
	if (documents > c.documents && audit_problem(problems, "", 0, 0, "%lld accounting document rows have no event in "
	    "any chain: the master game report counts what was never recorded", (long long)(documents - c.documents)) < 0)
		return pb_oom(err);
	if (acknowledgments > c.acknowledgments && audit_problem(problems, "", 0, 0, "%lld acknowledgment rows have no "
	    "event in any chain", (long long)(acknowledgments - c.acknowledgments)) < 0)
		return pb_oom(err);
	return 0;
}
