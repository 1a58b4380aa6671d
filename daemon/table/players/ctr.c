/*
 * ctr.c - a CTR work item's life (players.h; docs/players.md, "CTR work
 * items"): open when a side of a patron's gaming day passes the limit,
 * identified once his record holds his identification, filed with the
 * BSA identifier FinCEN gave the report (within 15 days of the gaming
 * day: 31 CFR 1021.311 and the FinCEN 112 instructions), amended after;
 * a note at any time.  Each move is the event ctr_status_changed, each
 * note title31_noted, in the chain of PLAYERS_CHAIN.
 */
#include "table/players/players_private.h"

#include <stdio.h>
#include <string.h>

#include "common/gaming_day.h"
#include "common/timeutil.h"
#include "store/players.h"

/* A CTR item's id as the report gives it: "YYYY-MM-DD-PLAYER-in" (or "-out"). */
struct ctr_id {
	char day[11];
	char player[PB_ID_MAX];
	char direction[4];
};

/* Splits id into its gaming day, player and direction; 404 ctr_not_found when it is not one. */
static int
parse_ctr_id(const char *id, struct ctr_id *c, struct pb_error *err)
{
	size_t n = strlen(id);
	const char *last = strrchr(id, '-');
	int64_t day;

	if (n < 14 || id[10] != '-' || last == NULL || last <= id + 11)
		goto bad;
	snprintf(c->day, sizeof(c->day), "%.10s", id);
	snprintf(c->direction, sizeof(c->direction), "%s", last + 1);
	if ((size_t)(last - (id + 11)) >= sizeof(c->player) || gaming_day_parse(c->day, &day) < 0 ||
	    (strcmp(c->direction, "in") != 0 && strcmp(c->direction, "out") != 0))
		goto bad;
	snprintf(c->player, sizeof(c->player), "%.*s", (int)(last - (id + 11)), id + 11);
	if (pb_valid_id(c->player))
		return 0;
bad:
	return pb_fail(err, 404, "ctr_not_found", "\"%.60s\" is no CTR item: an id is the gaming day, the player and the side, "
	    "as GET /api/v1/reports/title31?gaming_day=D gives it (\"2026-03-01-P1-in\")", id);
}

/* The item of c in the day's report (its "ctr" list, annotated), as a new reference; 404 when there is none. */
static int
find_item(struct pit *p, const struct actor *a, const struct ctr_id *c, json_t **item, struct pb_error *err)
{
	json_t *rep = NULL;
	size_t i;
	json_t *it;

	*item = NULL;
	if (pit_title31_report(p, a, c->day, &rep, err) < 0)
		return -1;
	json_array_foreach(json_object_get(rep, "ctr"), i, it)
		if (strcmp(json_string_value(json_object_get(it, "player")), c->player) == 0 &&
		    strcmp(json_string_value(json_object_get(it, "direction")), c->direction) == 0)
			*item = json_incref(it);
	json_decref(rep);
	if (*item == NULL)
		return pb_fail(err, 404, "ctr_not_found", "player %s has no CTR item for cash %s on gaming day %s (GET "
		    "/api/v1/reports/title31?gaming_day=%s)", c->player, c->direction, c->day, c->day);
	return 0;
}

/* Whether status may follow from: open -> identified -> filed -> amended (filed from open too; amended again). */
static bool
may_move(const char *from, const char *to)
{
	if (strcmp(to, "identified") == 0)
		return strcmp(from, "open") == 0;
	if (strcmp(to, "filed") == 0)
		return strcmp(from, "open") == 0 || strcmp(from, "identified") == 0;
	if (strcmp(to, "amended") == 0)
		return strcmp(from, "filed") == 0 || strcmp(from, "amended") == 0;
	return false;
}

struct ctr_call {
	const char *id;
	const json_t *body;
};

