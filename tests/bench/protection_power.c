/*
 * protection_power.c - the power of the decision-knowledge statistic
 * (docs/protection.md, "Power"), by simulation with the engine alone
 * (engine/decision.h).
 *
 * usage: protection_power [--smoke] [--players N] [--honest N] [--seed S] [RULES_FILE]
 *
 *   Simulated players, each alone at a table, play hands of RULES_FILE
 *   (default config/games/standard.json under PB_SOURCE_DIR) with an Ante
 *   only: optimal (play when EV(play|X) >= EV(fold|X)), always play, and
 *   hole-card players who see the dealer's hand on 100%, 50% and 30% of
 *   hands (then play exactly when playing beats folding against it, else
 *   optimal).  For each player z = sum(G_a - E[G_a|X]) / sqrt(sum Var(G|X))
 *   over his decisions so far (docs/protection.md).  Prints, per strategy,
 *   the mean z after 100, 200 and 300 hands over --players players (default
 *   1000), the median number of hands before z >= 4 with at least 50
 *   decisions (the default protection.z_flag and protection.min_decisions;
 *   at most 3000 hands a player), and, over --honest players (default
 *   100000, half optimal, half always-play) of 300 hands each, the share
 *   with z >= 3 and z >= 4 against the normal tail.  --seed (default 31)
 *   fixes every deal, so the figures are reproducible.  --smoke: 20 players
 *   and 1000 honest ones (ctest bench-smoke).
 *
 *   The values of a decision depend on the hand only through its class
 *   under suit symmetry: they are computed once per class (1,755 of them)
 *   with decision_value, and G against the dealt hand with decision_gain.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_rules.h"
#include "engine/decision.h"
#include "engine/rules.h"

#define ANTE 10000            /* cents; the statistic is scale-free */
#define Z_FLAG 4.0
#define MIN_DECISIONS 50
#define MAX_HANDS 3000
#define KEY_COUNT (CARD_COUNT * CARD_COUNT * CARD_COUNT)

enum strategy { S_OPTIMAL, S_ALWAYS, S_HOLE };

struct player_kind {
	const char *name;
	enum strategy strategy;
	double peek;              /* hole-card: the share of hands the dealer's cards are seen */
};

static const struct player_kind KINDS[] = {
	{"optimal", S_OPTIMAL, 0},
	{"always play", S_ALWAYS, 0},
	{"hole-card 100%", S_HOLE, 1.0},
	{"hole-card 50%", S_HOLE, 0.5},
	{"hole-card 30%", S_HOLE, 0.3},
};
#define KIND_COUNT (int)(sizeof(KINDS) / sizeof(KINDS[0]))

/* What z needs of a hand X: E[G|X], Var(G|X) and the optimal decision. */
struct hand_value {
	int known;
	int play_best;            /* EV(play) >= EV(fold) */
	double e_g;
	double var_g;
};

static const struct rules *g_rules;
static struct hand_value *by_hand;    /* indexed by the sorted cards' key */
static struct hand_value *by_class;   /* indexed by the key of the class's canonical hand */
static long classes_computed;

/* ---- a seeded generator: splitmix64, uniform draws without modulo bias ---- */

static uint64_t
next64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint32_t
uniform(uint64_t *s, uint32_t n)
{
	uint32_t reject_below = (uint32_t)(-n) % n;

	for (;;) {
		uint32_t x = (uint32_t)(next64(s) >> 32);
		if (x >= reject_below)
			return x % n;
	}
}

