/*
 * verify.c - `pitboss verify` (a whole database, offline) and `pitboss
 * replay` (one round, reconstructed from its events, as text).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "engine/hand3.h"
#include "store/audit.h"
#include "table/audit.h"

/* The usage line of a command on stderr; returns the exit status 2. */
static int
usage(const char *line)
{
	fprintf(stderr, "usage: pitboss %s\n", line);
	return 2;
}

/* The integrity report as text: the counts, one line per problem, the verdict. */
static void
print_integrity(const char *db, json_t *out)
{
	json_t *problems = json_object_get(out, "problems"), *checked = json_object_get(out, "checked"), *pr;
	size_t i;

	printf("%s: %lld tables, %lld events, %lld rounds, %lld checkpoints checked\n", db,
	    (long long)json_integer_value(json_object_get(checked, "tables")),
	    (long long)json_integer_value(json_object_get(checked, "events")),
	    (long long)json_integer_value(json_object_get(checked, "rounds")),
	    (long long)json_integer_value(json_object_get(checked, "checkpoints")));
	json_array_foreach(problems, i, pr) {
		json_t *round = json_object_get(pr, "round");
		const char *table = json_string_value(json_object_get(pr, "table"));
		if (table != NULL && table[0] != '\0')
			printf("PROBLEM table %s", table);
		else
			printf("PROBLEM log");
		if (round != NULL)
			printf(" round %lld", (long long)json_integer_value(round));
		printf(": %s\n", json_string_value(json_object_get(pr, "problem")));
	}
	printf("%s\n", json_array_size(problems) == 0 ? "OK: the record is intact" : "FAILED: the record was altered");
}

/*
 * `pitboss verify`: walks the chains, checkpoints and rounds of a database
 * opened read-only and prints what it found.  Exit 0 intact, 1 altered or
 * unreadable, 2 usage.
 */
int
cmd_verify(int argc, char **argv)
{
	static const struct option LONG[] = {
		{"database", required_argument, NULL, 'd'}, {"table", required_argument, NULL, 't'},
		{"from", required_argument, NULL, 'f'}, {"public-key", required_argument, NULL, 'k'},
		{"json", no_argument, NULL, 'j'}, {NULL, 0, NULL, 0},
	};
	struct integrity_scope scope = {0};
	const char *db = NULL;
	bool as_json = false;
	struct pb_error err;
	struct pit pit = {0};
	json_t *out = NULL, *problems;
	int c, status;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", LONG, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 't': scope.table_id = optarg; break;
		case 'f': scope.from_round = strtoll(optarg, NULL, 10); break;
		case 'k': scope.public_key_hex = optarg; break;
		case 'j': as_json = true; break;
		default: goto usage;
		}
	}
	if (db == NULL || optind != argc)
		goto usage;
	if ((pit.store = cli_open_database("verify", db, true)) == NULL)
		return 1;
	if (audit_integrity(&pit, &scope, &out, &err) < 0) {
		fprintf(stderr, "pitboss verify: %s\n", err.message);
		store_free(pit.store);
		return 1;
	}
	problems = json_object_get(out, "problems");
	if (as_json) {
		char *text = json_dumps(out, JSON_INDENT(2));
		printf("%s\n", text);
		free(text);
	} else {
		print_integrity(db, out);
	}
	status = json_array_size(problems) == 0 ? 0 : 1;
	json_decref(out);
	store_free(pit.store);
	return status;
usage:
	return usage("verify --database DB [--table T] [--from ROUND] [--public-key HEX] [--json]");
}

static void
print_cards(const json_t *cards)
{
	size_t i;
	json_t *c;

	json_array_foreach(cards, i, c)
		printf("%s%s", i ? " " : "", json_string_value(c));
}

static void
money(long long cents, char *out, size_t n)
{
	snprintf(out, n, "%s%lld.%02lld", cents < 0 ? "-" : "", llabs(cents) / 100, llabs(cents) % 100);
}

