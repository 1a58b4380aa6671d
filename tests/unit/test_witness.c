/*
 * test_witness.c - two-person sign-off (table/people/witness.c) against a
 * temporary database with people rows: every failed witness answers alike
 * (403 witness_refused, the same words, about the same time, counted as a
 * guess), the wrong password counted and locking the witness out at
 * auth.max_failures with its event, a locked-out witness refused except at
 * an address of his own, a one-time password refused, a locked-out address
 * refused before any hashing, and a good witness giving its id.  Several
 * signatures (pit_witnesses_check): "witnesses" as a list, each matched to
 * one need whatever the order given, too few or too many, both keys, one
 * person twice or the asker among them, a need no good signature fills (and
 * an eligible signer who fills none told so, not refused as a guess), and
 * one bad signature among good ones refused alike and counted for its
 * person only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/password.h"
#include "common/timeutil.h"
#include "table/people/people.h"
#include "store/store.h"
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
	pit = (struct pit){.store = s, .cfg = &cfg, .client = "192.0.2.7"};
	door_reset();
	add_person("D1", "Dee Dealer", ROLE_BIT(ROLE_DEALER), true, "dealer password 1");
	add_person("F1", "Fay Floor", ROLE_BIT(ROLE_FLOOR), true, FLOOR_PASSWORD);
	add_person("F2", "Old Floor", ROLE_BIT(ROLE_FLOOR), false, FLOOR_PASSWORD);
	add_person("C1", "Cal Cage", ROLE_BIT(ROLE_CAGE), true, "cage password 1");
	add_person("F3", "New Floor", ROLE_BIT(ROLE_FLOOR), true, FLOOR_PASSWORD);
	add_person("F4", "Fern Floor", ROLE_BIT(ROLE_FLOOR), true, "floor password 4");
	add_person("S1", "Sam Security", ROLE_BIT(ROLE_SECURITY), true, "runner password 1");
	db_exec_ok(store_db(s), "UPDATE people SET must_change = 1 WHERE id = 'F3'");
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

static char first_refusal[PB_ERROR_MESSAGE_MAX];

/* Refused with status and code; a witness_refused is a guess and says the same words every time. */
static void
refused(const char *who, const char *password, int status, const char *code)
{
	char id[PB_ID_MAX] = "x";
	struct pb_error err;

	assert_int_equal(check(&DEALER, who, password, id, &err), -1);
	assert_int_equal(err.status, status);
	assert_string_equal(err.code, code);
	assert_string_equal(id, "");
	if (strcmp(code, "witness_refused") != 0)
		return;
	assert_true(err.guess);
	if (first_refusal[0] == '\0')
		snprintf(first_refusal, sizeof(first_refusal), "%s", err.message);
	assert_string_equal(err.message, first_refusal);
	assert_null(strstr(err.message, who));
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
	refused("NOBODY", FLOOR_PASSWORD, 403, "witness_refused");
	refused("F2", FLOOR_PASSWORD, 403, "witness_refused");
	/* Roles before passwords: the cage's right password is not confirmed, nor counted. */
	refused("C1", "cage password 1", 403, "witness_refused");
	refused("C1", "not the password", 403, "witness_refused");
	assert_int_equal(failures_of("C1"), 0);
	/* A one-time password (set by an admin) signs for nobody: whoever set it could countersign. */
	refused("F3", FLOOR_PASSWORD, 403, "witness_refused");
	assert_int_equal(failures_of("F3"), 0);
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
	refused("F1", "not the password", 403, "witness_refused");
	assert_int_equal(failures_of("F1"), 1);
	assert_int_equal(check(&DEALER, "F1", FLOOR_PASSWORD, id, &err), 0);
	assert_int_equal(failures_of("F1"), 0);
	for (int i = 1; i <= 3; i++) {
		refused("F1", "not the password", 403, "witness_refused");
		assert_int_equal(failures_of("F1"), i);
		assert_int_equal(lockout_events(), i == 3 ? 1 : 0);
	}
	/* Locked out: the right password is refused alike, and not counted. */
	refused("F1", FLOOR_PASSWORD, 403, "witness_refused");
	assert_int_equal(failures_of("F1"), 3);
	assert_int_equal(lockout_events(), 1);
}

