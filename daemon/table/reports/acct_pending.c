/*
 * acct_pending.c - the pending_slip exceptions (reports_private.h): under
 * accounting.signatures "nj" a fill or credit counts once received at the
 * table, and one issued and neither received nor voided after
 * accounting.pending_slip_minutes is listed for a pit boss to chase (chips
 * on their way, or a slip written in error).
 */
#include <stdio.h>
#include <string.h>

#include "common/timeutil.h"
#include "config/table_money.h"
#include "store/accounting.h"
#include "store/store.h"
#include "table/reports/reports_private.h"

struct pending_walk {
	const struct config *cfg;   /* each table's currency */
	const struct actor *a;
	const struct report_query *q;
	int64_t now_ms;
	json_t *arr;
};

/* One slip not received into the list, when its table is in the report's scope (acct_document_fn). */
static int
add_pending(void *ctx, const struct acct_document *d, struct pb_error *err)
{
	struct pending_walk *w = ctx;
	char ref[24], detail[400], amount[MONEY_TEXT_LEN];
	int64_t at_ms = 0;
	json_t *o;

	if ((w->q->table[0] && strcmp(w->q->table, d->table_id) != 0) ||
	    (w->a->token != NULL && !token_allows_table(w->a->token, d->table_id)))
		return 0;
	pb_time_parse(d->at, &at_ms);
	snprintf(ref, sizeof(ref), "%lld", (long long)d->id);
	snprintf(detail, sizeof(detail), "%s %s of %s issued by %s is not received at the table after %lld minutes: "
	    "the dealer and a floor supervisor receive it (POST /api/v1/tables/%s/%ss/%s/receipt), or it is voided", d->kind,
	    d->serial, table_money(w->cfg, d->table_id, d->total, amount), d->signer, (long long)((w->now_ms - at_ms) / 60000), d->table_id, d->kind,
	    d->serial);
	o = json_pack("{s:s,s:s,s:n,s:s,s:s,s:s,s:I,s:s,s:s,s:I,s:I}", "at", d->at, "table", d->table_id, "round",
	    "kind", "pending_slip", "detail", detail, "ref", ref, "document", (json_int_t)d->id, "slip", d->kind,
	    "serial", d->serial, "year", (json_int_t)d->year, "amount", (json_int_t)d->total);
	if (o == NULL)
		return pb_oom(err);
	json_array_append_new(w->arr, o);
	return 0;
}

int
acct_pending_slips(struct pit *p, const struct actor *a, const struct report_query *q, json_t *arr,
    struct pb_error *err)
{
	struct pending_walk w = {p->cfg, a, q, pb_time_now_ms(), arr};
	char from[PB_TIME_LEN], to[PB_TIME_LEN], before[PB_TIME_LEN];

	if (p->cfg->accounting.signatures != ACCT_SIGNATURES_NJ)
		return 0;
	pb_time_format_ms(q->from_ms, from);
	pb_time_format_ms(q->to_ms, to);
	pb_time_format_ms(w.now_ms - (int64_t)p->cfg->accounting.pending_slip_minutes * 60000 + 1, before);
	return store_acct_pending(p->store, from, to, before, add_pending, &w, err) != 0 ? -1 : 0;
}
