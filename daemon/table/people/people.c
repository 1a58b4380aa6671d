/*
 * people.c - employees and their passwords (people.h).  Argon2id takes a
 * tenth of a second and 64 MiB on purpose: a password is hashed or
 * verified on the caller's thread, before pit_write, never inside the
 * write group where it would hold up every other write.
 */
#include "table/people/people_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ids.h"
#include "common/password.h"
#include "common/text.h"
#include "common/timeutil.h"
#include "store/audit.h"
#include "store/store.h"

json_t *
roles_json(unsigned roles)
{
	json_t *arr = json_array();

	for (int r = 0; arr != NULL && r < ROLE_KINDS; r++)
		if (roles & ROLE_BIT(r))
			json_array_append_new(arr, json_string(role_name((enum role)r)));
	return arr;
}

json_t *
person_json(const struct person *who)
{
	return json_pack("{s:s,s:s,s:o,s:b,s:b,s:b,s:s,s:s}", "id", who->id, "name", who->name, "roles",
	    roles_json(who->roles), "active", who->active, "must_change_password", who->must_change, "locked_out",
	    who->locked_until_ms > pb_time_now_ms(), "created_at", who->created_at, "updated_at", who->updated_at);
}

/* Refuses any key of body not in names (NULL-terminated): 400 unknown_field naming it and what the body takes. */
static int
only_fields(const json_t *body, const char *what, const char *const *names, const char *takes, struct pb_error *err)
{
	const char *k;
	const json_t *v;

	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "%s: the body is a JSON object", what);
	json_object_foreach((json_t *)body, k, v) {
		bool known = false;
		for (const char *const *n = names; *n != NULL && !known; n++)
			known = strcmp(k, *n) == 0;
		if (!known)
			return pb_fail(err, 400, "unknown_field", "%s: unknown field \"%.40s\"; it takes %s", what, k, takes);
	}
	return 0;
}

/* "roles": a non-empty array of role names, none twice. */
static int
read_roles(const json_t *v, unsigned *roles, struct pb_error *err)
{
	const json_t *e;
	size_t i;

	*roles = 0;
	if (!json_is_array(v) || json_array_size(v) == 0)
		return pb_fail(err, 400, "invalid_roles", "roles: a non-empty array of role names (dealer, floor, pitboss, "
		    "cage, count, security, surveillance, auditor, admin)");
	json_array_foreach(v, i, e) {
		int r = json_is_string(e) ? role_from_name(json_string_value(e)) : -1;
		if (r < 0)
			return pb_fail(err, 400, "invalid_roles", "roles[%zu]: not a role; roles are dealer, floor, pitboss, "
			    "cage, count, security, surveillance, auditor, admin", i);
		if (*roles & ROLE_BIT(r))
			return pb_fail(err, 400, "invalid_roles", "roles: %s is named twice", role_name((enum role)r));
		*roles |= ROLE_BIT(r);
	}
	return 0;
}

/* "name": 1..PERSON_NAME_MAX - 1 bytes that say something, on one line. */
static int
read_name(const json_t *v, char out[PERSON_NAME_MAX], struct pb_error *err)
{
	const char *s = json_string_value(v);
	size_t n = s ? json_string_length(v) : 0;

	if (s == NULL || n == 0 || n >= PERSON_NAME_MAX || pb_text_blank(s, n))
		return pb_fail(err, 400, "invalid_name", "name: the person's name, 1 to %d characters", PERSON_NAME_MAX - 1);
	if (memchr(s, '\n', n) != NULL)
		return pb_fail(err, 400, "invalid_name", "name: one line");
	if (pb_text_check_controls("name", s, n, err) < 0)
		return -1;
	memcpy(out, s, n + 1);
	return 0;
}

/* A password field: a string (its policy is checked apart). */
static const char *
read_password(const json_t *body, const char *field, struct pb_error *err)
{
	const json_t *v = json_object_get(body, field);

	if (!json_is_string(v) || strlen(json_string_value(v)) != json_string_length(v)) {
		pb_fail(err, 400, "invalid_password", "%s: the password as a string", field);
		return NULL;
	}
	return json_string_value(v);
}

