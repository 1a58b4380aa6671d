/*
 * access.c - the roles of each operation, a token's table scope, the
 * integrity hold (core.h).
 */
#include "table/core/core.h"

#include "store/audit.h"

#define R(role) ROLE_BIT(role)

#define ALL_ROLES (ROLE_BIT(ROLE_KINDS) - 1u)

/* Roles that only read: an actor with no other role is refused every write. */
#define READ_ONLY_ROLES (R(ROLE_AUDITOR) | R(ROLE_SURVEILLANCE))

/* Each operation: the roles that may do it, whether it writes, and the refusal of the others. */
static const struct {
	unsigned roles;
	bool write;
	const char *refusal;
} OPERATIONS[OP_COUNT] = {
	/* every role reads the tables and rounds; the cage and the count will need them for their documents */
	[OP_READ] = {ALL_ROLES, false, NULL},
	[OP_AUDIT_READ] = {R(ROLE_PITBOSS) | R(ROLE_AUDITOR) | R(ROLE_SURVEILLANCE) | R(ROLE_ADMIN), false,
	    "this is for the pitboss, auditor, surveillance and admin roles"},
	[OP_REPORT_READ] = {R(ROLE_PITBOSS) | R(ROLE_FLOOR) | R(ROLE_AUDITOR) | R(ROLE_SURVEILLANCE) | R(ROLE_ADMIN), false,
	    "reports are for the pitboss, floor, auditor, surveillance and admin roles"},
	[OP_BACKUP] = {R(ROLE_ADMIN), false, "backups are the admin role's"},
	[OP_ACKNOWLEDGE] = {R(ROLE_PITBOSS) | R(ROLE_ADMIN), true, "acknowledging an integrity failure is the pitboss role's"},
	[OP_TABLE_CHANGE] = {R(ROLE_PITBOSS) | R(ROLE_ADMIN), true,
	    "opening and closing tables and changing limits is the pitboss role's"},
	[OP_ROUND_OPEN] = {R(ROLE_DEALER) | R(ROLE_ADMIN), true, "dealing a round is the dealer's"},
	[OP_ROUND_STEP] = {R(ROLE_DEALER) | R(ROLE_ADMIN), true, "dealing a round is the dealer's; the pitboss role may void it"},
	[OP_ROUND_VOID] = {R(ROLE_DEALER) | R(ROLE_FLOOR) | R(ROLE_PITBOSS) | R(ROLE_ADMIN), true,
	    "voiding a round is the dealer's, the floor's and the pitboss role's"},
	[OP_PEOPLE_READ] = {R(ROLE_ADMIN) | R(ROLE_PITBOSS) | R(ROLE_FLOOR) | R(ROLE_CAGE) | R(ROLE_AUDITOR) |
	    R(ROLE_SURVEILLANCE), false,
	    "the people are read by the admin, pitboss, floor, cage, auditor and surveillance roles"},
	[OP_PEOPLE_CHANGE] = {R(ROLE_ADMIN), true, "managing people is the admin role's"},
	[OP_PASSWORD] = {ALL_ROLES, true, NULL},
	[OP_SESSION] = {ALL_ROLES, false, NULL},
	/* a dealer sets only himself, and only from his own session: table/rounds/dealer.c checks that */
	[OP_DEALER_SET] = {R(ROLE_DEALER) | R(ROLE_FLOOR) | R(ROLE_PITBOSS) | R(ROLE_ADMIN), true,
	    "the dealer at a table is set by the dealer's own session, a floor supervisor or a pit boss"},
	/* the accounting documents: the session's signer (table/accounting/accounting.h names the witnesses) */
	/* a dealer's session signs an opener or closer under accounting.signatures "nj" only (acct_signatures.c) */
	[OP_INVENTORY] = {R(ROLE_DEALER) | R(ROLE_FLOOR) | R(ROLE_PITBOSS), true,
	    "an opener or closer is signed by the dealer, a floor supervisor or a pit boss"},
	[OP_TRANSFER] = {R(ROLE_CAGE), true, "fills and credits are signed by the cage"},
	[OP_TRANSFER_VOID] = {R(ROLE_CAGE) | R(ROLE_FLOOR) | R(ROLE_PITBOSS), true,
	    "a fill or credit is voided by the cage, a floor supervisor or a pit boss"},
	[OP_TRANSFER_RECEIPT] = {R(ROLE_DEALER) | R(ROLE_FLOOR) | R(ROLE_PITBOSS), true,
	    "a fill or credit is received at the table by the dealer, a floor supervisor or a pit boss"},
	[OP_DROP] = {R(ROLE_COUNT), true, "the drop is signed by the count team"},
	[OP_EXCEPTION_ACK] = {R(ROLE_PITBOSS), true, "acknowledging an exception is the pitboss role's"},
	/* the players (table/players/players.h): what a role reads of a record is decided there */
	[OP_PLAYER_READ] = {ALL_ROLES, false, NULL},
	[OP_PLAYER_CHANGE] = {R(ROLE_CAGE) | R(ROLE_FLOOR) | R(ROLE_PITBOSS) | R(ROLE_ADMIN), true,
	    "players are registered and changed by the cage, floor, pitboss and admin roles"},
	[OP_PLAYER_PERSONAL] = {R(ROLE_CAGE) | R(ROLE_FLOOR) | R(ROLE_PITBOSS) | R(ROLE_ADMIN) | R(ROLE_SURVEILLANCE) |
	    R(ROLE_AUDITOR), false, "ratings and the Title 31 log are for the cage, floor, pitboss, surveillance, auditor and "
	    "admin roles"},
	[OP_SEATING] = {R(ROLE_DEALER) | R(ROLE_FLOOR) | R(ROLE_PITBOSS) | R(ROLE_ADMIN), true,
	    "seating players and recording cash and chips at a table is the dealer's (at his own table), the floor's and "
	    "the pitboss role's"},
	[OP_TITLE31_ACK] = {R(ROLE_CAGE) | R(ROLE_PITBOSS), true,
	    "a Title 31 alert or CTR item is acknowledged by the cage or a pit boss"},
	[OP_BANK_OFFER] = {R(ROLE_DEALER) | R(ROLE_FLOOR) | R(ROLE_PITBOSS) | R(ROLE_ADMIN), true,
	    "an offer of the bank is recorded by the dealer, a floor supervisor or a pit boss"},
	[OP_CORRECTION] = {R(ROLE_FLOOR) | R(ROLE_PITBOSS), true,
	    "a payout is corrected by a floor supervisor or pit boss, with a witness"},
	[OP_CAGE_CASH] = {R(ROLE_CAGE), true, "a cage transaction is recorded by a cage session"},
	[OP_TXN_VOID] = {R(ROLE_FLOOR) | R(ROLE_PITBOSS) | R(ROLE_CAGE), true,
	    "a transaction is voided by a floor supervisor, a pit boss or the cage, with a witness"},
	[OP_PLAYER_MERGE] = {R(ROLE_CAGE) | R(ROLE_PITBOSS), true, "records are merged by the cage or a pit boss, with a witness"},
	[OP_CTR_UPDATE] = {R(ROLE_CAGE) | R(ROLE_PITBOSS), true, "a CTR item is moved on by the cage or a pit boss"},
	[OP_MANUAL_RATING] = {R(ROLE_FLOOR) | R(ROLE_PITBOSS), true, "a manual rating is recorded by a floor supervisor or "
	    "pit boss"},
	[OP_VARIANCE_INVESTIGATE] = {R(ROLE_FLOOR) | R(ROLE_PITBOSS), true, "a variance is investigated by a floor "
	    "supervisor or pit boss (resolved by a pit boss, with a second person)"},
	[OP_SERIAL_EXPLAIN] = {R(ROLE_PITBOSS) | R(ROLE_CAGE), true,
	    "a slip's serial is accounted for by a pit boss or the cage, with a witness"},
};

