/*
 * acct_drop.c - the drop as the count team counted it (accounting.h,
 * docs/accounting.md "The drop and the count"): its count sheet, its
 * signers (the count session and at least accounting.count_team_min - 1
 * witnesses of the count, all different people), its gaming day (by default
 * the last one that ended; an earlier one approved by a pit boss or admin)
 * and its box (counted once a gaming day, at one table).
 */
#include "table/accounting/acct_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/gaming_day.h"
#include "engine/limits.h"
#include "store/store.h"
#include "table/people/people.h"

/* accounting.count_team_min is at most 5: the session and PIT_WITNESSES_MAX witnesses (config/settings.c). */
_Static_assert(PIT_WITNESSES_MAX == 4, "accounting.count_team_min's maximum is the session and PIT_WITNESSES_MAX");

/* Who may approve a drop for a gaming day before the last that ended. */
#define DROP_APPROVAL_ROLES (ROLE_BIT(ROLE_PITBOSS) | ROLE_BIT(ROLE_ADMIN))

/* One drop being recorded: what the request said, checked before the write. */
struct drop_call {
	const char *table_id;
	char box[PB_ID_MAX];
	int64_t cash, chip_value, markers, collections;
	char count_json[ACCT_COUNT_JSON_MAX];   /* "" for a drop given as totals */
	char gaming_day[ACCT_DAY_LEN];          /* as given; "" for the last that ended */
	char shift[GAMING_SHIFT_NAME_MAX];
	char witnesses[PIT_WITNESSES_MAX][PB_ID_MAX];
	int witness_count;
	char approval[PB_ID_MAX];               /* the approver, checked; "" when none was given */
};

/* The current gaming day (*today) and the last that ended (*ended = *today - 1), of the property's calendar. */
static void
drop_days(const struct config *cfg, int64_t *today, int64_t *ended)
{
	struct acct_document now;

	acct_now(cfg, &now);
	gaming_day_parse(now.gaming_day, today);
	*ended = *today - 1;
}

/* ---- the body ---- */

/* Under accounting.signatures "basic", a drop given as totals, as before the count sheet: cash, chips?, markers?. */
static int
read_totals(const json_t *body, struct drop_call *c, struct pb_error *err)
{
	const json_t *v;

	if (input_amount(json_object_get(body, "cash"), "cash", &c->cash, err) < 0 ||
	    ((v = json_object_get(body, "chips")) != NULL && input_amount(v, "chips", &c->chip_value, err) < 0) ||
	    ((v = json_object_get(body, "markers")) != NULL && input_amount(v, "markers", &c->markers, err) < 0))
		return -1;
	if (c->cash + c->chip_value + c->markers > PB_MONEY_MAX)
		return pb_fail(err, 400, "total_overflow", "cash + chips + markers: the total is over the largest "
		    "amount pitboss records; count again");
	return 0;
}

/*
 * The count sheet into c: the drop's parts computed from it.  Without one,
 * 422 count_required, but under accounting.signatures "basic" (the rules
 * before) the totals as they were given then.
 */
static int
read_amounts(struct pit *p, const json_t *body, struct drop_call *c, struct pb_error *err)
{
	const json_t *count = json_object_get(body, "count");
	struct acct_count_sheet sheet;

	if (count == NULL && p->cfg->accounting.signatures == ACCT_SIGNATURES_BASIC)
		return read_totals(body, c, err);
	if (count == NULL)
		return pb_fail(err, 422, "count_required", "count: the drop is counted by denomination, {\"cash\": {\"10000\": "
		    "12, ...}, \"chips\": {\"2500\": 4, ...}, \"markers\": CENTS}; totals alone are not a count sheet");
	if (json_object_get(body, "cash") != NULL || json_object_get(body, "chips") != NULL ||
	    json_object_get(body, "markers") != NULL)
		return pb_fail(err, 400, "invalid_body", "cash, chips, markers: give the count sheet (\"count\") alone; its "
		    "totals are computed from it");
	if (acct_count_sheet_read(count, p->cfg, &sheet, err) < 0)
		return -1;
	c->cash = sheet.cash;
	c->chip_value = sheet.chip_value;
	c->markers = sheet.markers;
	snprintf(c->count_json, sizeof(c->count_json), "%s", sheet.json);
	return 0;
}

