/*
 * manual_rating.c - manual ratings (players.h; docs/players.md, "Manual
 * ratings"): a floor supervisor's or pit boss's average bet x time for a
 * patron whose hands were not recorded seat by seat, kept apart from the
 * rating measured from the hands.  The request's body checked key by key,
 * the event manual_rating in the chain PLAYERS_CHAIN, and its apply, the
 * only code that writes a manual_ratings row: live through event_record,
 * in central restore and in verify's rebuild (players_verify.c compares
 * the rows).  Its theoretical win is the engine's (engine/theo.h), from the
 * game's Ante/Play edge the caller finds (an analysis is a report's).
 */
#include "table/players/players_private.h"

#include <stdio.h>
#include <string.h>

#include "common/event_read.h"
#include "common/text.h"
#include "common/timeutil.h"
#include "engine/limits.h"
#include "engine/theo.h"
#include "store/audit.h"
#include "store/store.h"

#define MANUAL_MINUTES_MAX 1440          /* a day */
#define MANUAL_DECISIONS_MAX 400
#define MANUAL_DECISIONS_DEFAULT 60

#define MANUAL_BODY "{\"average_bet\": cents, \"minutes\": 1..1440, \"game\" or \"table\", \"decisions_per_hour\"?: " \
	"1..400, \"note\"?}"

const struct rules *
manual_rating_rules(const struct config *cfg, const char *game)
{
	for (size_t i = 0; i < cfg->game_count; i++)
		if (strcmp(cfg->games[i].name, game) == 0)
			return &cfg->games[i].rules;
	return NULL;
}

/* The configured games' names, "standard, florida, ..." (for a refusal's message). */
static void
game_names(const struct config *cfg, char *out, size_t n)
{
	out[0] = '\0';
	for (size_t i = 0; i < cfg->game_count; i++)
		snprintf(out + strlen(out), n - strlen(out), "%s%s", i ? ", " : "", cfg->games[i].name);
}

/* An integer field from lo to hi (absent: def, when def >= 0); 400 invalid_body saying what it is otherwise. */
static int
read_count(const json_t *body, const char *key, int64_t lo, int64_t hi, int64_t def, const char *what, int64_t *out,
    struct pb_error *err)
{
	const json_t *v = json_object_get(body, key);

	if ((v == NULL || json_is_null(v)) && def >= 0) {
		*out = def;
		return 0;
	}
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return pb_fail(err, 400, "invalid_body", "%s: %s, an integer from %lld to %lld", key, what, (long long)lo,
		    (long long)hi);
	*out = json_integer_value(v);
	return 0;
}

/* An optional text field into dst (n bytes, "" when absent or null); 400 when it is no such text. */
static int
read_text(const json_t *body, const char *key, size_t max, const char *what, char *dst, size_t n, struct pb_error *err)
{
	const json_t *v = json_object_get(body, key);
	char where[64];

	dst[0] = '\0';
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) > max ||
	    pb_text_blank(json_string_value(v), json_string_length(v)))
		return pb_fail(err, 400, "invalid_body", "%s: %s, 1 to %zu bytes, not blank (or leave it out)", key, what, max);
	snprintf(where, sizeof(where), "manual rating: %s", key);
	if (pb_text_check_controls(where, json_string_value(v), json_string_length(v), err) < 0)
		return -1;
	snprintf(dst, n, "%s", json_string_value(v));
	return 0;
}

/* The record rated exists and was not merged: 404 player_not_found, 409 player_merged naming the surviving one. */
static int
check_player(struct pit *p, const char *player, struct pb_error *err)
{
	char into[PB_ID_MAX];
	bool found = false;

	if (strlen(player) < PB_ID_MAX && store_player_merged_into(p->store, player, &found, into, err) < 0)
		return -1;
	if (!found)
		return pb_fail(err, 404, "player_not_found", "there is no player \"%.32s\"", player);
	if (into[0] != '\0')
		return pb_fail(err, 409, "player_merged", "player %s was merged into %s, whose record counts now: rate %s "
		    "(POST /api/v1/players/%s/ratings)", player, into, into, into);
	return 0;
}

/*
 * The game rated: "game" when given (a configured game), else the game of
 * "table" (a configured table, within the actor's tables); 422 game_required
 * when neither is given.
 */
