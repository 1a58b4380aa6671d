/*
 * witness.c - two-person sign-off (people.h).
 */
#include "table/people/people_private.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/password.h"
#include "common/timeutil.h"
#include "store/audit.h"
#include "store/store.h"

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

/*
 * The witness's signature: the witness must be active, hold one of roles,
 * have a password of their own (not a one-time one) and not be locked out
 * at this address; only then is the password checked (and counted).  Every
 * other case spends the same time on no one's hash, so that every refusal
 * is alike in status, words and time.
 */
static int
witness_signs(struct pit *p, const char *id, const char *password, unsigned roles, struct person *who, bool *good,
    struct pb_error *err)
{
	struct pb_error locked;
	bool found = false, usable, locked_now;

	*good = false;
	if (store_person_get(p->store, id, who, &found, err) < 0)
		return -1;
	usable = found && who->active && who->password_hash[0] != '\0' && !who->must_change && (who->roles & roles) != 0;
	if (usable && pit_lockout_person(p, id, who, true, &locked) < 0) {
		if (locked.status != 429)
			return pb_fail(err, locked.status, locked.code, "%s", locked.message);
		usable = false;
	}
	if (!usable) {
		password_verify_nobody(password);
		return 0;
	}
	*good = password_verify(who->password_hash, password);
	if ((!*good || who->failures > 0) && pit_lockout_count(p, who->id, true, *good, "witness", &locked_now, err) < 0)
		return -1;
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
	bool good;

	roles_text(roles, names, sizeof(names));
	witness_id[0] = '\0';
	if (w == NULL)
		return pb_fail(err, 403, "witness_required", "%s needs a witness: {\"witness\": {\"person\", \"password\"}} of a %s "
		    "other than you", what, names);
	if (read_witness(w, &id, &password, err) < 0)
		return -1;
	if (a->is_person && strcasecmp(a->name, id) == 0)
		return pb_fail(err, 403, "witness_same_person", "the witness must be another person than the one asking");
	if (pit_lockout_address(p, err) < 0 || witness_signs(p, id, password, roles, &who, &good, err) < 0)
		return -1;
	if (!good) {
		pb_fail(err, 403, "witness_refused", "the witness cannot sign %s: it takes a %s other than you, active, with "
		    "their own password (not a one-time one) and not locked out", what, names);
		err->guess = true;
		return -1;
	}
	snprintf(witness_id, PB_ID_MAX, "%s", who.id);
	return 0;
}
