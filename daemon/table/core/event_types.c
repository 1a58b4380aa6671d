/*
 * event_types.c - the registry of event types (event_types.h): one row per
 * type of event the record can hold, with the functions that apply its
 * events to the derived rows and check the rows against them.  Each row was
 * written from the code that records the type (the call sites of
 * store_append_event and the bodies they build); tests/unit/
 * test_event_types.c checks the rows against the state machine, their
 * apply and check, and docs/audit.md, and tests/integration/
 * test_event_types.py checks every body its scenarios store against them.
 *
 * A field is required when every event of the type recorded so far has it;
 * a field added to a type later is optional, so that the rows describe the
 * older records too.  The fields of a body are listed in key order, the
 * order of its canonical text.
 *
 * The columns after the fields: apply, check, flags (EVENT_WITH_ROUND: a
 * round's step, applied and checked with its round; EVENT_NO_ROWS: nothing
 * to apply or check), the derived tables, the description; and a round's
 * step's replay (rounds/replay.c), which the other rows leave out (NULL).
 */
#include "table/core/event_types.h"

#include <string.h>

#include "engine/round.h"

/* A required field, an optional one, and a row's list of them (ended by a NULL key). */
#define REQ(key, types) {key, types, true}
#define OPT(key, types) {key, types, false}
#define FIELDS(...) ((const struct event_field[]){__VA_ARGS__, {NULL, 0, false}})
#define NO_FIELDS ((const struct event_field[]){{NULL, 0, false}})

/* Every accounting document has these (docs/audit.md, "Accounting events"); they interleave with the rest by key. */
#define DOC_GAMING_DAY REQ("gaming_day", EF_STRING)
#define DOC_ID REQ("id", EF_INTEGER)
#define DOC_SHIFT REQ("shift", EF_STRING | EF_NULL)
#define DOC_SIGNER REQ("signer", EF_STRING)
#define DOC_TOTAL REQ("total", EF_INTEGER)
#define DOC_WITNESS REQ("witness", EF_STRING)
#define DOC_WITNESSES OPT("witnesses", EF_ARRAY)   /* every witness's id: the bodies of schema 021 on */

/* A player's record (table/players/players.c): the whole record as it stands after the change. */
#define PLAYER_RECORD FIELDS( \
	OPT("address", EF_STRING), REQ("anonymous", EF_BOOLEAN), OPT("card", EF_STRING), \
	OPT("date_of_birth", EF_STRING), OPT("description", EF_STRING), REQ("id", EF_STRING), \
	OPT("id_expiry", EF_STRING), OPT("id_issuer", EF_STRING), OPT("id_number", EF_STRING), \
	OPT("id_type", EF_STRING), OPT("name", EF_STRING))

/* A fill's or a credit's slip (table/accounting/acct_events.c acct_body). */
#define TRANSFER_SLIP FIELDS( \
	REQ("chips", EF_OBJECT), DOC_GAMING_DAY, DOC_ID, REQ("requester", EF_STRING | EF_NULL), \
	REQ("runner", EF_STRING | EF_NULL), REQ("serial", EF_STRING), DOC_SHIFT, DOC_SIGNER, DOC_TOTAL, DOC_WITNESS, \
	DOC_WITNESSES, REQ("year", EF_INTEGER))

/* The void of a fill's or a credit's slip. */
#define VOID_SLIP FIELDS( \
	DOC_GAMING_DAY, DOC_ID, REQ("reason", EF_STRING), REQ("serial", EF_STRING), DOC_SHIFT, DOC_SIGNER, DOC_TOTAL, \
	REQ("voids", EF_INTEGER), DOC_WITNESS, DOC_WITNESSES, REQ("year", EF_INTEGER))

/* A fill's or a credit's slip received at the table: slip is the id of the slip received. */
#define RECEIPT_SLIP FIELDS( \
	DOC_GAMING_DAY, DOC_ID, REQ("serial", EF_STRING), DOC_SHIFT, DOC_SIGNER, REQ("slip", EF_INTEGER), DOC_TOTAL, \
	DOC_WITNESS, REQ("witnesses", EF_ARRAY), REQ("year", EF_INTEGER))

