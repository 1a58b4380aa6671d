/*
 * sessions.c - signing in and out, and the session behind a bearer token
 * (people.h).
 */
#include "table/people/people_private.h"

#include <ctype.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "common/password.h"
#include "common/timeutil.h"
#include "store/audit.h"
#include "store/store.h"

#define TOUCH_EVERY_MS 60000

bool
pit_session_token_shaped(const char *token)
{
	if (token == NULL || strlen(token) != SESSION_TOKEN_LEN || strncmp(token, SESSION_TOKEN_PREFIX, 4) != 0)
		return false;
	for (const char *c = token + 4; *c != '\0'; c++)
		if (!isxdigit((unsigned char)*c) || isupper((unsigned char)*c))
			return false;
	return true;
}

/* The reference of a session in the record: the first 16 hex digits of its token's SHA-256. */
static json_t *
session_ref(const char *sha256)
{
	return json_stringn(sha256, 16);
}

struct opening {
	const struct person *who;
	char token[SESSION_TOKEN_LEN + 1];
	char sha256[PB_SHA256_HEX_LEN];
	int64_t now_ms;
	int64_t expires_ms;
	unsigned idle_seconds;
};

static int
do_open(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const struct opening *o = arg;
	char expires[PB_TIME_LEN];
	json_t *detail;
	int rc;

	if (store_person_succeeded(p->store, o->who->id, o->now_ms, err) < 0 ||
	    store_session_add(p->store, o->sha256, o->who->id, p->client, o->now_ms, o->expires_ms, err) < 0)
		return -1;
	detail = json_pack("{s:s,s:o}", "person", o->who->id, "session", session_ref(o->sha256));
	rc = detail ? store_significant(p->store, a->name, "session_opened", NULL, detail, err) : -1;
	json_decref(detail);
	if (rc < 0)
		return detail ? -1 : pb_oom(err);
	pb_time_format_ms(o->expires_ms, expires);
	*out = json_pack("{s:s,s:s,s:i,s:b,s:{s:s,s:s,s:o}}", "token", o->token, "expires_at", expires, "idle_seconds",
	    (int)o->idle_seconds, "must_change_password", o->who->must_change, "person", "id", o->who->id, "name",
	    o->who->name, "roles", roles_json(o->who->roles));
	*status = 201;
	return *out ? 0 : pb_oom(err);
}

/* The body of a sign-in: {"person": ID, "password": TEXT} and nothing else. */
static int
read_sign_in(const json_t *body, const char **person, const char **password, struct pb_error *err)
{
	const char *k;
	const json_t *v;

	*person = json_string_value(json_object_get(body, "person"));
	*password = json_string_value(json_object_get(body, "password"));
	if (!json_is_object(body) || *person == NULL || *password == NULL)
		return pb_fail(err, 400, "invalid_sign_in", "sign in with {\"person\": ID, \"password\": \"...\"}");
	json_object_foreach((json_t *)body, k, v)
		if (strcmp(k, "person") != 0 && strcmp(k, "password") != 0)
			return pb_fail(err, 400, "unknown_field", "sessions: unknown field \"%.40s\"; it takes person and password", k);
	return 0;
}

/*
 * The door of a sign-in, before any hashing: the client's address locked
 * out, or the id locked out at this address (the same words whether the id
 * names a person or nobody).  Fills who and *usable (a person who can sign
 * in: found, active, with a password).
 */
static int
sign_in_gate(struct pit *p, const char *id, struct person *who, bool *usable, struct pb_error *err)
{
	bool found = false;

	*usable = false;
	memset(who, 0, sizeof(*who));
	if (pit_lockout_address(p, err) < 0)
		return -1;
	if (pb_valid_id(id) && store_person_get(p->store, id, who, &found, err) < 0)
		return -1;
	*usable = found && who->active && who->password_hash[0] != '\0';
	return pit_lockout_person(p, id, who, *usable, err);
}

int
pit_session_precheck(struct pit *p, const json_t *body, struct pb_error *err)
{
	const char *id, *password;
	struct person who;
	bool usable;

	if (read_sign_in(body, &id, &password, err) < 0)
		return -1;
	return sign_in_gate(p, id, &who, &usable, err);
}

/*
 * Verifies the password outside any write (Argon2id is slow on purpose: the
 * caller runs this on the password pool), counts how it went, and opens the
 * session in one write.  An unknown id is verified against no one's hash and
 * counted in memory like a person, so that it answers the same, as slowly,
 * and locks out after as many tries.
 */
