/*
 * people.h - employees who sign in as themselves (API.md "People and
 * sessions"): adding them, reading them, changing their name, roles and
 * whether they are active (never deleting them: every event naming an id
 * must still name someone), and their passwords.  Every change is a
 * significant event whose source is who made it; no event, log line or
 * answer carries a password, and only its Argon2id string is stored.
 *
 * Who may: an admin (a person or a token) manages people; the pitboss,
 * floor, auditor and surveillance roles read them (a pit boss and a floor
 * supervisor choose the dealer of a table, an auditor and surveillance read
 * who an id in the record is); a person changes their own password.
 */
#ifndef PB_TABLE_PEOPLE_H
#define PB_TABLE_PEOPLE_H

#include <jansson.h>
#include <stdbool.h>

#include "table/core/pit.h"

struct person;

/* A person as the API shows them: {"id", "name", "roles", "active", "must_change_password", "locked_out", ...}. */
json_t *person_json(const struct person *who);

/* The roles of a set as a JSON array of names, in the order of enum role. */
json_t *roles_json(unsigned roles);

/* GET /people: {"people": [...]}, by id. */
int pit_people_list(struct pit *p, const struct actor *a, json_t **out, struct pb_error *err);

/* GET /people/{id}: 404 person_not_found when there is none. */
int pit_person_get(struct pit *p, const struct actor *a, const char *id, json_t **out, struct pb_error *err);

/*
 * POST /people {"id", "name", "roles": [...], "password"?}: a new active
 * person (201), the password (when given) a one-time one they must change
 * at first sign-in.  The id: pb_valid_person_id (400 invalid_id), and no
 * person's id equal to it without regard to case (409 person_exists); 400
 * for another field that is wrong, weak_password for a password the policy
 * refuses (common/password.h).
 * Recorded as person_added.
 */
int pit_person_add(struct pit *p, const struct actor *a, const struct idempotency *idem, const json_t *body,
    json_t **out, int *status, struct pb_error *err);

/*
 * PATCH /people/{id} {"name"?, "roles"?, "active"?}: deactivation ends the
 * person's open sessions at once, in the same transaction.  An admin may
 * neither deactivate themselves nor take their own admin role (409
 * cannot_change_self): someone must be left to manage people.  Recorded as
 * person_changed {person, was, set, sessions_ended}.
 */
int pit_person_change(struct pit *p, const struct actor *a, const struct idempotency *idem, const char *id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

/*
 * PUT /people/{id}/password: the person's own {"current", "password"} (a
 * wrong current password is 401 wrong_password and counts towards their
 * lockout and the address's; 429 locked_out before any hashing while either
 * is locked out), which ends every other session of theirs (the one of
 * session_sha256, that asked, stays open); or an admin's {"password"} for
 * anyone else: a one-time password (must_change), all their open sessions
 * ended, any lockout lifted.  403 forbidden otherwise.  Recorded as
 * password_set {person, one_time, sessions_ended}.  Runs Argon2id: call it
 * off the workers (the password pool).
 */
int pit_person_password(struct pit *p, const struct actor *a, const char *session_sha256, const char *id,
    const json_t *body, json_t **out, int *status, struct pb_error *err);

#endif
