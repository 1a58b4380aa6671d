/*
 * accounting.c - the accounting documents as they are recorded live
 * (accounting.h): the signers, the body's checks, then in one write the
 * table's checks, the row and the table event (acct_events.c).
 */
#include "table/accounting/acct_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/money_text.h"
#include "common/text.h"
#include "config/table_money.h"
#include "store/store.h"
#include "table/people/people.h"

/* One document being recorded: what the request said, checked before the write. */
struct doc_call {
	const char *table_id;
	const json_t *body;
	char kind[ACCT_KIND_MAX];          /* the document's kind */
	char witness[PB_ID_MAX];
	char witnesses[ACCT_WITNESSES_JSON_MAX];
	struct acct_chips chips;
	char serial[PB_ID_MAX];            /* a fill's, a credit's, a void's */
	char reason[ACCT_REASON_MAX];
	char runner[PB_ID_MAX], requester[PB_ID_MAX];
	int64_t year;                      /* a void's, 0 for the current */
};

/*
 * The table (404 table_not_found), the session's role (403 forbidden, the
 * operation's message) and that the session is a person's (403
 * person_required): a document is signed by a person, never a terminal.
 */
static int
check_signer(struct pit *p, const struct actor *a, const char *table_id, enum pit_operation op, const char *what,
    struct pb_error *err)
{
	const struct table_config *t = config_table(p->cfg, table_id);

	if (t == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", table_id);
	if (authorize(a, op, t->id, err) < 0)
		return -1;
	if (!a->is_person)
		return pb_fail(err, 403, "person_required", "%s is signed by a person: sign in (POST /api/v1/sessions) and "
		    "send your session's token; a terminal's token signs no document", what);
	return 0;
}

/*
 * Free text of the body (a reason): absent is "" unless required (422
 * reason_required); else a string of 1..ACCT_REASON_MAX-1 bytes, not blank,
 * without control characters but newline.
 */
static int
read_text(const json_t *body, const char *key, const char *what, bool required, char *dst, struct pb_error *err)
{
	const json_t *v = json_object_get(body, key);

	dst[0] = '\0';
	if (v == NULL && !required)
		return 0;
	if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) >= ACCT_REASON_MAX ||
	    pb_text_blank(json_string_value(v), json_string_length(v)))
		return pb_fail(err, v == NULL ? 422 : 400, v == NULL ? "reason_required" : "invalid_body",
		    "%s: give the %s as a string of 1..%d bytes that is not blank", what, key, ACCT_REASON_MAX - 1);
	if (pb_text_check_controls(what, json_string_value(v), json_string_length(v), err) < 0)
		return -1;
	memcpy(dst, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

/* An id of the body (a serial, a box, a person): absent is "" unless required; else 1..32 of A-Z a-z 0-9 _ . - */
static int
read_id(const json_t *body, const char *key, const char *example, bool required, char dst[PB_ID_MAX],
    struct pb_error *err)
{
	const json_t *v = json_object_get(body, key);

	dst[0] = '\0';
	if ((v == NULL || json_is_null(v)) && !required)
		return 0;
	if (v == NULL)
		return pb_fail(err, 400, "invalid_body", "%s: required, e.g. \"%s\"", key, example);
	if (!json_is_string(v) || !pb_valid_id(json_string_value(v)))
		return pb_fail(err, 400, "invalid_body", "%s: 1..32 of A-Z a-z 0-9 _ . -, e.g. \"%s\"", key, example);
	snprintf(dst, PB_ID_MAX, "%s", json_string_value(v));
	return 0;
}

/* The body is an object of these keys only (400 invalid_body, unknown_field). */
static int
check_body(const json_t *body, const char *where, const char *const *keys, const char *shape, struct pb_error *err)
{
	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is %s", shape);
	return input_known_keys(body, where, keys, err);
}

/* A person named by a document (runner, requester) exists (422 unknown_person). */
static int
check_person(struct pit *p, const char *field, const char *id, struct pb_error *err)
{
	struct person who;
	bool found;

	if (id[0] == '\0')
		return 0;
	if (store_person_get(p->store, id, &who, &found, err) < 0)
		return -1;
	if (!found)
		return pb_fail(err, 422, "unknown_person", "%s: there is no person %s", field, id);
	return 0;
}

/* A new document of the call's table and kind, signed by a and the call's witness, dated now. */
static void
new_document(struct pit *p, const struct actor *a, const struct doc_call *c, struct acct_document *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->table_id, sizeof(d->table_id), "%s", c->table_id);
	snprintf(d->kind, sizeof(d->kind), "%s", c->kind);
	snprintf(d->signer, sizeof(d->signer), "%s", a->name);
	snprintf(d->witness, sizeof(d->witness), "%s", c->witness);
	snprintf(d->witnesses, sizeof(d->witnesses), "%s", c->witnesses);
	snprintf(d->reason, sizeof(d->reason), "%s", c->reason);
	acct_now(p->cfg, d);
}

