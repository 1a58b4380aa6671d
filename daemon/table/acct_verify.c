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

#include "store/audit.h"
#include "table/acct_private.h"
#include "table/problem.h"

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

/* A problem with the event's row, named while there are fewer than ACCT_PROBLEMS_MAX, else counted. */
static void __attribute__((format(printf, 3, 4)))
problem(struct acct_check *c, const struct stored_event *e, const char *fmt, ...)
{
	char text[256];
	va_list ap;

	if (c->named++ >= ACCT_PROBLEMS_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	audit_problem(c->problems, e->table_id, 0, e->table_seq, "%s", text);
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
	if (kind == NULL || ref == NULL || note == NULL) {
		problem(c, e, "an acknowledgment event that names no exception");
		return 0;
	}
	if (store_acct_ack_get(c->p->store, e->table_id, kind, ref, &ack, &found, err) < 0)
		return -1;
	if (!found)
		problem(c, e, "the acknowledgment of %s has no row: the exceptions report does not show it", ref);
	else if (strcmp(ack.note, note) != 0 || strcmp(ack.by, e->actor) != 0 || strcmp(ack.at, e->at) != 0)
		problem(c, e, "the acknowledgment of %s: its row differs from its event (note, who or when)", ref);
	return 0;
}

static int
check_event(void *ctx, const struct stored_event *e, struct pb_error *err)
{
	struct acct_check *c = ctx;
	struct acct_document want, got;
	struct pb_error sub;
	json_t *b = json_loads(e->body, 0, NULL);
	const char *field;
	bool found;
	int rc = 0;

	if (b == NULL) {
		problem(c, e, "a %s event whose body is not JSON", e->type);
		return 0;
	}
	if (strcmp(e->type, "exception_acknowledged") == 0) {
		rc = check_acknowledgment(c, e, b, err);
	} else if (c->documents++, acct_from_body(e->table_id, e->type, e->at, b, &want, &sub) < 0) {
		problem(c, e, "a %s event that is not an accounting document", e->type);
	} else if ((rc = store_acct_get(c->p->store, want.id, &got, &found, err)) == 0) {
		if (!found)
			problem(c, e, "accounting document %lld has no row: the master game report does not count it",
			    (long long)want.id);
		else if ((field = document_differs(&want, &got)) != NULL)
			problem(c, e, "accounting document %lld: its row's %s differs from its event", (long long)want.id, field);
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
	if (c.named > ACCT_PROBLEMS_MAX)
		audit_problem(problems, "", 0, 0, "%d more accounting rows differ from their events", c.named - ACCT_PROBLEMS_MAX);
	if (documents > c.documents)
		audit_problem(problems, "", 0, 0, "%lld accounting document rows have no event in any chain: the master game "
		    "report counts what was never recorded", (long long)(documents - c.documents));
	if (acknowledgments > c.acknowledgments)
		audit_problem(problems, "", 0, 0, "%lld acknowledgment rows have no event in any chain",
		    (long long)(acknowledgments - c.acknowledgments));
	return 0;
}
