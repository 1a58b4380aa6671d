/*
 * bench_engine.c - times the engine on one core: the exact analysis of each
 * config/games/ *.json (cold first call, which builds the process-wide
 * tables, then many repetitions), settle_round on random valid rounds, and
 * decision_value (engine/decision.h): the process's first call, a cold
 * decision (the first of its suit class under the rules' qualifier, which
 * enumerates the dealer hands) and a warm one.
 *
 * usage: bench_engine [--smoke] [GAMES_DIR]
 *   GAMES_DIR defaults to $PB_SOURCE_DIR/config/games (or the compiled-in
 *   source dir).  --smoke runs a few repetitions only (ctest bench-smoke).
 */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_rules.h"
#include "engine/analyze.h"
#include "engine/decision.h"
#include "engine/rules.h"
#include "engine/settle.h"

#ifndef PB_SOURCE_DIR
#define PB_SOURCE_DIR "."
#endif

#define MAX_GAMES 64
#define ROUND_POOL 4096

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* xorshift64*: a fast, reproducible source of deals (not for real games). */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
#include "../common/xorshift.h"

static unsigned
rng_below(unsigned n)
{
	return (unsigned)(rng() % n);
}

/* A random complete round: shuffled deck, random bets, Q-6-4 decisions. */
static void
random_round(const struct rules *r, hand3_value_t q64, struct round_input *in)
{
	card_t deck[CARD_COUNT];
	int next = 0;

	memset(in, 0, sizeof(*in));
	memset(in->hands, CARD_NONE, sizeof(in->hands));   /* empty seats are dealt nothing */
	for (int i = 0; i < CARD_COUNT; i++)
		deck[i] = (card_t)i;
	for (int i = CARD_COUNT - 1; i > 0; i--) {
		unsigned j = rng_below((unsigned)i + 1);
		card_t t = deck[i];
		deck[i] = deck[j];
		deck[j] = t;
	}
	in->rules = r;
	in->seats = 6 + (int)rng_below(3);
	in->player_banked = rng_below(4) == 0;
	if (in->player_banked) {
		in->banker_seat = 1 + (int)rng_below((unsigned)in->seats);
		in->bank = 5000 + (int64_t)rng_below(200000);
	}
	for (int s = 1; s <= in->seats; s++) {
		if (s == in->banker_seat || rng_below(5) == 0)
			continue;
		in->bets[s].ante = 500 * (1 + (int64_t)rng_below(20));
		if (r->has_pair_plus && rng_below(2))
			in->bets[s].pair_plus = 500 * (1 + (int64_t)rng_below(10));
		if (r->has_six_card && rng_below(3) == 0)
			in->bets[s].six_card = 500 * (1 + (int64_t)rng_below(5));
		for (int k = 0; k < 3; k++)
			in->hands[s][k] = deck[next++];
		in->decisions[s] = hand3_value(in->hands[s]) >= q64 ? DECISION_PLAY : DECISION_FOLD;
	}
	for (int k = 0; k < 3; k++)
		in->dealer[k] = deck[next++];
}

/* The lowest colex index of h's orbit under the 24 permutations of the suits: its class. */
static int
suit_class_key(const card_t h[3])
{
	int best = 1 << 30;

	for (int p = 0; p < 24; p++) {
		int perm[4] = {0, 1, 2, 3}, k = p, m[3], t;

		for (int i = 0; i < 4; i++) {           /* the p-th permutation by the factorial number system */
			int f = i == 0 ? 6 : i == 1 ? 2 : 1, j = i + (i < 3 ? k / f : 0);

			if (i < 3)
				k %= f;
			t = perm[j];
			memmove(&perm[i + 1], &perm[i], (size_t)(j - i) * sizeof(int));
			perm[i] = t;
		}
		for (int i = 0; i < 3; i++)
			m[i] = CARD_RANK(h[i]) * 4 + perm[CARD_SUIT(h[i])];
		if (m[0] > m[1]) { t = m[0]; m[0] = m[1]; m[1] = t; }
		if (m[1] > m[2]) { t = m[1]; m[1] = m[2]; m[2] = t; }
		if (m[0] > m[1]) { t = m[0]; m[0] = m[1]; m[1] = t; }
		t = m[2] * (m[2] - 1) * (m[2] - 2) / 6 + m[1] * (m[1] - 1) / 2 + m[0];
		if (t < best)
			best = t;
	}
	return best;
}

/*
 * Times decision_value under r (whose qualifier no decision has used yet in
 * this process): the first call, the first decision of each suit class
 * (cold), then every hand again (warm), reps times.
 */