/* The call's chips into d (total and text); 500 when out of memory. */
static int
set_chips(struct pit *p, const struct doc_call *c, struct acct_document *d, struct pb_error *err)
{
	json_t *o = acct_chips_json(p->cfg, &c->chips);
	char *text = o ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	int rc = 0;

	if (text == NULL || strlen(text) >= sizeof(d->chips_json))
		rc = pb_oom(err);
	else
		snprintf(d->chips_json, sizeof(d->chips_json), "%s", text);
	d->total = c->chips.total;
	free(text);
	json_decref(o);
	return rc;
}

/* Checks the signatures (before the write: a wrong password is counted), then records the document in one write. */
static int
sign_and_write(struct pit *p, const struct actor *a, const struct idempotency *idem, struct doc_call *c,
    unsigned witness_roles, const char *what, pit_write_fn fn, json_t **out, int *status, struct pb_error *err)
{
	struct acct_signed s;

	if (acct_sign(p, a, c->kind, c->body, witness_roles, what, &s, err) < 0)
		return -1;
	snprintf(c->witness, sizeof(c->witness), "%s", s.witness);
	snprintf(c->witnesses, sizeof(c->witnesses), "%s", s.witnesses);
	if (s.runner[0] != '\0')
		snprintf(c->runner, sizeof(c->runner), "%s", s.runner);
	return pit_write(p, a, idem, fn, c, out, status, err);
}

/* ---- opener and closer ---- */

/*
 * An opener against the table's last closer: the discrepancy is recorded;
 * a different count without a reason is refused (409 opener_discrepancy,
 * each denomination and the amount).
 */
static int
opener_against(struct pit *p, const struct doc_call *c, const struct acct_document *last, struct acct_document *d,
    struct pb_error *err)
{
	struct acct_chips was;
	char diff[600], amount[MONEY_TEXT_LEN];
	const char *currency = table_currency(p->cfg, c->table_id);
	json_t *v = json_loads(last->chips_json, 0, NULL);
	struct pb_error ignored;
	bool readable = v != NULL && acct_chips_read(v, p->cfg, "closer", &was, &ignored) == 0;

	json_decref(v);
	d->has_discrepancy = true;
	d->discrepancy = d->total - last->total;
	if (readable && acct_chips_equal(&c->chips, &was))
		return 0;
	if (c->reason[0] != '\0')
		return 0;
	if (readable)
		acct_chips_differences(p->cfg, currency, &c->chips, &was, diff, sizeof(diff));
	else
		snprintf(diff, sizeof(diff), "the closer counted %s", last->chips_json);
	money_text(d->discrepancy < 0 ? -d->discrepancy : d->discrepancy, currency, amount);
	if (d->discrepancy == 0)
		return pb_fail(err, 409, "opener_discrepancy", "the opener's chips differ from the table's last closer "
		    "(document %lld, gaming day %s) for the same total: %s; count again, or give a reason (\"reason\") to "
		    "record the discrepancy", (long long)last->id, last->gaming_day, diff);
	return pb_fail(err, 409, "opener_discrepancy", "the opener is %s %s the table's last closer (document %lld, "
	    "gaming day %s): %s; count again, or give a reason (\"reason\") to record the discrepancy", amount,
	    d->discrepancy < 0 ? "short of" : "over", (long long)last->id, last->gaming_day, diff);
}

static int
do_inventory(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	struct doc_call *c = arg;
	struct acct_document d, last;
	bool found = false;

	if (pit_check_hold(p, c->table_id, err) < 0)
		return -1;
	new_document(p, a, c, &d);
	if (set_chips(p, c, &d, err) < 0 || acct_session_check_document(p, &d, err) < 0)   /* acct_session.c */
		return -1;
	if (strcmp(c->kind, "opener") == 0 && store_acct_last(p->store, c->table_id, "closer", &last, &found, err) < 0)
		return -1;
	if (found && opener_against(p, c, &last, &d, err) < 0)
		return -1;
	if (store_acct_next_id(p->store, &d.id, err) < 0)
		return -1;
	*status = 201;
	return acct_record(p, a, &d, out, err);
}