static int
read_game(struct pit *p, const struct actor *a, const json_t *body, struct manual_rating_call *c, struct pb_error *err)
{
	const json_t *game = json_object_get(body, "game"), *table = json_object_get(body, "table");
	const struct table_config *tc = NULL;
	char names[512];

	game_names(p->cfg, names, sizeof(names));
	if (game != NULL && !json_is_null(game) && !json_is_string(game))
		return pb_fail(err, 400, "invalid_body", "game: the name of a configured game (%s)", names);
	if (table != NULL && !json_is_null(table) && !json_is_string(table))
		return pb_fail(err, 400, "invalid_body", "table: a table's id, whose game is rated unless \"game\" is given");
	if (json_is_string(table)) {
		if ((tc = config_table(p->cfg, json_string_value(table))) == NULL)
			return pb_fail(err, 404, "table_not_found", "table: there is no table \"%.32s\"", json_string_value(table));
		if (pit_check_table_access(a, tc->id, true, err) < 0)
			return -1;
		snprintf(c->m.table_id, sizeof(c->m.table_id), "%s", tc->id);
	}
	if (json_is_string(game)) {
		if ((c->rules = manual_rating_rules(p->cfg, json_string_value(game))) == NULL)
			return pb_fail(err, 422, "unknown_game", "game: \"%.64s\" is not a configured game; the games are %s",
			    json_string_value(game), names);
		snprintf(c->m.game, sizeof(c->m.game), "%s", json_string_value(game));
	} else if (tc != NULL) {
		c->rules = tc->rules;
		snprintf(c->m.game, sizeof(c->m.game), "%s", tc->game);
	} else {
		return pb_fail(err, 422, "game_required", "give \"game\" (one of %s) or \"table\" (its game is rated)", names);
	}
	return 0;
}

int
manual_rating_read(struct pit *p, const struct actor *a, const char *player, const json_t *body,
    struct manual_rating_call *c, struct pb_error *err)
{
	static const char *const KEYS[] = {"average_bet", "minutes", "game", "table", "decisions_per_hour", "note", NULL};

	memset(c, 0, sizeof(*c));
	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is " MANUAL_BODY);
	if (input_known_keys(body, "manual rating", KEYS, err) < 0)
		return -1;
	if (json_object_get(body, "average_bet") == NULL)
		return pb_fail(err, 400, "invalid_amount", "average_bet: the patron's average bet in cents, e.g. 2500 for $25.00");
	if (input_amount(json_object_get(body, "average_bet"), "average_bet", &c->m.average_bet, err) < 0)
		return -1;
	if (c->m.average_bet == 0)
		return pb_fail(err, 422, "invalid_amount", "average_bet: cents above 0");
	if (read_count(body, "minutes", 1, MANUAL_MINUTES_MAX, -1, "the minutes the patron played", &c->m.minutes, err) < 0 ||
	    read_count(body, "decisions_per_hour", 1, MANUAL_DECISIONS_MAX, MANUAL_DECISIONS_DEFAULT,
	        "the game's decisions (hands) an hour, 60 when left out", &c->m.decisions_per_hour, err) < 0 ||
	    read_text(body, "note", MANUAL_RATING_NOTE_MAX, "what the supervisor saw", c->m.note, sizeof(c->m.note), err) < 0)
		return -1;
	if (check_player(p, player, err) < 0)
		return -1;
	snprintf(c->m.player, sizeof(c->m.player), "%s", player);
	return read_game(p, a, body, c, err);
}

/* The event's body: the row's fields (the row is made from it alone, live and in a restore). */
static json_t *
manual_rating_body(const struct manual_rating *m)
{
	json_t *b = json_pack("{s:I,s:I,s:s,s:s,s:I,s:I,s:s,s:o}", "average_bet", (json_int_t)m->average_bet,
	    "decisions_per_hour", (json_int_t)m->decisions_per_hour, "game", m->game, "gaming_day", m->gaming_day,
	    "id", (json_int_t)m->id, "minutes", (json_int_t)m->minutes, "player", m->player,
	    "table", m->table_id[0] ? json_string(m->table_id) : json_null());

	if (b != NULL && m->note[0] != '\0' && json_object_set_new(b, "note", json_string(m->note)) < 0) {
		json_decref(b);
		return NULL;
	}
	return b;
}

