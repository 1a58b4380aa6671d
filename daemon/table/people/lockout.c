/*
 * lockout.c - whether a password may be tried, and how it went (people_private.h).
 */
#include "table/people/people_private.h"

#include <stdio.h>

#include "common/timeutil.h"
#include "store/audit.h"
#include "store/store.h"

#define LOCKED_WORDS "too many wrong passwords for this id: it is locked out for %s more, except at an address it " \
	"signed in from in the last 12 hours; an admin can set a new password"

/* A wait as people say it: "45 seconds", "1 minute", "15 minutes" (whole minutes rounded up from 2 minutes on). */
static const char *
wait_words(int64_t ms, char out[32])
{
	long long s = (long long)((ms + 999) / 1000);

	if (s < 120)
		snprintf(out, 32, "%lld second%s", s, s == 1 ? "" : "s");
	else
		snprintf(out, 32, "%lld minutes", (s + 59) / 60);
	return out;
}

int
pit_lockout_address(struct pit *p, struct pb_error *err)
{
	int64_t now = pb_time_now_ms(), until = 0;
	char wait[32];

	if (p->client == NULL || !door_address_locked(p->client, now, &until))
		return 0;
	pb_fail(err, 429, "locked_out", "too many failed attempts from %s: no password is tried from it for %s more",
	    p->client, wait_words(until - now, wait));
	err->guess = true;   /* counted in the failed sign-ins' summary, as failing while locked out */
	return -1;
}

int
pit_lockout_person(struct pit *p, const char *id, const struct person *who, bool usable, struct pb_error *err)
{
	int64_t now = pb_time_now_ms(), until = 0;
	char wait[32];
	bool home = false;

	if (!usable) {
		if (!door_nobody_locked(id, now, &until))
			return 0;
	} else {
		if (who->locked_until_ms <= now)
			return 0;
		until = who->locked_until_ms;
		if (store_session_home(p->store, who->id, p->client, now - DOOR_HOME_MS, &home, err) < 0)
			return -1;
		if (home)
			return 0;
	}
	pb_fail(err, 429, "locked_out", LOCKED_WORDS, wait_words(until - now, wait));
	err->guess = true;   /* a try at a locked id is a failed attempt of the address */
	return -1;
}

int
pit_lockout_now(struct pit *p, struct pb_error *err)
{
	char wait[32];

	return pb_fail(err, 429, "locked_out", LOCKED_WORDS, wait_words((int64_t)p->cfg->auth_lockout_seconds * 1000, wait));
}

struct password_count {
	const char *id;
	bool good;
	const char *as;
	int max_failures;
	int64_t lockout_ms;
	bool locked_now;
};

/* Counts one password of a person in the write's transaction; the max-th wrong one is recorded as person_locked_out. */
static int
do_count(struct pit *p, const struct actor *a, void *arg, json_t **out, int *status, struct pb_error *err)
{
	struct password_count *f = arg;
	int64_t now = pb_time_now_ms(), until;
	int failures, rc;
	json_t *detail;

	*out = NULL;
	*status = 200;
	if (f->good)
		return store_person_succeeded(p->store, f->id, now, err);
	if (store_person_failed(p->store, f->id, f->max_failures, now, now + f->lockout_ms, &failures, &until, err) < 0)
		return -1;
	if (failures != f->max_failures)
		return 0;
	f->locked_now = true;
	detail = json_pack("{s:s,s:i,s:s}", "person", f->id, "failures", failures, "as", f->as);
	rc = detail ? store_significant(p->store, a->name, "person_locked_out", NULL, detail, err)
	    : pb_oom(err);
	json_decref(detail);
	return rc;
}

int
pit_lockout_count(struct pit *p, const char *id, bool usable, bool good, const char *as, bool *locked_now,
    struct pb_error *err)
{
	struct password_count f = {id, good, as, (int)p->cfg->auth_max_failures,
	    (int64_t)p->cfg->auth_lockout_seconds * 1000, false};
	const struct actor daemon = {.name = "pitbossd", .roles = ROLE_BIT(ROLE_KINDS) - 1u};
	json_t *ignored = NULL;
	int st, rc = 0;

	*locked_now = false;
	if (!usable) {
		if (!good)
			door_nobody_failed(id, p->cfg->auth_max_failures, f.lockout_ms, pb_time_now_ms(), locked_now);
		return 0;
	}
	rc = pit_write(p, &daemon, NULL, do_count, &f, &ignored, &st, err);
	json_decref(ignored);
	*locked_now = f.locked_now;
	return rc;
}
