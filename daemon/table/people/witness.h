/*
 * witness.h - two-person sign-off (API.md "Witness"), the one mechanism
 * every document that needs two signers uses: a request's body carries
 * "witness": {"person", "password"}, the witness must be another active
 * person holding one of the roles the operation names, and their password
 * is checked like a sign-in (a wrong one counts towards their lockout).
 */
#ifndef PB_TABLE_WITNESS_H
#define PB_TABLE_WITNESS_H

#include <jansson.h>

#include "common/error.h"
#include "common/ids.h"
#include "table/core/pit.h"

/*
 * Checks body's "witness" for an operation (what: "voiding a round after the
 * deal", for the messages) that needs one of `roles` (ROLE_BIT()s) as its
 * second signer, and writes the witness's id.  Call it before the
 * operation's own write (pit_write): a wrong password is counted in a write
 * of its own, which a refused operation must not roll back.  Runs Argon2id
 * (the caller is on the password pool).  Refusals: 403 witness_required (no
 * witness), 400 invalid_witness (not {"person": ID, "password": TEXT}), 403
 * witness_same_person, 429 locked_out (the client's address is locked out:
 * before any hashing), and one answer for every other failure, alike in
 * status, words and time, that names nobody: 403 witness_refused (no such
 * person, inactive, a role that may not witness, a one-time password, locked
 * out at this address, a wrong password), with err->guess set so that the
 * caller counts it towards the address's lockout.  Roles are checked before
 * the password: an auditor's password is never confirmed.
 */
int pit_witness_check(struct pit *p, const struct actor *a, const json_t *body, unsigned roles, const char *what,
    char witness_id[PB_ID_MAX], struct pb_error *err);

/* The names of the roles in a set, "floor or pitboss", for messages. */
void roles_text(unsigned roles, char *out, size_t n);

#endif
