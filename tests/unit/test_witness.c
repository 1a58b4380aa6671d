/*
 * test_witness.c - two-person sign-off (table/witness.c) against a
 * temporary database with people rows: every refusal, the wrong password
 * counted and locking the witness out at auth.max_failures with its event,
 * a locked-out witness refused, and a good witness giving its id.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "common/password.h"
#include "store/store.h"
#include "table/witness.h"
#include "pit_fixture.h"

#define FLOOR_PASSWORD "green felt 4 ever"

static char dbpath[256];
static struct config cfg;
static struct store *s;
static struct pit pit;

/* A person row with a password (Argon2id), through plain SQL. */
static void
add_person(const char *id, const char *name, unsigned roles, bool active, const char *password)
{
	fixture_add_person(s, id, name, roles, active, password);
}

static int
setup(void **state)
{
	struct store_options o = {.synchronous = "NORMAL"};
	struct pb_error err;

	(void)state;
	assert_true(sodium_init() >= 0);
	temp_db_path(dbpath, sizeof(dbpath), "witness");
	o.path = dbpath;
	if ((s = store_open(&o, &err)) == NULL)
		fail_msg("store_open: %s", err.message);
	memset(&cfg, 0, sizeof(cfg));
	cfg.auth_max_failures = 3;
	cfg.auth_lockout_seconds = 900;
	pit = (struct pit){.store = s, .cfg = &cfg};
	add_person("D1", "Dee Dealer", ROLE_BIT(ROLE_DEALER), true, "dealer password 1");
	add_person("F1", "Fay Floor", ROLE_BIT(ROLE_FLOOR), true, FLOOR_PASSWORD);
	add_person("F2", "Old Floor", ROLE_BIT(ROLE_FLOOR), false, FLOOR_PASSWORD);
	add_person("C1", "Cal Cage", ROLE_BIT(ROLE_CAGE), true, "cage password 1");
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	store_free(s);
	temp_db_remove(dbpath);
	return 0;
}

static const struct actor DEALER = {.name = "D1", .roles = ROLE_BIT(ROLE_DEALER), .is_person = true};
#define WANTED (ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS))

/* pit_witness_check with body {"witness": {"person": who, "password": password}} (who NULL: no witness). */
static int
check(const struct actor *a, const char *who, const char *password, char id[PB_ID_MAX], struct pb_error *err)
{
	json_t *body = who ? json_pack("{s:{s:s,s:s}}", "witness", "person", who, "password", password) : json_object();
	int rc = pit_witness_check(&pit, a, body, WANTED, "voiding a round after the deal", id, err);

	json_decref(body);
	return rc;
}

static void
refused(const char *who, const char *password, int status, const char *code)
{
	char id[PB_ID_MAX] = "x";
	struct pb_error err;

	assert_int_equal(check(&DEALER, who, password, id, &err), -1);
	assert_int_equal(err.status, status);
	assert_string_equal(err.code, code);
	assert_string_equal(id, "");
}

static int
failures_of(const char *id)
{
	struct person p;
	struct pb_error err;
	bool found;

	assert_int_equal(store_person_get(s, id, &p, &found, &err), 0);
	assert_true(found);
	return p.failures;
}

static int
lockout_events(void)
{
	return db_int(store_db(s), "SELECT count(*) FROM significant_events WHERE code = 'person_locked_out' "
	    "AND json_extract(detail, '$.person') = 'F1' AND json_extract(detail, '$.as') = 'witness'");
}

static void
test_refusals(void **state)
{
	json_t *bad = json_pack("{s:{s:s}}", "witness", "person", "F1");
	char id[PB_ID_MAX];
	struct pb_error err;

	(void)state;
	refused(NULL, NULL, 403, "witness_required");
	assert_int_equal(pit_witness_check(&pit, &DEALER, bad, WANTED, "voiding", id, &err), -1);
	assert_string_equal(err.code, "invalid_witness");
	json_decref(bad);
	refused("D1", "dealer password 1", 403, "witness_same_person");
	refused("NOBODY", FLOOR_PASSWORD, 403, "witness_unknown");
	refused("F2", FLOOR_PASSWORD, 403, "witness_unknown");
	refused("C1", "cage password 1", 403, "witness_role");
	assert_int_equal(failures_of("C1"), 0);
}

static void
test_good_witness(void **state)
{
	char id[PB_ID_MAX];
	struct pb_error err;

	(void)state;
	assert_int_equal(check(&DEALER, "F1", FLOOR_PASSWORD, id, &err), 0);
	assert_string_equal(id, "F1");
}

/* A wrong password is counted; the max-th locks the witness out with one event; then 429 even with the right one. */
static void
test_wrong_password_locks_out(void **state)
{
	char id[PB_ID_MAX];
	struct pb_error err;

	(void)state;
	refused("F1", "not the password", 401, "witness_password");
	assert_int_equal(failures_of("F1"), 1);
	assert_int_equal(check(&DEALER, "F1", FLOOR_PASSWORD, id, &err), 0);
	assert_int_equal(failures_of("F1"), 0);
	for (int i = 1; i <= 3; i++) {
		refused("F1", "not the password", 401, "witness_password");
		assert_int_equal(failures_of("F1"), i);
		assert_int_equal(lockout_events(), i == 3 ? 1 : 0);
	}
	refused("F1", FLOOR_PASSWORD, 429, "locked_out");
	assert_int_equal(failures_of("F1"), 3);
	assert_int_equal(lockout_events(), 1);
}

/* A terminal token (not a person) may name any person as its witness. */
static void
test_token_asks(void **state)
{
	const struct actor token = {.name = "D1", .roles = ROLE_BIT(ROLE_DEALER), .is_person = false};
	char id[PB_ID_MAX];
	struct pb_error err;

	(void)state;
	assert_int_equal(check(&token, "F1", FLOOR_PASSWORD, id, &err), 0);
	assert_string_equal(id, "F1");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_good_witness, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_password_locks_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_token_asks, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