int
authorize(const struct actor *a, enum pit_operation op, const char *table_id, struct pb_error *err)
{
	if (op < 0 || op >= OP_COUNT)
		return pb_fail(err, 500, "internal_error", "unknown operation");
	if ((OPERATIONS[op].roles & a->roles) == 0)
		return pb_fail(err, 403, "forbidden", "%s", OPERATIONS[op].refusal);
	if (table_id != NULL)
		return pit_check_table_access(a, table_id, OPERATIONS[op].write, err);
	return 0;
}

unsigned
pit_operation_roles(enum pit_operation op)
{
	return op >= 0 && op < OP_COUNT ? OPERATIONS[op].roles : 0;
}

int
pit_check_table_access(const struct actor *a, const char *table_id, bool write, struct pb_error *err)
{
	if (write && (a->roles & ~READ_ONLY_ROLES) == 0)
		return pb_fail(err, 403, "forbidden", "the auditor role reads only");
	if (a->token != NULL && !token_allows_table(a->token, table_id))
		return pb_fail(err, 403, "forbidden", "token \"%s\" is not allowed at table %s", a->name, table_id);
	return 0;
}

/* A table whose record failed its integrity check takes no writes until a pit boss acknowledges it. */
int
pit_check_hold(struct pit *p, const char *table_id, struct pb_error *err)
{
	char reason[300];
	bool held;

	if (store_table_hold_get(p->store, table_id, reason, sizeof(reason), &held, err) < 0)
		return -1;
	if (held)
		return pb_fail(err, 409, "integrity_hold",
		    "table %s is on hold: %s; a pit boss must look into it and acknowledge it (POST /api/v1/tables/%s/acknowledge)",
		    table_id, reason, table_id);
	return 0;
}
