/*
 * test_ids.c - ids that cannot impersonate (common/ids.h): the characters of
 * a person id and a player card, and, on a temporary database through the
 * table layer, their uniqueness without regard to case (a new "fl1" beside
 * "FL1" is refused and writes nothing; a card differing only in case is
 * taken), while look-ups stay exact and the case-duplicates an older
 * database may hold stay usable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "common/ids.h"
#include "store/players.h"
#include "table/people/people.h"
#include "table/players/players.h"
#include "pit_fixture.h"

static char dbpath[256];
static struct config *cfg;
static struct store *s;
static struct pit pit;

static const struct actor ADMIN = {.name = "A1", .roles = ROLE_BIT(ROLE_ADMIN), .is_person = true};

static int
setup(void **state)
{
	(void)state;
	pit_fixture_open("ids", dbpath, &cfg, &s, &pit);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	pit_fixture_close(dbpath, cfg, s);
	return 0;
}

/* A valid id (or card) of n characters, all c. */
static const char *
repeated(char c, size_t n)
{
	static char buf[64];

	memset(buf, c, n);
	buf[n] = '\0';
	return buf;
}

static void
test_person_id_rule(void **state)
{
	static const char *const good[] = {"E1027", "FL1", "fl1", "E_1", "a-b", "0", "_", "-", NULL};
	static const char *const bad[] = {"", "FL1.", "F.L1", ".", "E 1", "E/1", "E\t1", "E1\n", "\xc3\xa9", "E:1",
	    "E@1", NULL};

	(void)state;
	for (const char *const *g = good; *g != NULL; g++)
		assert_true(pb_valid_person_id(*g));
	for (const char *const *b = bad; *b != NULL; b++)
		assert_false(pb_valid_person_id(*b));
	assert_false(pb_valid_person_id(NULL));
	assert_true(pb_valid_person_id(repeated('x', 32)));
	assert_false(pb_valid_person_id(repeated('x', 33)));
	/* the configuration's ids keep their '.' */
	assert_true(pb_valid_id("FL1."));
}

static void
test_card_rule(void **state)
{
	(void)state;
	assert_true(pb_valid_card("100001"));
	assert_true(pb_valid_card("ABC-1"));
	assert_true(pb_valid_card("abc_2"));
	assert_true(pb_valid_card(repeated('9', 32)));
	assert_false(pb_valid_card(repeated('9', 33)));
	assert_false(pb_valid_card(""));
	assert_false(pb_valid_card(NULL));
	assert_false(pb_valid_card("A.1"));
	assert_false(pb_valid_card("A 1"));
	assert_false(pb_valid_card("A+1"));
}

/* POST /people {"id": id, "name": name, "roles": ["floor"]}: the status (err filled when refused). */
static int
add_person(const char *id, const char *name, struct pb_error *err)
{
	json_t *body = json_pack("{s:s,s:s,s:[s]}", "id", id, "name", name, "roles", "floor"), *out = NULL;
	int status = 0, rc = pit_person_add(&pit, &ADMIN, NULL, body, &out, &status, err);

	json_decref(body);
	json_decref(out);
	return rc == 0 ? status : err->status;
}

static int
count_of(const char *sql)
{
	return db_int(store_db(s), sql);
}

static void
test_person_ids_without_regard_to_case(void **state)
{
	struct pb_error err;

	(void)state;
	assert_int_equal(add_person("FL1", "Flo Floor", &err), 201);
	assert_int_equal(add_person("fl1", "Flo Floor", &err), 409);
	assert_string_equal(err.code, "person_exists");
	assert_non_null(strstr(err.message, "FL1"));
	assert_int_equal(add_person("Fl1", "Someone Else", &err), 409);
	assert_int_equal(add_person("FL1", "Flo Floor", &err), 409);
	assert_string_equal(err.code, "person_exists");
	assert_int_equal(add_person("FL1.", "Flo Floor", &err), 400);
	assert_string_equal(err.code, "invalid_id");
	assert_non_null(strstr(err.message, "A-Z a-z 0-9 _ -"));
	assert_int_equal(add_person(repeated('x', 33), "Xavier Long", &err), 400);
	assert_int_equal(add_person(repeated('x', 32), "Xavier Long", &err), 201);
	assert_int_equal(add_person("E_1", "Una Score", &err), 201);
	/* nothing written by the refusals */
	assert_int_equal(count_of("SELECT count(*) FROM people"), 3);
	assert_int_equal(count_of("SELECT count(*) FROM significant_events WHERE code = 'person_added'"), 3);
	assert_int_equal(count_of("SELECT count(*) FROM people WHERE id = 'FL1' COLLATE NOCASE"), 1);
}

