/*
 * sql/accounting.h - the column lists of the accounting statements
 * (accounting.def), with the indices accounting.c binds and reads them by.
 */
#ifndef PB_STORE_SQL_ACCOUNTING_H
#define PB_STORE_SQL_ACCOUNTING_H

#include "store/sql/columns.h"

/*
 * An acct_documents row, as written (STMT_ACCT_INSERT: ?1 .. ?24 in this
 * order) and as read (STMT_ACCT_GET and the other reads of documents).
 */
#define ACCT_COLS(X, Y) \
	X(ACCT_COL_ID, "id") \
	Y(ACCT_COL_TABLE_ID, "table_id") \
	Y(ACCT_COL_KIND, "kind") \
	Y(ACCT_COL_AT, "at") \
	Y(ACCT_COL_GAMING_DAY, "gaming_day") \
	Y(ACCT_COL_SHIFT, "shift") \
	Y(ACCT_COL_SERIAL, "serial") \
	Y(ACCT_COL_YEAR, "year") \
	Y(ACCT_COL_TOTAL, "total") \
	Y(ACCT_COL_CHIPS_JSON, "chips_json") \
	Y(ACCT_COL_CASH, "cash") \
	Y(ACCT_COL_CHIP_VALUE, "chip_value") \
	Y(ACCT_COL_MARKERS, "markers") \
	Y(ACCT_COL_COLLECTIONS, "collections") \
	Y(ACCT_COL_DISCREPANCY, "discrepancy") \
	Y(ACCT_COL_REASON, "reason") \
	Y(ACCT_COL_VOIDS, "voids") \
	Y(ACCT_COL_SIGNER, "signer") \
	Y(ACCT_COL_WITNESS, "witness") \
	Y(ACCT_COL_RUNNER, "runner") \
	Y(ACCT_COL_REQUESTER, "requester") \
	Y(ACCT_COL_WITNESSES, "witnesses") \
	Y(ACCT_COL_COUNT_JSON, "count_json") \
	Y(ACCT_COL_APPROVAL, "approval")
enum acct_col { SQL_INDICES(ACCT_COLS) ACCT_COL_COUNT };
#define ACCT_COLUMNS SQL_NAMES(ACCT_COLS)

/*
 * After the columns of a window's documents (d): whether a fill or credit
 * was received at the table, or was recorded before receipts existed (no
 * witnesses list, schema 021), and so counts as received.
 */
#define ACCT_RECEIVED "(d.witnesses IS NULL OR EXISTS (SELECT 1 FROM acct_documents r WHERE r.voids = d.id " \
	"AND r.kind IN ('fill_receipt', 'credit_receipt')))"

/* A document voided: a void of it exists (a receipt names the slip it receives in the same column). */
#define ACCT_NOT_VOIDED "NOT EXISTS (SELECT 1 FROM acct_documents v WHERE v.voids = d.id " \
	"AND v.kind IN ('fill_void', 'credit_void'))"

/* An acknowledgment as written (STMT_ACCT_ACK_INSERT). */
#define ACK_COLS(X, Y) \
	X(ACK_COL_TABLE_ID, "table_id") \
	Y(ACK_COL_KIND, "kind") \
	Y(ACK_COL_REF, "ref") \
	Y(ACK_COL_NOTE, "note") \
	Y(ACK_COL_BY, "by") \
	Y(ACK_COL_AT, "at")
enum ack_col { SQL_INDICES(ACK_COLS) ACK_COL_COUNT };

#endif
