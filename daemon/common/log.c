#include "common/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>

#include "common/timeutil.h"

static bool use_syslog;
static const char *log_ident = "pitbossd";

void
log_open(const char *ident, bool to_syslog)
{
	log_ident = ident;
	use_syslog = to_syslog;
	if (to_syslog)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

static void
vlog(int prio, const char *level, const char *fmt, va_list ap)
{
	char now[PB_TIME_LEN];

	if (use_syslog) {
		vsyslog(prio, fmt, ap);
		return;
	}
	pb_time_now(now);
	/* One line at a time: the background integrity walk logs from its own thread. */
	flockfile(stderr);
	fprintf(stderr, "%s %s %s: ", now, log_ident, level);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	fflush(stderr);
	funlockfile(stderr);
}

void
log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_INFO, "info", fmt, ap);
	va_end(ap);
}

void
log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_WARNING, "warning", fmt, ap);
	va_end(ap);
}

void
log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_ERR, "error", fmt, ap);
	va_end(ap);
}