static int
bench_decisions(const struct rules *r, int reps)
{
	static bool seen[ANALYSIS_HANDS];
	card_t hands[ANALYSIS_HANDS][3];
	struct decision_value v;
	struct pb_error err;
	double t0, first, cold = 0, warm;
	int n = 0, classes = 0;
	int64_t sink = 0;

	for (int a = 0; a < CARD_COUNT; a++)
		for (int b = a + 1; b < CARD_COUNT; b++)
			for (int c = b + 1; c < CARD_COUNT; c++, n++) {
				hands[n][0] = (card_t)a;
				hands[n][1] = (card_t)b;
				hands[n][2] = (card_t)c;
			}
	t0 = now_ms();
	if (decision_value(r, 1000, 500, hands[0], &v, &err) < 0) {
		fprintf(stderr, "bench_engine: decision_value: %s\n", err.message);
		return -1;
	}
	first = now_ms() - t0;
	seen[suit_class_key(hands[0])] = true;
	for (int i = 1; i < n; i++) {
		int key = suit_class_key(hands[i]);

		if (seen[key])
			continue;
		seen[key] = true;
		t0 = now_ms();
		decision_value(r, 1000, 500, hands[i], &v, &err);
		cold += now_ms() - t0;
		classes++;
	}
	t0 = now_ms();
	for (int k = 0; k < reps; k++)
		for (int i = 0; i < n; i++) {
			decision_value(r, 1000 + k, 500, hands[i], &v, &err);
			sink += v.sum_play;
		}
	warm = (now_ms() - t0) / ((double)reps * n);
	printf("\ndecision_value (%s rules, Ante and Pair Plus)\n", r->name);
	printf("first call in the process %.3f ms (hand tables built); cold %.1f us per decision "
	    "(first of each of %d more suit classes); warm %.2f us per decision, %.0f decisions/s (checksum %lld)\n",
	    first, 1e3 * cold / classes, classes, 1e3 * warm, 1.0 / (warm / 1e3), (long long)sink);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *dir = getenv("PB_SOURCE_DIR") ? NULL : PB_SOURCE_DIR "/config/games";
	char dirbuf[1024], path[2048], *names[MAX_GAMES];
	int smoke = 0, n = 0, reps;
	struct analysis *a = malloc(sizeof(*a));
	struct round_input *pool = malloc(ROUND_POOL * sizeof(*pool));
	struct settlement s;
	struct rules std;
	struct pb_error err;
	struct dirent *de;
	DIR *d;
	double t0, t1;

	if (a == NULL || pool == NULL)
		return 1;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--smoke") == 0)
			smoke = 1;
		else
			dir = argv[i];
	}
	if (dir == NULL) {
		snprintf(dirbuf, sizeof(dirbuf), "%s/config/games", getenv("PB_SOURCE_DIR"));
		dir = dirbuf;
	}
	if ((d = opendir(dir)) == NULL) {
		perror(dir);
		return 1;
	}
	while ((de = readdir(d)) != NULL && n < MAX_GAMES) {
		size_t len = strlen(de->d_name);
		if (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0)
			names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), by_name);
	reps = smoke ? 3 : 300;

	printf("Exact analysis (analyze_rules), one core, %d repetitions after the first call\n", reps);
	printf("%-26s %14s %14s\n", "rules file", "first (ms)", "per call (ms)");
	for (int i = 0; i < n; i++) {
		struct rules r;
		double first;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (bench_load_rules("bench_engine", path, &r) < 0)
			return 1;
		t0 = now_ms();
		if (analyze_rules(&r, a, &err) < 0) {
			fprintf(stderr, "bench_engine: %s: %s\n", path, err.message);
			return 1;
		}
		first = now_ms() - t0;
		t0 = now_ms();
		for (int k = 0; k < reps; k++)
			analyze_rules(&r, a, &err);
		t1 = now_ms();
		printf("%-26s %14.3f %14.3f   house edge ante %.4f%%\n", names[i], first, (t1 - t0) / reps,
		    100.0 * a->ante_play.house_edge);
	}

	snprintf(path, sizeof(path), "%s/standard.json", dir);
	if (bench_load_rules("bench_engine", path, &std) < 0)
		return 1;
	if (bench_decisions(&std, smoke ? 1 : 20) < 0)
		return 1;
	{
		hand3_value_t q64;
		long total = smoke ? 20000 : 4000000, done = 0;
		int64_t sink = 0;
		long lines = 0;

		hand3_parse_high_card("Q-6-4", &q64, NULL);
		for (int i = 0; i < ROUND_POOL; i++)
			random_round(&std, q64, &pool[i]);
		t0 = now_ms();
		while (done < total) {
			for (int i = 0; i < ROUND_POOL && done < total; i++, done++) {
				if (settle_round(&pool[i], &s, &err) < 0) {
					fprintf(stderr, "bench_engine: settle_round: %s\n", err.message);
					return 1;
				}
				sink += s.players_net;
				lines += s.line_count;
			}
		}
		t1 = now_ms();
		printf("\nsettle_round (standard rules, 6-8 seats, 1 in 4 player-banked)\n");
		printf("%ld rounds, %ld payout lines in %.1f ms: %.0f settlements/s, %.0f lines/s (checksum %lld)\n",
		    total, lines, t1 - t0, total / ((t1 - t0) / 1e3), lines / ((t1 - t0) / 1e3), (long long)sink);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(pool);
	free(a);
	return 0;
}
