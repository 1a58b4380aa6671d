/*
 * banker_person.c - who banks a round on a player-banked table (rounds.h):
 * a player, named by his id, or a third-party proposition player, named by
 * his badge and the provider company he banks for; the rotation counted per
 * person (a seat change does not reset it) and the rule of one authorized
 * player of a provider company at a table (docs/players.md, "The banker").
 */
#include "table/rounds/rounds_private.h"

#include <stdlib.h>
#include <string.h>

#include "common/event_read.h"
#include "common/text.h"
#include "store/players.h"
#include "store/store.h"

/* "provider": {"badge": ID, "company": TEXT}: both required, the company free text that is not blank. */
static int
parse_provider(const json_t *v, struct round_record *r, struct pb_error *err)
{
	static const char *const KEYS[] = {"badge", "company", NULL};
	const json_t *badge = json_object_get(v, "badge"), *company = json_object_get(v, "company");

	if (!json_is_object(v))
		return pb_fail(err, 400, "invalid_body", "banker.provider: must be {\"badge\": \"TPPPS-0192\", \"company\": \"...\"}");
	if (input_known_keys(v, "banker.provider", KEYS, err) < 0)
		return -1;
	if (!json_is_string(badge) || !pb_valid_id(json_string_value(badge)))
		return pb_fail(err, 400, "invalid_body", "banker.provider.badge: the badge's number (1..32 of A-Z a-z 0-9 _ . -)");
	if (!json_is_string(company) || json_string_length(company) >= ROUND_COMPANY_MAX ||
	    pb_text_blank(json_string_value(company), json_string_length(company)))
		return pb_fail(err, 400, "invalid_body", "banker.provider.company: the provider company's name, 1..%d bytes, not blank",
		    ROUND_COMPANY_MAX - 1);
	if (pb_text_check_controls("banker.provider.company", json_string_value(company), json_string_length(company), err) < 0)
		return -1;
	if (strchr(json_string_value(company), '\n') != NULL)
		return pb_fail(err, 400, "invalid_text", "banker.provider.company: one line, no newline");
	snprintf(r->provider_badge, sizeof(r->provider_badge), "%s", json_string_value(badge));
	snprintf(r->provider_company, sizeof(r->provider_company), "%s", json_string_value(company));
	return 0;
}

int
banker_identity_parse(const json_t *b, struct round_record *r, struct pb_error *err)
{
	const json_t *player = json_object_get(b, "player"), *provider = json_object_get(b, "provider");

	r->banker_player[0] = r->provider_badge[0] = r->provider_company[0] = '\0';
	if (player != NULL && provider != NULL)
		return pb_fail(err, 400, "invalid_body", "banker: give \"player\" or \"provider\", not both");
	if (provider != NULL)
		return parse_provider(provider, r, err);
	if (player == NULL)
		return 0;
	if (!json_is_string(player) || !pb_valid_id(json_string_value(player)))
		return pb_fail(err, 400, "invalid_body", "banker.player: the banking player's id (1..32 of A-Z a-z 0-9 _ . -)");
	snprintf(r->banker_player, sizeof(r->banker_player), "%s", json_string_value(player));
	return 0;
}

void
banker_identity_to_json(const struct round_record *r, json_t *o)
{
	banker_names_to_json(r->banker_player, r->provider_badge, r->provider_company, o);
}

void
banker_names_to_json(const char *player, const char *badge, const char *company, json_t *o)
{
	if (player[0])
		json_object_set_new(o, "player", json_string(player));
	else if (badge[0])
		json_object_set_new(o, "provider", json_pack("{s:s,s:s}", "badge", badge, "company", company));
}

