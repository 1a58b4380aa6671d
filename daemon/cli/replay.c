/*
 * replay.c - `pitboss replay`: one round, reconstructed from its events, as
 * text (every amount in dollars and cents) or as the API's JSON; the
 * database opened read-only.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "table/audit/audit.h"
#include "table/rounds/rounds.h"

static const char HELP[] =
    "usage: pitboss replay --database DB [--json] ROUND\n"
    "\n"
    "Prints a round rebuilt from its recorded events alone, verified: the timeline, the\n"
    "seats and their bets, the cards, the payouts in payout order and, at a player-banked\n"
    "table, the bank and the collections. Every amount is printed in dollars and cents\n"
    "(the API and --json count cents). The database is opened read-only.\n"
    "\n"
    "  --database DB   the database or a backup of it\n"
    "  --json          the round as GET /api/v1/rounds/{id} gives it, with \"verify\"\n"
    "\n"
    "exit status: 0 the round verifies (every check of it was made and found nothing);\n"
    "             1 it does not, or it could not be read or checked; 2 usage (a ROUND that is\n"
    "             not a round id included)\n";

/* cents as dollars and cents: 1250 -> "12.50" */
static void
money(long long cents, char *out, size_t n)
{
	snprintf(out, n, "%s%lld.%02lld", cents < 0 ? "-" : "", llabs(cents) / 100, llabs(cents) % 100);
}

static void
print_cards(const json_t *cards)
{
	size_t i;
	json_t *c;

	json_array_foreach(cards, i, c)
		printf("%s%s", i ? " " : "", json_string_value(c));
}


/* The collections of a player-banked round: each seat's fee, the banker's, the total. */
static void
print_collections(const json_t *c)
{
	const char *key;
	json_t *v;
	char m[32];

	if (c == NULL)
		return;
	printf("\nCollections:\n");
	json_object_foreach((json_t *)json_object_get(c, "seats"), key, v) {
		money(json_integer_value(v), m, sizeof(m));
		printf("  seat %s %10s\n", key, m);
	}
	money(json_integer_value(json_object_get(c, "banker")), m, sizeof(m));
	printf("  banker %8s\n", m);
	money(json_integer_value(json_object_get(c, "total")), m, sizeof(m));
	printf("  total  %8s\n", m);
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
		char m3[32];

		money(json_integer_value(json_object_get(v, "ante")), m1, sizeof(m1));
		money(json_integer_value(json_object_get(v, "pair_plus")), m2, sizeof(m2));
		money(json_integer_value(json_object_get(v, "six_card")), m3, sizeof(m3));
		printf("  seat %s: ante %s, pair plus %s, six card %s", key, m1, m2, m3);
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
	print_collections(json_object_get(r, "collections"));
	if ((v = json_object_get(r, "void_reason")) != NULL)
		printf("  void: %s\n", json_string_value(v));
	printf("\nVerify: %s\n", json_is_true(json_object_get(verify, "ok")) ? "OK, the payouts recompute exactly and the chain holds" : "FAILED");
	json_array_foreach(json_object_get(verify, "problems"), i, p)
		printf("  PROBLEM: %s\n", json_string_value(json_object_get(p, "problem")));
}

/*
 * `pitboss replay`: one round rebuilt from its events and verified, as text
 * or as the API's JSON.  Exit statuses in HELP.
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
	struct actor actor = {"pitboss-replay", ROLE_BIT(ROLE_AUDITOR), NULL, false};
	json_t *round = NULL, *verify = NULL;
	int64_t id;
	int c, status = 1;

	if (cli_help(argc, argv, HELP))
		return 0;
	while ((c = cli_option(argc, argv, LONG)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'j': as_json = true; break;
		default: goto usage;
		}
	}
	if (db == NULL || optind != argc - 1)
		goto usage;
	if (!cli_round_id("replay", "ROUND", argv[optind], &id))
		return 2;
	if ((pit.store = cli_open_database("replay", db, true)) == NULL)
		return 1;
	if (pit_round_get(&pit, &actor, id, &round, &err) < 0 || pit_round_verify(&pit, &actor, id, &verify, &err) < 0) {
		fprintf(stderr, "pitboss replay: %s\n", err.message);
		goto out;
	}
	if (as_json) {
		char *text = json_object_set(json_object_get(round, "round"), "verify", verify) == 0 ?
		    json_dumps(round, JSON_INDENT(2)) : NULL;
		if (text == NULL) {
			fprintf(stderr, "pitboss replay: cannot write the round (out of memory)\n");
			goto out;
		}
		printf("%s\n", text);
		free(text);
	} else {
		print_round(json_object_get(round, "round"), verify);
	}
	status = json_is_true(json_object_get(verify, "ok")) ? 0 : 1;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "pitboss replay: cannot write the round\n");
		status = 1;
	}
out:
	json_decref(round);
	json_decref(verify);
	store_free(pit.store);
	return status;
usage:
	fputs(HELP, stderr);
	return 2;
}
