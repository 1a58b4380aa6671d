/*
 * log.h - pitbossd's log: stderr in the foreground, syslog when detached.
 */
#ifndef PB_COMMON_LOG_H
#define PB_COMMON_LOG_H

#include <stdbool.h>

void log_open(const char *ident, bool to_syslog);
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
