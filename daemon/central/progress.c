/*
 * progress.c - how far `central restore` and `central verify` are
 * (docs/central.md, "Restore"): on a terminal, a line rewritten in place
 * at most four times a second (events done of all, rate, ETA); in any
 * case a last line with the count, the time and the rate.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "central/central.h"
#include "central/central_int.h"

#define REDRAW_MS 250

void
central_progress_start(struct central_progress *p, FILE *out, const char *what)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->what = what;
	p->live = out != NULL && isatty(fileno(out));
	p->start_ms = p->drawn_ms = central_monotonic_ms();
}

/* Events per second since the start (0 before the first millisecond). */
static double
rate(const struct central_progress *p, int64_t now)
{
	return now > p->start_ms ? (double)p->done * 1000.0 / (double)(now - p->start_ms) : 0.0;
}

void
central_progress_step(struct central_progress *p, int64_t done)
{
	int64_t now;
	double r;

	if (p == NULL)
		return;
	p->done = done;
	if (!p->live || (now = central_monotonic_ms()) - p->drawn_ms < REDRAW_MS)
		return;
	p->drawn_ms = now;
	r = rate(p, now);
	fprintf(p->out, "\r%s: %" PRId64 " of %" PRId64 " events (%.0f%%), %.0f events/s", p->what, p->done, p->total,
	    p->total > 0 ? 100.0 * (double)p->done / (double)p->total : 0.0, r);
	if (r > 0 && p->total >= p->done)
		fprintf(p->out, ", ETA %.0f s   ", (double)(p->total - p->done) / r);
	else
		fputs("   ", p->out);
	fflush(p->out);
	p->drawn = true;
}

void
central_progress_end(struct central_progress *p)
{
	int64_t now;

	if (p == NULL || p->out == NULL)
		return;
	now = central_monotonic_ms();
	if (p->drawn)
		fputs("\r\033[K", p->out);
	fprintf(p->out, "%s: %" PRId64 " events in %.1f s, %.0f events/s\n", p->what, p->done,
	    (double)(now - p->start_ms) / 1000.0, rate(p, now));
	fflush(p->out);
}