/* A seating or a leaving (table/players/seating.c). */
#define SEAT_CHANGE FIELDS(REQ("player", EF_STRING), REQ("seat", EF_INTEGER))

/* The last column, replay, is only a round's step's: the rows of no round end with NULL. */
const struct event_type EVENT_TYPES[EVT_COUNT] = {
	/* ---- the steps of a round: table/rounds/round.c, in the state machine's order (engine/round.c) ---- */
	[EVT_ROUND_OPENED] = {"round_opened", EVENT_CHAIN_ROUND, STEP_OPEN,
	    FIELDS(OPT("banker", EF_OBJECT), REQ("banking", EF_STRING), OPT("collection", EF_OBJECT),
	        OPT("dealer", EF_OBJECT), REQ("limits", EF_OBJECT), OPT("players", EF_OBJECT), REQ("round_no", EF_INTEGER),
	        REQ("rules", EF_OBJECT), REQ("seats", EF_INTEGER)),
	    NULL, NULL, EVENT_WITH_ROUND, "rounds, round_players, banker_turns",
	    "a round opened: the rules, limits, banker and collection in force, the dealer and the players seated",
	    .replay = replay_round_opened},
	[EVT_BET_PLACED] = {"bet_placed", EVENT_CHAIN_ROUND, STEP_BET_PUT,
	    FIELDS(REQ("ante", EF_INTEGER), REQ("pair_plus", EF_INTEGER), REQ("seat", EF_INTEGER),
	        REQ("six_card", EF_INTEGER)),
	    NULL, NULL, EVENT_WITH_ROUND, "bets", "a seat's bet placed, or replaced, while betting is open (cents)",
	    .replay = replay_bet},
	[EVT_BET_REMOVED] = {"bet_removed", EVENT_CHAIN_ROUND, STEP_BET_DELETE,
	    FIELDS(REQ("seat", EF_INTEGER)),
	    NULL, NULL, EVENT_WITH_ROUND, "bets", "a seat's bet taken down while betting is open", .replay = replay_bet},
	[EVT_BETTING_CLOSED] = {"betting_closed", EVENT_CHAIN_ROUND, STEP_CLOSE, NO_FIELDS,
	    NULL, NULL, EVENT_WITH_ROUND, "rounds", "no more bets", .replay = replay_betting_closed},
	[EVT_CARDS_DEALT] = {"cards_dealt", EVENT_CHAIN_ROUND, STEP_DEAL,
	    FIELDS(OPT("dealer", EF_ARRAY), REQ("hands", EF_OBJECT)),
	    NULL, NULL, EVENT_WITH_ROUND, "hands",
	    "the three cards of every seat with a bet, in the order given, and the dealer's when dealt with them",
	    .replay = replay_cards_dealt},
	[EVT_DECISION] = {"decision", EVENT_CHAIN_ROUND, STEP_DECIDE,
	    FIELDS(REQ("action", EF_STRING), REQ("seat", EF_INTEGER)),
	    NULL, NULL, EVENT_WITH_ROUND, "decisions", "a seat plays or folds", .replay = replay_decision},
	[EVT_DEALER_REVEALED] = {"dealer_revealed", EVENT_CHAIN_ROUND, STEP_REVEAL,
	    FIELDS(REQ("dealer", EF_ARRAY)),
	    NULL, NULL, EVENT_WITH_ROUND, "hands",
	    "the dealer's three cards, when they were not dealt with the seats'", .replay = replay_dealer_revealed},
	[EVT_ROUND_SETTLED] = {"round_settled", EVENT_CHAIN_ROUND, STEP_SETTLE,
	    FIELDS(OPT("bank_end", EF_INTEGER), OPT("collections", EF_OBJECT), REQ("dealer_qualifies", EF_BOOLEAN),
	        REQ("payouts", EF_ARRAY), REQ("players_net", EF_INTEGER)),
	    NULL, NULL, EVENT_WITH_ROUND, "payouts, collections, rounds, report_hours",
	    "every payout line in payout order, the players' net, the bank at the end, the collections",
	    .replay = replay_round_finished},
	[EVT_ROUND_VOIDED] = {"round_voided", EVENT_CHAIN_ROUND, STEP_VOID,
	    FIELDS(REQ("from_state", EF_STRING), REQ("payouts", EF_ARRAY), REQ("reason", EF_STRING),
	        OPT("witness", EF_STRING)),
	    NULL, NULL, EVENT_WITH_ROUND, "payouts, rounds, report_hours",
	    "a misdeal: the reason, the state it was voided from, the stakes returned, the second signer if any",
	    .replay = replay_round_finished},

	/* ---- a table's events (round 0) ---- */
	[EVT_TABLE_CONFIGURED] = {"table_configured", EVENT_CHAIN_TABLE, EVENT_NO_STEP,
	    FIELDS(REQ("banking", EF_STRING), OPT("config_loaded_sha256", EF_STRING), REQ("config_sha256", EF_STRING),
	        REQ("game", EF_STRING), OPT("game_sha256", EF_STRING), REQ("limits", EF_OBJECT), REQ("name", EF_STRING),
	        REQ("open", EF_BOOLEAN), REQ("previous", EF_STRING), REQ("seats", EF_INTEGER)),
	    table_state_apply, table_state_check, 0, "table_state",
	    "the table's entry of the configuration, new or changed, with the hashes of its game and of the files loaded", NULL},
	[EVT_RULES_CHANGED] = {"rules_changed", EVENT_CHAIN_TABLE, EVENT_NO_STEP,
	    FIELDS(REQ("config_loaded_sha256", EF_STRING), REQ("game", EF_STRING), REQ("game_sha256", EF_STRING),
	        REQ("previous_game_sha256", EF_STRING)),
	    NULL, NULL, EVENT_NO_ROWS, NULL, "a reload changed the table's game file, not its entry", NULL},
	[EVT_TABLE_OPENED] = {"table_opened", EVENT_CHAIN_TABLE, EVENT_NO_STEP, NO_FIELDS,
	    table_state_apply, table_state_check, 0, "table_state", "the table opened for play", NULL},
	[EVT_TABLE_CLOSED] = {"table_closed", EVENT_CHAIN_TABLE, EVENT_NO_STEP, NO_FIELDS,
	    table_state_apply, table_state_check, 0, "table_state", "the table closed", NULL},
	[EVT_LIMITS_CHANGED] = {"limits_changed", EVENT_CHAIN_TABLE, EVENT_NO_STEP,
	    FIELDS(REQ("limits", EF_OBJECT), REQ("previous", EF_OBJECT)),
	    table_state_apply, table_state_check, 0, "table_state",
	    "the table's limits changed: the new limits and those before", NULL},
	[EVT_DEALER_CHANGED] = {"dealer_changed", EVENT_CHAIN_TABLE, EVENT_NO_STEP,
	    FIELDS(REQ("name", EF_STRING | EF_NULL), REQ("person", EF_STRING | EF_NULL)),
	    table_dealer_apply, table_dealer_check, 0, "dealer_changes, table_state",
	    "the person dealing at the table; null when the dealer was taken off", NULL},
	[EVT_BANK_OFFERED] = {"bank_offered", EVENT_CHAIN_TABLE, EVENT_NO_STEP,
	    FIELDS(REQ("answer", EF_STRING), OPT("player", EF_STRING), OPT("provider", EF_OBJECT), REQ("seat", EF_INTEGER)),
	    NULL, NULL, EVENT_NO_ROWS, NULL,
	    "the bank offered to a seat of a player-banked table, accepted or declined (its only record)", NULL},

	/* ---- the accounting documents (table/accounting/acct_events.c), table events ---- */
	[EVT_INVENTORY] = {"inventory", EVENT_CHAIN_TABLE, EVENT_NO_STEP,
	    FIELDS(REQ("chips", EF_OBJECT), REQ("discrepancy", EF_INTEGER | EF_NULL), DOC_GAMING_DAY, DOC_ID,
	        REQ("kind", EF_STRING), REQ("reason", EF_STRING | EF_NULL), DOC_SHIFT, DOC_SIGNER, DOC_TOTAL, DOC_WITNESS,
	        DOC_WITNESSES),
	    acct_document_apply, acct_document_check, 0, "acct_documents",
	    "an opener, a closer or a shift change: the chips in the tray counted, signed and witnessed", NULL},
	[EVT_FILL] = {"fill", EVENT_CHAIN_TABLE, EVENT_NO_STEP, TRANSFER_SLIP,
	    acct_document_apply, acct_document_check, 0, "acct_documents",
	    "a fill slip: chips brought to the table from the cage", NULL},
	[EVT_CREDIT] = {"credit", EVENT_CHAIN_TABLE, EVENT_NO_STEP, TRANSFER_SLIP,
	    acct_document_apply, acct_document_check, 0, "acct_documents",
	    "a credit slip: chips taken from the table to the cage", NULL},
	[EVT_FILL_VOID] = {"fill_void", EVENT_CHAIN_TABLE, EVENT_NO_STEP, VOID_SLIP,
	    acct_document_apply, acct_document_check, 0, "acct_documents", "a fill slip voided, with the reason", NULL},
	[EVT_CREDIT_VOID] = {"credit_void", EVENT_CHAIN_TABLE, EVENT_NO_STEP, VOID_SLIP,
	    acct_document_apply, acct_document_check, 0, "acct_documents", "a credit slip voided, with the reason", NULL},
	[EVT_FILL_RECEIVED] = {"fill_received", EVENT_CHAIN_TABLE, EVENT_NO_STEP, RECEIPT_SLIP,
	    acct_document_apply, acct_document_check, 0, "acct_documents",
	    "a fill slip received at the table, signed by the dealer and a floor supervisor: from then it counts", NULL},
	[EVT_CREDIT_RECEIVED] = {"credit_received", EVENT_CHAIN_TABLE, EVENT_NO_STEP, RECEIPT_SLIP,
	    acct_document_apply, acct_document_check, 0, "acct_documents",
	    "a credit slip received at the table, signed by the dealer and a floor supervisor: from then it counts", NULL},
	[EVT_DROP] = {"drop", EVENT_CHAIN_TABLE, EVENT_NO_STEP,
	    FIELDS(OPT("approval", EF_STRING), REQ("box", EF_STRING), REQ("cash", EF_INTEGER), REQ("chips", EF_INTEGER),
	        REQ("collections", EF_INTEGER), OPT("count", EF_OBJECT), DOC_GAMING_DAY, DOC_ID, REQ("markers", EF_INTEGER),
	        DOC_SHIFT, DOC_SIGNER, DOC_TOTAL, DOC_WITNESS, DOC_WITNESSES),
	    acct_document_apply, acct_document_check, 0, "acct_documents",
	    "a drop box counted: its count sheet, cash, chips, markers and collections (cents), the count team", NULL},
	[EVT_EXCEPTION_ACKNOWLEDGED] = {"exception_acknowledged", EVENT_CHAIN_TABLE, EVENT_NO_STEP,
	    FIELDS(REQ("kind", EF_STRING), REQ("note", EF_STRING), REQ("ref", EF_STRING)),
	    acct_ack_apply, acct_ack_check, 0, "acct_acknowledgments",
	    "an opener's discrepancy or a count variance acknowledged by a pit boss, with a note", NULL},

	/* ---- players at the table, and corrections: table events ---- */
	[EVT_PLAYER_SEATED] = {"player_seated", EVENT_CHAIN_TABLE, EVENT_NO_STEP, SEAT_CHANGE,
	    players_seat_apply, players_check, 0, "seat_players, seat_changes", "a player sat down at a seat", NULL},
	[EVT_PLAYER_LEFT] = {"player_left", EVENT_CHAIN_TABLE, EVENT_NO_STEP, SEAT_CHANGE,
	    players_seat_apply, players_check, 0, "seat_players, seat_changes", "a player left his seat", NULL},
	[EVT_TABLE_TRANSACTION] = {"table_transaction", EVENT_CHAIN_TABLE, EVENT_NO_STEP,
	    FIELDS(REQ("amount", EF_INTEGER), OPT("description", EF_STRING), REQ("direction", EF_STRING),
	        REQ("gaming_day", EF_STRING), REQ("id", EF_INTEGER), REQ("kind", EF_STRING), OPT("name", EF_STRING),
	        REQ("player", EF_STRING), REQ("seat", EF_INTEGER | EF_NULL), OPT("type", EF_STRING)),
	    players_txn_apply, players_check, 0, "table_transactions",
	    "cash, chips or a marker between a player and the table, counted for Title 31", NULL},
	[EVT_PAYOUT_CORRECTED] = {"payout_corrected", EVENT_CHAIN_TABLE, EVENT_NO_STEP,
	    FIELDS(REQ("difference", EF_INTEGER), REQ("id", EF_INTEGER), REQ("owed", EF_INTEGER), REQ("paid", EF_INTEGER),
	        REQ("reason", EF_STRING), REQ("round", EF_INTEGER), REQ("seat", EF_INTEGER), OPT("supersedes", EF_INTEGER),
	        REQ("wager", EF_STRING), REQ("witness", EF_STRING)),
	    correction_apply, correction_check, 0, "corrections",
	    "a settled round's payout line corrected after a mispay, witnessed", NULL},

	/* ---- the players' chain (table/players/players.c, table/players/title31.c) ---- */
	[EVT_PLAYER_REGISTERED] = {"player_registered", EVENT_CHAIN_PLAYERS, EVENT_NO_STEP, PLAYER_RECORD,
	    players_record_apply, players_check, EVENT_PERSONAL, "players", "a player's record as registered", NULL},
	[EVT_PLAYER_UPDATED] = {"player_updated", EVENT_CHAIN_PLAYERS, EVENT_NO_STEP, PLAYER_RECORD,
	    players_record_apply, players_check, EVENT_PERSONAL, "players", "a player's whole record after a change", NULL},
	[EVT_TITLE31_ACKNOWLEDGED] = {"title31_acknowledged", EVENT_CHAIN_PLAYERS, EVENT_NO_STEP,
	    FIELDS(REQ("direction", EF_STRING), REQ("gaming_day", EF_STRING), REQ("kind", EF_STRING), REQ("note", EF_STRING),
	        REQ("player", EF_STRING)),
	    players_title31_apply, players_check, EVENT_PERSONAL, "title31_acks",
	    "a player's Title 31 alert or CTR item of a gaming day acknowledged, with a note", NULL},

	/* ---- cash controls, in the players' chain (table/players/cage.c, txn_void.c, merge.c, ctr.c) ---- */
	[EVT_CAGE_TRANSACTION] = {"cage_transaction", EVENT_CHAIN_PLAYERS, EVENT_NO_STEP,
	    FIELDS(REQ("amount", EF_INTEGER), OPT("description", EF_STRING), REQ("direction", EF_STRING),
	        REQ("gaming_day", EF_STRING), REQ("id", EF_INTEGER), OPT("name", EF_STRING), REQ("player", EF_STRING),
	        REQ("type", EF_STRING), REQ("window", EF_STRING)),
	    players_cage_txn_apply, players_check, EVENT_PERSONAL, "table_transactions",
	    "currency between a patron and the cage (chip redemption, front money, ...), counted for Title 31", NULL},
	[EVT_TRANSACTION_VOIDED] = {"transaction_voided", EVENT_CHAIN_PLAYERS, EVENT_NO_STEP,
	    FIELDS(REQ("id", EF_INTEGER), REQ("reason", EF_STRING), REQ("witness", EF_STRING)),
	    players_void_apply, players_check, EVENT_PERSONAL, "transaction_voids",
	    "a table or cage transaction voided, with a reason and a witness: kept, out of the aggregates", NULL},
	[EVT_PLAYER_MERGED] = {"player_merged", EVENT_CHAIN_PLAYERS, EVENT_NO_STEP,
	    FIELDS(REQ("into", EF_STRING), REQ("player", EF_STRING), REQ("reason", EF_STRING), REQ("witness", EF_STRING)),
	    players_merge_apply, players_check, EVENT_PERSONAL, "player_merges, players",
	    "two records of one patron merged: the record's cash, seats and ratings count for the other", NULL},
	[EVT_TITLE31_NOTED] = {"title31_noted", EVENT_CHAIN_PLAYERS, EVENT_NO_STEP,
	    FIELDS(REQ("direction", EF_STRING), REQ("gaming_day", EF_STRING), REQ("kind", EF_STRING), REQ("note", EF_STRING),
	        REQ("player", EF_STRING)),
	    players_t31_note_apply, players_check, EVENT_PERSONAL, "title31_notes",
	    "a further note on a Title 31 alert or CTR item, after its first acknowledgment", NULL},
	[EVT_CTR_STATUS_CHANGED] = {"ctr_status_changed", EVENT_CHAIN_PLAYERS, EVENT_NO_STEP,
	    FIELDS(OPT("bsa_id", EF_STRING), REQ("direction", EF_STRING), OPT("filed_on", EF_STRING),
	        REQ("gaming_day", EF_STRING), REQ("note", EF_STRING), REQ("player", EF_STRING), REQ("status", EF_STRING)),
	    players_t31_note_apply, players_check, EVENT_PERSONAL, "title31_notes",
	    "a CTR item moved on: identified, filed (with its BSA id and filing date) or amended", NULL},

	/* ---- rated play (table/players/manual_rating.c) ---- */
	[EVT_MANUAL_RATING] = {"manual_rating", EVENT_CHAIN_PLAYERS, EVENT_NO_STEP,
	    FIELDS(REQ("average_bet", EF_INTEGER), REQ("decisions_per_hour", EF_INTEGER), REQ("game", EF_STRING),
	        REQ("gaming_day", EF_STRING), REQ("id", EF_INTEGER), REQ("minutes", EF_INTEGER), OPT("note", EF_STRING),
	        REQ("player", EF_STRING), REQ("table", EF_STRING | EF_NULL)),
	    manual_rating_apply, players_check, EVENT_PERSONAL, "manual_ratings",
	    "a supervisor's manual rating of a player: average bet, minutes and decisions an hour at a game", NULL},

	/* ---- count controls (table/reports/acct_variances.c): a table event ---- */
	[EVT_VARIANCE_INVESTIGATED] = {"variance_investigated", EVENT_CHAIN_TABLE, EVENT_NO_STEP,
	    FIELDS(REQ("assignee", EF_STRING | EF_NULL), REQ("cause", EF_STRING | EF_NULL), REQ("gaming_day", EF_STRING),
	        REQ("id", EF_INTEGER), REQ("note", EF_STRING), REQ("status", EF_STRING), REQ("witness", EF_STRING | EF_NULL)),
	    variance_step_apply, variance_step_check, 0, "variance_investigations",
	    "a step of a count variance's investigation: assigned, cause found, or resolved with a second person", NULL},

	/* ---- serial control (table/accounting/acct_serial_explain.c), a table event ---- */
	[EVT_SERIAL_EXPLAINED] = {"serial_explained", EVENT_CHAIN_TABLE, EVENT_NO_STEP,
	    FIELDS(REQ("id", EF_INTEGER), REQ("kind", EF_STRING), REQ("note", EF_STRING), REQ("problem", EF_STRING),
	        REQ("serial", EF_STRING), REQ("witness", EF_STRING), REQ("year", EF_INTEGER)),
	    acct_serial_apply, acct_serial_check, 0, "serial_explanations",
	    "a gap, duplicate or out-of-series serial of the fill or credit slips accounted for, with a note and a witness",
	    NULL},
};

const struct event_type *
event_type_named(const char *name)
{
	for (int i = 0; i < EVT_COUNT; i++)
		if (strcmp(EVENT_TYPES[i].name, name) == 0)
			return &EVENT_TYPES[i];
	return NULL;
}

const struct event_type *
event_type_of_step(int step)
{
	for (int i = 0; step != EVENT_NO_STEP && i < EVT_COUNT; i++)
		if (EVENT_TYPES[i].step == step)
			return &EVENT_TYPES[i];
	return NULL;
}

/* A linear search of the rows' addresses: EVT_COUNT comparisons at most. */
enum event_type_id
event_type_id(const struct event_type *t)
{
	for (int i = 0; i < EVT_COUNT; i++)
		if (t == &EVENT_TYPES[i])
			return (enum event_type_id)i;
	return EVT_COUNT;
}

bool
event_type_registered(const struct event_type *t)
{
	return event_type_id(t) != EVT_COUNT;
}