static int
do_ctr(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	static const char *const KEYS[] = {"status", "bsa_id", "filed_on", "note", NULL};
	const struct ctr_call *cc = arg;
	struct ctr_id c;
	char to[16], bsa_id[CTR_BSA_ID_MAX + 1], filed_on[16], note[TITLE31_NOTE_MAX + 1], at[PB_TIME_LEN];
	const char *from;
	json_t *item = NULL, *body = NULL;
	int64_t day;
	int rc = -1;

	if ((a->roles & (ROLE_BIT(ROLE_CAGE) | ROLE_BIT(ROLE_PITBOSS))) == 0)
		return pb_fail(err, 403, "forbidden", "a CTR item is moved on by the cage or a pit boss");
	if (!json_is_object(cc->body))
		return pb_fail(err, 400, "invalid_body", "the body is {\"status\"?, \"bsa_id\"?, \"filed_on\"?, \"note\"}");
	if (input_known_keys(cc->body, "CTR item", KEYS, err) < 0 || parse_ctr_id(cc->id, &c, err) < 0 ||
	    input_text(json_object_get(cc->body, "status"), "status", 15, to, sizeof(to), err) < 0 ||
	    input_text(json_object_get(cc->body, "bsa_id"), "bsa_id", CTR_BSA_ID_MAX, bsa_id, sizeof(bsa_id), err) < 0 ||
	    input_text(json_object_get(cc->body, "filed_on"), "filed_on", 10, filed_on, sizeof(filed_on), err) < 0 ||
	    input_text(json_object_get(cc->body, "note"), "note", TITLE31_NOTE_MAX, note, sizeof(note), err) < 0)
		return -1;
	if (note[0] == '\0')
		return pb_fail(err, 422, "note_required", "note: say what was done (1 to %d characters)", TITLE31_NOTE_MAX);
	if (to[0] && strcmp(to, "identified") != 0 && strcmp(to, "filed") != 0 && strcmp(to, "amended") != 0)
		return pb_fail(err, 400, "invalid_body", "status: \"identified\", \"filed\" or \"amended\" (or none for a note)");
	if (filed_on[0] && gaming_day_parse(filed_on, &day) < 0)
		return pb_fail(err, 400, "invalid_body", "filed_on: the date the CTR was filed, YYYY-MM-DD");
	if (find_item(p, a, &c, &item, err) < 0)
		return -1;
	from = json_string_value(json_object_get(item, "status"));
	if (to[0] && !may_move(from, to)) {
		pb_fail(err, 409, "invalid_transition", "CTR item %s is %s; it moves open -> identified -> filed -> amended "
		    "(filed from open too, amended again), not to %s", cc->id, from, to);
		goto out;
	}
	if ((strcmp(to, "identified") == 0 || strcmp(to, "filed") == 0) && !json_is_true(json_object_get(item, "identified"))) {
		pb_fail(err, 422, "identification_required", "player %s's record holds no identification: record it first "
		    "(PATCH /api/v1/players/%s with id_type and id_number), then mark the CTR item %s", c.player, c.player, to);
		goto out;
	}
	if (strcmp(to, "filed") == 0 && bsa_id[0] == '\0') {
		pb_fail(err, 422, "bsa_id_required", "bsa_id: a filed CTR has the BSA identifier FinCEN acknowledged it with");
		goto out;
	}
	pb_time_now(at);
	if ((strcmp(to, "filed") == 0 || strcmp(to, "amended") == 0) && filed_on[0] == '\0')
		title31_gaming_day(&p->cfg->property.calendar, at, filed_on);
	body = json_pack("{s:s,s:s,s:s,s:s}", "gaming_day", c.day, "player", c.player, "direction", c.direction, "note", note);
	if (body == NULL) {
		pb_oom(err);
		goto out;
	}
	if (to[0]) {
		json_object_set_new(body, "status", json_string(to));
		if (bsa_id[0])
			json_object_set_new(body, "bsa_id", json_string(bsa_id));
		if (strcmp(to, "identified") != 0)
			json_object_set_new(body, "filed_on", json_string(filed_on));
	} else {
		json_object_set_new(body, "kind", json_string("ctr"));
	}
	/* the title31_notes row is players_t31_note_apply's, as a restore writes it */
	if (event_record(p->store, PLAYERS_CHAIN, &EVENT_TYPES[to[0] ? EVT_CTR_STATUS_CHANGED : EVT_TITLE31_NOTED], at,
	        a->name, body, err) < 0)
		goto out;
	json_decref(item);
	if (find_item(p, a, &c, &item, err) < 0)
		goto out;
	*out = json_incref(item);
	*status = 201;
	rc = 0;
out:
	json_decref(item);
	json_decref(body);
	return rc;
}

int
pit_ctr_update(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *id, const json_t *body,
    json_t **out, int *status, struct pb_error *err)
{
	struct ctr_call cc = {id, body};

	return pit_write(p, a, idem, do_ctr, &cc, out, status, err);
}