int
pit_session_open(struct pit *p, const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	const char *id, *password;
	struct person who;
	struct opening o = {.who = &who};
	struct actor a = {.roles = ROLE_BIT(ROLE_KINDS) - 1u, .is_person = true};
	uint8_t raw[32];
	bool usable, good, locked_now = false;

	*out = NULL;
	if (read_sign_in(body, &id, &password, err) < 0 || sign_in_gate(p, id, &who, &usable, err) < 0)
		return -1;
	if (usable) {
		good = password_verify(who.password_hash, password);
	} else {
		password_verify_nobody(password);   /* as slow as a wrong password: the time tells no one who exists */
		good = false;
	}
	/* A good password starts the count again in the session's own write (do_open). */
	if (!good && pit_lockout_count(p, id, usable, false, "sign_in", &locked_now, err) < 0)
		return -1;
	if (!good) {
		if (locked_now)
			pit_lockout_now(p, err);
		else
			pb_fail(err, 401, "unauthorized", "unknown person or wrong password");
		err->guess = true;
		return -1;
	}
	a.name = who.id;
	o.now_ms = pb_time_now_ms();
	randombytes_buf(raw, sizeof(raw));
	memcpy(o.token, SESSION_TOKEN_PREFIX, 4);
	sodium_bin2hex(o.token + 4, sizeof(o.token) - 4, raw, sizeof(raw));
	sodium_memzero(raw, sizeof(raw));
	pb_sha256_hex(o.token, SESSION_TOKEN_LEN, o.sha256);
	o.idle_seconds = p->cfg->session_idle_seconds;
	o.expires_ms = o.now_ms + (int64_t)p->cfg->session_absolute_seconds * 1000;
	return pit_write(p, &a, NULL, do_open, &o, out, status, err);
}

struct touch {
	const char *sha256;
	int64_t now_ms;
};

static int
do_touch(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const struct touch *t = arg;

	(void)a;
	*out = NULL;
	*status = 200;
	return store_session_touch(p->store, t->sha256, t->now_ms, err);
}

int
pit_session_find(struct pit *p, const char *token, struct pit_session *out, bool *found, struct pb_error *err)
{
	struct session_row row;
	int64_t now = pb_time_now_ms(), idle_ms = (int64_t)p->cfg->session_idle_seconds * 1000;
	int64_t touch_ms = idle_ms / 4 < TOUCH_EVERY_MS ? idle_ms / 4 : TOUCH_EVERY_MS;

	memset(out, 0, sizeof(*out));
	pb_sha256_hex(token, strlen(token), out->token_sha256);
	if (store_session_get(p->store, out->token_sha256, &row, found, err) < 0 || !*found)
		return *found ? -1 : 0;
	if (row.ended || !row.person_active || now >= row.expires_ms || now - row.last_ms >= idle_ms)
		return pb_fail(err, 401, "session_expired", "this session has ended (%s); sign in again",
		    row.ended || !row.person_active ? "signed out or revoked" : now >= row.expires_ms ? "its time is up" :
		    "idle too long");
	snprintf(out->person_id, sizeof(out->person_id), "%s", row.person_id);
	snprintf(out->person_name, sizeof(out->person_name), "%s", row.person_name);
	out->roles = row.roles;
	out->must_change = row.must_change;
	if (now - row.last_ms >= touch_ms) {
		struct touch t = {out->token_sha256, now};
		struct actor a = {.name = out->person_id, .roles = row.roles, .is_person = true};
		struct pb_error ignored;
		json_t *none = NULL;
		int st;
		/* A failed note of use only shortens the session's idle time: the request is served all the same. */
		pit_write(p, &a, NULL, do_touch, &t, &none, &st, &ignored);
		json_decref(none);
	}
	return 0;
}

struct closing {
	const struct pit_session *s;
};

static int
do_close(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const struct closing *c = arg;
	bool ended;
	json_t *detail;
	int rc;

	if (store_session_end(p->store, c->s->token_sha256, pb_time_now_ms(), &ended, err) < 0)
		return -1;
	if (!ended)
		return pb_fail(err, 401, "session_expired", "this session has ended already");
	detail = json_pack("{s:s,s:o}", "person", c->s->person_id, "session", session_ref(c->s->token_sha256));
	rc = detail ? store_significant(p->store, a->name, "session_closed", NULL, detail, err)
	    : pb_oom(err);
	json_decref(detail);
	if (rc < 0)
		return -1;
	*out = json_pack("{s:b}", "signed_out", true);
	*status = 200;
	return 0;
}

int
pit_session_close(struct pit *p, const struct actor *a, const struct pit_session *s, json_t **out, int *status,
    struct pb_error *err)
{
	struct closing c = {s};

	*out = NULL;
	if (authorize(a, OP_SESSION, NULL, err) < 0)
		return -1;
	if (s == NULL || !a->is_person)
		return pb_fail(err, 400, "not_a_session", "this token is a terminal's, not a session: there is nothing to "
		    "sign out of");
	return pit_write(p, a, NULL, do_close, &c, out, status, err);
}
