/*
 * title31.c - Title 31 (players.h; docs/players.md): MTL entries as they
 * were written, each patron's cash in and cash out of a gaming day summed
 * separately across the tables and the cage (31 CFR 1021.311, .313: never
 * netted; a merged record's cash counts for the survivor; a void counts
 * for nothing), alerts as a side nears the CTR limit, CTR work items with
 * their statuses and notes (ctr.c moves them on), and the first
 * acknowledgment of an item (the event title31_acknowledged in the chain
 * of PLAYERS_CHAIN; the later ones are notes).
 */
#include "table/players/players_private.h"

#include <stdio.h>
#include <string.h>

#include "common/gaming_day.h"
#include "common/money_text.h"
#include "common/text.h"
#include "common/timeutil.h"
#include "store/players.h"
#include "store/store.h"

void
title31_gaming_day(const struct gaming_calendar *cal, const char *at, char out[11])
{
	int64_t ms = 0;

	pb_time_parse(at, &ms);
	gaming_day_format(gaming_day_of(cal, ms / 1000), out);
}

void
title31_limits_of(const struct pit *p, struct title31_limits *lim)
{
	lim->mtl_threshold = p->cfg->title31.mtl_threshold;
	lim->alert_at = p->cfg->title31.alert_at;
	lim->ctr_over = p->cfg->title31.ctr_over;
}

/* Adds amount to the player's side in totals; returns the side's total before and after. */
static void
add_total(json_t *totals, const char *player, const char *side, int64_t amount, int64_t *before, int64_t *after)
{
	json_t *t = json_object_get(totals, player);

	if (t == NULL) {
		t = json_pack("{s:I,s:I}", "cash_in", (json_int_t)0, "cash_out", (json_int_t)0);
		json_object_set_new(totals, player, t);
	}
	*before = json_integer_value(json_object_get(t, side));
	*after = *before + amount;   /* amounts are at most PB_MONEY_MAX each; a day's sum stays far inside int64 */
	json_object_set_new(t, side, json_integer(*after));
}

/* The record a transaction counts for: its "counted_for" (the survivor of a merge), else its "player". */
static const char *
counted_for(const json_t *t)
{
	const char *c = json_string_value(json_object_get(t, "counted_for"));

	return c != NULL ? c : json_string_value(json_object_get(t, "player"));
}

json_t *
title31_aggregate(const json_t *txns, const struct title31_limits *lim)
{
	json_t *mtl = json_array(), *ctr = json_array(), *alerts = json_array(), *totals = json_object(), *voids = json_array();
	json_t *ctr_at = json_object(), *alert_at = json_object();
	size_t i;
	const json_t *t;

	json_array_foreach(txns, i, t) {
		const char *player = counted_for(t);
		const char *dir = json_string_value(json_object_get(t, "direction"));
		const char *kind = json_string_value(json_object_get(t, "kind"));
		int64_t amount = json_integer_value(json_object_get(t, "amount")), before, after;
		bool voided = json_is_object(json_object_get(t, "void"));
		char key[PB_ID_MAX + 8];

		if (player == NULL || dir == NULL || kind == NULL || strcmp(kind, "cash") != 0)
			continue;   /* chips and markers are not currency */
		if (amount >= lim->mtl_threshold)
			json_array_append_new(mtl, json_deep_copy(t));   /* as written, a void marked */
		if (voided) {
			json_array_append_new(voids, json_deep_copy(t));
			continue;
		}
		add_total(totals, player, strcmp(dir, "in") == 0 ? "cash_in" : "cash_out", amount, &before, &after);
		snprintf(key, sizeof(key), "%s/%s", player, dir);
		if (before < lim->alert_at && after >= lim->alert_at)
			json_object_set(alert_at, key, json_object_get(t, "at"));
		if (before <= lim->ctr_over && after > lim->ctr_over)
			json_object_set(ctr_at, key, json_object_get(t, "at"));
	}
	/* the items, with the day's final totals */
	{
		const char *k;
		json_t *v;
		json_object_foreach(totals, k, v) {
			static const char *const SIDES[][2] = {{"in", "cash_in"}, {"out", "cash_out"}};
			for (int s = 0; s < 2; s++) {
				char key[PB_ID_MAX + 8];
				int64_t total = json_integer_value(json_object_get(v, SIDES[s][1]));
				snprintf(key, sizeof(key), "%s/%s", k, SIDES[s][0]);
				if (json_object_get(alert_at, key) != NULL)
					json_array_append_new(alerts, json_pack("{s:s,s:s,s:I,s:O}", "player", k, "direction", SIDES[s][0],
					    "total", (json_int_t)total, "at", json_object_get(alert_at, key)));
				if (json_object_get(ctr_at, key) != NULL)
					json_array_append_new(ctr, json_pack("{s:s,s:s,s:I,s:O}", "player", k, "direction", SIDES[s][0],
					    "total", (json_int_t)total, "at", json_object_get(ctr_at, key)));
			}
		}
	}
	json_decref(ctr_at);
	json_decref(alert_at);
	return json_pack("{s:o,s:o,s:o,s:o,s:o}", "mtl", mtl, "ctr", ctr, "alerts", alerts, "totals", totals, "voids", voids);
}

