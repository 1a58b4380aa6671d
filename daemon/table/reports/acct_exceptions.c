/*
 * acct_exceptions.c - the accounting exceptions (accounting.h): an opener's
 * discrepancy against the last closer, with its level (NJ 13:69D-1.21(e):
 * reported, and for the regulator's copy), and a flagged count variance of
 * a gaming day (with what explains it and its investigation,
 * acct_variances.c); each acknowledged by a pit boss with a note (the table
 * event exception_acknowledged).  The serial exceptions are
 * acct_serial_exceptions.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gaming_day.h"
#include "common/text.h"
#include "config/table_money.h"
#include "store/accounting.h"
#include "store/store.h"
#include "table/accounting/accounting.h"
#include "table/reports/reports_private.h"
#include "table/rounds/rounds.h"

/* The most gaming days whose count variances one exceptions report computes (the latest ones of its range). */
#define VARIANCE_DAYS_MAX 93

/* {"by", "at", "note"} of the exception's acknowledgment, or null (new reference; NULL on failure). */
static json_t *
ack_json(struct pit *p, const char *table_id, const char *kind, const char *ref, struct pb_error *err)
{
	struct acct_ack ack;
	bool found;

	if (store_acct_ack_get(p->store, table_id, kind, ref, &ack, &found, err) < 0)
		return NULL;
	return found ? json_pack("{s:s,s:s,s:s}", "by", ack.by, "at", ack.at, "note", ack.note) : json_null();
}

/* The level of a discrepancy by the configured thresholds. */
static const char *
discrepancy_level(const struct accounting_config *ac, int64_t amount)
{
	int64_t x = amount < 0 ? -amount : amount;

	return x >= ac->discrepancy_regulator ? "regulator" : x >= ac->discrepancy_report ? "reported" : "recorded";
}

/* A discrepancy's level as its detail says it. */
static const char *
level_words(const char *level)
{
	return strcmp(level, "regulator") == 0 ? "for the regulator's copy" : strcmp(level, "reported") == 0 ? "reported" :
	    "recorded";
}

struct discrepancy_walk {
	struct pit *p;
	const struct actor *a;
	const struct report_query *q;
	json_t *arr;
};

/* One opener with a discrepancy into the list, when its table is in the report's scope (acct_document_fn). */
static int
add_discrepancy(void *ctx, const struct acct_document *d, struct pb_error *err)
{
	struct discrepancy_walk *w = ctx;
	const char *level = discrepancy_level(&w->p->cfg->accounting, d->discrepancy);
	char ref[24], detail[900], amount[MONEY_TEXT_LEN];
	json_t *ack, *o;

	if ((w->q->table[0] && strcmp(w->q->table, d->table_id) != 0) ||
	    (w->a->token != NULL && !token_allows_table(w->a->token, d->table_id)))
		return 0;
	snprintf(ref, sizeof(ref), "%lld", (long long)d->id);
	if ((ack = ack_json(w->p, d->table_id, "inventory_discrepancy", ref, err)) == NULL)
		return -1;
	snprintf(detail, sizeof(detail), "the opener of gaming day %s (document %lld) is %s %s the table's last closer (%s); "
	    "reason: %s", d->gaming_day, (long long)d->id, table_money(w->p->cfg, d->table_id, llabs(d->discrepancy), amount),
	    d->discrepancy < 0 ? "short of" : "over", level_words(level), d->reason);
	o = json_pack("{s:s,s:s,s:n,s:s,s:s,s:s,s:s,s:I,s:I,s:s,s:o}", "at", d->at, "table", d->table_id, "round",
	    "kind", "inventory_discrepancy", "detail", detail, "level", level, "ref", ref, "document", (json_int_t)d->id,
	    "amount", (json_int_t)d->discrepancy, "reason", d->reason, "acknowledged", ack);
	if (o == NULL)
		return pb_oom(err);
	json_array_append_new(w->arr, o);
	return 0;
}

