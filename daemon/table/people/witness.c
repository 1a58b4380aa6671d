/*
 * witness.c - signatures beyond the session's (people.h): read from the
 * body, each checked like a sign-in, then matched to the needs of the
 * operation.
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

/* One signature of the body, as given. */
struct signature {
	const char *person, *password;
};

/* Reads w, {"person": ID, "password": TEXT} (where: "witnesses[1]", for messages); 400 invalid_witness otherwise. */
static int
read_witness(const json_t *w, const char *where, struct signature *sig, struct pb_error *err)
{
	const char *k;
	const json_t *v;

	sig->person = json_string_value(json_object_get(w, "person"));
	sig->password = json_string_value(json_object_get(w, "password"));
	if (!json_is_object(w) || sig->person == NULL || sig->password == NULL || !pb_valid_id(sig->person))
		return pb_fail(err, 400, "invalid_witness", "%s: {\"person\": ID, \"password\": \"...\"}", where);
	json_object_foreach((json_t *)w, k, v)
		if (strcmp(k, "person") != 0 && strcmp(k, "password") != 0)
			return pb_fail(err, 400, "invalid_witness", "%s: unknown field \"%.40s\"; it takes person and password", where,
			    k);
	return 0;
}

/* The body's signatures: "witness" (one) or "witnesses" (a list of at most PIT_WITNESSES_MAX); none is 0 of them. */
static int
read_signatures(const json_t *body, struct signature sig[PIT_WITNESSES_MAX], int *count, struct pb_error *err)
{
	const json_t *one = body ? json_object_get(body, "witness") : NULL;
	const json_t *list = body ? json_object_get(body, "witnesses") : NULL, *w;
	char where[24];
	size_t i;

	*count = 0;
	if (one != NULL && list != NULL)
		return pb_fail(err, 400, "invalid_witness", "give \"witness\" (one signature) or \"witnesses\" (a list of "
		    "them), not both");
	if (one != NULL) {
		*count = 1;
		return read_witness(one, "witness", &sig[0], err);
	}
	if (list == NULL)
		return 0;
	if (!json_is_array(list) || json_array_size(list) > PIT_WITNESSES_MAX)
		return pb_fail(err, 400, "invalid_witness", "witnesses: a list of at most %d {\"person\": ID, \"password\": "
		    "\"...\"}", PIT_WITNESSES_MAX);
	json_array_foreach(list, i, w) {
		snprintf(where, sizeof(where), "witnesses[%zu]", i);
		if (read_witness(w, where, &sig[i], err) < 0)
			return -1;
	}
	*count = (int)json_array_size(list);
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

/* "a floor or pitboss and the runner (security)": the needs as the messages name them. */
static void
needs_text(const struct witness_need *needs, int n, char *out, size_t size)
{
	char roles[120];
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < n && used < size; i++) {
		roles_text(needs[i].roles, roles, sizeof(roles));
		used += (size_t)snprintf(out + used, size - used, "%s%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ",
		    needs[i].who ? "" : "a ", needs[i].who ? needs[i].who : roles);
	}
}

/* Fills needs j.. from the signatures not in used (a bit each); order[j]: the signature that fills need j. */
static bool
assign(const struct witness_need *needs, int n, const struct witness_signed *sig, int j, unsigned used, int *order)
{
	if (j == n)
		return true;
	for (int i = 0; i < n; i++) {
		if ((used & (1u << i)) || (sig[i].roles & needs[j].roles) == 0)
			continue;
		order[j] = i;
		if (assign(needs, n, sig, j + 1, used | (1u << i), order))
			return true;
	}
	return false;
}

/* The first need that no signature can fill, or -1 when none stands alone unfilled (then the needs as a whole). */
static int
unfilled_need(const struct witness_need *needs, int n, const struct witness_signed *sig)
{
	for (int j = 0; j < n; j++) {
		bool held = false;
		for (int i = 0; i < n; i++)
			held = held || (sig[i].roles & needs[j].roles) != 0;
		if (!held)
			return j;
	}
	return -1;
}