int
pit_acct_inventory(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	static const char *const KEYS[] = {"kind", "chips", "reason", "witness", "witnesses", NULL};
	struct doc_call c = {.table_id = table_id, .body = body};
	const json_t *kind;
	const char *k;

	if (check_signer(p, a, table_id, OP_INVENTORY, "an opener or closer", err) < 0 ||
	    check_body(body, "inventory", KEYS, "{\"kind\": \"opener\" or \"closer\", \"chips\": {\"2500\": 40, ...}, "
	    "\"witness\": {\"person\", \"password\"}}", err) < 0)
		return -1;
	kind = json_object_get(body, "kind");
	k = json_is_string(kind) ? json_string_value(kind) : "";
	if (strcmp(k, "opener") != 0 && strcmp(k, "closer") != 0 && strcmp(k, "shift_change") != 0)
		return pb_fail(err, 400, "invalid_body", "kind: \"opener\" (the tray counted as the table opens), \"closer\" "
		    "(as it closes) or \"shift_change\" (at a change of shift, the table staying open)");
	snprintf(c.kind, sizeof(c.kind), "%s", k);
	if (acct_chips_read(json_object_get(body, "chips"), p->cfg, "chips", &c.chips, err) < 0 ||
	    read_text(body, "reason", "inventory", false, c.reason, err) < 0)
		return -1;
	return sign_and_write(p, a, idem, &c, ACCT_INVENTORY_WITNESS, "an opener or closer", do_inventory, out, status, err);
}

/* ---- fills and credits ---- */

static int
do_transfer(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	struct doc_call *c = arg;
	struct acct_document d, used;
	bool found;

	if (pit_check_hold(p, c->table_id, err) < 0 || check_person(p, "runner", c->runner, err) < 0 ||
	    check_person(p, "requester", c->requester, err) < 0)
		return -1;
	new_document(p, a, c, &d);
	if (set_chips(p, c, &d, err) < 0)
		return -1;
	snprintf(d.serial, sizeof(d.serial), "%s", c->serial);
	snprintf(d.runner, sizeof(d.runner), "%s", c->runner);
	snprintf(d.requester, sizeof(d.requester), "%s", c->requester);
	d.year = atoi(d.gaming_day);
	if (store_acct_by_serial(p->store, d.kind, d.year, d.serial, &used, &found, err) < 0)
		return -1;
	if (found)
		return pb_fail(err, 409, "duplicate_serial", "%s serial %s is used in %lld already (document %lld at table %s, "
		    "%s); a serial is unique in its year: check the slip", d.kind, d.serial, (long long)d.year,
		    (long long)used.id, used.table_id, used.gaming_day);
	if (store_acct_next_id(p->store, &d.id, err) < 0)
		return -1;
	*status = 201;
	return acct_record(p, a, &d, out, err);
}

int
pit_acct_transfer(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    bool credit, const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	static const char *const KEYS[] = {"serial", "chips", "runner", "requester", "witness", "witnesses", NULL};
	struct doc_call c = {.table_id = table_id, .body = body};
	const char *what = credit ? "a credit" : "a fill";

	snprintf(c.kind, sizeof(c.kind), "%s", credit ? "credit" : "fill");
	if (check_signer(p, a, table_id, OP_TRANSFER, what, err) < 0 ||
	    check_body(body, c.kind, KEYS, "{\"serial\": \"F-000123\", \"chips\": {\"2500\": 40, ...}, \"runner\"?, "
	    "\"requester\"?, \"witness\": {\"person\", \"password\"}}", err) < 0)
		return -1;
	if (read_id(body, "serial", credit ? "C-000123" : "F-000123", true, c.serial, err) < 0 ||
	    acct_chips_read(json_object_get(body, "chips"), p->cfg, "chips", &c.chips, err) < 0 ||
	    read_id(body, "runner", "E1027", false, c.runner, err) < 0 ||
	    read_id(body, "requester", "F2001", false, c.requester, err) < 0)
		return -1;
	if (c.chips.total == 0)
		return pb_fail(err, 400, "empty_chips", "chips: %s of no chips records nothing; count the chips it moves", what);
	return sign_and_write(p, a, idem, &c, ACCT_TRANSFER_WITNESS, what, do_transfer, out, status, err);
}

/* ---- voids of fills and credits ---- */