static double
unit(uint64_t *s)
{
	return (double)(next64(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- the value of a hand, once per suit class ---- */

static int
sorted_key(card_t a, card_t b, card_t c)
{
	card_t t;

	if (a > b) { t = a; a = b; b = t; }
	if (b > c) { t = b; b = c; c = t; }
	if (a > b) { t = a; a = b; b = t; }
	return (a * CARD_COUNT + b) * CARD_COUNT + c;
}

/* The key of the smallest hand among the 24 relabellings of the suits of hand. */
static int
class_key(const card_t hand[3])
{
	static const int PERMS[24][4] = {
		{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1},
		{1, 0, 2, 3}, {1, 0, 3, 2}, {1, 2, 0, 3}, {1, 2, 3, 0}, {1, 3, 0, 2}, {1, 3, 2, 0},
		{2, 0, 1, 3}, {2, 0, 3, 1}, {2, 1, 0, 3}, {2, 1, 3, 0}, {2, 3, 0, 1}, {2, 3, 1, 0},
		{3, 0, 1, 2}, {3, 0, 2, 1}, {3, 1, 0, 2}, {3, 1, 2, 0}, {3, 2, 0, 1}, {3, 2, 1, 0},
	};
	int best = KEY_COUNT;

	for (int p = 0; p < 24; p++) {
		card_t m[3];
		for (int i = 0; i < 3; i++)
			m[i] = CARD_MAKE(CARD_RANK(hand[i]), PERMS[p][CARD_SUIT(hand[i])]);
		int k = sorted_key(m[0], m[1], m[2]);
		if (k < best)
			best = k;
	}
	return best;
}

/* The values of hand (from its class, computed on first need); NULL after saying why. */
static const struct hand_value *
hand_value(const card_t hand[3])
{
	int k = sorted_key(hand[0], hand[1], hand[2]), ck;
	struct decision_value v;
	struct pb_error err;
	struct hand_value *cv;

	if (by_hand[k].known)
		return &by_hand[k];
	ck = class_key(hand);
	cv = &by_class[ck];
	if (!cv->known) {
		if (decision_value(g_rules, ANTE, 0, hand, &v, &err) == -1) {
			fprintf(stderr, "protection_power: decision_value: %s\n", err.message);
			return NULL;
		}
		cv->e_g = (double)(v.sum_play - v.sum_fold) / (double)v.n;
		cv->var_g = (double)v.sum_g2 / (double)v.n - cv->e_g * cv->e_g;
		cv->play_best = v.sum_play >= v.sum_fold;
		cv->known = 1;
		classes_computed++;
	}
	by_hand[k] = *cv;
	return &by_hand[k];
}

/* ---- one player ---- */

struct player_result {
	double z_at[3];           /* after 100, 200, 300 hands */
	int flagged_at;           /* the first hand with z >= Z_FLAG and >= MIN_DECISIONS; 0: not within hands */
};

/*
 * Plays `hands` hands of a player of kind k from generator *s, following z
 * hand by hand.  Returns 0, or -1 when a value could not be computed.
 */
static int
play_player(const struct player_kind *k, int hands, uint64_t *s, struct player_result *out)
{
	double num = 0, den = 0;

	memset(out, 0, sizeof(*out));
	for (int h = 1; h <= hands; h++) {
		card_t deck[CARD_COUNT], hand[3], dealer[3];
		const struct hand_value *v;
		struct pb_error err;
		int64_t g;
		int play;

		for (int i = 0; i < CARD_COUNT; i++)
			deck[i] = (card_t)i;
		for (int i = 0; i < 6; i++) {
			int j = i + (int)uniform(s, (uint32_t)(CARD_COUNT - i));
			card_t t = deck[i];
			deck[i] = deck[j];
			deck[j] = t;
		}
		memcpy(hand, deck, sizeof(hand));
		memcpy(dealer, deck + 3, sizeof(dealer));
		if ((v = hand_value(hand)) == NULL)
			return -1;
		if (decision_gain(g_rules, ANTE, 0, hand, dealer, &g, &err) == -1) {
			fprintf(stderr, "protection_power: decision_gain: %s\n", err.message);
			return -1;
		}
		if (k->strategy == S_ALWAYS)
			play = 1;
		else if (k->strategy == S_HOLE && unit(s) < k->peek)
			play = g > 0;
		else
			play = v->play_best;
		num += play ? (double)g - v->e_g : -(double)g + v->e_g;
		den += v->var_g;
		double z = den > 0 ? num / sqrt(den) : 0;
		if (h % 100 == 0 && h / 100 <= 3)
			out->z_at[h / 100 - 1] = z;
		if (out->flagged_at == 0 && h >= MIN_DECISIONS && z >= Z_FLAG)
			out->flagged_at = h;
		if (out->flagged_at > 0 && h >= 300)
			break;    /* every figure of this player is known */
	}
	return 0;
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* One line per kind of player: mean z at 100/200/300 hands, median hands to be flagged. */
static int
power_table(int players, uint64_t seed)
{
	int *flagged = malloc(sizeof(int) * (size_t)players);

	if (flagged == NULL)
		return -1;
	printf("%-16s %8s %8s %8s   %s\n", "player", "z@100", "z@200", "z@300",
	    "hands to z>=4 (median; share flagged within 3000)");
	for (int k = 0; k < KIND_COUNT; k++) {
		double sum[3] = {0, 0, 0};
		int within = 0;
		uint64_t s = seed * 1000003u + (uint64_t)k;
		char median[32];

		for (int p = 0; p < players; p++) {
			struct player_result r;
			if (play_player(&KINDS[k], MAX_HANDS, &s, &r) == -1) {
				free(flagged);
				return -1;
			}
			for (int i = 0; i < 3; i++)
				sum[i] += r.z_at[i];
			flagged[p] = r.flagged_at > 0 ? r.flagged_at : MAX_HANDS + 1;
			within += r.flagged_at > 0;
		}
		qsort(flagged, (size_t)players, sizeof(int), cmp_int);
		if (flagged[players / 2] > MAX_HANDS)
			snprintf(median, sizeof(median), "> %d", MAX_HANDS);
		else
			snprintf(median, sizeof(median), "%d", flagged[players / 2]);
		printf("%-16s %8.2f %8.2f %8.2f   %8s  (%.1f%%)\n", KINDS[k].name, sum[0] / players, sum[1] / players,
		    sum[2] / players, median, 100.0 * within / players);
		fflush(stdout);
	}
	free(flagged);
	return 0;
}

/* Honest players (half optimal, half always-play) of 300 hands: the share over z >= 3 and z >= 4. */
static int
false_alarms(int honest, uint64_t seed)
{
	long over3 = 0, over4 = 0;
	uint64_t s = seed * 1000003u + 99;

	for (int p = 0; p < honest; p++) {
		struct player_result r;
		if (play_player(&KINDS[p % 2], 300, &s, &r) == -1)
			return -1;
		over3 += r.z_at[2] >= 3.0;
		over4 += r.z_at[2] >= 4.0;
	}
	printf("honest players, 300 hands each: %d; z >= 3: %ld (%.2e; normal tail 1.35e-03); "
	    "z >= 4: %ld (%.2e; normal tail 3.17e-05)\n", honest, over3, (double)over3 / honest, over4,
	    (double)over4 / honest);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *src = getenv("PB_SOURCE_DIR") ? getenv("PB_SOURCE_DIR") : PB_SOURCE_DIR;
	char path[4096];
	const char *file = NULL;
	int players = 1000, honest = 100000, rc = 1;
	uint64_t seed = 31;
	static struct rules rules;
	struct timespec t0, t1;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--smoke") == 0) {
			players = 20;
			honest = 1000;
		} else if (strcmp(argv[i], "--players") == 0 && i + 1 < argc)
			players = atoi(argv[++i]);
		else if (strcmp(argv[i], "--honest") == 0 && i + 1 < argc)
			honest = atoi(argv[++i]);
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (argv[i][0] != '-')
			file = argv[i];
		else {
			fprintf(stderr, "usage: protection_power [--smoke] [--players N] [--honest N] [--seed S] "
			    "[RULES_FILE]\n");
			return 2;
		}
	}
	if (players < 1 || honest < 2) {
		fprintf(stderr, "protection_power: --players must be >= 1 and --honest >= 2\n");
		return 2;
	}
	if (file == NULL) {
		snprintf(path, sizeof(path), "%s/config/games/standard.json", src);
		file = path;
	}
	if (bench_load_rules("protection_power", file, &rules) == -1)
		return 1;
	g_rules = &rules;
	by_hand = calloc(KEY_COUNT, sizeof(*by_hand));
	by_class = calloc(KEY_COUNT, sizeof(*by_class));
	if (by_hand == NULL || by_class == NULL)
		goto done;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	printf("decision knowledge: power by simulation (rules %s, Ante only, seed %llu, %d players a kind)\n",
	    rules.name, (unsigned long long)seed, players);
	if (power_table(players, seed) == -1 || false_alarms(honest, seed) == -1)
		goto done;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%ld hand classes valued; %.1f s\n", classes_computed,
	    (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	rc = 0;
done:
	free(by_hand);
	free(by_class);
	return rc;
}