/* The flagged count variances of one gaming day, per table with documents that day. */
static int
add_variances(struct pit *p, const struct actor *a, const struct report_query *q, int64_t day, json_t *arr,
    struct pb_error *err)
{
	char ref[ACCT_DAY_LEN], detail[400], win[MONEY_TEXT_LEN], hand[MONEY_TEXT_LEN], variance[MONEY_TEXT_LEN];
	int64_t from_s, to_s;
	json_t *mg, *row;
	size_t i;
	int rc = 0;

	if (acct_master_game(p, a, q->table[0] ? q->table : NULL, day, -1, true, &mg, err) < 0)
		return -1;
	gaming_day_format(day, ref);
	gaming_day_bounds(&p->cfg->property.calendar, day, &from_s, &to_s);
	json_array_foreach(json_object_get(mg, "tables"), i, row) {
		const char *table = json_string_value(json_object_get(row, "table"));
		json_t *ack, *o;
		if (!json_is_true(json_object_get(row, "flagged")))
			continue;
		if ((ack = ack_json(p, table, "count_variance", ref, err)) == NULL) {
			rc = -1;
			break;
		}
		snprintf(detail, sizeof(detail), "gaming day %s: the count win is %s and the hands' win %s, a variance of %s", ref,
		    table_money(p->cfg, table, json_integer_value(json_object_get(row, "win")), win),
		    table_money(p->cfg, table, json_integer_value(json_object_get(row, "hand_win")), hand),
		    table_money(p->cfg, table, json_integer_value(json_object_get(row, "variance")), variance));
		o = json_pack("{s:o,s:s,s:n,s:s,s:s,s:s,s:O,s:O,s:O,s:O,s:o}", "at", report_time_json(from_s * 1000),
		    "table", table, "round", "kind", "count_variance", "detail", detail, "ref", ref,
		    "variance", json_object_get(row, "variance"), "variance_percent", json_object_get(row, "variance_percent"),
		    "explained", json_object_get(row, "explained"), "investigation", json_object_get(row, "investigation"),
		    "acknowledged", ack);
		json_array_append_new(arr, o);
	}
	json_decref(mg);
	return rc;
}

int
acct_exceptions(struct pit *p, const struct actor *a, const struct report_query *q, json_t *arr, struct pb_error *err)
{
	struct discrepancy_walk w = {p, a, q, arr};
	char from[PB_TIME_LEN], to[PB_TIME_LEN];
	int64_t first, last;

	pb_time_format_ms(q->from_ms, from);
	pb_time_format_ms(q->to_ms, to);
	if (store_acct_discrepancies(p->store, from, to, add_discrepancy, &w, err) != 0 ||
	    acct_pending_slips(p, a, q, arr, err) < 0)
		return -1;
	/* the gaming days that start in [from, to) */
	report_days_in(p, q, VARIANCE_DAYS_MAX, &first, &last);
	for (int64_t day = first; day <= last; day++)
		if (add_variances(p, a, q, day, arr, err) < 0)
			return -1;
	return acct_serial_exceptions(p, a, q, arr, err);    /* serial control: acct_serial_exceptions.c */
}

/* Sorts by "at", the earlier position first among equals. */
struct at_item {
	const char *at;
	size_t pos;
	json_t *v;
};