/* The drop's optional gaming day and shift (one of the property's). */
static int
read_when(const struct config *cfg, const json_t *body, struct drop_call *c, struct pb_error *err)
{
	const struct gaming_calendar *cal = &cfg->property.calendar;
	const json_t *day = json_object_get(body, "gaming_day"), *shift = json_object_get(body, "shift");
	char names[GAMING_SHIFTS_MAX * (GAMING_SHIFT_NAME_MAX + 2)] = "";
	int64_t n;

	if (day != NULL && (!json_is_string(day) || gaming_day_parse(json_string_value(day), &n) < 0))
		return pb_fail(err, 400, "invalid_body", "gaming_day: the gaming day counted, \"YYYY-MM-DD\" (default: the last "
		    "one that ended)");
	if (day != NULL)
		snprintf(c->gaming_day, sizeof(c->gaming_day), "%s", json_string_value(day));
	if (shift == NULL)
		return 0;
	for (int i = 0; json_is_string(shift) && i < cal->shift_count; i++)
		if (strcmp(cal->shifts[i].name, json_string_value(shift)) == 0) {
			snprintf(c->shift, sizeof(c->shift), "%s", cal->shifts[i].name);
			return 0;
		}
	for (int i = 0; i < cal->shift_count; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s\"%s\"", i ? ", " : "", cal->shifts[i].name);
	return pb_fail(err, 400, "invalid_body", "shift: %s%s", cal->shift_count ? "one of the property's shifts: " :
	    "the property has no shifts; leave it out", names);
}

/*
 * The day the drop is for, against the current one: 422 invalid_gaming_day
 * for one not begun; *back_dated for one before the last that ended.
 */
static int
check_day(const struct config *cfg, const char *given, char day_text[ACCT_DAY_LEN], bool *back_dated,
    struct pb_error *err)
{
	int64_t today, ended, day;
	char today_text[ACCT_DAY_LEN];

	drop_days(cfg, &today, &ended);
	gaming_day_format(today, today_text);
	day = ended;
	if (given[0] != '\0')
		gaming_day_parse(given, &day);
	if (day > today)
		return pb_fail(err, 422, "invalid_gaming_day", "gaming_day: %s has not begun (the current gaming day is %s)",
		    given, today_text);
	gaming_day_format(day, day_text);
	*back_dated = day < ended;
	return 0;
}

/* ---- the signers ---- */

/* The person a signature {"person", "password"} names, or "" (pit_witnesses_check refuses it as it is). */
static const char *
signature_person(const json_t *sig)
{
	const char *id = json_string_value(json_object_get(sig, "person"));

	return id ? id : "";
}

/*
 * Before any password is checked: the count team's signatures given (the
 * "witnesses" list, or one "witness"; a malformed body is left to
 * pit_witnesses_check, which refuses it), enough of them (403
 * witness_required naming how many more), and an approver who is none of the
 * count team (403 witness_same_person).  *given: how many.
 */
static int
count_signers(const struct pit *p, const json_t *body, const json_t *approval, int *given, struct pb_error *err)
{
	const json_t *list = json_object_get(body, "witnesses"), *one = json_object_get(body, "witness"), *w;
	int need = p->cfg->accounting.count_team_min;
	const char *approver = approval ? signature_person(approval) : "";
	size_t i;

	*given = json_is_array(list) ? (int)json_array_size(list) : one != NULL ? 1 : 0;
	if ((list != NULL && !json_is_array(list)) || (list != NULL && one != NULL))
		return 0;
	if (1 + *given < need)
		return pb_fail(err, 403, "witness_required", "the drop is signed by at least %d of the count team, all different "
		    "people: your session and %d witnesses of the count in \"witnesses\": [{\"person\", \"password\"}, ...]; "
		    "%d more needed", need, need - 1, need - 1 - *given);
	json_array_foreach(list, i, w)
		if (approver[0] != '\0' && strcasecmp(signature_person(w), approver) == 0)
			return pb_fail(err, 403, "witness_same_person", "approval: %s signs the count; the approval is another "
			    "person's", approver);
	if (one != NULL && approver[0] != '\0' && strcasecmp(signature_person(one), approver) == 0)
		return pb_fail(err, 403, "witness_same_person", "approval: %s signs the count; the approval is another person's",
		    approver);
	return 0;
}