/* An older database may hold "CG9" and "cg9": each is its own person, found by its exact id only. */
static void
test_older_case_duplicates_stay_exact(void **state)
{
	struct person who;
	struct pb_error err;
	json_t *body = json_pack("{s:s}", "name", "Cal Cage II"), *out = NULL;
	bool found;
	int status;

	(void)state;
	fixture_add_person(s, "CG9", "Cy Cage", ROLE_BIT(ROLE_CAGE), true, "cage password 9");
	fixture_add_person(s, "cg9", "Cal Cage", ROLE_BIT(ROLE_CAGE), true, "cage password 10");
	fixture_add_person(s, "FL.7", "Dot Floor", ROLE_BIT(ROLE_FLOOR), true, "floor password 7");
	assert_int_equal(store_person_get(s, "cg9", &who, &found, &err), 0);
	assert_true(found);
	assert_string_equal(who.name, "Cal Cage");
	assert_int_equal(store_person_get(s, "Cg9", &who, &found, &err), 0);
	assert_false(found);
	assert_int_equal(store_person_get(s, "FL.7", &who, &found, &err), 0);
	assert_true(found);
	assert_int_equal(pit_person_change(&pit, &ADMIN, NULL, "cg9", body, &out, &status, &err), 0);
	assert_string_equal(json_string_value(json_object_get(out, "name")), "Cal Cage II");
	assert_int_equal(store_person_get(s, "CG9", &who, &found, &err), 0);
	assert_string_equal(who.name, "Cy Cage");
	assert_int_equal(add_person("CG9", "Cy Cage", &err), 409);
	assert_int_equal(add_person("fl-7", "Dash Floor", &err), 201);
	json_decref(body);
	json_decref(out);
}

/* POST /players or PATCH /players/{id} (id non-NULL) with the card and a name: the status. */
static int
put_card(const char *id, const char *card, const char *name, struct pb_error *err)
{
	json_t *body = json_pack("{s:s,s:s}", "card", card, "name", name), *out = NULL;
	int status = 0, rc = id ? pit_player_update(&pit, &ADMIN, NULL, id, body, &out, &status, err)
	    : pit_player_create(&pit, &ADMIN, NULL, body, &out, &status, err);

	json_decref(body);
	json_decref(out);
	return rc == 0 ? status : err->status;
}

static void
test_cards_without_regard_to_case(void **state)
{
	struct pb_error err;
	json_t *body, *out = NULL;
	int status;

	(void)state;
	assert_int_equal(put_card(NULL, "ABC-1", "Ana Lopez", &err), 201);                  /* P1 */
	assert_int_equal(put_card(NULL, "abc-1", "Bo Chen", &err), 409);
	assert_string_equal(err.code, "card_taken");
	assert_non_null(strstr(err.message, "P1"));
	assert_int_equal(put_card(NULL, "abc_2", "Bo Chen", &err), 201);                    /* P2 */
	assert_int_equal(put_card("P2", "Abc-1", "Bo Chen", &err), 409);
	assert_string_equal(err.code, "card_taken");
	assert_int_equal(put_card("P1", "abc-1", "Ana Lopez", &err), 200);                  /* its own card */
	assert_int_equal(put_card(NULL, "A.1", "Cy Dunn", &err), 400);
	assert_int_equal(put_card(NULL, repeated('7', 33), "Cy Dunn", &err), 400);
	assert_int_equal(count_of("SELECT count(*) FROM players"), 2);
	assert_int_equal(count_of("SELECT count(*) FROM events WHERE table_id = '_players'"), 3);
	/* an older database's P3 holding "ABC-1" beside P1's "abc-1": a change that keeps the card is not refused */
	assert_int_equal(store_player_put(s, "P3", "ABC-1", "Di Wong",
	    "{\"anonymous\":false,\"card\":\"ABC-1\",\"id\":\"P3\",\"name\":\"Di Wong\"}", "2026-01-01T00:00:00.000Z",
	    &err), 0);
	body = json_pack("{s:s}", "name", "Di Wong-Li");
	assert_int_equal(pit_player_update(&pit, &ADMIN, NULL, "P3", body, &out, &status, &err), 0);
	assert_int_equal(status, 200);
	json_decref(body);
	json_decref(out);
	assert_int_equal(put_card("P3", "aBc-1", "Di Wong-Li", &err), 409);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_person_id_rule),
		cmocka_unit_test(test_card_rule),
		cmocka_unit_test_setup_teardown(test_person_ids_without_regard_to_case, setup, teardown),
		cmocka_unit_test_setup_teardown(test_older_case_duplicates_stay_exact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cards_without_regard_to_case, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