/* Prints the round as a person reads it: who did what, when, and what was paid. */
static void
print_round(const json_t *r, const json_t *verify)
{
	const char *key;
	json_t *v, *e, *p;
	size_t i;
	char m1[32], m2[32];

	printf("Round %lld, table %s, round %lld of the table: %s\n", (long long)json_integer_value(json_object_get(r, "id")),
	    json_string_value(json_object_get(r, "table")), (long long)json_integer_value(json_object_get(r, "round_no")),
	    json_string_value(json_object_get(r, "state")));
	printf("  game %s, dealer qualifies with %s\n",
	    json_string_value(json_object_get(json_object_get(r, "rules"), "name")),
	    json_string_value(json_object_get(json_object_get(r, "rules"), "dealer_qualifier")));
	if ((v = json_object_get(r, "banker")) != NULL) {
		money(json_integer_value(json_object_get(v, "bank")), m1, sizeof(m1));
		money(json_integer_value(json_object_get(v, "bank_end")), m2, sizeof(m2));
		printf("  banker: seat %lld with a bank of %s, ending with %s\n", (long long)json_integer_value(json_object_get(v, "seat")), m1, m2);
	}
	printf("\nTimeline (UTC):\n");
	json_array_foreach(json_object_get(r, "events"), i, e)
		printf("  %s  %-16s %-14s %s\n", json_string_value(json_object_get(e, "at")), json_string_value(json_object_get(e, "type")),
		    json_string_value(json_object_get(e, "actor")), json_string_value(json_object_get(e, "hash")));
	printf("\nSeats:\n");
	json_object_foreach(json_object_get(r, "bets"), key, v) {
		json_t *h = json_object_get(json_object_get(r, "hands"), key);
		json_t *d = json_object_get(json_object_get(r, "decisions"), key);
		printf("  seat %s: ante %lld, pair plus %lld, six card %lld", key, (long long)json_integer_value(json_object_get(v, "ante")),
		    (long long)json_integer_value(json_object_get(v, "pair_plus")), (long long)json_integer_value(json_object_get(v, "six_card")));
		if (h != NULL) {
			printf("; cards ");
			print_cards(json_object_get(h, "cards"));
			printf(" (%s)", json_string_value(json_object_get(h, "hand")));
		}
		if (d != NULL)
			printf("; %s", json_string_value(d));
		printf("\n");
	}
	if ((v = json_object_get(r, "dealer")) != NULL && json_is_object(v)) {
		printf("  dealer: ");
		print_cards(json_object_get(v, "cards"));
		printf(" (%s, %s)\n", json_string_value(json_object_get(v, "hand")),
		    json_is_true(json_object_get(v, "qualifies")) ? "qualifies" : "does not qualify");
	}
	printf("\nPayouts, in the order paid:\n");
	json_array_foreach(json_object_get(r, "payouts"), i, p) {
		money(json_integer_value(json_object_get(p, "stake")), m1, sizeof(m1));
		money(json_integer_value(json_object_get(p, "net")), m2, sizeof(m2));
		printf("  %2lld. seat %lld %-10s stake %10s  %-8s net %10s", (long long)json_integer_value(json_object_get(p, "seq")),
		    (long long)json_integer_value(json_object_get(p, "seat")), json_string_value(json_object_get(p, "wager")), m1,
		    json_string_value(json_object_get(p, "result")), m2);
		if (json_object_get(p, "bank_after") != NULL) {
			money(json_integer_value(json_object_get(p, "bank_after")), m1, sizeof(m1));
			printf("  bank %s", m1);
		}
		if (json_object_get(p, "short") != NULL) {
			money(json_integer_value(json_object_get(p, "short")), m1, sizeof(m1));
			printf("  short %s", m1);
		}
		printf("\n");
	}
	if ((v = json_object_get(r, "void_reason")) != NULL)
		printf("  void: %s\n", json_string_value(v));
	printf("\nVerify: %s\n", json_is_true(json_object_get(verify, "ok")) ? "OK, the payouts recompute exactly and the chain holds" : "FAILED");
	json_array_foreach(json_object_get(verify, "problems"), i, p)
		printf("  PROBLEM: %s\n", json_string_value(json_object_get(p, "problem")));
}

/*
 * `pitboss replay`: one round rebuilt from its events and verified, as text
 * or as the API's JSON.  Exit 0 when it verifies, 1 otherwise, 2 usage.
 */
int
cmd_replay(int argc, char **argv)
{
	static const struct option LONG[] = {
		{"database", required_argument, NULL, 'd'}, {"json", no_argument, NULL, 'j'}, {NULL, 0, NULL, 0},
	};
	const char *db = NULL;
	bool as_json = false;
	struct pb_error err;
	struct pit pit = {0};
	struct actor actor = {"pitboss-replay", ROLE_AUDITOR, NULL};
	json_t *round = NULL, *verify = NULL;
	int64_t id;
	int c, status = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", LONG, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'j': as_json = true; break;
		default: goto usage;
		}
	}
	if (db == NULL || optind != argc - 1)
		goto usage;
	id = strtoll(argv[optind], NULL, 10);
	if ((pit.store = cli_open_database("replay", db, true)) == NULL)
		return 1;
	if (pit_round_get(&pit, &actor, id, &round, &err) < 0 || pit_round_verify(&pit, &actor, id, &verify, &err) < 0) {
		fprintf(stderr, "pitboss replay: %s\n", err.message);
		goto out;
	}
	if (as_json) {
		json_object_set(json_object_get(round, "round"), "verify", verify);
		char *text = json_dumps(round, JSON_INDENT(2));
		printf("%s\n", text);
		free(text);
	} else {
		print_round(json_object_get(round, "round"), verify);
	}
	status = json_is_true(json_object_get(verify, "ok")) ? 0 : 1;
out:
	json_decref(round);
	json_decref(verify);
	store_free(pit.store);
	return status;
usage:
	return usage("replay --database DB [--json] ROUND");
}
