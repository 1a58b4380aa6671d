/*
 * pit_fixture.h - the table layer on a real SQLite file, for unit tests: the
 * example configuration (config/pitboss.json), a temporary database with its
 * tables brought in line (pit_sync_tables), and people added through the
 * store as the API adds them (Argon2id passwords).  Include after cmocka.h.
 */
#ifndef PB_TEST_PIT_FIXTURE_H
#define PB_TEST_PIT_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "common/password.h"
#include "config/config.h"
#include "store/store.h"
#include "temp_db.h"
#include "table/rounds/rounds.h"

#ifndef PB_SOURCE_DIR
#error "PB_SOURCE_DIR must be defined by the build"
#endif

/* Opens a temporary database db (named after tag) with the example configuration; fills cfg, store and pit. */
static inline void
pit_fixture_open(const char *tag, char db[256], struct config **cfg, struct store **store, struct pit *pit)
{
	struct store_options o = {.synchronous = "NORMAL"};
	struct pb_error err;
	char path[512];

	temp_db_path(db, 256, tag);
	snprintf(path, sizeof(path), "%s/config/pitboss.json", PB_SOURCE_DIR);
	*cfg = config_load(path, &err);
	if (*cfg == NULL)
		fail_msg("config_load: %s", err.message);
	o.path = db;
	*store = store_open(&o, &err);
	if (*store == NULL)
		fail_msg("store_open: %s", err.message);
	*pit = (struct pit){.store = *store, .cfg = *cfg};
	assert_int_equal(pit_sync_tables(pit, &err), 0);
}

/* Closes what pit_fixture_open opened and removes the database. */
static inline void
pit_fixture_close(char db[256], struct config *cfg, struct store *store)
{
	store_free(store);
	config_free(cfg);
	temp_db_remove(db);
}

/*
 * The Argon2id hash of password, made once per test program and password
 * (each hash costs what a sign-in does: a test's setup that adds the same
 * people before every test would otherwise spend seconds on them).  The
 * hash is a real one, salted once: a verification checks it as ever.
 */
static inline const char *
fixture_password_hash(const char *password)
{
	static struct {
		char password[128];
		char hash[PERSON_HASH_MAX];
	} cache[32];
	static int n;
	struct pb_error err;

	for (int i = 0; i < n; i++)
		if (strcmp(cache[i].password, password) == 0)
			return cache[i].hash;
	assert_true(n < 32 && strlen(password) < sizeof(cache[0].password));
	snprintf(cache[n].password, sizeof(cache[n].password), "%s", password);
	assert_int_equal(password_hash(password, cache[n].hash, &err), 0);
	return cache[n++].hash;
}

/* Adds a person as POST /people would (the password not one-time), active or disabled. */
static inline void
fixture_add_person(struct store *s, const char *id, const char *name, unsigned roles, bool active, const char *password)
{
	struct person p = {.roles = roles, .must_change = false};
	struct pb_error err;

	snprintf(p.id, sizeof(p.id), "%s", id);
	snprintf(p.name, sizeof(p.name), "%s", name);
	snprintf(p.created_at, sizeof(p.created_at), "2026-11-26T00:00:00.000Z");
	snprintf(p.password_hash, sizeof(p.password_hash), "%s", fixture_password_hash(password));
	assert_int_equal(store_person_add(s, &p, &err), 0);
	if (!active)
		assert_int_equal(store_person_update(s, id, name, roles, false, p.created_at, &err), 0);
}

#endif