int
acct_record_follow_up(struct pit *p, const struct actor *a, struct acct_document *d, const char *slip, const char *serial,
    json_t **out, int *status, struct pb_error *err)
{
	struct acct_document orig, prior;
	bool found, voided;
	char void_kind[ACCT_KIND_MAX];

	snprintf(void_kind, sizeof(void_kind), "%s_void", slip);
	voided = strcmp(d->kind, void_kind) == 0;
	if (store_acct_by_serial(p->store, slip, d->year, serial, &orig, &found, err) < 0)
		return -1;
	if (!found || strcmp(orig.table_id, d->table_id) != 0)
		return pb_fail(err, 404, "document_not_found", "no %s with serial %s in %lld at table %s%s%s", slip, serial,
		    (long long)d->year, d->table_id, found ? "; it was recorded at table " : "", found ? orig.table_id : "");
	/* a receipt: the slip must not be voided */
	if (!voided && store_acct_by_serial(p->store, void_kind, d->year, serial, &prior, &found, err) < 0)
		return -1;
	if (!voided && found)
		return pb_fail(err, 409, "slip_voided", "%s %s of %lld was voided (document %lld, %s): a voided slip is not "
		    "received; the cage issues a new one", slip, serial, (long long)d->year, (long long)prior.id, prior.reason);
	if (store_acct_by_serial(p->store, d->kind, d->year, serial, &prior, &found, err) < 0)
		return -1;
	if (found)
		return pb_fail(err, 409, voided ? "already_voided" : "already_received", "%s %s of %lld was %s already "
		    "(document %lld, %s, by %s)", slip, serial, (long long)d->year, voided ? "voided" : "received",
		    (long long)prior.id, prior.at, prior.signer);
	snprintf(d->serial, sizeof(d->serial), "%s", serial);
	d->voids = orig.id;
	d->total = orig.total;
	if (store_acct_next_id(p->store, &d->id, err) < 0)
		return -1;
	*status = 201;
	return acct_record(p, a, d, out, err);
}

static int
do_void(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	struct doc_call *c = arg;
	struct acct_document d;

	if (pit_check_hold(p, c->table_id, err) < 0)
		return -1;
	new_document(p, a, c, &d);
	d.year = c->year ? c->year : atoi(d.gaming_day);
	return acct_record_follow_up(p, a, &d, strcmp(c->kind, "credit_void") == 0 ? "credit" : "fill", c->serial, out, status,
	    err);
}

int
pit_acct_void(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    bool credit, const char *serial, const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	static const char *const KEYS[] = {"reason", "year", "witness", "witnesses", NULL};
	struct doc_call c = {.table_id = table_id, .body = body};
	const json_t *year;
	const char *what = credit ? "voiding a credit" : "voiding a fill";

	snprintf(c.kind, sizeof(c.kind), "%s", credit ? "credit_void" : "fill_void");
	if (check_signer(p, a, table_id, OP_TRANSFER_VOID, what, err) < 0 ||
	    check_body(body, "void", KEYS, "{\"reason\": \"...\", \"witness\": {\"person\", \"password\"}}", err) < 0)
		return -1;
	if (!pb_valid_id(serial))
		return pb_fail(err, 404, "document_not_found", "\"%.40s\" is not a serial", serial);
	snprintf(c.serial, sizeof(c.serial), "%s", serial);
	year = json_object_get(body, "year");
	if (year != NULL && (!json_is_integer(year) || json_integer_value(year) < 1970 || json_integer_value(year) > 9999))
		return pb_fail(err, 400, "invalid_body", "year: the year of the serial, e.g. 2026 (default: the current gaming day's)");
	c.year = year ? json_integer_value(year) : 0;
	if (read_text(body, "reason", what, true, c.reason, err) < 0)
		return -1;
	return sign_and_write(p, a, idem, &c, ACCT_VOID_WITNESS, what, do_void, out, status, err);
}

int
acct_check_opener(struct pit *p, const char *table_id, struct pb_error *err)
{
	struct acct_document now;
	bool found;

	if (!p->cfg->accounting.require_opener)
		return 0;
	acct_now(p->cfg, &now);
	if (store_acct_has_opener(p->store, table_id, now.gaming_day, &found, err) < 0)
		return -1;
	if (!found)
		return pb_fail(err, 409, "opener_required", "table %s has no opener for gaming day %s: a floor supervisor or pit "
		    "boss counts the tray and records it first (POST /api/v1/tables/%s/inventory {\"kind\": \"opener\", ...})",
		    table_id, now.gaming_day, table_id);
	return 0;
}