static int
cmp_at(const void *x, const void *y)
{
	const struct at_item *a = x, *b = y;
	int c = strcmp(a->at, b->at);

	return c != 0 ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

int
acct_exceptions_merge(struct pit *p, const struct actor *a, const struct report_query *q, json_t *arr, bool *cut,
    struct pb_error *err)
{
	struct at_item *items;
	size_t n, i;
	json_t *v;

	*cut = false;
	if (acct_exceptions(p, a, q, arr, err) < 0)
		return -1;
	n = json_array_size(arr);
	if ((items = calloc(n + 1, sizeof(*items))) == NULL)
		return pb_oom(err);
	json_array_foreach(arr, i, v) {
		items[i].at = json_string_value(json_object_get(v, "at"));
		items[i].at = items[i].at ? items[i].at : "";
		items[i].pos = i;
		items[i].v = json_incref(v);
	}
	qsort(items, n, sizeof(*items), cmp_at);
	json_array_clear(arr);
	for (i = 0; i < n; i++) {
		if (i < (size_t)q->limit)
			json_array_append(arr, items[i].v);
		json_decref(items[i].v);
	}
	*cut = n > (size_t)q->limit;
	free(items);
	return 0;
}

/* ---- acknowledging ---- */

struct ack_call {
	char table[PB_ID_MAX];
	char kind[ACCT_ACK_KIND_MAX];
	char ref[ACCT_ACK_REF_MAX];
	struct acct_ack ack;
};

/* The ref of a discrepancy: an opener of the table whose count differed (404 exception_not_found). */
static int
check_discrepancy(struct pit *p, const struct ack_call *c, struct pb_error *err)
{
	struct acct_document d;
	char *end;
	long long id = strtoll(c->ref, &end, 10);
	bool found = false;

	if (*end == '\0' && id > 0 && store_acct_get(p->store, id, &d, &found, err) < 0)
		return -1;
	if (!found || strcmp(d.table_id, c->table) != 0 || strcmp(d.kind, "opener") != 0 || d.discrepancy == 0)
		return pb_fail(err, 404, "exception_not_found", "ref: \"%s\" is not an opener of table %s with a discrepancy; "
		    "give the opener's document id (the exceptions report's \"ref\")", c->ref, c->table);
	return 0;
}

/* The ref of a variance: "YYYY-MM-DD" or "YYYY-MM-DD/SHIFT" whose variance is flagged (404 exception_not_found). */
static int
check_variance(struct pit *p, const struct actor *a, const struct ack_call *c, struct pb_error *err)
{
	const struct gaming_calendar *cal = &p->cfg->property.calendar;
	char day_text[ACCT_DAY_LEN];
	const char *slash = strchr(c->ref, '/');
	int64_t day;
	int shift = -1;
	json_t *mg, *row;
	bool flagged;

	snprintf(day_text, sizeof(day_text), "%.*s", slash ? (int)(slash - c->ref) : (int)strlen(c->ref), c->ref);
	if ((slash != NULL && slash - c->ref != 10) || gaming_day_parse(day_text, &day) < 0)
		return pb_fail(err, 400, "invalid_body", "ref: a count variance is \"YYYY-MM-DD\" or \"YYYY-MM-DD/SHIFT\"");
	for (int i = 0; slash != NULL && i < cal->shift_count; i++)
		if (strcmp(cal->shifts[i].name, slash + 1) == 0)
			shift = i;
	if (slash != NULL && shift < 0)
		return pb_fail(err, 400, "invalid_body", "ref: \"%s\" is not a shift of the property", slash + 1);
	if (acct_master_game(p, a, c->table, day, shift, false, &mg, err) < 0)
		return -1;
	row = json_array_get(json_object_get(mg, "tables"), 0);
	flagged = json_is_true(json_object_get(row, "flagged"));
	json_decref(mg);
	if (!flagged)
		return pb_fail(err, 404, "exception_not_found", "table %s has no flagged count variance for %s", c->table, c->ref);
	return 0;
}

static int
do_acknowledge(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	struct ack_call *c = arg;
	json_t *body;
	int rc;

	if (pit_check_hold(p, c->table, err) < 0)
		return -1;
	pb_time_now(c->ack.at);
	snprintf(c->ack.by, sizeof(c->ack.by), "%s", a->name);
	if ((body = json_pack("{s:s,s:s,s:s}", "kind", c->kind, "ref", c->ref, "note", c->ack.note)) == NULL)
		return pb_oom(err);
	/* the acct_acknowledgments row is the event's apply's (acct_ack_apply; 409 already_acknowledged), as a restore's */
	rc = event_record(p->store, c->table, &EVENT_TYPES[EVT_EXCEPTION_ACKNOWLEDGED], c->ack.at, a->name, body, err);
	json_decref(body);
	if (rc < 0)
		return -1;
	*status = 201;
	*out = json_pack("{s:s,s:s,s:s,s:{s:s,s:s,s:s}}", "kind", c->kind, "table", c->table, "ref", c->ref,
	    "acknowledged", "by", c->ack.by, "at", c->ack.at, "note", c->ack.note);
	return *out ? 0 : pb_oom(err);
}

/* Reads {"kind", "table", "ref", "note"} into c (400 naming the field). */
static int
read_ack(const json_t *body, struct ack_call *c, struct pb_error *err)
{
	static const char *const KEYS[] = {"kind", "table", "ref", "note", NULL};
	const json_t *kind = json_object_get(body, "kind"), *table = json_object_get(body, "table"),
	    *ref = json_object_get(body, "ref"), *note = json_object_get(body, "note");

	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is {\"kind\", \"table\", \"ref\", \"note\"}");
	if (input_known_keys(body, "acknowledgment", KEYS, err) < 0)
		return -1;
	if (!json_is_string(kind) || (strcmp(json_string_value(kind), "inventory_discrepancy") != 0 &&
	    strcmp(json_string_value(kind), "count_variance") != 0 && strcmp(json_string_value(kind), "decision_knowledge") != 0))
		return pb_fail(err, 400, "invalid_body", "kind: \"inventory_discrepancy\", \"count_variance\" or "
		    "\"decision_knowledge\"");
	if (!json_is_string(table) || !pb_valid_id(json_string_value(table)))
		return pb_fail(err, 400, "invalid_body", "table: the table's id");
	if (json_is_integer(ref))
		snprintf(c->ref, sizeof(c->ref), "%lld", (long long)json_integer_value(ref));
	else if (json_is_string(ref) && json_string_length(ref) > 0 && json_string_length(ref) < ACCT_ACK_REF_MAX)
		snprintf(c->ref, sizeof(c->ref), "%s", json_string_value(ref));
	else
		return pb_fail(err, 400, "invalid_body", "ref: the exception's \"ref\" as the exceptions report shows it");
	if (!json_is_string(note) || json_string_length(note) == 0 || json_string_length(note) >= ACCT_REASON_MAX ||
	    pb_text_blank(json_string_value(note), json_string_length(note)))
		return pb_fail(err, 422, "note_required", "note: say what was found, 1..%d bytes, not blank", ACCT_REASON_MAX - 1);
	if (pb_text_check_controls("acknowledgment: note", json_string_value(note), json_string_length(note), err) < 0)
		return -1;
	snprintf(c->kind, sizeof(c->kind), "%s", json_string_value(kind));
	snprintf(c->table, sizeof(c->table), "%s", json_string_value(table));
	snprintf(c->ack.note, sizeof(c->ack.note), "%s", json_string_value(note));
	return 0;
}

int
pit_acct_acknowledge(struct pit *p, const struct actor *a, const struct idempotency *idem, const json_t *body,
    json_t **out, int *status, struct pb_error *err)
{
	struct ack_call c;

	memset(&c, 0, sizeof(c));
	if (authorize(a, OP_EXCEPTION_ACK, NULL, err) < 0 || read_ack(body, &c, err) < 0)
		return -1;
	if (config_table(p->cfg, c.table) == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", c.table);
	if (pit_check_table_access(a, c.table, true, err) < 0)
		return -1;
	if (strcmp(c.kind, "inventory_discrepancy") == 0 ? check_discrepancy(p, &c, err) < 0 :
	    strcmp(c.kind, "decision_knowledge") == 0 ? decision_exception_check(p, a, c.table, c.ref, err) < 0 :
	    check_variance(p, a, &c, err) < 0)
		return -1;
	return pit_write(p, a, idem, do_acknowledge, &c, out, status, err);
}
