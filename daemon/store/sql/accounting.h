/*
 * sql/accounting.h - the column lists of the accounting statements
 * (accounting.def), read by accounting.c.
 */
#ifndef PB_STORE_SQL_ACCOUNTING_H
#define PB_STORE_SQL_ACCOUNTING_H

/* An acct_documents row, as written and as read. */
#define ACCT_COLUMNS "id, table_id, kind, at, gaming_day, shift, serial, year, total, chips_json, cash, " \
	"chip_value, markers, collections, discrepancy, reason, voids, signer, witness, runner, requester"

#endif
