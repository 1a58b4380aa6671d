/*
 * access.h - who may do what: a token's table scope, the integrity hold on
 * a table, and the roles each operation of the pit is for.
 *
 * The operations are named once, with the roles allowed and the exact
 * refusal (403 forbidden) a caller of another role gets.  The table layer
 * authorizes its own operations, so a direct caller (simulate --direct, a
 * unit test) meets the same refusals; the HTTP route table names the
 * operation of each route and checks at the edge those whose refusal comes
 * before anything else is read (reports, the audit reads, backups).
 */
#ifndef PB_TABLE_ACCESS_H
#define PB_TABLE_ACCESS_H

#include <stdbool.h>

#include "common/error.h"

struct actor;
struct pit;

enum pit_operation {
	OP_READ = 0,        /* tables, rounds, checkpoints, verify: any role (within its table scope) */
	OP_AUDIT_READ,      /* the integrity report and the significant events */
	OP_REPORT_READ,     /* the reports, JSON or CSV */
	OP_BACKUP,          /* a copy of the database */
	OP_ACKNOWLEDGE,     /* lifting an integrity hold */
	OP_TABLE_CHANGE,    /* opening, closing a table, changing its limits */
	OP_ROUND_OPEN,      /* opening a round, or recording a whole one */
	OP_ROUND_STEP,      /* bets, close, deal, decisions, reveal, settle */
	OP_ROUND_VOID,      /* voiding a round */
	OP_PEOPLE_READ,     /* the people: who an id is */
	OP_PEOPLE_CHANGE,   /* adding people, changing their name, roles, whether they are active */
	OP_PASSWORD,        /* a password: one's own (any person), another's (admin; table/people.c decides) */
	OP_SESSION,         /* signing in and out */
	OP_DEALER_SET,      /* the dealer at a table: a dealer's own session, or floor and pitboss (table/dealer.h) */
	OP_INVENTORY,       /* an opener or closer (table/accounting.h) */
	OP_TRANSFER,        /* a fill or credit */
	OP_TRANSFER_VOID,   /* voiding a fill or credit */
	OP_DROP,            /* the drop as counted */
	OP_EXCEPTION_ACK,   /* acknowledging an accounting exception */
	OP_PLAYER_READ,     /* a player's record: every role, personal data only for some (table/players.h) */
	OP_PLAYER_CHANGE,   /* registering players, changing their records */
	OP_PLAYER_PERSONAL, /* ratings and the Title 31 log: the roles that read personal data */
	OP_SEATING,         /* seating players, the cash and chips at a table: dealer (own table), floor, pitboss */
	OP_TITLE31_ACK,     /* acknowledging a Title 31 alert or CTR item */
	OP_BANK_OFFER,      /* an offer of the bank and its answer (table/bank_offer.h) */
	OP_CORRECTION,      /* correcting a settled round's payout (table/corrections.h) */
	OP_COUNT
};

/*
 * May this actor do op?  403 forbidden with the operation's message when
 * its role may not; then, when table_id is not NULL, the table access of
 * pit_check_table_access (writing for the operations that write).
 */
int authorize(const struct actor *a, enum pit_operation op, const char *table_id, struct pb_error *err);

/* The roles that may do op (ROLE_BIT()s of config/config.h); 0 for an unknown op.  `pitboss routes` lists them. */
unsigned pit_operation_roles(enum pit_operation op);

/* May this actor act on (write=true) or read this table?  403 otherwise. */
int pit_check_table_access(const struct actor *a, const char *table_id, bool write, struct pb_error *err);

/* 409 integrity_hold when the table failed its start-up integrity check and no pit boss acknowledged it yet. */
int pit_check_hold(struct pit *p, const char *table_id, struct pb_error *err);

#endif
