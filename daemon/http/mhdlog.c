/*
 * mhdlog.c - libmicrohttpd's messages through log_warn, rate-limited: a
 * flood of refused connections writes ten lines a minute, then one line
 * saying how many were left out.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/timeutil.h"
#include "http/mhdlog.h"

#define LINES_PER_MINUTE 10

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int64_t minute;
static unsigned lines;
static unsigned left_out;

void
mhdlog(void *cls, const char *fmt, va_list ap)
{
	char text[512];
	size_t n;
	int64_t now = pb_time_now_ms() / 60000;
	unsigned skipped = 0;
	bool show;

	(void)cls;
	vsnprintf(text, sizeof(text), fmt, ap);
	n = strlen(text);
	while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r'))
		text[--n] = '\0';
	pthread_mutex_lock(&lock);
	if (now != minute) {
		skipped = left_out;
		minute = now;
		lines = 0;
		left_out = 0;
	}
	show = lines < LINES_PER_MINUTE;
	if (show)
		lines++;
	else
		left_out++;
	pthread_mutex_unlock(&lock);
	if (skipped > 0)
		log_warn("http: %u more libmicrohttpd message(s) of the last minute not logged", skipped);
	if (show)
		log_warn("http: %s", text);
}