/* ---- reads ---- */

int
pit_people_list(struct pit *p, const struct actor *a, json_t **out, struct pb_error *err)
{
	struct person *all;
	size_t n;
	json_t *arr;

	*out = NULL;
	if (authorize(a, OP_PEOPLE_READ, NULL, err) < 0 || store_people_list(p->store, &all, &n, err) < 0)
		return -1;
	arr = json_array();
	for (size_t i = 0; arr != NULL && i < n; i++)
		json_array_append_new(arr, person_json(&all[i]));
	free(all);
	*out = json_pack("{s:o}", "people", arr);
	return *out ? 0 : pb_oom(err);
}

int
pit_person_get(struct pit *p, const struct actor *a, const char *id, json_t **out, struct pb_error *err)
{
	struct person who;
	bool found;

	*out = NULL;
	if (authorize(a, OP_PEOPLE_READ, NULL, err) < 0 || store_person_get(p->store, id, &who, &found, err) < 0)
		return -1;
	if (!found)
		return pb_fail(err, 404, "person_not_found", "no person has the id %.40s", id);
	*out = person_json(&who);
	return 0;
}

/* ---- adding ---- */

/* Records an event of people (no table) with the actor as its source; takes detail. */
static int
people_event(struct pit *p, const struct actor *a, const char *code, json_t *detail, struct pb_error *err)
{
	int rc = detail ? store_significant(p->store, a->name, code, NULL, detail, err)
	    : pb_oom(err);

	json_decref(detail);
	return rc;
}

/*
 * Adds the person, inside the write transaction: an id taken without regard
 * to case ("fl1" beside "FL1") is refused here, where two adds cannot both
 * pass the check.
 */
static int
do_add(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	struct person *who = arg, old;
	bool found;

	if (store_person_get_nocase(p->store, who->id, &old, &found, err) < 0)
		return -1;
	if (found && strcmp(old.id, who->id) == 0)
		return pb_fail(err, 409, "person_exists", "a person has the id %s already (%s); people are never deleted, "
		    "only deactivated", who->id, old.name);
	if (found)
		return pb_fail(err, 409, "person_exists", "the id %s is taken: %s (%s) differs from it only in case, and ids "
		    "are the same without regard to case", who->id, old.id, old.name);
	pb_time_now(who->created_at);
	snprintf(who->updated_at, sizeof(who->updated_at), "%s", who->created_at);
	if (store_person_add(p->store, who, err) < 0 ||
	    people_event(p, a, "person_added", json_pack("{s:s,s:s,s:o,s:b}", "person", who->id, "name", who->name,
	    "roles", roles_json(who->roles), "one_time_password", who->password_hash[0] != '\0'), err) < 0)
		return -1;
	*out = person_json(who);
	*status = 201;
	return 0;
}

int
pit_person_add(struct pit *p, const struct actor *a, const struct idempotency *idem, const json_t *body,
    json_t **out, int *status, struct pb_error *err)
{
	static const char *const FIELDS[] = {"id", "name", "roles", "password", NULL};
	struct person who = {.active = true, .must_change = true};
	const json_t *idv = json_object_get(body, "id");
	const char *id = json_string_value(idv), *password = NULL;

	*out = NULL;
	if (authorize(a, OP_PEOPLE_CHANGE, NULL, err) < 0 ||
	    only_fields(body, "people", FIELDS, "id, name, roles and password", err) < 0)
		return -1;
	if (id == NULL || strlen(id) != json_string_length(idv) || !pb_valid_person_id(id))
		return pb_fail(err, 400, "invalid_id", "id: " PB_PERSON_ID_RULE ", e.g. \"E1027\"");
	snprintf(who.id, sizeof(who.id), "%s", id);
	if (read_name(json_object_get(body, "name"), who.name, err) < 0 ||
	    read_roles(json_object_get(body, "roles"), &who.roles, err) < 0)
		return -1;
	if (json_object_get(body, "password") != NULL) {
		if ((password = read_password(body, "password", err)) == NULL ||
		    password_policy(password, who.id, who.name, err) < 0 || password_hash(password, who.password_hash, err) < 0)
			return -1;
	}
	return pit_write(p, a, idem, do_add, &who, out, status, err);
}

