/*
 * dealer.h - the person dealing at each table (API.md "People and
 * sessions"): PUT /tables/{t}/dealer records a dealer change, a table event
 * (dealer_changed) in the table's chain; every round opened afterwards
 * carries that dealer in its round_opened event and its row.  And the rule
 * a dealer's session meets when voiding a round after the deal: a floor
 * supervisor's or pit boss's witness (table/witness.h).
 */
#ifndef PB_TABLE_DEALER_H
#define PB_TABLE_DEALER_H

#include <jansson.h>
#include <stdbool.h>

#include "table/core/pit.h"

struct table_state;

/* The roles a witness of a dealer's void after the deal may hold. */
#define DEALER_VOID_WITNESS_ROLES (ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS))

/*
 * PUT /tables/{t}/dealer {"person": ID or null}: the dealer at the table
 * becomes that person (null: nobody).  The actor is a floor supervisor, a
 * pit boss or an admin (a person or a token), or the dealer's own session
 * setting himself (or taking himself off).  The person must exist, be
 * active and hold the dealer role (422 unknown_person, person_inactive,
 * not_a_dealer).  Setting the dealer already there records nothing.  The
 * answer is the table as GET shows it.
 */
int pit_table_set_dealer(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *table_id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * A round being opened at a table whose state is ts takes the table's
 * dealer: r->dealer_id and r->dealer_name (the person's name now; their id
 * when the person is no longer found).  Nothing when the table has none.
 */
int dealer_of_new_round(struct pit *p, const struct table_state *ts, struct round_record *r, struct pb_error *err);

/*
 * Does this actor voiding a round in state `state` need a witness?  Yes
 * for a person's session that may void only as a dealer (no floor, pitboss
 * or admin role) once the cards are dealt (dealt or revealed); terminal
 * tokens void as before.
 */
bool dealer_void_needs_witness(const struct actor *a, enum round_state state);

#endif