/* At an address the witness signed in from in the last 12 hours, his lockout does not stop him. */
static void
test_locked_witness_signs_at_home(void **state)
{
	char id[PB_ID_MAX];
	struct pb_error err;
	int64_t now = pb_time_now_ms();

	(void)state;
	db_exec_ok(store_db(s), "UPDATE people SET failures = 3, locked_until_ms = 9999999999999 WHERE id = 'F1'");
	refused("F1", FLOOR_PASSWORD, 403, "witness_refused");
	assert_int_equal(store_session_add(s, "00aa", "F1", "192.0.2.7", now - 11 * 3600 * 1000LL, now + 3600000, &err), 0);
	assert_int_equal(check(&DEALER, "F1", FLOOR_PASSWORD, id, &err), 0);
	assert_string_equal(id, "F1");
	/* Still locked out everywhere else, and the good password did not lift it. */
	pit.client = "198.51.100.9";
	refused("F1", FLOOR_PASSWORD, 403, "witness_refused");
	/* A sign-in older than 12 hours makes the address his no more. */
	pit.client = "192.0.2.8";
	assert_int_equal(store_session_add(s, "00bb", "F1", "192.0.2.8", now - 13 * 3600 * 1000LL, now + 3600000, &err), 0);
	refused("F1", FLOOR_PASSWORD, 403, "witness_refused");
}

/* A client address locked out for failures may try no witness at all: 429 before any hashing. */
static void
test_locked_address_refused_first(void **state)
{
	struct door_count c;
	char id[PB_ID_MAX];
	struct pb_error err;
	int64_t now = pb_time_now_ms();

	(void)state;
	for (int i = 0; i < 3; i++)
		door_address_failed("192.0.2.7", 3, 900000, now, &c);
	assert_true(c.locked_now);
	refused("F1", FLOOR_PASSWORD, 429, "locked_out");
	assert_int_equal(failures_of("F1"), 0);
	/* Another address is not concerned. */
	pit.client = "192.0.2.99";
	assert_int_equal(check(&DEALER, "F1", FLOOR_PASSWORD, id, &err), 0);
}