static int
need_reader(const struct actor *a, struct pb_error *err)
{
	if ((a->roles & PLAYER_PERSONAL_ROLES) == 0)
		return pb_fail(err, 403, "forbidden", "the Title 31 log is for the cage, floor, pitboss, surveillance, auditor and "
		    "admin roles");
	return 0;
}

/* Whether a note or acknowledgment (player, direction, kind) is of the item. */
static bool
of_item(const json_t *n, const char *player, const char *dir, const char *kind)
{
	return strcmp(json_string_value(json_object_get(n, "player")), player) == 0 &&
	    strcmp(json_string_value(json_object_get(n, "direction")), dir) == 0 &&
	    strcmp(json_string_value(json_object_get(n, "kind")), kind) == 0;
}

/* The patron's name, or his description, as his record stands now ("" when there is none). */
static json_t *
patron_now(struct pit *p, const char *player, struct pb_error *err)
{
	json_t *rec = NULL, *out;
	const char *name, *description;

	if (store_player_get(p->store, player, &rec, err) < 0)
		return NULL;
	name = json_string_value(json_object_get(rec, "name"));
	description = json_string_value(json_object_get(rec, "description"));
	out = json_string(name != NULL ? name : description != NULL ? description : "");
	json_decref(rec);
	return out != NULL ? out : (pb_oom(err), NULL);
}

int
title31_ctr_state(const json_t *notes, const char *player, const char *dir, struct ctr_state *st)
{
	size_t i;
	const json_t *n;
	int count = 0;

	memset(st, 0, sizeof(*st));
	snprintf(st->status, sizeof(st->status), "open");
	json_array_foreach(notes, i, n) {
		const char *status = json_string_value(json_object_get(n, "status"));
		if (!of_item(n, player, dir, "ctr") || status == NULL)
			continue;
		count++;
		snprintf(st->status, sizeof(st->status), "%s", status);
		snprintf(st->by, sizeof(st->by), "%s", json_string_value(json_object_get(n, "by")));
		snprintf(st->at, sizeof(st->at), "%s", json_string_value(json_object_get(n, "at")));
		if (json_is_string(json_object_get(n, "bsa_id")))
			snprintf(st->bsa_id, sizeof(st->bsa_id), "%s", json_string_value(json_object_get(n, "bsa_id")));
		if (json_is_string(json_object_get(n, "filed_on")))
			snprintf(st->filed_on, sizeof(st->filed_on), "%s", json_string_value(json_object_get(n, "filed_on")));
	}
	return count;
}

/* The gaming day + CTR_DUE_DAYS, the day a CTR of that day is due (31 CFR 1021.311: within 15 days). */
void
title31_due(const char *day, char out[11])
{
	int64_t d = 0;

	gaming_day_parse(day, &d);
	gaming_day_format(d + CTR_DUE_DAYS, out);
}

