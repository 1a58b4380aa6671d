/*
 * sql.c - the text of every fixed statement of the store, one table made
 * from the domains' lists (sql.h, sql/statements.def).  Values are always
 * bound (?, ?N); no text here is ever completed with printf.
 */
#include "store/sql.h"

#include <stddef.h>

#include "store/sql/accounting.h"
#include "store/sql/bankers.h"
#include "store/sql/cash.h"
#include "store/sql/chain.h"
#include "store/sql/corrections.h"
#include "store/sql/idempotency.h"
#include "store/sql/people.h"
#include "store/sql/players.h"
#include "store/sql/ratings.h"
#include "store/sql/reports.h"
#include "store/sql/rounds.h"
#include "store/sql/serials.h"
#include "store/sql/tables.h"
#include "store/sql/variances.h"

static const char *const SQL[STMT_COUNT] = {
#define STMT(name, text) [name] = text,
#include "store/sql/statements.def"
#undef STMT
};

const char *
store_sql_text(enum stmt_id id)
{
	return (unsigned)id < STMT_COUNT ? SQL[id] : NULL;
}
