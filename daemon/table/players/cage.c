/*
 * cage.c - the cage's transactions in currency (players.h; docs/players.md,
 * "Cash controls"): chip redemptions, front money, safekeeping, marker
 * payments, check cashing and cash advances, recorded by a cage session
 * in the players' chain and counted in Title 31 with the tables' cash
 * (31 CFR 1021.311, .313: one patron, one gaming day, in and out apart).
 */
#include "table/players/players_private.h"

#include <stdio.h>
#include <string.h>

#include "common/ids.h"
#include "store/players.h"

static int
do_cage_txn(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	static const char *const KEYS[] = {"player", "direction", "type", "amount", "window", "kind", NULL};
	const json_t *body = arg, *window;
	struct table_txn t;
	const char *type;
	char kind[8] = "";

	if ((a->roles & ROLE_BIT(ROLE_CAGE)) == 0)
		return pb_fail(err, 403, "forbidden", "a cage transaction is recorded by a cage session");
	if (!json_is_object(body))
		return pb_fail(err, 400, "invalid_body", "the body is {\"player\", \"direction\", \"type\", \"amount\", \"window\"?}");
	if (input_known_keys(body, "cage transaction", KEYS, err) < 0)
		return -1;
	/* the cage deals in currency only: "kind" may say so, and nothing else */
	if (json_object_get(body, "kind") != NULL && (json_string_value(json_object_get(body, "kind")) == NULL ||
	    strcmp(json_string_value(json_object_get(body, "kind")), "cash") != 0))
		return pb_fail(err, 422, "invalid_type", "kind: the cage's transactions are currency (\"cash\"); chips and markers "
		    "are recorded at the table");
	memset(&t, 0, sizeof(t));
	if (cash_read_common(body, &t, &type, err) < 0 || cash_type_resolve(true, type, kind, t.direction, t.type, err) < 0)
		return -1;
	window = json_object_get(body, "window");
	if (window != NULL && (!json_is_string(window) || !pb_valid_id(json_string_value(window))))
		return pb_fail(err, 400, "invalid_body", "window: the cage window, 1 to 32 letters, digits, '_' or '-'");
	snprintf(t.window, sizeof(t.window), "%s", window != NULL ? json_string_value(window) : "cage");
	snprintf(t.table_id, sizeof(t.table_id), "%s", CASH_CAGE_TABLE);
	snprintf(t.kind, sizeof(t.kind), "cash");
	if (cash_record(p, a, &t, true, out, err) < 0)
		return -1;
	*status = 201;
	return 0;
}

int
pit_cage_transaction(struct pit *p, const struct actor *a, const struct idempotency *idem, const json_t *body,
    json_t **out, int *status, struct pb_error *err)
{
	return pit_write(p, a, idem, do_cage_txn, (void *)body, out, status, err);
}
