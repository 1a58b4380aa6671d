/*
 * sql/people.h - the column lists and the parameters of the people's and
 * sessions' statements (people.def), by which people.c and sessions.c
 * bind and read them.
 */
#ifndef PB_STORE_SQL_PEOPLE_H
#define PB_STORE_SQL_PEOPLE_H

#include "store/sql/columns.h"

/* A person as read (STMT_PERSON_GET, STMT_PERSON_GET_NOCASE, STMT_PEOPLE_LIST), and the columns of a new one. */
#define PERSON_COLS(X, Y) \
	X(PERSON_COL_ID, "id") \
	Y(PERSON_COL_NAME, "name") \
	Y(PERSON_COL_ROLES, "roles") \
	Y(PERSON_COL_ACTIVE, "active") \
	Y(PERSON_COL_PASSWORD_HASH, "password_hash") \
	Y(PERSON_COL_MUST_CHANGE, "must_change") \
	Y(PERSON_COL_FAILURES, "failures") \
	Y(PERSON_COL_LOCKED_UNTIL_MS, "locked_until_ms") \
	Y(PERSON_COL_CREATED_AT, "created_at") \
	Y(PERSON_COL_UPDATED_AT, "updated_at")
enum person_col { SQL_INDICES(PERSON_COLS) PERSON_COL_COUNT };
#define PERSON_COLUMNS SQL_NAMES(PERSON_COLS)

/* STMT_PERSON_ADD's parameters: a new person is active, has no failure, and was created and updated at ?6. */
enum person_add_param {
	PERSON_ADD_P_ID = 1,
	PERSON_ADD_P_NAME,
	PERSON_ADD_P_ROLES,
	PERSON_ADD_P_PASSWORD_HASH,
	PERSON_ADD_P_MUST_CHANGE,
	PERSON_ADD_P_AT
};

/* STMT_PERSON_FAILED's parameters: the person, the failures that lock, the end of the lockout, now. */
enum person_failed_param { PERSON_FAILED_P_ID = 1, PERSON_FAILED_P_MAX, PERSON_FAILED_P_UNTIL, PERSON_FAILED_P_NOW };

/* STMT_PERSON_UPDATE's parameters. */
enum person_update_param {
	PERSON_UPDATE_P_ID = 1,
	PERSON_UPDATE_P_NAME,
	PERSON_UPDATE_P_ROLES,
	PERSON_UPDATE_P_ACTIVE,
	PERSON_UPDATE_P_AT
};

/* STMT_PERSON_PASSWORD's parameters. */
enum person_password_param {
	PERSON_PASSWORD_P_ID = 1,
	PERSON_PASSWORD_P_HASH,
	PERSON_PASSWORD_P_MUST_CHANGE,
	PERSON_PASSWORD_P_AT
};

/* STMT_SESSION_ADD's parameters: a new session was last used when it was created (?3). */
enum session_add_param {
	SESSION_ADD_P_TOKEN_SHA256 = 1,
	SESSION_ADD_P_PERSON_ID,
	SESSION_ADD_P_NOW,
	SESSION_ADD_P_EXPIRES,
	SESSION_ADD_P_ADDRESS
};

/* A session with its person (STMT_SESSION_GET). */
#define SESSION_COLS(X, Y) \
	X(SESSION_COL_PERSON_ID, "s.person_id") \
	Y(SESSION_COL_CREATED_MS, "s.created_ms") \
	Y(SESSION_COL_LAST_MS, "s.last_ms") \
	Y(SESSION_COL_EXPIRES_MS, "s.expires_ms") \
	Y(SESSION_COL_ENDED, "s.ended_ms IS NOT NULL") \
	Y(SESSION_COL_PERSON_NAME, "p.name") \
	Y(SESSION_COL_ROLES, "p.roles") \
	Y(SESSION_COL_PERSON_ACTIVE, "p.active") \
	Y(SESSION_COL_MUST_CHANGE, "p.must_change")
enum session_col { SQL_INDICES(SESSION_COLS) SESSION_COL_COUNT };

#endif
