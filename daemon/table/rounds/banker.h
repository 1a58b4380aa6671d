/*
 * banker.h - the rotation of the bank on player-banked tables (seed 003):
 * a seat banks at most max_consecutive rounds in a row, then the position
 * passes clockwise; seats it passes over have declined it.
 */
#ifndef PB_TABLE_BANKER_H
#define PB_TABLE_BANKER_H

#include "table/core/pit.h"

struct rotation {
	int consecutive;               /* rounds in a row this seat will have banked, with this one */
	int declined[MAX_SEATS];       /* seats the position passed over, clockwise */
	int declined_count;
};

/*
 * Reads who banks from the round's banker block b into r: "player": ID (a
 * player's id, kept as text) or "provider": {"badge": ID, "company": TEXT}
 * (a third-party proposition player); neither leaves r's fields "".  400
 * naming the key when the block gives both or a malformed one.
 */
int banker_identity_parse(const json_t *b, struct round_record *r, struct pb_error *err);

/* Adds "player" or "provider" to the banker object o when r names the banker. */
void banker_identity_to_json(const struct round_record *r, json_t *o);

/* Adds "player": player, or "provider": {"badge", "company"} when badge is not "", to o. */
void banker_names_to_json(const char *player, const char *badge, const char *company, json_t *o);

/* Reads "player" or "provider" of a recorded banker object into r (replay). */
void banker_identity_from_json(const json_t *o, struct round_record *r);

/* True when both name the same banker (both unnamed, the same player, or the same badge and company). */
bool banker_identity_equal(const struct round_record *a, const struct round_record *b);

/*
 * Checks that the banker of r (its seat, and who he is when r names him)
 * may bank the next round at table t, given the table's history.  Refuses
 * with 422 rotation_violation when the seat, or the person whatever seat he
 * sat at, has already banked max_consecutive rounds in a row, and with 422
 * provider_company_at_table when the last banker was another badge of the
 * same provider company at another seat (4 CCR 12270(b)(5): one authorized
 * player of a company at a table at a time).
 */
int banker_check_rotation(struct pit *p, const struct table_config *t, const struct round_record *r,
    struct rotation *out, struct pb_error *err);

/* A banker named as a player is a registered one (422 unknown_player); "" is no one, and fine. */
int banker_player_known(struct pit *p, const char *player, struct pb_error *err);

/*
 * The rules on the person alone (banker_person.c): a named player
 * registered, his run of rounds in a row at the table whatever seats he
 * banked from, and one badge of a provider company at the table.  0 when r
 * names nobody.
 */
int banker_check_person(struct pit *p, const struct table_config *t, const struct round_record *r, struct pb_error *err);

/* Records the turn (and the declines) of a round just opened, with who banked. */
int banker_record_turn(struct pit *p, const struct table_config *t, const struct round_record *r,
    const struct rotation *rot, const char *at, struct pb_error *err);

/* GET /api/v1/tables/{t}/bankers: the current position and the rotation history. */
int pit_table_bankers(struct pit *p, const struct actor *a, const char *table_id, int limit, json_t **out,
    struct pb_error *err);

#endif
