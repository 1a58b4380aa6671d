/*
 * txn_list.c - a gaming day's transactions, at the tables and the cage
 * (players.h): GET /api/v1/transactions, void ones marked, for the cage's
 * view and the auditor.
 */
#include "table/players/players_private.h"

#include <string.h>

#include "common/gaming_day.h"
#include "common/ids.h"
#include "store/players.h"

int
pit_transactions_list(struct pit *p, const struct actor *a, const char *gaming_day, const char *player, const char *where,
    json_t **out, struct pb_error *err)
{
	json_t *list;
	int64_t day;
	const char *place = NULL;

	if ((a->roles & PLAYER_PERSONAL_ROLES) == 0)
		return pb_fail(err, 403, "forbidden", "the transactions are for the cage, floor, pitboss, surveillance, auditor and "
		    "admin roles");
	if (gaming_day == NULL || gaming_day_parse(gaming_day, &day) < 0)
		return pb_fail(err, 400, "invalid_query", "gaming_day: a gaming day YYYY-MM-DD");
	if (player != NULL && player[0] != '\0' && !pb_valid_id(player))
		return pb_fail(err, 400, "invalid_query", "player: a player's id");
	if (where != NULL && where[0] != '\0') {
		if (strcmp(where, "cage") == 0)
			place = CASH_CAGE_TABLE;
		else if (config_table(p->cfg, where) != NULL)
			place = where;
		else
			return pb_fail(err, 400, "invalid_query", "where: \"cage\" or a table's id");
	}
	if (store_txns_list(p->store, gaming_day, player != NULL && player[0] ? player : NULL, place, &list, err) < 0)
		return -1;
	*out = json_pack("{s:s,s:o}", "gaming_day", gaming_day, "transactions", list);
	return *out != NULL ? 0 : pb_oom(err);
}