json_t *
manual_rating_json(const struct manual_rating *m, const int64_t *theoretical)
{
	return json_pack("{s:I,s:s,s:s,s:o,s:s,s:I,s:I,s:I,s:s,s:o,s:s,s:s,s:b,s:o}", "id", (json_int_t)m->id,
	    "player", m->player, "counted_for", m->counted_for[0] ? m->counted_for : m->player,
	    "table", m->table_id[0] ? json_string(m->table_id) : json_null(), "game", m->game,
	    "average_bet", (json_int_t)m->average_bet, "minutes", (json_int_t)m->minutes,
	    "decisions_per_hour", (json_int_t)m->decisions_per_hour, "gaming_day", m->gaming_day,
	    "note", m->note[0] ? json_string(m->note) : json_null(), "by", m->by, "at", m->at, "manual", true,
	    "theoretical", theoretical != NULL ? json_integer(*theoretical) : json_null());
}

int
manual_rating_theoretical(const struct manual_rating *m, int64_t edge, int64_t *cents, struct pb_error *err)
{
	struct theo_sum s;

	memset(&s, 0, sizeof(s));
	if (theo_manual_add(&s, m->average_bet, m->minutes, m->decisions_per_hour, edge, err) < 0)
		return -1;
	return theo_manual_cents(&s, cents, err);
}

/* The write: the record checked again (a merge may have come since), then the event and its row. */
static int
do_record(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	struct manual_rating_call *c = arg;
	struct manual_rating *m = &c->m;
	int64_t theoretical;
	json_t *body;
	int rc;

	if (check_player(p, m->player, err) < 0 || store_manual_rating_next_id(p->store, &m->id, err) < 0 ||
	    manual_rating_theoretical(m, c->edge, &theoretical, err) < 0)
		return -1;
	pb_time_now(m->at);
	title31_gaming_day(&p->cfg->property.calendar, m->at, m->gaming_day);
	snprintf(m->by, sizeof(m->by), "%s", a->name);
	if ((body = manual_rating_body(m)) == NULL)
		return pb_oom(err);
	/* the manual_ratings row is the event's apply's (manual_rating_apply), as a restore writes it */
	rc = event_record(p->store, PLAYERS_CHAIN, &EVENT_TYPES[EVT_MANUAL_RATING], m->at, a->name, body, err);
	json_decref(body);
	if (rc < 0)
		return -1;
	*status = 201;
	*out = manual_rating_json(m, &theoretical);
	return *out != NULL ? 0 : pb_oom(err);
}

int
manual_rating_record(struct pit *p, const struct actor *a, const struct idempotency *idem, struct manual_rating_call *c,
    json_t **out, int *status, struct pb_error *err)
{
	return pit_write(p, a, idem, do_record, c, out, status, err);
}

/* ---- restore and verify: the row's apply (its check is players_check) ---- */

/* The manual_ratings row from the event alone: the body's fields, who and when the event's. */
int
manual_rating_apply(struct store *s, const struct event_type *t, const struct stored_event *e, const json_t *body,
    struct pb_error *err)
{
	struct manual_rating m;

	memset(&m, 0, sizeof(m));
	snprintf(m.by, sizeof(m.by), "%s", e->actor);
	snprintf(m.at, sizeof(m.at), "%s", e->at);
	if (event_int(body, t->name, "id", EV_REQUIRED, &m.id, err) < 0 ||
	    event_text(body, t->name, "player", EV_REQUIRED, m.player, sizeof(m.player), err) < 0 ||
	    event_text(body, t->name, "table", EV_REQUIRED | EV_NULLABLE, m.table_id, sizeof(m.table_id), err) < 0 ||
	    event_text(body, t->name, "game", EV_REQUIRED, m.game, sizeof(m.game), err) < 0 ||
	    event_int(body, t->name, "average_bet", EV_REQUIRED, &m.average_bet, err) < 0 ||
	    event_int(body, t->name, "minutes", EV_REQUIRED, &m.minutes, err) < 0 ||
	    event_int(body, t->name, "decisions_per_hour", EV_REQUIRED, &m.decisions_per_hour, err) < 0 ||
	    event_text(body, t->name, "gaming_day", EV_REQUIRED, m.gaming_day, sizeof(m.gaming_day), err) < 0 ||
	    event_text(body, t->name, "note", EV_OPTIONAL, m.note, sizeof(m.note), err) < 0)
		return -1;
	if (m.id <= 0 || m.player[0] == '\0' || m.game[0] == '\0' || m.gaming_day[0] == '\0')
		return pb_fail(err, 422, "unreadable_event", "a %s event whose id, player, game or gaming day is empty", t->name);
	if (m.average_bet <= 0 || m.minutes <= 0 || m.decisions_per_hour <= 0)
		return pb_fail(err, 422, "unreadable_event", "a %s event whose average_bet, minutes or decisions_per_hour is not "
		    "above 0", t->name);
	return store_manual_rating_put(s, &m, err);
}