static double
elapsed_ms(const char *who, const char *password)
{
	struct timespec a, b;
	char id[PB_ID_MAX];
	struct pb_error err;

	clock_gettime(CLOCK_MONOTONIC, &a);
	(void)check(&DEALER, who, password, id, &err);
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Every refusal costs a hash: unknown, inactive, wrong role, one-time,
 * locked out and wrong password each take at least half the median time of
 * a wrong password (before, an unknown id answered in 9 ms against 429 ms).
 * The samples are interleaved so that the machine's load falls on all alike.
 */
static void
test_refusals_take_the_same_time(void **state)
{
	static const char *const WHO[] = {"F1", "NOBODY", "F2", "C1", "F3", "LOCKED"};
	enum { KINDS = 6, ROUNDS = 5 };
	double t[KINDS][ROUNDS];

	(void)state;
	add_person("LOCKED", "Lock Ed", ROLE_BIT(ROLE_FLOOR), true, FLOOR_PASSWORD);
	db_exec_ok(store_db(s), "UPDATE people SET failures = 3, locked_until_ms = 9999999999999 WHERE id = 'LOCKED'");
	cfg.auth_max_failures = 1000;   /* F1's wrong passwords must not lock it out meanwhile */
	for (int r = 0; r < ROUNDS; r++)
		for (int k = 0; k < KINDS; k++)
			t[k][r] = elapsed_ms(WHO[k], k == 0 ? "not the password" : FLOOR_PASSWORD);
	for (int k = 0; k < KINDS; k++)
		qsort(t[k], ROUNDS, sizeof(double), by_value);
	for (int k = 1; k < KINDS; k++) {
		print_message("witness %s: median %.1f ms (a wrong password: %.1f ms)\n", WHO[k], t[k][ROUNDS / 2], t[0][ROUNDS / 2]);
		assert_true(t[k][ROUNDS / 2] >= 0.5 * t[0][ROUNDS / 2]);
	}
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

/* ---- several signatures ---- */

static const struct actor CAGE = {.name = "C1", .roles = ROLE_BIT(ROLE_CAGE), .is_person = true};
static const struct witness_need SLIP_NEEDS[] = {
	{WANTED, "a floor supervisor or pit boss"}, {ROLE_BIT(ROLE_SECURITY), "the runner (security)"},
};

/* pit_witnesses_check of SLIP_NEEDS (a fill's) by the cage with body (taken). */
static int
check_slip(json_t *body, struct witness_signed out[2], struct pb_error *err)
{
	int rc = pit_witnesses_check(&pit, &CAGE, body, SLIP_NEEDS, 2, 0, "a fill", out, err);

	json_decref(body);
	return rc;
}

/* {"witnesses": [{"person": a, "password": pa}, {"person": b, "password": pb}]} */
static json_t *
two(const char *a, const char *pa, const char *b, const char *pb)
{
	return json_pack("{s:[{s:s,s:s},{s:s,s:s}]}", "witnesses", "person", a, "password", pa, "person", b, "password", pb);
}

/* Each signature fills the need its roles fit, whatever the order they come in; "witnesses" of one is a witness. */
static void
test_witnesses_fill_needs(void **state)
{
	struct witness_signed out[2];
	char id[PB_ID_MAX];
	struct pb_error err;
	json_t *one;

	(void)state;
	assert_int_equal(check_slip(two("S1", "runner password 1", "F1", FLOOR_PASSWORD), out, &err), 0);
	assert_string_equal(out[0].id, "F1");
	assert_int_equal(out[0].roles, ROLE_BIT(ROLE_FLOOR));
	assert_string_equal(out[1].id, "S1");
	assert_int_equal(out[1].roles, ROLE_BIT(ROLE_SECURITY));
	one = json_pack("{s:[{s:s,s:s}]}", "witnesses", "person", "F1", "password", FLOOR_PASSWORD);
	assert_int_equal(pit_witness_check(&pit, &DEALER, one, WANTED, "voiding", id, &err), 0);
	assert_string_equal(id, "F1");
	json_decref(one);
}

/* A slip's refusals: too few, too many, both keys, a malformed one, twice, the asker, an unfilled need. */
static void
test_witnesses_refusals(void **state)
{
	struct witness_signed out[2];
	struct pb_error err;
	json_t *b;

	(void)state;
	assert_int_equal(check_slip(json_pack("{s:{s:s,s:s}}", "witness", "person", "F1", "password", FLOOR_PASSWORD), out,
	    &err), -1);
	assert_string_equal(err.code, "witness_required");
	assert_non_null(strstr(err.message, "a floor supervisor or pit boss and the runner (security)"));
	assert_non_null(strstr(err.message, "1 given"));
	assert_string_equal(out[0].id, "");
	b = json_pack("{s:[{s:s,s:s},{s:s,s:s},{s:s,s:s}]}", "witnesses", "person", "F1", "password", FLOOR_PASSWORD,
	    "person", "S1", "password", "runner password 1", "person", "F4", "password", "floor password 4");
	assert_int_equal(check_slip(b, out, &err), -1);
	assert_string_equal(err.code, "invalid_witness");
	b = two("F1", FLOOR_PASSWORD, "S1", "runner password 1");
	json_object_set_new(b, "witness", json_pack("{s:s,s:s}", "person", "F1", "password", FLOOR_PASSWORD));
	assert_int_equal(check_slip(b, out, &err), -1);
	assert_string_equal(err.code, "invalid_witness");
	assert_int_equal(check_slip(json_pack("{s:[{s:s,s:s},{s:s}]}", "witnesses", "person", "F1", "password", FLOOR_PASSWORD,
	    "person", "S1"), out, &err), -1);
	assert_string_equal(err.code, "invalid_witness");
	assert_non_null(strstr(err.message, "witnesses[1]"));
	assert_int_equal(check_slip(json_pack("{s:s}", "witnesses", "F1"), out, &err), -1);
	assert_string_equal(err.code, "invalid_witness");
	assert_int_equal(check_slip(two("F1", FLOOR_PASSWORD, "f1", FLOOR_PASSWORD), out, &err), -1);
	assert_string_equal(err.code, "witness_same_person");
	assert_int_equal(check_slip(two("F1", FLOOR_PASSWORD, "C1", "cage password 1"), out, &err), -1);
	assert_string_equal(err.code, "witness_same_person");
	/* Two floor supervisors, both good: no runner signed, and the message names the runner. */
	assert_int_equal(check_slip(two("F1", FLOOR_PASSWORD, "F4", "floor password 4"), out, &err), -1);
	assert_int_equal(err.status, 403);
	assert_string_equal(err.code, "witness_required");
	assert_non_null(strstr(err.message, "needs the signature of the runner (security)"));
	assert_false(err.guess);
	assert_int_equal(failures_of("F1") + failures_of("F4"), 0);
}

/*
 * An eligible signer who fills no need (a floor supervisor's opener witnessed
 * by another floor supervisor where the dealer signs): told the need, not
 * refused as a guess; without eligible roles refused alike as any role that
 * may not sign.
 */
static void
test_witnesses_eligible(void **state)
{
	static const struct actor FLOOR = {.name = "F1", .roles = ROLE_BIT(ROLE_FLOOR), .is_person = true};
	const struct witness_need dealer = {ROLE_BIT(ROLE_DEALER), "the dealer"};
	struct witness_signed out;
	struct pb_error err;
	json_t *b = json_pack("{s:{s:s,s:s}}", "witness", "person", "F4", "password", "floor password 4");

	(void)state;
	assert_int_equal(pit_witnesses_check(&pit, &FLOOR, b, &dealer, 1, WANTED | ROLE_BIT(ROLE_DEALER), "an opener", &out,
	    &err), -1);
	assert_string_equal(err.code, "witness_required");
	assert_non_null(strstr(err.message, "the dealer"));
	assert_false(err.guess);
	assert_int_equal(pit_witnesses_check(&pit, &FLOOR, b, &dealer, 1, 0, "an opener", &out, &err), -1);
	assert_string_equal(err.code, "witness_refused");
	assert_true(err.guess);
	json_decref(b);
	b = json_pack("{s:{s:s,s:s}}", "witness", "person", "D1", "password", "dealer password 1");
	assert_int_equal(pit_witnesses_check(&pit, &FLOOR, b, &dealer, 1, WANTED | ROLE_BIT(ROLE_DEALER), "an opener", &out,
	    &err), 0);
	assert_string_equal(out.id, "D1");
	json_decref(b);
}

/*
 * One bad signature among good ones: witness_refused, the same words whoever
 * failed and however, a guess, counted for that person only; a dealer holds
 * no role of a slip's needs and is refused alike, his password never counted.
 */
static void
test_witnesses_one_bad(void **state)
{
	struct witness_signed out[2];
	struct pb_error err;
	char first[PB_ERROR_MESSAGE_MAX];

	(void)state;
	assert_int_equal(check_slip(two("F1", "not the password", "S1", "runner password 1"), out, &err), -1);
	assert_string_equal(err.code, "witness_refused");
	assert_true(err.guess);
	assert_null(strstr(err.message, "F1"));
	snprintf(first, sizeof(first), "%s", err.message);
	assert_int_equal(failures_of("F1"), 1);
	assert_int_equal(failures_of("S1"), 0);
	assert_string_equal(out[0].id, "");
	assert_int_equal(check_slip(two("F1", FLOOR_PASSWORD, "S1", "not the password"), out, &err), -1);
	assert_string_equal(err.message, first);
	assert_int_equal(failures_of("F1"), 0);
	assert_int_equal(failures_of("S1"), 1);
	assert_int_equal(check_slip(two("F1", FLOOR_PASSWORD, "D1", "wrong for a dealer"), out, &err), -1);
	assert_string_equal(err.message, first);
	assert_int_equal(failures_of("D1"), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_good_witness, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_password_locks_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_token_asks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_locked_witness_signs_at_home, setup, teardown),
		cmocka_unit_test_setup_teardown(test_locked_address_refused_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals_take_the_same_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_witnesses_fill_needs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_witnesses_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_witnesses_one_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_witnesses_eligible, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
