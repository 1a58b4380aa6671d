/*
 * mhdlog.h - libmicrohttpd's own messages (a connection refused at the
 * limit, a malformed request it answered itself) in pitbossd's log, with
 * its timestamp, ten lines a minute at most.
 */
#ifndef PB_HTTP_MHDLOG_H
#define PB_HTTP_MHDLOG_H

#include <stdarg.h>

/* MHD_OPTION_EXTERNAL_LOGGER's function (cls unused). */
void mhdlog(void *cls, const char *fmt, va_list ap);

#endif