/* The CTR item's life: its status, who moved it last and when, its BSA id, filing date, due date, overdue. */
static int
annotate_ctr(struct pit *p, json_t *it, const char *day, const json_t *notes, struct pb_error *err)
{
	const char *player = json_string_value(json_object_get(it, "player"));
	const char *dir = json_string_value(json_object_get(it, "direction"));
	struct ctr_state st;
	char id[CTR_ID_MAX], due[11], today[11], now[PB_TIME_LEN];
	json_t *rec = NULL;

	title31_ctr_state(notes, player, dir, &st);
	title31_due(day, due);
	pb_time_now(now);
	title31_gaming_day(&p->cfg->property.calendar, now, today);
	snprintf(id, sizeof(id), "%s-%s-%s", day, player, dir);
	if (store_player_get(p->store, player, &rec, err) < 0)
		return -1;
	json_object_set_new(it, "id", json_string(id));
	json_object_set_new(it, "status", json_string(st.status));
	json_object_set_new(it, "status_by", st.by[0] ? json_string(st.by) : json_null());
	json_object_set_new(it, "status_at", st.at[0] ? json_string(st.at) : json_null());
	json_object_set_new(it, "bsa_id", st.bsa_id[0] ? json_string(st.bsa_id) : json_null());
	json_object_set_new(it, "filed_on", st.filed_on[0] ? json_string(st.filed_on) : json_null());
	json_object_set_new(it, "due", json_string(due));
	json_object_set_new(it, "overdue", json_boolean(strcmp(today, due) > 0 && (strcmp(st.status, "open") == 0 ||
	    strcmp(st.status, "identified") == 0)));
	json_object_set_new(it, "identified", json_boolean(rec != NULL && player_identified(rec)));
	json_decref(rec);
	if (json_object_get(it, "below_limit") == NULL)
		json_object_set_new(it, "below_limit", json_false());
	return 0;
}

/*
 * Each item of items (kind "alert", "ctr", or NULL for the MTL) gets its
 * first acknowledgment (null when none), its later notes and the patron's
 * name or description as his record stands now; a CTR item its life.
 */
static int
annotate(struct pit *p, json_t *items, const char *kind, const char *day, const json_t *acks, const json_t *notes,
    struct pb_error *err)
{
	size_t i, j;
	json_t *it, *patron;
	const json_t *n;

	json_array_foreach(items, i, it) {
		const char *player = counted_for(it), *dir = json_string_value(json_object_get(it, "direction"));
		if (kind != NULL) {
			json_t *found = json_null(), *list = json_array();
			json_array_foreach(acks, j, n)
				if (of_item(n, player, dir, kind))
					found = json_pack("{s:O,s:O,s:O}", "note", json_object_get(n, "note"), "by",
					    json_object_get(n, "by"), "at", json_object_get(n, "at"));
			json_array_foreach(notes, j, n)
				if (of_item(n, player, dir, kind))
					json_array_append(list, (json_t *)n);
			json_object_set_new(it, "acknowledged", found);
			json_object_set_new(it, "notes", list);
			if (strcmp(kind, "ctr") == 0 && annotate_ctr(p, it, day, notes, err) < 0)
				return -1;
		}
		if ((patron = patron_now(p, player, err)) == NULL)
			return -1;
		json_object_set_new(it, "patron", patron);
	}
	return 0;
}

/* Whether items holds the item of player's side. */
static bool
has_item(const json_t *items, const char *player, const char *dir)
{
	size_t i;
	const json_t *it;

	json_array_foreach(items, i, it)
		if (strcmp(json_string_value(json_object_get(it, "player")), player) == 0 &&
		    strcmp(json_string_value(json_object_get(it, "direction")), dir) == 0)
			return true;
	return false;
}

/*
 * A CTR item that was moved on (a status) but whose side is no longer over
 * the limit, after a void: kept in the list, "below_limit": true, so that
 * a filed CTR never silently disappears from the report.
 */
static void
keep_moved_items(json_t *agg, const json_t *notes)
{
	json_t *ctr = json_object_get(agg, "ctr"), *totals = json_object_get(agg, "totals");
	size_t i;
	const json_t *n;

	json_array_foreach(notes, i, n) {
		const char *player = json_string_value(json_object_get(n, "player"));
		const char *dir = json_string_value(json_object_get(n, "direction"));
		if (!json_is_string(json_object_get(n, "status")) || has_item(ctr, player, dir))
			continue;
		json_array_append_new(ctr, json_pack("{s:s,s:s,s:I,s:n,s:b}", "player", player, "direction", dir, "total",
		    json_integer_value(json_object_get(json_object_get(totals, player), strcmp(dir, "in") == 0 ? "cash_in" :
		    "cash_out")), "at", "below_limit", 1));
	}
}

