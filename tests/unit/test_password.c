/*
 * test_password.c - Argon2id hashes round-trip, never hold the password,
 * and the policy refuses short passwords and those holding the id or name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <sodium.h>

#include "common/password.h"

static void
test_hash_and_verify(void **state)
{
	char h[PASSWORD_HASH_MAX];
	struct pb_error err;

	(void)state;
	assert_int_equal(sodium_init() < 0, 0);
	assert_int_equal(password_hash("correct horse battery", h, &err), 0);
	assert_non_null(strstr(h, "$argon2id$"));
	assert_null(strstr(h, "correct horse"));
	assert_true(password_verify(h, "correct horse battery"));
	assert_false(password_verify(h, "correct horse batterz"));
	assert_false(password_verify("", "correct horse battery"));
}

static void
test_policy(void **state)
{
	struct pb_error err;

	(void)state;
	assert_int_equal(password_policy("table-games-4ever", "E1027", "Ana Ruiz", &err), 0);
	assert_int_equal(password_policy("short", "E1027", "Ana Ruiz", &err), -1);
	assert_string_equal(err.code, "weak_password");
	assert_int_equal(password_policy("my-e1027-password", "E1027", "Ana Ruiz", &err), -1);
	assert_string_equal(err.message, "the password must not contain the person's id");
	assert_int_equal(password_policy("RUIZ-is-my-name-2", "E1027", "Ana Ruiz", &err), -1);
	assert_string_equal(err.message, "the password must not contain the person's name");
	assert_int_equal(password_policy("tab\tcharacter!!", "E1027", "Ana Ruiz", &err), -1);
	/* a word of the name shorter than three letters is not looked for */
	assert_int_equal(password_policy("jo-walks-far-away", "E1", "Jo Ng", &err), 0);
}

static double
seconds_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A sign-in for an unknown id spends a verification's time too (a lower bound: load only slows it). */
static void
test_verify_nobody(void **state)
{
	char h[PASSWORD_HASH_MAX];
	struct pb_error err;
	double t0, real, nobody;

	(void)state;
	assert_int_equal(password_hash("correct horse battery", h, &err), 0);
	password_verify_nobody("warm-up the nobody hash");
	t0 = seconds_now();
	assert_false(password_verify(h, "a wrong password!"));
	real = seconds_now() - t0;
	t0 = seconds_now();
	password_verify_nobody("a wrong password!");
	nobody = seconds_now() - t0;
	assert_true(nobody > real / 10);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_and_verify),
		cmocka_unit_test(test_policy),
		cmocka_unit_test(test_verify_nobody),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
