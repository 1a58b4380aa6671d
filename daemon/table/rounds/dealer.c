/*
 * dealer.c - the person dealing at each table (rounds.h).
 */
#include "table/rounds/rounds_private.h"

#include <stdio.h>
#include <string.h>

#include "store/store.h"

/* The roles that set any dealer; a dealer's session without one of them sets only himself. */
#define SUPERVISOR_ROLES (ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS) | ROLE_BIT(ROLE_ADMIN))

struct dealer_args {
	const char *table_id;
	const json_t *body;
};

/* Reads {"person": ID or null} into person ("" for null); 400 otherwise. */
static int
read_body(const json_t *body, char person[PB_ID_MAX], struct pb_error *err)
{
	static const char *const KEYS[] = {"person", NULL};
	const json_t *v;

	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is {\"person\": \"E1027\"}, or {\"person\": null} for no dealer");
	if (input_known_keys(body, "dealer", KEYS, err) < 0)
		return -1;
	v = json_object_get(body, "person");
	if (json_is_null(v)) {
		person[0] = '\0';
		return 0;
	}
	if (!json_is_string(v) || !pb_valid_id(json_string_value(v)))
		return pb_fail(err, 400, "invalid_body", "person: a person's id (1..32 of A-Z a-z 0-9 _ . -), or null for no dealer");
	snprintf(person, PB_ID_MAX, "%s", json_string_value(v));
	return 0;
}

/*
 * A dealer's own session (no floor, pitboss or admin role) may put himself
 * at a table, or take himself off the table he deals at; nobody else.
 */
static int
check_self(const struct actor *a, const char *person, const char *current, struct pb_error *err)
{
	const char *whom = person[0] ? person : current;

	if ((a->roles & SUPERVISOR_ROLES) != 0)
		return 0;
	if (!a->is_person)
		return pb_fail(err, 403, "forbidden", "a dealer terminal's token sets no dealer: the dealer signs in and sets himself, "
		    "or a floor supervisor or pit boss sets him");
	if (whom[0] == '\0' || strcmp(whom, a->name) != 0)
		return pb_fail(err, 403, "forbidden", "a dealer sets only himself at a table; a floor supervisor or pit boss sets others");
	return 0;
}

/* The person may deal: found, active, holding the dealer role (422 saying which not). */
static int
check_person(struct pit *p, const char *id, struct person *who, struct pb_error *err)
{
	bool found;

	if (store_person_get(p->store, id, who, &found, err) < 0)
		return -1;
	if (!found)
		return pb_fail(err, 422, "unknown_person", "person %s: there is no such person", id);
	if (!who->active)
		return pb_fail(err, 422, "person_inactive", "person %s (%s) is disabled", id, who->name);
	if ((who->roles & ROLE_BIT(ROLE_DEALER)) == 0)
		return pb_fail(err, 422, "not_a_dealer", "person %s (%s) does not hold the dealer role", id, who->name);
	return 0;
}

/*
 * Records the change: the table event, whose apply (table_dealer_apply)
 * sets the table's dealer and appends the dealer_changes row as a restore
 * does, in one transaction.
 */
static int
do_set_dealer(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	const struct dealer_args *da = arg;
	const struct table_config *t = config_table(p->cfg, da->table_id);
	struct table_state ts;
	struct person who;
	char person[PB_ID_MAX], at[PB_TIME_LEN];
	json_t *body;
	int rc;

	if (t == NULL)
		return pb_fail(err, 404, "table_not_found", "there is no table \"%.32s\"", da->table_id);
	if (authorize(a, OP_DEALER_SET, t->id, err) < 0 || read_body(da->body, person, err) < 0)
		return -1;
	if (pit_check_hold(p, t->id, err) < 0 || table_state_recorded(p, t->id, &ts, err) < 0)
		return -1;
	if (check_self(a, person, ts.dealer_id, err) < 0)
		return -1;
	memset(&who, 0, sizeof(who));
	if (person[0] && check_person(p, person, &who, err) < 0)
		return -1;
	*status = 200;
	if (strcmp(ts.dealer_id, person) == 0)
		return pit_table_get(p, a, t->id, out, err);   /* already so: nothing to record */
	pb_time_now(at);
	body = person[0] ? json_pack("{s:s,s:s}", "person", person, "name", who.name)
	    : json_pack("{s:n,s:n}", "person", "name");
	if (body == NULL)
		return pb_oom(err);
	rc = event_record(p->store, t->id, &EVENT_TYPES[EVT_DEALER_CHANGED], at, a->name, body, err);
	json_decref(body);
	if (rc < 0)
		return -1;
	return pit_table_get(p, a, t->id, out, err);
}

int
pit_table_set_dealer(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err)
{
	struct dealer_args da = {table_id, body};

	return pit_write(p, a, idem, do_set_dealer, &da, out, status, err);
}

int
dealer_of_new_round(struct pit *p, const struct table_state *ts, struct round_record *r, struct pb_error *err)
{
	struct person who;
	bool found;

	r->dealer_id[0] = r->dealer_name[0] = '\0';
	if (!ts->found || ts->dealer_id[0] == '\0')
		return 0;
	if (store_person_get(p->store, ts->dealer_id, &who, &found, err) < 0)
		return -1;
	snprintf(r->dealer_id, sizeof(r->dealer_id), "%s", ts->dealer_id);
	snprintf(r->dealer_name, sizeof(r->dealer_name), "%s", found ? who.name : ts->dealer_id);
	return 0;
}

bool
dealer_void_needs_witness(const struct actor *a, enum round_state state)
{
	return a->is_person && (a->roles & SUPERVISOR_ROLES) == 0 && (state == ROUND_DEALT || state == ROUND_REVEALED);
}
