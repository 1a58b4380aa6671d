/*
 * watchdog.h - deadlines and a fair share of the connections
 * (docs/security.md, "Slow clients").  libmicrohttpd's own timeout is an
 * idle timeout: a client that sends a header line every few seconds keeps
 * its connection for ever.  The watchdog knows every open connection (from
 * libmicrohttpd's connection notifications) and where its request is:
 *
 * - the head (request line and headers) must be complete within
 *   head_seconds of the connection's opening, or of its request line on a
 *   kept-alive connection (which may first idle connection_timeout);
 * - the body must then arrive at body_min_rate bytes a second at least,
 *   after a grace of head_seconds;
 * - when the open connections pass soft_limit, or one client address holds
 *   more than per_client, the connection of that address (or any) that has
 *   waited longest for its head is closed to make room; without one, the
 *   newcomer is closed.
 *
 * - a connection awaiting a head whose client has closed its side (it can
 *   send no request any more) is closed at once: libmicrohttpd 0.9.75 can
 *   miss that end while accept() fails for want of files, and kept such
 *   connections, and so their files, until connection_timeout.
 *
 * A connection past its deadline gets shutdown(2): libmicrohttpd sees the
 * end and closes it.  The list is guarded by one mutex that the close
 * notification also takes, so a descriptor is never shut down after
 * libmicrohttpd let it go (and the number reused).
 */
#ifndef PB_HTTP_WATCHDOG_H
#define PB_HTTP_WATCHDOG_H

#include <microhttpd.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

struct app_metrics;
struct watchdog;

enum watchdog_reason {
	WATCHDOG_HEAD,          /* the head was not complete in time */
	WATCHDOG_BODY,          /* the body came slower than the minimum rate */
	WATCHDOG_FAIR_SHARE,    /* closed to make room for another connection */
	WATCHDOG_GONE,          /* the client closed its side while its head was awaited */
	WATCHDOG_REASONS
};

/* The label of a reason in the metrics: "head_deadline", "body_rate", "fair_share", "client_gone". */
const char *watchdog_reason_name(enum watchdog_reason r);

struct watchdog_limits {
	unsigned head_seconds;
	unsigned idle_seconds;        /* connection_timeout */
	unsigned body_min_rate;       /* bytes a second; 0: no minimum */
	unsigned soft_limit;          /* open connections before the fair share closes one */
	unsigned per_client;          /* open connections of one address before it does */
};

/* Starts the watchdog's thread; counts into m (open connections, drops). */
struct watchdog *watchdog_start(const struct watchdog_limits *lim, struct app_metrics *m, struct pb_error *err);

/* Stops the thread and frees the list (after libmicrohttpd has stopped). */
void watchdog_free(struct watchdog *w);

/* MHD_OPTION_NOTIFY_CONNECTION's callback, cls the watchdog. */
void watchdog_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
    enum MHD_ConnectionNotificationCode toe);

/* MHD_OPTION_URI_LOG_CALLBACK's callback: a request line came; returns NULL (no request context). */
void *watchdog_request_line(void *cls, const char *uri, struct MHD_Connection *conn);

/* The length of the raw request target of conn's request ((size_t)-1 when not known). */
size_t watchdog_target_length(struct watchdog *w, struct MHD_Connection *conn);

/* The head is in: from now on the body's rate counts. */
void watchdog_head_done(struct watchdog *w, struct MHD_Connection *conn);

/* n more bytes of the body came. */
void watchdog_body(struct watchdog *w, struct MHD_Connection *conn, size_t n);

/* The answer is queued: no deadline of the watchdog's while it is sent. */
void watchdog_answered(struct watchdog *w, struct MHD_Connection *conn);

/* The request is finished; a kept-alive connection idles and waits for its next head. */
void watchdog_request_done(struct watchdog *w, struct MHD_Connection *conn);

#endif
