/*
 * watchdog.c - the deadlines of a request's head and body and the fair
 * share of the connections (watchdog.h).  One thread wakes five times a
 * second and shuts down what is late; the connection notifications of
 * libmicrohttpd add and remove entries and close a connection for room.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "common/log.h"
#include "http/app.h"
#include "http/watchdog.h"

enum phase {
	PHASE_HEAD,     /* waiting for the head: a new connection, or a kept-alive one between requests */
	PHASE_BODY,     /* the head is in; the body comes */
	PHASE_ANSWER,   /* answered or answering: no deadline here */
};

struct wconn {
	struct wconn *prev, *next;
	int fd;
	char addr[INET6_ADDRSTRLEN];
	enum phase phase;
	bool dropped;
	bool listed;
	int64_t waiting_since_us;   /* when it began to wait for this head */
	int64_t deadline_us;        /* of the head */
	int64_t body_start_us;
	uint64_t body_bytes;
	size_t target_len;          /* of the request line's target; (size_t)-1 before one */
};

struct watchdog {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
	bool stop;
	struct watchdog_limits lim;
	struct app_metrics *m;
	struct wconn *head;         /* oldest first */
	struct wconn *tail;
	unsigned open;
	int64_t last_log_us[WATCHDOG_REASONS];
	uint64_t unlogged[WATCHDOG_REASONS];
};

#define SWEEP_US 200000
#define LOG_EVERY_US (10LL * 1000000)

static const char *const REASON_NAMES[WATCHDOG_REASONS] = {"head_deadline", "body_rate", "fair_share", "client_gone"};

const char *
watchdog_reason_name(enum watchdog_reason r)
{
	return r < WATCHDOG_REASONS ? REASON_NAMES[r] : "unknown";
}

static int64_t
mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Under the lock: closes c's connection (libmicrohttpd still holds its descriptor), counts and logs it. */
static void
drop(struct watchdog *w, struct wconn *c, enum watchdog_reason r, int64_t now)
{
	if (c->dropped)
		return;
	c->dropped = true;
	shutdown(c->fd, SHUT_RDWR);
	atomic_fetch_add(&w->m->conn_dropped[r], 1);
	if (r == WATCHDOG_GONE)
		return;     /* the client left: nothing to tell the operator */
	w->unlogged[r]++;
	if (w->last_log_us[r] != 0 && now - w->last_log_us[r] < LOG_EVERY_US)
		return;
	if (r == WATCHDOG_FAIR_SHARE)
		log_warn("http: %llu connection(s) closed to make room (the last of %s); %u open", (unsigned long long)w->unlogged[r],
		    c->addr, w->open);
	else
		log_warn("http: %llu connection(s) closed past the %s (the last from %s); %u open",
		    (unsigned long long)w->unlogged[r], r == WATCHDOG_HEAD ? "head's deadline" : "body's minimum rate", c->addr,
		    w->open);
	w->last_log_us[r] = now;
	w->unlogged[r] = 0;
}

/* Under the lock: the connection (of addr, when given) that has waited longest for its head, but not except. */
static struct wconn *
longest_waiting(struct watchdog *w, const char *addr, const struct wconn *except)
{
	struct wconn *best = NULL;

	for (struct wconn *c = w->head; c != NULL; c = c->next) {
		if (c == except || c->dropped || c->phase != PHASE_HEAD)
			continue;
		if (addr != NULL && strcmp(c->addr, addr) != 0)
			continue;
		if (best == NULL || c->waiting_since_us < best->waiting_since_us)
			best = c;
	}
	return best;
}

/* Under the lock: makes room for the new connection nc when a limit is passed (the fair share). */
static void
make_room(struct watchdog *w, struct wconn *nc, int64_t now)
{
	unsigned same = 0;
	struct wconn *victim;

	for (struct wconn *c = w->head; c != NULL; c = c->next)
		if (!c->dropped && strcmp(c->addr, nc->addr) == 0)
			same++;
	if (same > w->lim.per_client) {
		victim = longest_waiting(w, nc->addr, nc);
		drop(w, victim != NULL ? victim : nc, WATCHDOG_FAIR_SHARE, now);
	}
	if (!nc->dropped && w->open > w->lim.soft_limit) {
		victim = longest_waiting(w, NULL, nc);
		drop(w, victim != NULL ? victim : nc, WATCHDOG_FAIR_SHARE, now);
	}
}

static void
conn_started(struct watchdog *w, struct MHD_Connection *conn, void **socket_context)
{
	const union MHD_ConnectionInfo *fd = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	const union MHD_ConnectionInfo *ca = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	struct wconn *c = calloc(1, sizeof(*c));
	int64_t now = mono_us();

	*socket_context = c;
	if (c == NULL || fd == NULL)
		return;
	c->fd = fd->connect_fd;
	c->target_len = (size_t)-1;
	if (ca != NULL && ca->client_addr != NULL && ca->client_addr->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)ca->client_addr)->sin_addr, c->addr, sizeof(c->addr));
	else if (ca != NULL && ca->client_addr != NULL && ca->client_addr->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)ca->client_addr)->sin6_addr, c->addr, sizeof(c->addr));
	c->waiting_since_us = now;
	c->deadline_us = now + (int64_t)w->lim.head_seconds * 1000000;
	pthread_mutex_lock(&w->lock);
	c->listed = true;
	c->prev = w->tail;
	if (w->tail != NULL)
		w->tail->next = c;
	else
		w->head = c;
	w->tail = c;
	w->open++;
	atomic_store(&w->m->conn_open, w->open);
	make_room(w, c, now);
	pthread_mutex_unlock(&w->lock);
}