int
title31_day(struct pit *p, const char *gaming_day, json_t **agg, json_t **acks, json_t **notes, struct pb_error *err)
{
	struct title31_limits lim;
	json_t *txns;
	int64_t day;

	*agg = NULL;
	if (gaming_day == NULL || gaming_day_parse(gaming_day, &day) < 0)
		return pb_fail(err, 400, "invalid_query", "gaming_day: a gaming day YYYY-MM-DD");
	if (store_txns_day(p->store, gaming_day, &txns, err) < 0)
		return -1;
	title31_limits_of(p, &lim);
	*agg = title31_aggregate(txns, &lim);
	json_decref(txns);
	if (store_t31_acks_day(p->store, gaming_day, acks, err) < 0 || store_t31_notes_day(p->store, gaming_day, notes, err) < 0) {
		json_decref(*agg);
		json_decref(*acks);
		*agg = *acks = NULL;
		return -1;
	}
	keep_moved_items(*agg, *notes);
	return 0;
}

/* The day's report whoever asks (the readers are checked by the callers). */
static int
title31_report_day(struct pit *p, const char *gaming_day, json_t **out, struct pb_error *err)
{
	json_t *agg, *acks = NULL, *notes = NULL;
	int rc = -1;

	if (title31_day(p, gaming_day, &agg, &acks, &notes, err) < 0)
		return -1;
	if (annotate(p, json_object_get(agg, "mtl"), NULL, gaming_day, acks, notes, err) < 0 ||
	    annotate(p, json_object_get(agg, "voids"), NULL, gaming_day, acks, notes, err) < 0 ||
	    annotate(p, json_object_get(agg, "ctr"), "ctr", gaming_day, acks, notes, err) < 0 ||
	    annotate(p, json_object_get(agg, "alerts"), "alert", gaming_day, acks, notes, err) < 0)
		goto out;
	json_object_set_new(agg, "gaming_day", json_string(gaming_day));
	json_object_set_new(agg, "limits", json_pack("{s:I,s:I,s:I}", "mtl_threshold", (json_int_t)p->cfg->title31.mtl_threshold,
	    "alert_at", (json_int_t)p->cfg->title31.alert_at, "ctr_over", (json_int_t)p->cfg->title31.ctr_over));
	*out = agg;
	agg = NULL;
	rc = 0;
out:
	json_decref(agg);
	json_decref(acks);
	json_decref(notes);
	return rc;
}

int
pit_title31_report(struct pit *p, const struct actor *a, const char *gaming_day, json_t **out, struct pb_error *err)
{
	if (need_reader(a, err) < 0)
		return -1;
	return title31_report_day(p, gaming_day, out, err);
}

int
title31_overdue_exceptions(struct pit *p, const char *from_day, const char *to_day, json_t *arr, struct pb_error *err)
{
	json_t *days, *rep;
	size_t i, j;
	const json_t *d;
	json_t *it;
	char now[PB_TIME_LEN], last[11];
	int64_t today = 0;

	/* only a gaming day whose CTRs were due before today can have one overdue: no later day is read */
	pb_time_now(now);
	title31_gaming_day(&p->cfg->property.calendar, now, last);
	gaming_day_parse(last, &today);
	gaming_day_format(today - CTR_DUE_DAYS - 1, last);
	if (strcmp(to_day, last) < 0)
		snprintf(last, sizeof(last), "%s", to_day);
	if (store_txn_days_between(p->store, from_day, last, &days, err) < 0)
		return -1;
	json_array_foreach(days, i, d) {
		if (title31_report_day(p, json_string_value(d), &rep, err) < 0) {
			json_decref(days);
			return -1;
		}
		json_array_foreach(json_object_get(rep, "ctr"), j, it) {
			char detail[400], total[MONEY_TEXT_LEN];
			if (!json_is_true(json_object_get(it, "overdue")))
				continue;
			money_text(json_integer_value(json_object_get(it, "total")), NULL, total);
			snprintf(detail, sizeof(detail), "the CTR of %s (cash %s %s, gaming day %s) was due %s and is %s",
			    json_string_value(json_object_get(it, "player")), json_string_value(json_object_get(it, "direction")),
			    total, json_string_value(d), json_string_value(json_object_get(it, "due")),
			    json_string_value(json_object_get(it, "status")));
			json_array_append_new(arr, json_pack("{s:O,s:n,s:n,s:s,s:s,s:O,s:O,s:O,s:O,s:O}", "at",
			    json_object_get(it, "at"), "table", "round", "kind", "ctr_overdue", "detail", detail, "ref",
			    json_object_get(it, "id"), "player", json_object_get(it, "player"), "gaming_day", d, "due",
			    json_object_get(it, "due"), "status", json_object_get(it, "status")));
		}
		json_decref(rep);
	}
	json_decref(days);
	return 0;
}