/* ---- changing ---- */

struct change {
	const char *id;
	const json_t *body;
};

/* The changes of body applied to who (kept in was); 400 for a wrong field, 409 for an admin's change of themselves. */
static int
apply_change(const struct actor *a, const json_t *body, struct person *who, struct pb_error *err)
{
	const json_t *name = json_object_get(body, "name"), *roles = json_object_get(body, "roles");
	const json_t *active = json_object_get(body, "active");

	if (name != NULL && read_name(name, who->name, err) < 0)
		return -1;
	if (roles != NULL && read_roles(roles, &who->roles, err) < 0)
		return -1;
	if (active != NULL && !json_is_boolean(active))
		return pb_fail(err, 400, "invalid_active", "active: true or false (false deactivates: the person can no "
		    "longer sign in and their sessions end)");
	if (active != NULL)
		who->active = json_is_true(active);
	if (a->is_person && strcmp(a->name, who->id) == 0 && (!who->active || (who->roles & ROLE_BIT(ROLE_ADMIN)) == 0))
		return pb_fail(err, 409, "cannot_change_self", "an admin can neither deactivate themselves nor give up "
		    "their own admin role; another admin can");
	return 0;
}

/* {"name", "roles", "active"} of a person, for the was and set of person_changed. */
static json_t *
person_fields(const struct person *who)
{
	return json_pack("{s:s,s:o,s:b}", "name", who->name, "roles", roles_json(who->roles), "active", who->active);
}

/*
 * A person disabled deals nowhere any more: every table where they are the
 * dealer gets no dealer, recorded as at PUT /tables/{t}/dealer {"person":
 * null}: dealer_changed in its chain, whose apply sets the state and
 * appends the history row, in the caller's transaction.  The ids of those
 * tables are appended to left.
 */
static int
dealer_leave_tables(struct pit *p, const struct actor *a, const char *person, const char *at, json_t *left,
    struct pb_error *err)
{
	char tables[64][PB_ID_MAX];
	json_t *body;
	int n, rc = 0;

	if (store_tables_dealt_by(p->store, person, tables, 64, &n, err) < 0)
		return -1;
	if ((body = json_pack("{s:n,s:n}", "person", "name")) == NULL)
		return pb_oom(err);
	for (int i = 0; rc == 0 && i < n; i++) {
		const char *table = tables[i];
		rc = event_record(p->store, table, &EVENT_TYPES[EVT_DEALER_CHANGED], at, a->name, body, err);
		if (rc == 0)
			json_array_append_new(left, json_string(table));
	}
	json_decref(body);
	return rc;
}

static int
do_change(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const struct change *c = arg;
	struct person was, who;
	bool found;
	int ended = 0;
	char at[PB_TIME_LEN];
	json_t *left;

	if (store_person_get(p->store, c->id, &was, &found, err) < 0)
		return -1;
	if (!found)
		return pb_fail(err, 404, "person_not_found", "no person has the id %.40s", c->id);
	who = was;
	if (apply_change(a, c->body, &who, err) < 0)
		return -1;
	pb_time_now(at);
	if (store_person_update(p->store, who.id, who.name, who.roles, who.active, at, err) < 0)
		return -1;
	if (!who.active && store_sessions_end_person(p->store, who.id, NULL, pb_time_now_ms(), &ended, err) < 0)
		return -1;
	left = json_array();
	if (!who.active && was.active && dealer_leave_tables(p, a, who.id, at, left, err) < 0) {
		json_decref(left);
		return -1;
	}
	if (people_event(p, a, "person_changed", json_pack("{s:s,s:o,s:o,s:i,s:o}", "person", who.id, "was",
	    person_fields(&was), "set", person_fields(&who), "sessions_ended", ended, "tables_left", left), err) < 0)
		return -1;
	snprintf(who.updated_at, sizeof(who.updated_at), "%s", at);
	*out = person_json(&who);
	*status = 200;
	return 0;
}

