#include "common/timeutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/testclock.h"

/* The real time, plus the test clock's offset in a build that has it and a daemon that uses it (testclock.h). */
int64_t
pb_time_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + pb_test_clock_offset_ms();
}

void
pb_time_format_ms(int64_t unix_ms, char out[PB_TIME_LEN])
{
	time_t secs = (time_t)(unix_ms / 1000);
	struct tm tm;

	char buf[64];

	gmtime_r(&secs, &tm);
	snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
	    tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(unix_ms % 1000));
	memcpy(out, buf, PB_TIME_LEN - 1);
	out[PB_TIME_LEN - 1] = '\0';
}

void
pb_time_now(char out[PB_TIME_LEN])
{
	pb_time_format_ms(pb_time_now_ms(), out);
}

void
pb_time_format_http(int64_t unix_ms, char out[PB_HTTP_TIME_LEN])
{
	static const char DAYS[7][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
	static const char MONTHS[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	time_t secs = (time_t)(unix_ms / 1000);
	struct tm tm;

	gmtime_r(&secs, &tm);
	snprintf(out, PB_HTTP_TIME_LEN, "%s, %02d %s %04d %02d:%02d:%02d GMT", DAYS[tm.tm_wday], tm.tm_mday,
	    MONTHS[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/*
 * True when text has the shape YYYY-MM-DD[(T| )HH:MM[:SS[.mmm]]][Z]: digits
 * exactly where the format has them.  sscanf's %d alone would also take
 * signs and spaces ("2026-+1-21", "2026-11-21T-1:00").
 */
static bool
time_shape(const char *text, size_t len)
{
	static const char SHAPE[] = "dddd-dd-dd?dd:dd:dd.ddd";

	if (len > 10 && text[len - 1] == 'Z')
		len--;
	if (len != 10 && len != 16 && len != 19 && len != 23)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (SHAPE[i] == 'd' ? (c < '0' || c > '9') : SHAPE[i] == '?' ? (c != 'T' && c != ' ') : c != SHAPE[i])
			return false;
	}
	return true;
}

int
pb_time_parse(const char *text, int64_t *unix_ms)
{
	struct tm tm;
	int y, mo, d, h = 0, mi = 0, s = 0, ms = 0, n = 0, len;

	if (text == NULL || !time_shape(text, strlen(text)))
		return -1;
	len = (int)strlen(text);
	memset(&tm, 0, sizeof(tm));
	if (sscanf(text, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || n != 10)
		return -1;
	if (len > 10) {
		int n2 = 0;
		if (text[10] != 'T' && text[10] != ' ')
			return -1;
		if (sscanf(text + 11, "%2d:%2d%n", &h, &mi, &n2) != 2 || n2 != 5)
			return -1;
		n = 16;
		if (text[n] == ':') {
			if (sscanf(text + n + 1, "%2d%n", &s, &n2) != 1 || n2 != 2)
				return -1;
			n += 3;
			if (text[n] == '.') {
				if (sscanf(text + n + 1, "%3d%n", &ms, &n2) != 1 || n2 != 3)
					return -1;
				n += 4;
			}
		}
		if (text[n] == 'Z')
			n++;
		if (n != len)
			return -1;
	}
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60 || y < 1970)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	*unix_ms = (int64_t)timegm(&tm) * 1000 + ms;
	return 0;
}

void
pb_deadline_in(clockid_t clock, int64_t ms, struct timespec *until)
{
	clock_gettime(clock, until);
	until->tv_sec += ms / 1000;
	until->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (until->tv_nsec >= 1000000000L) {
		until->tv_sec++;
		until->tv_nsec -= 1000000000L;
	}
}
