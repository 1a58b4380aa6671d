/*
 * ids.h - sizes of the names the record carries: table ids and actor (token)
 * names are 1..32 bytes of [A-Za-z0-9_.-] (pb_valid_id, config/config.h).
 *
 * Person ids and player cards are stricter, so that one cannot pass for
 * another: 1..32 of [A-Za-z0-9_-] (no '.'), and told apart without regard
 * to case ("fl1" is "FL1").  The store checks that uniqueness when a person
 * is added or a card given (COLLATE NOCASE); the rule here is only the
 * characters.  Ids already in a database with other characters stay usable:
 * only new ones are refused.
 */
#ifndef PB_COMMON_IDS_H
#define PB_COMMON_IDS_H

#include <stdbool.h>

#define PB_ID_MAX 33
#define PB_NAME_MAX 97

/* The rule of a new person id or card, as refusals state it. */
#define PB_PERSON_ID_RULE "1 to 32 of A-Z a-z 0-9 _ - (ids that differ only in case are the same id)"
#define PB_CARD_RULE "1 to 32 of A-Z a-z 0-9 _ - (cards that differ only in case are the same card)"

/* A new person's id: 1..32 of [A-Za-z0-9_-] (NULL: false). */
bool pb_valid_person_id(const char *s);

/* A player's card: 1..32 of [A-Za-z0-9_-] (NULL: false). */
bool pb_valid_card(const char *s);

#endif