/* The signatures' ids: none is the session's person, none twice (403 witness_same_person). */
static int
check_distinct(const struct actor *a, const struct signature *sig, int count, struct pb_error *err)
{
	for (int i = 0; i < count; i++) {
		if (a->is_person && strcasecmp(a->name, sig[i].person) == 0)
			return pb_fail(err, 403, "witness_same_person", "the witness must be another person than the one asking");
		for (int j = 0; j < i; j++)
			if (strcasecmp(sig[i].person, sig[j].person) == 0)
				return pb_fail(err, 403, "witness_same_person", "each witness signs once: %s is given twice",
				    sig[i].person);
	}
	return 0;
}

int
pit_witnesses_check(struct pit *p, const struct actor *a, const json_t *body, const struct witness_need *needs,
    int n, unsigned eligible, const char *what, struct witness_signed *out, struct pb_error *err)
{
	struct signature sig[PIT_WITNESSES_MAX];
	struct witness_signed got[PIT_WITNESSES_MAX];
	char names[400];
	unsigned any = eligible;
	int count, order[PIT_WITNESSES_MAX], missing;
	bool all_good = true;

	if (n < 1 || n > PIT_WITNESSES_MAX)
		return pb_fail(err, 500, "internal_error", "%s: %d signatures needed", what, n);
	for (int j = 0; j < n; j++) {
		out[j].id[0] = '\0';
		out[j].roles = 0;
		any |= needs[j].roles;
	}
	needs_text(needs, n, names, sizeof(names));
	if (read_signatures(body, sig, &count, err) < 0)
		return -1;
	if (count < n && n == 1)
		return pb_fail(err, 403, "witness_required", "%s needs a witness: {\"witness\": {\"person\", \"password\"}} of %s "
		    "other than you", what, names);
	if (count < n)
		return pb_fail(err, 403, "witness_required", "%s needs the signatures of %s besides yours: {\"witnesses\": "
		    "[{\"person\", \"password\"}, ...]}; %d given", what, names, count);
	if (count > n)
		return pb_fail(err, 400, "invalid_witness", "%s takes %d signature%s besides yours (%s); %d given", what, n,
		    n == 1 ? "" : "s", names, count);
	if (check_distinct(a, sig, count, err) < 0 || pit_lockout_address(p, err) < 0)
		return -1;
	for (int i = 0; i < count; i++) {
		struct person who;
		bool good;
		if (witness_signs(p, sig[i].person, sig[i].password, any, &who, &good, err) < 0)
			return -1;
		all_good = all_good && good;
		snprintf(got[i].id, sizeof(got[i].id), "%s", good ? who.id : "");
		got[i].roles = good ? who.roles : 0;
	}
	if (!all_good) {
		pb_fail(err, 403, "witness_refused", n == 1 ? "the witness cannot sign %s: it takes %s other than you, active, "
		    "with their own password (not a one-time one) and not locked out" : "the witnesses cannot sign %s: it takes "
		    "%s, each another person than you, active, with their own password (not a one-time one) and not locked out",
		    what, names);
		err->guess = true;
		return -1;
	}
	if (!assign(needs, n, got, 0, 0, order)) {
		char one[160];
		missing = unfilled_need(needs, n, got);
		needs_text(missing >= 0 ? &needs[missing] : needs, missing >= 0 ? 1 : n, one, sizeof(one));
		if (n == 1)
			return pb_fail(err, 403, "witness_required", "%s needs the signature of %s besides yours: the witness "
			    "given cannot sign as that", what, one);
		return pb_fail(err, 403, "witness_required", "%s needs the signature of %s: no witness given can sign as that; "
		    "it is signed by %s", what, one, names);
	}
	for (int j = 0; j < n; j++)
		out[j] = got[order[j]];
	return 0;
}

int
pit_witness_check(struct pit *p, const struct actor *a, const json_t *body, unsigned roles, const char *what,
    char witness_id[PB_ID_MAX], struct pb_error *err)
{
	const struct witness_need need = {.roles = roles};
	struct witness_signed signed_by;
	int rc = pit_witnesses_check(p, a, body, &need, 1, 0, what, &signed_by, err);

	snprintf(witness_id, PB_ID_MAX, "%s", rc == 0 ? signed_by.id : "");
	return rc;
}

bool
pit_witness_given(const json_t *body)
{
	return json_is_object(body) &&
	    (json_object_get(body, "witness") != NULL || json_object_get(body, "witnesses") != NULL);
}
