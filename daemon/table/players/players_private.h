/*
 * players_private.h - what the files of players/ share and no other folder
 * includes: the players' chain, who may write a record, the record as a
 * reader without the personal roles sees it, who may act at a table, and
 * the Title 31 limits in force.  The public interface is
 * table/players/players.h.
 */
#ifndef PB_TABLE_PLAYERS_PRIVATE_H
#define PB_TABLE_PLAYERS_PRIVATE_H

#include <jansson.h>

#include "store/event_types.h"
#include "table/players/players.h"

#define PLAYERS_CHAIN EVENT_PLAYERS_TABLE    /* "_players" (store/event_types.h) */

/* The longest field of a player's record (card, name, date_of_birth, ...), in bytes. */
#define PLAYER_FIELD_MAX 200

/* The longest note of a Title 31 acknowledgment, in bytes. */
#define TITLE31_NOTE_MAX 500

/* The roles that register players and change their records. */
#define PLAYER_WRITE_ROLES (ROLE_BIT(ROLE_CAGE) | ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS) | ROLE_BIT(ROLE_ADMIN))

/* The record as a reader without the personal roles sees it: id, card, anonymous, display (new reference). */
json_t *player_public_json(const json_t *record, const struct actor *a);

/* The dealer's own table, or a supervisor: 403 saying who may otherwise. */
int players_check_table_actor(struct pit *p, const struct actor *a, const char *table_id, struct pb_error *err);

/* The configured limits (title31.* keys, their defaults otherwise). */
void title31_limits_of(const struct pit *p, struct title31_limits *lim);

#endif
