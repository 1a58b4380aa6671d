/*
 * witness.c - two-person sign-off (witness.h).
 */
#include "table/witness.h"

#include <stdio.h>
#include <string.h>

#include "common/password.h"
#include "common/timeutil.h"
#include "store/audit.h"
#include "store/store.h"
#include "table/txn.h"

void
roles_text(unsigned roles, char *out, size_t n)
{
	size_t used = 0;
	int listed = 0, total = 0;

	for (int r = 0; r < ROLE_KINDS; r++)
		total += (roles & ROLE_BIT(r)) != 0;
	out[0] = '\0';
	for (int r = 0; r < ROLE_KINDS && used < n; r++) {
		if ((roles & ROLE_BIT(r)) == 0)
			continue;
		listed++;
		used += (size_t)snprintf(out + used, n - used, "%s%s", listed == 1 ? "" : listed == total ? " or " : ", ",
		    role_name((enum role)r));
	}
}

struct password_result {
	const char *person;
	bool good;
	int max_failures;
	int64_t lockout_ms;
};

/*
 * Records how the witness's password went, in a write of its own: a good one
 * starts the count of failures again; a wrong one counts, and at the limit
 * locks the person out, recorded as a significant event.
 */
static int
record_password(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const struct password_result *f = arg;
	int failures;
	int64_t until;
	int rc;

	(void)a;
	*out = NULL;
	*status = 200;
	if (f->good)
		return store_person_succeeded(p->store, f->person, err);
	if (store_person_failed(p->store, f->person, f->max_failures, pb_time_now_ms() + f->lockout_ms, &failures, &until,
	    err) < 0)
		return -1;
	if (failures != f->max_failures)
		return 0;
	json_t *detail = json_pack("{s:s,s:i,s:s}", "person", f->person, "failures", failures, "as", "witness");
	rc = store_significant(p->store, "pitbossd", "person_locked_out", NULL, detail, err);
	json_decref(detail);
	return rc;
}

/* Reads {"person": ID, "password": TEXT}; -1 with 400 invalid_witness otherwise. */
static int
read_witness(const json_t *w, const char **person, const char **password, struct pb_error *err)
{
	const char *k;
	const json_t *v;

	*person = json_string_value(json_object_get(w, "person"));
	*password = json_string_value(json_object_get(w, "password"));
	if (!json_is_object(w) || *person == NULL || *password == NULL || !pb_valid_id(*person))
		return pb_fail(err, 400, "invalid_witness", "witness: {\"person\": ID, \"password\": \"...\"}");
	json_object_foreach((json_t *)w, k, v)
		if (strcmp(k, "person") != 0 && strcmp(k, "password") != 0)
			return pb_fail(err, 400, "invalid_witness", "witness: unknown field \"%.40s\"; it takes person and password", k);
	return 0;
}

int
pit_witness_check(struct pit *p, const struct actor *a, const json_t *body, unsigned roles, const char *what,
    char witness_id[PB_ID_MAX], struct pb_error *err)
{
	const json_t *w = body ? json_object_get(body, "witness") : NULL;
	const char *id, *password;
	struct person who;
	char names[120];
	bool found, good;

	roles_text(roles, names, sizeof(names));
	witness_id[0] = '\0';
	if (w == NULL)
		return pb_fail(err, 403, "witness_required", "%s needs a witness: {\"witness\": {\"person\", \"password\"}} of a %s "
		    "other than you", what, names);
	if (read_witness(w, &id, &password, err) < 0)
		return -1;
	if (a->is_person && strcmp(a->name, id) == 0)
		return pb_fail(err, 403, "witness_same_person", "the witness must be another person than the one asking");
	if (store_person_get(p->store, id, &who, &found, err) < 0)
		return -1;
	if (!found || !who.active)
		return pb_fail(err, 403, "witness_unknown", "witness %s: no active person has that id", id);
	if (who.locked_until_ms > pb_time_now_ms())
		return pb_fail(err, 429, "locked_out", "witness %s is locked out after repeated wrong passwords; try later", id);
	good = password_verify(who.password_hash, password);
	if (!good || who.failures > 0) {
		struct password_result r = {id, good, (int)p->cfg->auth_max_failures, (int64_t)p->cfg->auth_lockout_seconds * 1000};
		json_t *ignored = NULL;
		int st;
		pit_write(p, a, NULL, record_password, &r, &ignored, &st, &(struct pb_error){0});
		json_decref(ignored);
	}
	if (!good)
		return pb_fail(err, 401, "witness_password", "witness %s: wrong password", id);
	if ((who.roles & roles) == 0)
		return pb_fail(err, 403, "witness_role", "witness %s holds none of the roles %s needs: %s", id, what, names);
	snprintf(witness_id, PB_ID_MAX, "%s", who.id);
	return 0;
}