/* The approval's signature, {"person", "password"}, checked as a witness's of a pit boss or admin. */
static int
check_approval(struct pit *p, const struct actor *a, const json_t *approval, char id[PB_ID_MAX], struct pb_error *err)
{
	json_t *one = json_pack("{s:O}", "witness", (json_t *)approval);
	int rc;

	if (one == NULL)
		return pb_oom(err);
	rc = pit_witness_check(p, a, one, DROP_APPROVAL_ROLES, "approving a back-dated drop", id, err);
	json_decref(one);
	return rc;
}

/*
 * The count team's signatures (count_signers, then every one checked as at
 * a sign-in by pit_witnesses_check: a wrong password is counted) and, for a
 * back-dated drop, the approval of a pit boss or admin who is none of them
 * (403 approval_required without one; an approval of a drop that needs none
 * is refused, 400).
 */
static int
check_signatures(struct pit *p, const struct actor *a, const json_t *body, bool back_dated, const char *day,
    struct drop_call *c, struct pb_error *err)
{
	const json_t *approval = json_object_get(body, "approval");
	struct witness_need needs[PIT_WITNESSES_MAX];
	struct witness_signed team[PIT_WITNESSES_MAX];
	int64_t today, ended;
	char ended_text[ACCT_DAY_LEN];
	int given;

	drop_days(p->cfg, &today, &ended);
	gaming_day_format(ended, ended_text);
	if (approval != NULL && !back_dated)
		return pb_fail(err, 400, "invalid_body", "approval: the drop of %s needs none (only one for a gaming day before "
		    "%s, the last that ended, does); leave it out", day, ended_text);
	if (approval == NULL && back_dated)
		return pb_fail(err, 403, "approval_required", "the drop of %s is back-dated: %s is the last gaming day that "
		    "ended; a pit boss or admin approves it, \"approval\": {\"person\", \"password\"}", day, ended_text);
	if (count_signers(p, body, approval, &given, err) < 0)
		return -1;
	given = given < 1 ? 1 : given > PIT_WITNESSES_MAX ? PIT_WITNESSES_MAX : given;   /* else refused as it is */
	for (int i = 0; i < given; i++)
		needs[i] = (struct witness_need){ROLE_BIT(ROLE_COUNT), "a member of the count team"};
	if (pit_witnesses_check(p, a, body, needs, given, 0, "the drop", team, err) < 0)
		return -1;
	for (int i = 0; i < given; i++)
		snprintf(c->witnesses[i], sizeof(c->witnesses[i]), "%s", team[i].id);
	c->witness_count = given;
	if (approval != NULL && check_approval(p, a, approval, c->approval, err) < 0)
		return -1;
	return 0;
}

/* ---- the write ---- */

/* The witnesses' ids as the document keeps them, as every document's since schema 021: a JSON array. */
static int
witnesses_text(const struct drop_call *c, struct acct_document *d, struct pb_error *err)
{
	json_t *arr = json_array();
	char *text;
	int rc = 0;

	for (int i = 0; arr != NULL && i < c->witness_count; i++)
		json_array_append_new(arr, json_string(c->witnesses[i]));
	text = arr != NULL ? json_dumps(arr, JSON_COMPACT) : NULL;
	if (text == NULL || strlen(text) >= sizeof(d->witnesses))
		rc = pb_oom(err);
	else
		snprintf(d->witnesses, sizeof(d->witnesses), "%s", text);
	free(text);
	json_decref(arr);
	return rc;
}

/* The box not counted yet for the day, at any table (409 duplicate_box naming where it was). */
static int
check_box(struct pit *p, const struct acct_document *d, struct pb_error *err)
{
	struct acct_document used;
	bool found;

	if (store_acct_drop_box(p->store, d->gaming_day, d->serial, &used, &found, err) < 0)
		return -1;
	if (!found)
		return 0;
	return pb_fail(err, 409, "duplicate_box", "box %s was counted for gaming day %s already, at table %s (document %lld, "
	    "%s, by %s); a box is counted once a gaming day: check the box's id", d->serial, d->gaming_day, used.table_id,
	    (long long)used.id, used.at, used.signer);
}

