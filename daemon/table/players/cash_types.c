/*
 * cash_types.c - the types of the transactions at a table and at the cage
 * (players_private.h; docs/players.md, "Cash controls"), with the kinds
 * and directions each can have.  31 CFR 1021.311 lists what is cash in and
 * cash out at a casino: purchases of chips, front money and safekeeping
 * deposits, payments on credit and bets of currency are cash in;
 * redemptions of chips, front money and safekeeping withdrawals, advances
 * on credit and the cashing of checks are cash out.
 */
#include "table/players/players_private.h"

#include <stdio.h>
#include <string.h>

#define K_CASH 1u
#define K_CHIPS 2u
#define K_MARKER 4u
#define D_IN 1u
#define D_OUT 2u

static const struct cash_type {
	const char *name;
	bool cage;
	unsigned kinds, directions;
	const char *implied_kind;   /* the kind when the body leaves it out; NULL: it must be given */
	const char *is;             /* what it is, for a refusal */
} TYPES[] = {
	{"chip_purchase", false, K_CASH, D_IN, "cash", "currency in for chips"},
	{"money_play", false, K_CASH, D_IN, "cash", "currency wagered directly, in"},
	{"marker_issue", false, K_MARKER, D_IN, "marker", "a marker (credit) in for chips"},
	{"marker_redemption", false, K_CASH | K_CHIPS, D_IN, NULL, "cash or chips in to pay a marker"},
	{"other", false, K_CASH | K_CHIPS | K_MARKER, D_IN | D_OUT, NULL, "any kind, in or out"},
	{"chip_redemption", true, K_CASH, D_OUT, "cash", "currency out for chips"},
	{"front_money", true, K_CASH, D_IN | D_OUT, "cash", "a deposit (in) or withdrawal (out) of front money"},
	{"safekeeping", true, K_CASH, D_IN | D_OUT, "cash", "a deposit (in) or withdrawal (out) of safekeeping"},
	{"marker_payment", true, K_CASH, D_IN, "cash", "currency in to pay a marker"},
	{"check_cashing", true, K_CASH, D_OUT, "cash", "currency out for a check"},
	{"cash_advance", true, K_CASH, D_OUT, "cash", "currency out as a credit card or other advance"},
	{"other", true, K_CASH, D_IN | D_OUT, "cash", "currency in or out"},
};

#define TABLE_TYPES "chip_purchase, money_play, marker_issue, marker_redemption or other"
#define CAGE_TYPES "chip_redemption, front_money, safekeeping, marker_payment, check_cashing, cash_advance or other"

static unsigned
kind_bit(const char *kind)
{
	return strcmp(kind, "cash") == 0 ? K_CASH : strcmp(kind, "chips") == 0 ? K_CHIPS :
	    strcmp(kind, "marker") == 0 ? K_MARKER : 0;
}

int
cash_type_resolve(bool cage, const char *type, char kind[8], const char *direction, char type_out[24],
    struct pb_error *err)
{
	const struct cash_type *t = NULL;
	unsigned dir = strcmp(direction, "in") == 0 ? D_IN : D_OUT;

	if (type == NULL && cage)
		return pb_fail(err, 400, "invalid_body", "type: " CAGE_TYPES);
	if (type == NULL) {
		/* the table's default: what the kind and direction were before types */
		if (kind[0] == '\0')
			return pb_fail(err, 400, "invalid_body", "kind: \"cash\", \"chips\" or \"marker\" (or give a \"type\" "
			    "that implies it: chip_purchase, money_play, marker_issue)");
		type = dir == D_IN && strcmp(kind, "cash") == 0 ? "chip_purchase" :
		    dir == D_IN && strcmp(kind, "marker") == 0 ? "marker_issue" : "other";
	}
	for (size_t i = 0; i < sizeof(TYPES) / sizeof(TYPES[0]) && t == NULL; i++)
		if (TYPES[i].cage == cage && strcmp(TYPES[i].name, type) == 0)
			t = &TYPES[i];
	if (t == NULL) {
		/* a type of the other place is a known type in the wrong place: 422, saying where it belongs */
		for (size_t i = 0; i < sizeof(TYPES) / sizeof(TYPES[0]); i++)
			if (strcmp(TYPES[i].name, type) == 0)
				return pb_fail(err, 422, "invalid_type", "a %s is recorded %s; %s: %s", type, cage ? "at a table" :
				    "at the cage", cage ? "the cage's types" : "a table's types", cage ? CAGE_TYPES : TABLE_TYPES);
		return pb_fail(err, 400, "invalid_body", "type: %s", cage ? CAGE_TYPES : TABLE_TYPES);
	}
	if (kind[0] == '\0' && t->implied_kind == NULL)
		return pb_fail(err, 400, "invalid_body", "kind: a %s is %s; say which (\"kind\")", t->name, t->is);
	if (kind[0] == '\0')
		snprintf(kind, 8, "%s", t->implied_kind);
	if ((kind_bit(kind) & t->kinds) == 0 || (dir & t->directions) == 0)
		return pb_fail(err, 422, "invalid_type", "a %s is %s, not %s %s%s", t->name, t->is, kind, direction,
		    cage ? "" : "; \"other\" takes any kind and direction");
	snprintf(type_out, 24, "%s", t->name);
	return 0;
}