int
banker_identity_from_json(const json_t *o, const struct event_in *in, struct round_record *r, struct pb_error *err)
{
	char path[64];
	struct event_in at_provider = {in->type, path, -1};
	const json_t *provider;

	r->banker_player[0] = r->provider_badge[0] = r->provider_company[0] = '\0';
	if (event_text_in(o, in, "player", EV_OPTIONAL, r->banker_player, sizeof(r->banker_player), err) < 0 ||
	    event_object_in(o, in, "provider", EV_OPTIONAL, &provider, err) < 0)
		return -1;
	if (provider == NULL)
		return 0;
	snprintf(path, sizeof(path), "%s.provider", in->path != NULL ? in->path : "");
	if (event_text_in(provider, &at_provider, "badge", EV_REQUIRED, r->provider_badge, sizeof(r->provider_badge),
	    err) < 0 || event_text_in(provider, &at_provider, "company", EV_REQUIRED, r->provider_company,
	    sizeof(r->provider_company), err) < 0)
		return -1;
	return 0;
}

bool
banker_identity_equal(const struct round_record *a, const struct round_record *b)
{
	return strcmp(a->banker_player, b->banker_player) == 0 && strcmp(a->provider_badge, b->provider_badge) == 0 &&
	    strcmp(a->provider_company, b->provider_company) == 0;
}

/* True when the recorded turn t was banked by the person r names (a player by id, a provider by badge). */
static bool
same_person(const struct banker_turn *t, const struct round_record *r)
{
	if (r->banker_player[0])
		return strcmp(t->player, r->banker_player) == 0;
	return r->provider_badge[0] && strcmp(t->badge, r->provider_badge) == 0;
}

/* The name of the banker r names, for a refusal: "player P7" or "provider badge B (company C)". */
static void
person_name(const struct round_record *r, char *out, size_t n)
{
	if (r->banker_player[0])
		snprintf(out, n, "player %s", r->banker_player);
	else
		snprintf(out, n, "provider badge %s (%s)", r->provider_badge, r->provider_company);
}

/*
 * The person's run: the rounds in a row, newest first, that the person r
 * names banked at the table, whatever seats he banked them from (recent[0..n)
 * the table's last banks of rounds not voided).
 */
static int
person_run(const struct banker_turn *recent, int n, const struct round_record *r)
{
	int run = 0;

	while (run < n && same_person(&recent[run], r))
		run++;
	return run;
}

int
banker_player_known(struct pit *p, const char *player, struct pb_error *err)
{
	json_t *record;

	if (player[0] == '\0')
		return 0;
	if (store_player_get(p->store, player, &record, err) < 0)
		return -1;
	if (record == NULL)
		return pb_fail(err, 422, "unknown_player", "banker.player: there is no player %s; register the banker first "
		    "(POST /api/v1/players), or name a third-party banker by \"provider\"", player);
	json_decref(record);
	return 0;
}

int
banker_check_person(struct pit *p, const struct table_config *t, const struct round_record *r, struct pb_error *err)
{
	int max = t->banker.max_consecutive, n = 0, run, rc = -1;
	struct banker_turn *recent;
	char who[160];

	if (!r->banker_player[0] && !r->provider_badge[0])
		return 0;
	if (banker_player_known(p, r->banker_player, err) < 0)
		return -1;
	if ((recent = calloc((size_t)max, sizeof(*recent))) == NULL)
		return pb_oom(err);
	if (store_banker_recent(p->store, t->id, max, recent, &n, err) < 0)
		goto out;
	person_name(r, who, sizeof(who));
	run = person_run(recent, n, r);
	if (run >= max) {
		pb_fail(err, 422, "rotation_violation",
		    "%s has banked %d rounds in a row at table %s (the last from seat %d), the most allowed whatever seat he sits at; "
		    "the bank passes to another person", who, run, t->id, recent[0].seat);
		goto out;
	}
	if (n > 0 && r->provider_badge[0] && recent[0].badge[0] && strcmp(recent[0].badge, r->provider_badge) != 0 &&
	    strcmp(recent[0].company, r->provider_company) == 0 && recent[0].seat != r->banker_seat) {
		pb_fail(err, 422, "provider_company_at_table",
		    "%s: badge %s of the same company banks at seat %d of table %s; one authorized player of a provider company "
		    "at a table at a time (relieve him at seat %d, or let another banker take the bank)", who, recent[0].badge,
		    recent[0].seat, t->id, recent[0].seat);
		goto out;
	}
	rc = 0;
out:
	free(recent);
	return rc;
}
