/*
 * acct_verify.c - the check functions of the accounting events (pitboss
 * verify, GET /integrity: table/core/event_walk.h): the master game report reads
 * acct_documents and the exceptions acct_acknowledgments, so each row must
 * be exactly what its event in the chain says (read back by acct_from_body,
 * as a restore does), and no row may be without its event.  An altered
 * count, fill or drop then shows even though the chain itself is intact.
 */
#include <stdio.h>
#include <string.h>

#include "store/audit.h"
#include "table/accounting/acct_private.h"

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
		return "document voided or received";
	if (strcmp(a->signer, b->signer) != 0 || strcmp(a->witness, b->witness) != 0 || strcmp(a->runner, b->runner) != 0 ||
	    strcmp(a->requester, b->requester) != 0 || strcmp(a->witnesses, b->witnesses) != 0)
		return "signers";
	if (strcmp(a->witnesses, b->witnesses) != 0 || strcmp(a->approval, b->approval) != 0)
		return "witnesses or approval";
	if (strcmp(a->count_json, b->count_json) != 0)
		return "count sheet";
	return NULL;
}

/* An acknowledgment's row, found by its kind and ref, against its event: the note, who and when. */
int
acct_ack_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	char kind[ACCT_ACK_KIND_MAX], ref[ACCT_ACK_REF_MAX];
	struct acct_ack want, got;
	struct pb_error sub;
	bool found;

	if (acct_ack_from_body(t, e, body, kind, ref, &want, &sub) < 0)
		return problem_sink_event(&v->sink, e, err, "an acknowledgment event that names no exception: %s", sub.message);
	if (store_acct_ack_get(v->p->store, e->table_id, kind, ref, &got, &found, err) < 0)
		return -1;
	if (!found)
		return problem_sink_event(&v->sink, e, err, "the acknowledgment of %s has no row: the exceptions report does "
		    "not show it", ref);
	if (strcmp(got.note, want.note) != 0 || strcmp(got.by, want.by) != 0 || strcmp(got.at, want.at) != 0)
		return problem_sink_event(&v->sink, e, err, "the acknowledgment of %s: its row differs from its event (note, "
		    "who or when)", ref);
	return 0;
}

/* A document's row, found by its id, against its event: every field (document_differs). */
int
acct_document_check(struct event_verify *v, const struct event_type *t, const struct stored_event *e,
    const json_t *body, struct pb_error *err)
{
	struct acct_document want, got;
	struct pb_error sub;
	const char *field;
	bool found;

	if (acct_from_body(e->table_id, e->at, t, body, &want, &sub) < 0)
		return pb_is_oom(&sub) ? pb_oom(err) : problem_sink_event(&v->sink, e, err, "a %s event that is not an "
		    "accounting document: %s", e->type, sub.message);
	if (store_acct_get(v->p->store, want.id, &got, &found, err) < 0)
		return -1;
	if (!found)
		return problem_sink_event(&v->sink, e, err, "accounting document %lld has no row: the master game report does "
		    "not count it", (long long)want.id);
	if ((field = document_differs(&want, &got)) != NULL)
		return problem_sink_event(&v->sink, e, err, "accounting document %lld: its row's %s differs from its event",
		    (long long)want.id, field);
	return 0;
}

/* The rows beyond the events of their types the walk counted: rows no event recorded. */
int
acct_verify_end(struct event_verify *v, struct pb_error *err)
{
	int64_t documents, acknowledgments, seen = 0;

	if (store_acct_counts(v->p->store, &documents, &acknowledgments, err) < 0)
		return -1;
	for (int i = EVT_INVENTORY; i <= EVT_DROP; i++)
		seen += v->seen[i];
	if (documents > seen && audit_problem(v->sink.problems, "", 0, 0, "%lld accounting document rows have no event in "
	    "any chain: the master game report counts what was never recorded", (long long)(documents - seen)) < 0)
		return pb_oom(err);
	if (acknowledgments > v->seen[EVT_EXCEPTION_ACKNOWLEDGED] && audit_problem(v->sink.problems, "", 0, 0, "%lld "
	    "acknowledgment rows have no event in any chain",
	    (long long)(acknowledgments - v->seen[EVT_EXCEPTION_ACKNOWLEDGED])) < 0)
		return pb_oom(err);
	return acct_serial_verify_end(v, err);
}
