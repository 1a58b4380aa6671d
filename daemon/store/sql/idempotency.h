/*
 * sql/idempotency.h - the column list of a kept answer (idempotency.def),
 * by which idempotency.c binds it.
 */
#ifndef PB_STORE_SQL_IDEMPOTENCY_H
#define PB_STORE_SQL_IDEMPOTENCY_H

#include "store/sql/columns.h"

/* An answer kept for an Idempotency-Key, as written (STMT_IDEMPOTENCY_INSERT). */
#define IDEMPOTENCY_INSERT_COLS(X, Y) \
	X(IDEMPOTENCY_IN_ACTOR, "actor") \
	Y(IDEMPOTENCY_IN_KEY, "key") \
	Y(IDEMPOTENCY_IN_REQUEST_HASH, "request_hash") \
	Y(IDEMPOTENCY_IN_STATUS, "status") \
	Y(IDEMPOTENCY_IN_RESPONSE, "response") \
	Y(IDEMPOTENCY_IN_CREATED_AT, "created_at")
enum idempotency_in { SQL_INDICES(IDEMPOTENCY_INSERT_COLS) IDEMPOTENCY_IN_COUNT };

#endif
