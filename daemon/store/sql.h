/*
 * sql.h - every fixed SQL statement of the store, named.  For
 * daemon/store/ only.
 *
 * The statements sit beside their domain: one list per domain in
 * daemon/store/sql/ (core.def, chain.def, rounds.def, ..., gathered by
 * sql/statements.def), each a list of rows
 *
 *	STMT(STMT_BET_DELETE, "DELETE FROM bets WHERE round_id = ? AND seat = ?")
 *
 * included here to make the names, one enum, and in sql.c to make the
 * texts, one static table indexed by the names.  A connection prepares a
 * statement the first time it is asked for it (store_stmt, store_int.h)
 * and keeps it in an array indexed by its name.  The column lists a
 * domain's statements share, and the indices its store file reads them
 * by, are declared together in the domain's header, sql/<domain>.h.
 *
 * Not in the lists, because their text is made at run time: the
 * migrations themselves (schema/NNN_*.sql, migrations.h), "PRAGMA
 * user_version = N" after each of them, and store_open's "PRAGMA
 * synchronous = FULL|EXTRA|NORMAL; ..." (one of three fixed words,
 * checked before).
 */
#ifndef PB_STORE_SQL_H
#define PB_STORE_SQL_H

enum stmt_id {
#define STMT(name, text) name,
#include "store/sql/statements.def"
#undef STMT
	STMT_COUNT
};

/* The SQL text of a statement (never NULL for id < STMT_COUNT: tests/unit/test_store.c prepares them all). */
const char *store_sql_text(enum stmt_id id);

#endif