static int
do_drop(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	struct drop_call *c = arg;
	struct acct_document d;
	bool back_dated = false;

	if (pit_check_hold(p, c->table_id, err) < 0)
		return -1;
	memset(&d, 0, sizeof(d));
	snprintf(d.table_id, sizeof(d.table_id), "%s", c->table_id);
	snprintf(d.kind, sizeof(d.kind), "drop");
	snprintf(d.signer, sizeof(d.signer), "%s", a->name);
	snprintf(d.witness, sizeof(d.witness), "%s", c->witnesses[0]);
	acct_now(p->cfg, &d);
	/* the day again, in the write: the gaming day may have turned since the signatures were checked */
	if (check_day(p->cfg, c->gaming_day, d.gaming_day, &back_dated, err) < 0)
		return -1;
	if (back_dated && c->approval[0] == '\0')
		return pb_fail(err, 403, "approval_required", "the drop of %s is back-dated since the gaming day turned; send it "
		    "again with \"approval\": {\"person\", \"password\"} of a pit boss or admin", d.gaming_day);
	snprintf(d.shift, sizeof(d.shift), "%s", c->shift);
	snprintf(d.serial, sizeof(d.serial), "%s", c->box);
	snprintf(d.count_json, sizeof(d.count_json), "%s", c->count_json);
	snprintf(d.approval, sizeof(d.approval), "%s", c->approval);
	d.cash = c->cash;
	d.chip_value = c->chip_value;
	d.markers = c->markers;
	d.collections = c->collections;
	d.total = c->cash + c->chip_value + c->markers;
	if (witnesses_text(c, &d, err) < 0 || check_box(p, &d, err) < 0 || store_acct_next_id(p->store, &d.id, err) < 0)
		return -1;
	*status = 201;
	return acct_record(p, a, &d, out, err);
}

/* The table (404), the session's role (403 forbidden) and a person's session (403 person_required). */
static int
check_session(struct pit *p, const struct actor *a, const char *table_id, struct pb_error *err)
{
	const struct table_config *t = config_table(p->cfg, table_id);

	if (t == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", table_id);
	if (authorize(a, OP_DROP, t->id, err) < 0)
		return -1;
	if (!a->is_person)
		return pb_fail(err, 403, "person_required", "the drop is signed by a person: sign in (POST /api/v1/sessions) and "
		    "send your session's token; a terminal's token signs no document");
	return 0;
}

int
pit_acct_drop(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	static const char *const KEYS[] = {"box", "count", "cash", "chips", "markers", "collections", "gaming_day", "shift",
		"witness", "witnesses", "approval", NULL};
	struct drop_call c;
	const struct table_config *t;
	const json_t *box, *v;
	char day[ACCT_DAY_LEN];
	bool back_dated = false;

	memset(&c, 0, sizeof(c));
	c.table_id = table_id;
	if (check_session(p, a, table_id, err) < 0)
		return -1;
	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is {\"box\": \"D-17\", \"count\": {\"cash\": {\"10000\": 12}, "
		    "\"chips\": {}, \"markers\": 0}, \"witnesses\": [{\"person\", \"password\"}, ...]}");
	if (input_known_keys(body, "drop", KEYS, err) < 0)
		return -1;
	t = config_table(p->cfg, table_id);
	box = json_object_get(body, "box");
	if (!json_is_string(box) || !pb_valid_id(json_string_value(box)))
		return pb_fail(err, 400, "invalid_body", "box: the drop box's id, 1..32 of A-Z a-z 0-9 _ . -, e.g. \"D-17\"");
	snprintf(c.box, sizeof(c.box), "%s", json_string_value(box));
	if (read_amounts(p, body, &c, err) < 0)
		return -1;
	v = json_object_get(body, "collections");
	if (v != NULL && !t->player_banked)
		return pb_fail(err, 400, "invalid_body", "collections: table %s is house-banked; its drop has no collection fees", t->id);
	if (v != NULL && input_amount(v, "collections", &c.collections, err) < 0)
		return -1;
	if (read_when(p->cfg, body, &c, err) < 0 || check_day(p->cfg, c.gaming_day, day, &back_dated, err) < 0 ||
	    check_signatures(p, a, body, back_dated, day, &c, err) < 0)
		return -1;
	return pit_write(p, a, idem, do_drop, &c, out, status, err);
}
