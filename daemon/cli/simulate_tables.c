/*
 * simulate_tables.c - the tables `pitboss simulate` deals at: read from the
 * daemon (GET /api/v1/tables and each chosen table), those of --tables, but
 * those of --except.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/simulate.h"
#include "cli/simulate_json.h"

/* ---- the tables to deal at ---- */

/* True when id is in the comma-separated list. */
static bool
list_has_id(const char *list, const char *id)
{
	size_t n = strlen(id);

	while (*list != '\0') {
		size_t len = strcspn(list, ",");
		if (len == n && strncmp(list, id, n) == 0)
			return true;
		list += len;
		if (*list == ',')
			list++;
	}
	return false;
}

/*
 * Fills t from a table's JSON (as GET /api/v1/tables lists it; rules,
 * banker and limits as GET /api/v1/tables/{id} shows them).  Returns 0 when
 * the simulator can deal there, -1 with a reason in why.
 */
static int
table_from_json(json_t *o, struct sim_table *t, char *why, size_t whysz)
{
	const char *id = json_string_value(json_object_get(o, "id"));

	memset(t, 0, sizeof(*t));
	if (id == NULL || strlen(id) >= sizeof(t->id)) {
		snprintf(why, whysz, "no usable id");
		return -1;
	}
	snprintf(t->id, sizeof(t->id), "%s", id);
	return plan_table_from_json(o, &t->game, why, whysz);
}

/*
 * Reads the tables to deal at: GET /api/v1/tables, then GET
 * /api/v1/tables/{id} for each chosen one (rules, banker).  Closed tables
 * and tables the simulator cannot use are left out with a note.  Returns 0
 * when at least one table is usable.
 */
int
load_tables(struct sim *s, struct worker *w)
{
	struct sim_table probe;
	json_t *answer = NULL, *list, *o;
	size_t i;
	int rc = -1;

	if (sim_api_ok(w, NULL, "GET", "/api/v1/tables", NULL, &answer) == -1)
		goto done;
	list = json_object_get(answer, "tables");
	if (!json_is_array(list)) {
		fprintf(stderr, "pitboss simulate: GET /api/v1/tables: no \"tables\" array in the answer\n");
		goto done;
	}
	json_array_foreach(list, i, o) {
		const char *id = json_string_value(json_object_get(o, "id"));
		const char *status = json_string_value(json_object_get(o, "status"));
		json_t *detail = NULL, *full = o;
		char path[128], why[128];
		struct sim_table *t;

		if (id == NULL || (s->opt.tables != NULL && !list_has_id(s->opt.tables, id)))
			continue;
		if (s->opt.except != NULL && list_has_id(s->opt.except, id)) {
			fprintf(stderr, "pitboss simulate: table %s is left free (--except)\n", id);
			continue;
		}
		if (status != NULL && strcmp(status, "open") != 0) {
			fprintf(stderr, "pitboss simulate: table %s is %s; skipping it\n", id, status);
			continue;
		}
		if (s->table_count == SIM_MAX_TABLES) {
			fprintf(stderr, "pitboss simulate: more than %d tables; dealing at the first %d\n",
			    SIM_MAX_TABLES, SIM_MAX_TABLES);
			break;
		}
		t = &s->tables[s->table_count];
		sim_path_table(path, sizeof(path), "/api/v1/tables/", id, "");
		snprintf(probe.id, sizeof(probe.id), "%s", id);
		if (json_object_get(o, "rules") == NULL && sim_api_ok(w, &probe, "GET", path, NULL, &detail) == 0) {
			full = json_object_get(detail, "table");
			if (!json_is_object(full))
				full = detail;
		}
		if (table_from_json(full, t, why, sizeof(why)) == -1) {
			fprintf(stderr, "pitboss simulate: table %s: %s; skipping it\n", id, why);
			json_decref(detail);
			continue;
		}
		t->game.strategy = &s->opt.strategy;
		t->game.decide = strategy_plan_decide;
		if (strategy_needs_rules(&s->opt.strategy) && !t->game.has_rules) {
			fprintf(stderr, "pitboss simulate: table %s: its rules could not be read, and --strategy values "
			    "hands by them; skipping it\n", id);
			json_decref(detail);
			continue;
		}
		json_decref(detail);
		t->explicit_choice = s->opt.tables != NULL;
		s->table_count++;
	}
	if (s->opt.tables != NULL) {
		const char *p = s->opt.tables;

		while (*p != '\0') {
			size_t len = strcspn(p, ",");
			bool found = false;

			json_array_foreach(list, i, o) {
				const char *id = json_string_value(json_object_get(o, "id"));
				if (id != NULL && strlen(id) == len && strncmp(id, p, len) == 0)
					found = true;
			}
			if (!found && len > 0)
				fprintf(stderr, "pitboss simulate: table %.*s: not listed by the daemon for this token\n",
				    (int)len, p);
			p += len;
			if (*p == ',')
				p++;
		}
	}
	if (s->table_count == 0) {
		fprintf(stderr, "pitboss simulate: no open table to deal at\n");
		goto done;
	}
	rc = 0;
done:
	json_decref(answer);
	return rc;
}