int
pit_person_change(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *id,
    const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	static const char *const FIELDS[] = {"name", "roles", "active", NULL};
	struct change c = {id, body};

	*out = NULL;
	if (authorize(a, OP_PEOPLE_CHANGE, NULL, err) < 0 ||
	    only_fields(body, "people", FIELDS, "name, roles and active", err) < 0)
		return -1;
	if (json_object_size(body) == 0)
		return pb_fail(err, 400, "invalid_body", "people: send at least one of name, roles and active");
	return pit_write(p, a, idem, do_change, &c, out, status, err);
}

/* ---- passwords ---- */

struct password_set {
	const char *id;
	char hash[PASSWORD_HASH_MAX];
	bool one_time;
	const char *keep_sha256;           /* the session that changed its own password: it stays open */
};

static int
do_password(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const struct password_set *ps = arg;
	struct person who;
	bool found;
	int ended = 0;
	char at[PB_TIME_LEN];

	pb_time_now(at);
	if (store_person_password(p->store, ps->id, ps->hash, ps->one_time, at, err) < 0)
		return -1;
	/* Every other session ends: a one-time password set by an admin ends them all, one's own change all but this one. */
	if (store_sessions_end_person(p->store, ps->id, ps->one_time ? NULL : ps->keep_sha256, pb_time_now_ms(), &ended,
	    err) < 0)
		return -1;
	if (people_event(p, a, "password_set", json_pack("{s:s,s:b,s:i}", "person", ps->id, "one_time", ps->one_time,
	    "sessions_ended", ended), err) < 0 || store_person_get(p->store, ps->id, &who, &found, err) < 0)
		return -1;
	*out = person_json(&who);
	*status = 200;
	return 0;
}

/*
 * A person's own change: the current password must be right (counted like
 * a sign-in: a stolen session cannot guess it without end; refused before
 * any hashing while the person is locked out at this address) and differ
 * from the new one.
 */
static int
check_current(struct pit *p, const struct person *who, const json_t *body, const char *password, struct pb_error *err)
{
	const char *current = read_password(body, "current", err);
	bool good, locked_now = false;

	if (current == NULL || pit_lockout_address(p, err) < 0 || pit_lockout_person(p, who->id, who, true, err) < 0)
		return -1;
	good = password_verify(who->password_hash, current);
	if ((!good || who->failures > 0) && pit_lockout_count(p, who->id, true, good, "password_change", &locked_now,
	    err) < 0)
		return -1;
	if (!good) {
		if (locked_now)
			pb_fail(err, 429, "locked_out", "%s is now locked out after repeated wrong passwords", who->id);
		else
			pb_fail(err, 401, "wrong_password", "current: not the password of %s", who->id);
		err->guess = true;
		return -1;
	}
	if (strcmp(current, password) == 0)
		return pb_fail(err, 400, "weak_password", "the new password must differ from the current one");
	return 0;
}

int
pit_person_password(struct pit *p, const struct actor *a, const char *session_sha256, const char *id,
    const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	static const char *const OWN[] = {"current", "password", NULL}, *const ADMIN[] = {"password", NULL};
	bool own = a->is_person && strcmp(a->name, id) == 0, found;
	struct password_set ps = {.id = id, .one_time = !own, .keep_sha256 = session_sha256};
	const char *password;
	struct person who;

	*out = NULL;
	if (authorize(a, OP_PASSWORD, NULL, err) < 0)
		return -1;
	if (!own && (a->roles & ROLE_BIT(ROLE_ADMIN)) == 0)
		return pb_fail(err, 403, "forbidden", "a person changes their own password; an admin sets another's");
	if (only_fields(body, "password", own ? OWN : ADMIN, own ? "current and password" : "password (a one-time "
	    "password the person must change at sign-in)", err) < 0 || (password = read_password(body, "password", err)) == NULL)
		return -1;
	if (store_person_get(p->store, id, &who, &found, err) < 0)
		return -1;
	if (!found)
		return pb_fail(err, 404, "person_not_found", "no person has the id %.40s", id);
	if (own && check_current(p, &who, body, password, err) < 0)
		return -1;
	if (password_policy(password, who.id, who.name, err) < 0 || password_hash(password, ps.hash, err) < 0)
		return -1;
	return pit_write(p, a, NULL, do_password, &ps, out, status, err);
}
