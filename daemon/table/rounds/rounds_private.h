/*
 * rounds_private.h - what the files of rounds/ share and no other folder
 * includes: a round's parts as JSON (view.c) for the live steps' answers
 * and events, the dealer a new round takes, the checks and records of the
 * bank's rotation, and the roll-ups' advance.  The public interface is
 * table/rounds/rounds.h.
 */
#ifndef PB_TABLE_ROUNDS_PRIVATE_H
#define PB_TABLE_ROUNDS_PRIVATE_H

#include <jansson.h>
#include <stdbool.h>

#include "table/rounds/rounds.h"

struct table_state;

/*
 * The same lines for an event body: the same members, inserted with their
 * keys in sorted order, the order of the body's canonical text, so that the
 * timeline of a whole round's answer can share them (store/capture.h).
 */
json_t *payout_lines_event_json(const struct payout_line *lines, int n);

/* The collection of a round as the API shows it: {"seats": {"1": 100}, "banker": 200, "total": 300}. */
json_t *collections_json(const struct collection_fees *f);

/* The round as GET returns it: {"round": {...}}; with_events adds the timeline. */
json_t *round_to_json(struct pit *p, const struct round_record *rec, bool with_events, struct pb_error *err);

/*
 * A round being opened at a table whose state is ts takes the table's
 * dealer: r->dealer_id and r->dealer_name (the person's name now; their id
 * when the person is no longer found).  Nothing when the table has none.
 */
int dealer_of_new_round(struct pit *p, const struct table_state *ts, struct round_record *r, struct pb_error *err);

/*
 * The stored state of configured table table_id into ts, which its
 * table_configured event wrote (pit_sync_tables, at start and on reload).
 * A table without one was never recorded (a reload that could not write
 * it): 500 internal_error, for its next event would have no state to
 * change (view.c).
 */
int table_state_recorded(struct pit *p, const char *table_id, struct table_state *ts, struct pb_error *err);

/*
 * The rotation of the bank a round's banker makes (banker.c).  The seats
 * the position passed over are not in it: passing a seat is no decline, and
 * only the offers made are recorded (POST /tables/{t}/bank-offers).
 */
struct rotation {
	int consecutive;               /* rounds in a row this seat will have banked, with this one */
};

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

#endif