static void
conn_closed(struct watchdog *w, void **socket_context)
{
	struct wconn *c = *socket_context;

	if (c == NULL)
		return;
	*socket_context = NULL;
	pthread_mutex_lock(&w->lock);
	if (c->listed) {
		if (c->prev != NULL)
			c->prev->next = c->next;
		else
			w->head = c->next;
		if (c->next != NULL)
			c->next->prev = c->prev;
		else
			w->tail = c->prev;
		w->open--;
		atomic_store(&w->m->conn_open, w->open);
	}
	pthread_mutex_unlock(&w->lock);
	free(c);
}

void
watchdog_notify(void *cls, struct MHD_Connection *conn, void **socket_context, enum MHD_ConnectionNotificationCode toe)
{
	if (toe == MHD_CONNECTION_NOTIFY_STARTED)
		conn_started(cls, conn, socket_context);
	else if (toe == MHD_CONNECTION_NOTIFY_CLOSED)
		conn_closed(cls, socket_context);
}

/* The entry of conn, or NULL (none could be allocated). */
static struct wconn *
entry(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci != NULL ? ci->socket_context : NULL;
}

void *
watchdog_request_line(void *cls, const char *uri, struct MHD_Connection *conn)
{
	struct watchdog *w = cls;
	struct wconn *c = entry(conn);
	int64_t limit = mono_us() + (int64_t)w->lim.head_seconds * 1000000;

	if (c == NULL)
		return NULL;
	pthread_mutex_lock(&w->lock);
	c->target_len = uri != NULL ? strlen(uri) : (size_t)-1;
	if (c->deadline_us > limit)
		c->deadline_us = limit;
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

size_t
watchdog_target_length(struct watchdog *w, struct MHD_Connection *conn)
{
	struct wconn *c = entry(conn);
	size_t n;

	if (c == NULL)
		return (size_t)-1;
	pthread_mutex_lock(&w->lock);
	n = c->target_len;
	pthread_mutex_unlock(&w->lock);
	return n;
}

void
watchdog_head_done(struct watchdog *w, struct MHD_Connection *conn)
{
	struct wconn *c = entry(conn);

	if (c == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	c->phase = PHASE_BODY;
	c->body_start_us = mono_us();
	c->body_bytes = 0;
	pthread_mutex_unlock(&w->lock);
}

void
watchdog_body(struct watchdog *w, struct MHD_Connection *conn, size_t n)
{
	struct wconn *c = entry(conn);

	if (c == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	c->body_bytes += n;
	pthread_mutex_unlock(&w->lock);
}

void
watchdog_answered(struct watchdog *w, struct MHD_Connection *conn)
{
	struct wconn *c = entry(conn);

	if (c == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	c->phase = PHASE_ANSWER;
	pthread_mutex_unlock(&w->lock);
}

void
watchdog_request_done(struct watchdog *w, struct MHD_Connection *conn)
{
	struct wconn *c = entry(conn);
	int64_t now = mono_us();

	if (c == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	c->phase = PHASE_HEAD;
	c->waiting_since_us = now;
	/* libmicrohttpd closes it after idle_seconds of silence; a request line then has head_seconds. */
	c->deadline_us = now + ((int64_t)w->lim.idle_seconds + w->lim.head_seconds) * 1000000;
	c->target_len = (size_t)-1;
	pthread_mutex_unlock(&w->lock);
}

/* Under the lock: whether the client of a connection awaiting its head has closed its side (a read sees the end). */
static bool
client_gone(const struct wconn *c, int64_t now)
{
	char b;

	if (now - c->waiting_since_us < SWEEP_US)
		return false;
	return recv(c->fd, &b, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

/* Under the lock: whether c's body is slower than the minimum rate (after the grace of head_seconds). */
static bool
body_too_slow(const struct watchdog *w, const struct wconn *c, int64_t now)
{
	int64_t late = now - c->body_start_us - (int64_t)w->lim.head_seconds * 1000000;

	if (w->lim.body_min_rate == 0 || late <= 0)
		return false;
	return (double)c->body_bytes < (double)late / 1e6 * w->lim.body_min_rate;
}

static void *
sweep(void *arg)
{
	struct watchdog *w = arg;
	struct timespec until;

	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		int64_t now = mono_us();
		for (struct wconn *c = w->head; c != NULL; c = c->next) {
			if (c->dropped)
				continue;
			if (c->phase == PHASE_HEAD && now > c->deadline_us)
				drop(w, c, WATCHDOG_HEAD, now);
			else if (c->phase == PHASE_HEAD && client_gone(c, now))
				drop(w, c, WATCHDOG_GONE, now);
			else if (c->phase == PHASE_BODY && body_too_slow(w, c, now))
				drop(w, c, WATCHDOG_BODY, now);
		}
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += SWEEP_US * 1000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&w->wake, &w->lock, &until);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct watchdog *
watchdog_start(const struct watchdog_limits *lim, struct app_metrics *m, struct pb_error *err)
{
	struct watchdog *w = calloc(1, sizeof(*w));

	if (w == NULL) {
		pb_oom(err);
		return NULL;
	}
	w->lim = *lim;
	w->m = m;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	if (pthread_create(&w->thread, NULL, sweep, w) != 0) {
		pthread_cond_destroy(&w->wake);
		pthread_mutex_destroy(&w->lock);
		free(w);
		pb_fail(err, 500, "thread", "cannot start the connection watchdog: %s", strerror(errno));
		return NULL;
	}
	return w;
}

void
watchdog_free(struct watchdog *w)
{
	struct wconn *c, *next;

	if (w == NULL)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	for (c = w->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