/* Whether the item (kind "alert" or "ctr") of player's side was acknowledged before. */
static bool
was_acked(const json_t *acks, const char *kind, const char *player, const char *dir)
{
	size_t i;
	const json_t *a;

	json_array_foreach(acks, i, a)
		if (of_item(a, player, dir, kind))
			return true;
	return false;
}

static int
do_ack(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	static const char *const KEYS[] = {"gaming_day", "player", "direction", "kind", "note", NULL};
	const json_t *body = arg;
	const char *day = json_string_value(json_object_get(body, "gaming_day"));
	const char *player = json_string_value(json_object_get(body, "player"));
	const char *dir = json_string_value(json_object_get(body, "direction"));
	const char *kind = json_string_value(json_object_get(body, "kind"));
	const char *note = json_string_value(json_object_get(body, "note"));
	char at[PB_TIME_LEN];
	json_t *agg, *acks, *notes;
	bool has, again;
	int rc;

	if ((a->roles & (ROLE_BIT(ROLE_CAGE) | ROLE_BIT(ROLE_PITBOSS))) == 0)
		return pb_fail(err, 403, "forbidden", "a Title 31 alert or CTR item is acknowledged by the cage or a pit boss");
	if (!json_is_object(body) || input_known_keys(body, "acknowledgment", KEYS, err) < 0)
		return json_is_object(body) ? -1 : pb_fail(err, 400, "invalid_body", "the body is a JSON object");
	if (player == NULL || dir == NULL || kind == NULL || note == NULL || (strcmp(dir, "in") != 0 && strcmp(dir, "out") != 0) ||
	    (strcmp(kind, "alert") != 0 && strcmp(kind, "ctr") != 0) || pb_text_blank(note, strlen(note)) ||
	    strlen(note) > TITLE31_NOTE_MAX)
		return pb_fail(err, 400, "invalid_body", "the body is {\"gaming_day\": \"YYYY-MM-DD\", \"player\", \"direction\": "
		    "\"in\"|\"out\", \"kind\": \"alert\"|\"ctr\", \"note\": 1 to 500 characters}");
	if (pb_text_check_controls("note", note, strlen(note), err) < 0 || title31_day(p, day, &agg, &acks, &notes, err) < 0)
		return -1;
	has = has_item(json_object_get(agg, strcmp(kind, "ctr") == 0 ? "ctr" : "alerts"), player, dir);
	again = was_acked(acks, kind, player, dir);
	json_decref(agg);
	json_decref(acks);
	json_decref(notes);
	if (!has)
		return pb_fail(err, 422, "no_such_item", "player %s has no %s for cash %s on gaming day %s (GET "
		    "/api/v1/reports/title31?gaming_day=%s)", player, kind, dir, day, day);
	pb_time_now(at);
	/* the first acknowledgment's row is players_title31_apply's, a later note's players_t31_note_apply's */
	rc = event_record(p->store, PLAYERS_CHAIN, &EVENT_TYPES[again ? EVT_TITLE31_NOTED : EVT_TITLE31_ACKNOWLEDGED], at,
	    a->name, body, err);
	if (rc < 0)
		return -1;
	*status = 201;
	*out = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:b}", "gaming_day", day, "player", player, "direction", dir, "kind", kind,
	    "note", note, "by", a->name, "at", at, "first", !again);
	return 0;
}

int
pit_title31_acknowledge(struct pit *p, const struct actor *a, const struct idempotency *idem, const json_t *body,
    json_t **out, int *status, struct pb_error *err)
{
	return pit_write(p, a, idem, do_ack, (void *)body, out, status, err);
}
