/*
 * acct_session.c - the table's session (accounting.h, docs/accounting.md
 * "The table's session"; N.J.A.C. 13:69D-1.21, Nevada MICS table games):
 * an opener opens the table, a closer closes it, a shift change goes on
 * with it at the same count.  The session is read from the table's last
 * opener, closer or shift change, so it needs no row of its own and a
 * restore rebuilds it with the documents.  Rounds are refused after a
 * closer until the next opener; documents out of that order are refused
 * where refusing blocks nothing (an opener while open, a closer or shift
 * change after a closer) and a closer at a table that never had an opener
 * is recorded and flagged by the master game report.
 */
#include <stdio.h>
#include <string.h>

#include "common/gaming_day.h"
#include "store/store.h"
#include "table/accounting/acct_private.h"

int
acct_session_get(struct pit *p, const char *table_id, struct acct_session *s, struct pb_error *err)
{
	static const char *const KINDS[] = {"opener", "closer", "shift_change"};
	struct acct_document d;
	bool found;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < sizeof(KINDS) / sizeof(KINDS[0]); i++) {
		if (store_acct_last(p->store, table_id, KINDS[i], &d, &found, err) < 0)
			return -1;
		if (found && (!s->any || d.id > s->last.id)) {
			s->last = d;
			s->any = true;
		}
	}
	s->open = s->any && strcmp(s->last.kind, "closer") != 0;
	return 0;
}

int
acct_check_session(struct pit *p, const char *table_id, struct pb_error *err)
{
	struct acct_session s;

	if (acct_session_get(p, table_id, &s, err) < 0)
		return -1;
	if (!s.any || s.open)
		return 0;
	return pb_fail(err, 409, "table_closed", "table %s was closed by its closer (document %lld, %s): a floor supervisor "
	    "or pit boss counts the tray and records an opener (POST /api/v1/tables/%s/inventory {\"kind\": \"opener\", "
	    "...}) before the next round", table_id, (long long)s.last.id, s.last.at, table_id);
}

json_t *
acct_session_json(const struct acct_session *s)
{
	if (!s->any)
		return json_pack("{s:s,s:n}", "state", "none", "document");
	return json_pack("{s:s,s:{s:I,s:s,s:s}}", "state", s->open ? "open" : "closed", "document",
	    "id", (json_int_t)s->last.id, "kind", s->last.kind, "at", s->last.at);
}

/*
 * The shift a shift change at d->at opens: the one that starts at the
 * shift boundary (the gaming day's start without shifts) nearest to it,
 * into d->gaming_day and d->shift.  Recorded a little before or after the
 * boundary, it closes the shift ending there and opens the one beginning.
 */
static void
shift_change_snap(const struct config *cfg, struct acct_document *d)
{
	const struct gaming_calendar *cal = &cfg->property.calendar;
	int64_t ms = 0, t, day, from, to;
	int shift;

	pb_time_parse(d->at, &ms);
	t = ms / 1000;
	shift = gaming_shift_of(cal, t, &day);
	if (shift < 0) {
		day = gaming_day_of(cal, t);
		gaming_day_bounds(cal, day, &from, &to);
		if (to - t < t - from)
			day++;
		gaming_day_format(day, d->gaming_day);
		return;
	}
	gaming_shift_bounds(cal, day, shift, &from, &to);
	if (to - t < t - from)
		shift++;
	if (shift == cal->shift_count) {
		shift = 0;
		day++;
	}
	gaming_day_format(day, d->gaming_day);
	snprintf(d->shift, sizeof(d->shift), "%s", cal->shifts[shift].name);
}

int
acct_session_check_document(struct pit *p, struct acct_document *d, struct pb_error *err)
{
	struct acct_session s;
	int64_t current;
	bool opener = strcmp(d->kind, "opener") == 0, closer = strcmp(d->kind, "closer") == 0;

	if (store_round_current(p->store, d->table_id, &current, err) < 0 || acct_session_get(p, d->table_id, &s, err) < 0)
		return -1;
	if (current != 0)
		return pb_fail(err, 409, "round_in_progress", "table %s has round %lld in progress: settle or void it before "
		    "the tray is counted", d->table_id, (long long)current);
	if (opener && s.open)
		return pb_fail(err, 409, "opener_out_of_order", "table %s is open since its %s (document %lld, %s): record "
		    "its closer first (\"kind\": \"closer\"), or at a change of shift a shift change (\"kind\": \"shift_change\")",
		    d->table_id, s.last.kind, (long long)s.last.id, s.last.at);
	if (closer && s.any && !s.open)
		return pb_fail(err, 409, "closer_out_of_order", "table %s was closed by its closer (document %lld, %s) and has "
		    "no opener since: record the opener before another closer", d->table_id, (long long)s.last.id, s.last.at);
	if (!opener && !closer && !s.open)
		return pb_fail(err, 409, "shift_change_out_of_order", "table %s %s: a shift change goes on with an open table; "
		    "record an opener instead", d->table_id, s.any ? "was closed by its closer" : "has no opener");
	if (!opener && !closer)
		shift_change_snap(p->cfg, d);
	return 0;
}
