/*
 * simulate_stats.c - the counters of `pitboss simulate`: requests and their
 * latency (a log-scale histogram), refusals by error code, and the progress
 * and summary lines made from them.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "cli/simulate.h"

/* Counts one request and files its latency in the log-scale histogram. */
void
stat_latency(struct sim *s, double ms)
{
	double us = ms * 1000.0;
	int b = us < 1.0 ? 0 : (int)(log10(us) * 20.0);

	if (b >= SIM_LAT_BUCKETS)
		b = SIM_LAT_BUCKETS - 1;
	pthread_mutex_lock(&s->lock);
	s->st.requests++;
	s->st.latency[b]++;
	s->st.latency_sum_ms += ms;
	if (ms > s->st.latency_max_ms)
		s->st.latency_max_ms = ms;
	pthread_mutex_unlock(&s->lock);
}

/* The latency (ms) below which a fraction q of the requests fell: the upper edge of its bucket. */
static double
latency_quantile(const struct stats *st, double q)
{
	unsigned long total = 0, seen = 0;

	for (int i = 0; i < SIM_LAT_BUCKETS; i++)
		total += st->latency[i];
	if (total == 0)
		return 0;
	for (int i = 0; i < SIM_LAT_BUCKETS; i++) {
		seen += st->latency[i];
		if ((double)seen >= q * (double)total) {
			double edge = pow(10.0, (double)(i + 1) / 20.0) / 1000.0;
			return edge < st->latency_max_ms ? edge : st->latency_max_ms;
		}
	}
	return st->latency_max_ms;
}

/* Counts a refusal (4xx) or server error (5xx) by its error code; called with s->lock held. */
void
stat_refusal_locked(struct sim *s, const char *code)
{
	struct stats *st = &s->st;
	int i;

	for (i = 0; i < st->refusal_count; i++)
		if (strcmp(st->refusals[i].code, code) == 0)
			break;
	if (i == st->refusal_count) {
		if (st->refusal_count == SIM_MAX_CODES)
			i = SIM_MAX_CODES - 1;    /* the last slot collects the overflow */
		else
			st->refusal_count++;
		snprintf(st->refusals[i].code, sizeof(st->refusals[i].code), "%s", code);
	}
	st->refusals[i].count++;
}

/* Writes "code=n code=n" (or "none") into out. */
static void
format_refusals(const struct stats *st, char *out, size_t outsz)
{
	size_t n = 0;

	out[0] = '\0';
	for (int i = 0; i < st->refusal_count && n + 1 < outsz; i++)
		n += (size_t)snprintf(out + n, outsz - n, "%s%s=%lu", i ? " " : "", st->refusals[i].code,
		    st->refusals[i].count);
	if (st->refusal_count == 0)
		snprintf(out, outsz, "none");
}

/* One line of figures: rounds, rate, refusals.  With s->lock held. */
void
print_progress(struct sim *s, double elapsed, double rate)
{
	char refusals[512];
	unsigned long rounds = s->st.settled + s->st.voided + s->st.failed;

	format_refusals(&s->st, refusals, sizeof(refusals));
	fprintf(stderr, "simulate: %7.1fs  %lu rounds (%lu settled, %lu void, %lu failed)  %.1f rounds/s"
	    "  refusals: %s  unexpected: %lu\n", elapsed, rounds, s->st.settled, s->st.voided, s->st.failed,
	    rate, refusals, s->st.unexpected);
}

/* The final line on stdout, always printed: what load tests and benchmarks read. */
void
print_summary(struct sim *s, double elapsed)
{
	char refusals[1024];
	unsigned long rounds = s->st.settled + s->st.voided + s->st.failed;

	format_refusals(&s->st, refusals, sizeof(refusals));
	printf("simulate: %lu rounds in %.2f s (%.1f rounds/s) at %d table(s): %lu settled, %lu void, %lu failed, "
	    "%lu recovered; %lu requests (%lu retried, %lu network errors), latency ms mean %.2f p50 %.2f "
	    "p99 %.2f max %.2f; refusals: %s; unexpected: %lu\n",
	    rounds, elapsed, elapsed > 0 ? (double)rounds / elapsed : 0.0, s->table_count, s->st.settled,
	    s->st.voided, s->st.failed, s->st.recovered, s->st.requests, s->st.retries, s->st.transport_errors,
	    s->st.requests ? s->st.latency_sum_ms / (double)s->st.requests : 0.0,
	    latency_quantile(&s->st, 0.50), latency_quantile(&s->st, 0.99), s->st.latency_max_ms,
	    refusals, s->st.unexpected);
	fflush(stdout);
}
