/*
 * server.c - libmicrohttpd in thread-pool mode.  The access handler is called
 * once for the headers, once per body chunk and once more with no data; the
 * body is copied and the answer queued only on that last call (queueing
 * earlier turns keep-alive off).  An oversized Content-Length is refused at
 * once with 413.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "common/faults.h"
#include "common/json_text.h"
#include "common/log.h"
#include "common/testclock.h"
#include "common/timeutil.h"
#include "http/answer.h"
#include "http/framing.h"
#include "http/headers.h"
#include "http/http.h"
#include "http/longread.h"
#include "http/mhdlog.h"
#include "http/watchdog.h"

struct server {
	struct MHD_Daemon *mhd;
	atomic_int in_flight;     /* requests let through (not refused at once) and not yet completed */
	atomic_bool stopping;     /* answers now carry Connection: close */
	struct app *app;
	struct watchdog *wd;      /* deadlines and the fair share of connections */
	size_t max_body;
	struct longread_pool *readers;   /* runs the RT_LONG routes off the workers */
	struct longread_pool *passwords; /* runs password work (sign-ins, witnesses, password changes) off the workers */
	struct longread_pool *reports;   /* runs the RT_REPORT routes (reports, verify, events) off the workers */
	char *tls_cert;       /* PEM, kept for the daemon's life */
	char *tls_key;
};

#define TLS_FILE_MAX (256 * 1024)

static const struct MHD_OptionItem NO_OPTIONS[] = {{MHD_OPTION_END, 0, NULL}};

/* Reads a whole (small) file into a NUL-terminated buffer. */
static char *
read_pem(const char *path, struct pb_error *err)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (f == NULL) {
		pb_fail(err, 500, "tls", "cannot read %s", path);
		return NULL;
	}
	buf = malloc(TLS_FILE_MAX + 1);
	n = buf ? fread(buf, 1, TLS_FILE_MAX, f) : 0;
	fclose(f);
	if (buf == NULL || n == 0 || n == TLS_FILE_MAX) {
		free(buf);
		pb_fail(err, 500, "tls", "%s is empty or too large for a PEM file", path);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

struct request_ctx {
	char *body;
	size_t len;
	size_t cap;
	bool too_large;
	bool answered;       /* a 400, 413 or 503 was queued before the body was read */
	bool counted;        /* counted in the server's in_flight */
	int64_t start_us;
	struct longread_job *job;      /* handed to the reader pool: the connection is suspended until it is done */
};

static int64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static const uint64_t LATENCY_BOUNDS_US[METRIC_LATENCY_BUCKETS] = {
	100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 1000000,
};

static void
record_metrics(struct app *app, const struct http_answer *ans, int64_t us)
{
	int cls = ans->status / 100;
	int b = 0;

	if (cls < 1 || cls > 5)
		cls = 5;
	if (ans->route >= 0 && ans->route < METRIC_ROUTES)
		atomic_fetch_add(&app->metrics.requests[ans->route][cls], 1);
	while (b < METRIC_LATENCY_BUCKETS && (uint64_t)us > LATENCY_BOUNDS_US[b])
		b++;
	atomic_fetch_add(&app->metrics.latency_us_bucket[b], 1);
	atomic_fetch_add(&app->metrics.latency_us_sum, (uint64_t)us);
	atomic_fetch_add(&app->metrics.latency_count, 1);
}

/* The answer sent when a JSON answer's text cannot be made: static, for it is wanted when memory is short. */
static char OOM_ANSWER[] = "{\"error\":{\"code\":\"out_of_memory\",\"message\":\"out of memory\"}}\n";

/*
 * Queues the answer; close: with Connection: close (a refusal of the
 * framing, a stop).  An answer whose text cannot be made is replaced by
 * 500 out_of_memory, never by a shorter one or a closed connection.
 */
static enum MHD_Result
send_answer(struct server *srv, struct MHD_Connection *conn, struct http_answer *ans, bool close)
{
	enum MHD_ResponseMemoryMode mode = MHD_RESPMEM_MUST_FREE;
	struct MHD_Response *resp;
	enum MHD_Result rc;
	char *text;
	size_t len;

	if (ans->json != NULL) {
		pb_faults_scope(true);     /* the answer's text is the request's (common/faults.h) */
		text = json_text_line(ans->json, &len);
		pb_faults_scope(false);
		if (text == NULL) {
			ans->status = 500;
			text = OOM_ANSWER;
			len = sizeof(OOM_ANSWER) - 1;
			mode = MHD_RESPMEM_PERSISTENT;
		}
		ans->content_type = "application/json";
	} else {
		text = ans->text;
		len = ans->text_len;
		ans->text = NULL;
		if (text == NULL) {
			text = strdup("");
			len = 0;
		}
	}
	resp = MHD_create_response_from_buffer(len, text, mode);
	if (resp == NULL) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(text);
		return MHD_NO;
	}
	/* Without its security headers nothing is sent: the connection is closed instead. */
	if (security_headers_add(resp) < 0) {
		MHD_destroy_response(resp);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, ans->content_type ? ans->content_type : "text/plain; charset=utf-8");
	MHD_add_response_header(resp, "Cache-Control", ans->cache_control ? ans->cache_control : "no-store");
	if (ans->allow[0] != '\0')
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, ans->allow);
	if (ans->disposition != NULL)
		MHD_add_response_header(resp, "Content-Disposition", ans->disposition);
	if (ans->retry_after > 0) {
		char secs[16];
		snprintf(secs, sizeof(secs), "%d", ans->retry_after);
		MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, secs);
	}
	if (close || atomic_load(&srv->stopping))
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
	if (pb_test_clock_in_use()) {
		/* libmicrohttpd's own Date reads the real clock; the page times expires_at from this header. */
		char date[PB_HTTP_TIME_LEN];
		pb_time_format_http(pb_time_now_ms(), date);
		MHD_add_response_header(resp, MHD_HTTP_HEADER_DATE, date);
	}
	rc = MHD_queue_response(conn, (unsigned int)ans->status, resp);
	MHD_destroy_response(resp);
	return rc;
}

/* Answers a request refused before its body is read (or while it is read), closing the connection. */
static enum MHD_Result
refuse_early(struct server *srv, struct MHD_Connection *conn, struct request_ctx *ctx, struct http_answer *ans)
{
	enum MHD_Result rc = send_answer(srv, conn, ans, true);

	watchdog_answered(srv->wd, conn);
	json_decref(ans->json);
	record_metrics(srv->app, ans, now_us() - ctx->start_us);
	ctx->answered = true;
	return rc;
}

/*
 * The first call, with the headers: counts the request in flight and lets
 * it go on (MHD_YES), or refuses it at once without reading the body:
 * framing the edge does not accept (400, framing.c), too large, or the
 * daemon is stopping.  A request is counted in in_flight before it looks at
 * `stopping`, so the stop waits for every request it let through.
 */
static enum MHD_Result
begin_request(struct server *srv, struct MHD_Connection *conn, const char *method, const char *version,
    struct request_ctx *ctx)
{
	const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	struct http_answer ans;
	char why[160];
	bool bad_framing;

	ctx->start_us = now_us();
	atomic_fetch_add(&srv->in_flight, 1);
	ctx->counted = true;
	watchdog_head_done(srv->wd, conn);
	bad_framing = framing_check(conn, method, version, watchdog_target_length(srv->wd, conn), why, sizeof(why)) < 0;
	if (!bad_framing && cl != NULL && strtoull(cl, NULL, 10) > srv->max_body)
		ctx->too_large = true;
	if (!bad_framing && !ctx->too_large && !atomic_load(&srv->stopping))
		return MHD_YES;
	atomic_fetch_sub(&srv->in_flight, 1);
	ctx->counted = false;
	memset(&ans, 0, sizeof(ans));
	if (bad_framing)
		answer_fail(&ans, 400, "bad_request", "the request's framing is refused: %s", why);
	else if (ctx->too_large)
		answer_fail(&ans, 413, "body_too_large", "the body is larger than %zu bytes", srv->max_body);
	else
		answer_fail(&ans, 503, "shutting_down", "pitbossd is stopping; nothing was recorded, retry shortly");
	return refuse_early(srv, conn, ctx, &ans);
}

/* Copies a chunk of the body; past max_body the rest is dropped and the request marked too large. */
static enum MHD_Result
read_chunk(struct server *srv, struct request_ctx *ctx, const char *data, size_t size)
{
	if (ctx->too_large)
		return MHD_YES;
	if (ctx->len + size > srv->max_body) {
		ctx->too_large = true;
		return MHD_YES;
	}
	if (ctx->len + size + 1 > ctx->cap) {
		size_t cap = ctx->cap ? ctx->cap : 4096;
		char *nb;
		while (cap < ctx->len + size + 1)
			cap *= 2;
		nb = realloc(ctx->body, cap);
		if (nb == NULL)
			return MHD_NO;
		ctx->body = nb;
		ctx->cap = cap;
	}
	memcpy(ctx->body + ctx->len, data, size);
	ctx->len += size;
	ctx->body[ctx->len] = '\0';
	return MHD_YES;
}

/*
 * Writes a 413 straight to the socket of a plain-HTTP connection whose body
 * is being read (libmicrohttpd 0.9.75 queues an answer only before or after
 * the body), then stops sending: libmicrohttpd closes the connection when
 * the handler returns MHD_NO.  Nothing else is written on it meanwhile.
 */
static void
write_413_raw(struct server *srv, struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	char body[160], head[1024], security[768];
	size_t slen;
	int bn, hn;

	if (ci == NULL || srv->tls_cert != NULL)
		return;
	bn = snprintf(body, sizeof(body), "{\"error\":{\"code\":\"body_too_large\",\"message\":\"the body is larger than %zu "
	    "bytes\"}}\n", srv->max_body);
	/* With the security headers of every answer, or nothing (the connection is only closed). */
	hn = security_headers_text(security, sizeof(security), &slen) < 0 ? -1 : snprintf(head, sizeof(head),
	    "HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\nContent-Type: application/json\r\n"
	    "Cache-Control: no-store\r\n%sContent-Length: %d\r\n\r\n", security, bn);
	if (hn > 0 && (size_t)hn < sizeof(head) && send(ci->connect_fd, head, (size_t)hn, MSG_NOSIGNAL | MSG_DONTWAIT) == hn)
		(void)send(ci->connect_fd, body, (size_t)bn, MSG_NOSIGNAL | MSG_DONTWAIT);
	shutdown(ci->connect_fd, SHUT_WR);
}

/*
 * A body (chunked: its length is not known in advance) has passed
 * max_body_bytes: 413 now, closing the connection, rather than reading the
 * rest of what may be a 4 GiB chunk.  libmicrohttpd cannot queue an answer
 * in the middle of a body, so the 413 is written on the socket itself
 * (plain HTTP; over TLS the connection is only closed).
 */
static enum MHD_Result
refuse_body(struct server *srv, struct MHD_Connection *conn, struct request_ctx *ctx)
{
	struct http_answer ans;

	memset(&ans, 0, sizeof(ans));
	answer_fail(&ans, 413, "body_too_large", "the body is larger than %zu bytes", srv->max_body);
	if (ctx->counted) {
		atomic_fetch_sub(&srv->in_flight, 1);
		ctx->counted = false;
	}
	if (refuse_early(srv, conn, ctx, &ans) == MHD_YES)
		return MHD_YES;
	write_413_raw(srv, conn);
	return MHD_NO;
}

/* The pool that runs a deferred request. */
static struct longread_pool *
deferred_pool(struct server *srv, enum defer kind)
{
	if (kind == DEFER_READER)
		return srv->readers;
	return kind == DEFER_REPORT ? srv->reports : srv->passwords;
}

/* The last call: the whole body is in; the API or the page answers, under the configuration's read lock. */
static enum MHD_Result
answer_request(struct server *srv, struct MHD_Connection *conn, const char *url, const char *method,
    struct request_ctx *ctx)
{
	struct http_answer ans;
	struct http_request req;
	enum MHD_Result rc;

	/* The request is whole: the watchdog's deadlines are for clients, not for the work it asks (a backup, a walk). */
	watchdog_answered(srv->wd, conn);
	memset(&ans, 0, sizeof(ans));
	memset(&req, 0, sizeof(req));
	req.conn = conn;
	req.method = method;
	req.path = url;
	req.body = ctx->body ? ctx->body : "";
	req.body_len = ctx->len;
	req.idempotency_key = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Idempotency-Key");
	req.authorization = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
	req.may_defer = srv->readers != NULL && srv->passwords != NULL && srv->reports != NULL;
	if (ctx->too_large) {
		answer_fail(&ans, 413, "body_too_large", "the body is larger than %zu bytes", srv->max_body);
	} else if (strncmp(url, "/api/", 5) == 0 || strcmp(url, "/metrics") == 0 || strcmp(url, "/api") == 0) {
		pthread_rwlock_rdlock(&srv->app->lock);
		api_dispatch(srv->app, &req, &ans);
		pthread_rwlock_unlock(&srv->app->lock);
		/* A long read or password work: a pool answers it (handle sends it when the connection is resumed). */
		if (ans.deferred != DEFER_NONE &&
		    longread_submit(deferred_pool(srv, ans.deferred), &req, ans.client, &ctx->job, &ans) == 0)
			return MHD_YES;
	} else {
		pthread_rwlock_rdlock(&srv->app->lock);
		static_serve(srv->app, &req, &ans);
		pthread_rwlock_unlock(&srv->app->lock);
	}
	rc = send_answer(srv, conn, &ans, false);
	json_decref(ans.json);
	free(ans.text);
	record_metrics(srv->app, &ans, now_us() - ctx->start_us);
	return rc;
}

/* Called again once a long read's connection is resumed: sends the reader's answer. */
static enum MHD_Result
send_long_read(struct server *srv, struct MHD_Connection *conn, struct request_ctx *ctx)
{
	struct http_answer ans;
	enum MHD_Result rc;

	if (!longread_take(ctx->job, &ans))
		return MHD_YES;
	rc = send_answer(srv, conn, &ans, false);
	json_decref(ans.json);
	free(ans.text);
	record_metrics(srv->app, &ans, now_us() - ctx->start_us);
	longread_job_free(ctx->job);
	ctx->job = NULL;
	ctx->answered = true;
	return rc;
}

/*
 * The workers' nice value, when the process may raise its threads' priority
 * (root, or RLIMIT_NICE: the unit's LimitNICE=-5).  A dealer's round is
 * answered on a worker, whose thread also leads the group commit: at -5 it
 * goes before the machine's other processes at the default priority (a
 * backup, an export, another service), and further before the daemon's own
 * pools (reports and walks at +5, passwords at +10).
 */
#define WORKER_NICE (-5)

/* Raises the calling worker's priority to WORKER_NICE, once per thread; stays as it is when not permitted. */
static void
raise_worker_priority(void)
{
	static _Thread_local bool tried;
	static atomic_bool told;

	if (tried)
		return;
	tried = true;
#ifdef __linux__
	if (setpriority(PRIO_PROCESS, (id_t)gettid(), WORKER_NICE) < 0 && !atomic_exchange(&told, true))
		log_info("the HTTP workers stay at the daemon's priority (raising it to nice %d is not permitted: "
		    "LimitNICE=%d in the unit allows it)", WORKER_NICE, WORKER_NICE);
#endif
}

/* libmicrohttpd's access handler: headers, then each body chunk, then one call with no data. */
static enum MHD_Result
handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method, const char *version,
    const char *upload_data, size_t *upload_data_size, void **con_cls)
{
	struct server *srv = cls;
	struct request_ctx *ctx = *con_cls;
	enum MHD_Result rc;

	raise_worker_priority();
	if (ctx == NULL) {
		ctx = calloc(1, sizeof(*ctx));
		if (ctx == NULL)
			return MHD_NO;
		*con_cls = ctx;
		return begin_request(srv, conn, method, version, ctx);
	}
	if (*upload_data_size > 0) {
		watchdog_body(srv->wd, conn, *upload_data_size);
		rc = read_chunk(srv, ctx, upload_data, *upload_data_size);
		*upload_data_size = 0;
		if (rc == MHD_YES && ctx->too_large && !ctx->answered)
			return refuse_body(srv, conn, ctx);
		return rc;
	}
	if (ctx->answered)
		return MHD_YES;
	if (ctx->job != NULL)
		return send_long_read(srv, conn, ctx);
	return answer_request(srv, conn, url, method, ctx);
}

static void
completed(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode toe)
{
	struct request_ctx *ctx = *con_cls;
	struct server *srv = cls;

	(void)toe;
	watchdog_request_done(srv->wd, conn);
	if (ctx != NULL) {
		if (ctx->counted)
			atomic_fetch_sub(&srv->in_flight, 1);
		longread_job_free(ctx->job);
		free(ctx->body);
		free(ctx);
		*con_cls = NULL;
	}
}

/*
 * Decodes %XX in the URL path and the query values like libmicrohttpd does,
 * except %00 and %2F, which stay encoded: a decoded NUL would cut the path
 * short ("/index.html%00.png" read as /index.html) and a decoded slash would
 * split an id into two path segments ("/tables/T1%2Frounds").  Left encoded,
 * they make the path or value invalid, and it is refused.
 */
static size_t
unescape(void *cls, struct MHD_Connection *conn, char *s)
{
	char *w = s;
	const char *r = s;

	(void)cls;
	(void)conn;
	while (*r != '\0') {
		if (r[0] == '%' && isxdigit((unsigned char)r[1]) && isxdigit((unsigned char)r[2])) {
			char hex[3] = {r[1], r[2], '\0'};
			int c = (int)strtol(hex, NULL, 16);
			if (c != 0 && c != '/') {
				*w++ = (char)c;
				r += 3;
				continue;
			}
		}
		*w++ = *r++;
	}
	*w = '\0';
	return (size_t)(w - s);
}

/* Resolves the listen address into a sockaddr (numeric or a name such as localhost). */
static int
listen_address(const char *host, int port, struct sockaddr_storage *ss, socklen_t *len, struct pb_error *err)
{
	struct addrinfo hints, *res = NULL;
	char portstr[16];
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	snprintf(portstr, sizeof(portstr), "%d", port);
	rc = getaddrinfo(host, portstr, &hints, &res);
	if (rc != 0 || res == NULL)
		return pb_fail(err, 500, "listen_failed", "cannot resolve listen address %s: %s", host, gai_strerror(rc));
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

/*
 * The listening socket, made here rather than by libmicrohttpd so that the
 * address is never shared: SO_REUSEADDR only (a restart may bind while old
 * connections are in TIME_WAIT; on Linux it never lets two sockets listen
 * on one address), no SO_REUSEPORT (which would let a second daemon listen
 * beside the first and take half the connections).
 */
int
server_listen(const char *host, int port, struct pb_error *err)
{
	struct sockaddr_storage ss;
	socklen_t sslen = 0;
	int fd, one = 1, e;

	if (listen_address(host, port, &ss, &sslen, err) < 0)
		return -1;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return pb_fail(err, 500, "listen_failed", "cannot listen on %s:%d: %s", host, port, strerror(errno));
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == 0 &&
	    bind(fd, (struct sockaddr *)&ss, sslen) == 0 && listen(fd, 128) == 0)
		return fd;
	e = errno;
	close(fd);
	if (e == EADDRINUSE)
		return pb_fail(err, 500, "listen_failed", "cannot listen on %s:%d: another process listens there "
		    "(another pitbossd? `ss -ltnp 'sport = :%d'` names it); one address has one daemon", host, port, port);
	return pb_fail(err, 500, "listen_failed", "cannot listen on %s:%d: %s", host, port, strerror(e));
}

/*
 * The watchdog's limits from the configuration: the fair share begins at
 * 15/16 of connection_limit (libmicrohttpd refuses at connection_limit
 * itself, so a newcomer always finds room while some connection waits for
 * its head) and at a quarter of it for one client address.
 */
static struct watchdog *
start_watchdog(struct app *app, struct pb_error *err)
{
	const struct config *cfg = app->cfg;
	struct watchdog_limits lim;
	unsigned reserve = cfg->connection_limit / 16 ? cfg->connection_limit / 16 : 1;

	lim.head_seconds = cfg->request_head_timeout;
	lim.idle_seconds = cfg->connection_timeout;
	lim.body_min_rate = cfg->body_min_rate;
	lim.soft_limit = cfg->connection_limit > reserve ? cfg->connection_limit - reserve : cfg->connection_limit;
	lim.per_client = cfg->connection_limit >= 4 ? cfg->connection_limit / 4 : 1;
	return watchdog_start(&lim, &app->metrics, err);
}

struct server *
server_start(struct app *app, int listen_fd, struct pb_error *err)
{
	struct server *srv = calloc(1, sizeof(*srv));
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;
	const struct config *cfg = app->cfg;

	if (srv == NULL) {
		close(listen_fd);
		pb_oom(err);
		return NULL;
	}
	srv->app = app;
	srv->max_body = cfg->max_body_bytes;
	if (cfg->tls_cert[0] != '\0') {
		if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
			pb_fail(err, 500, "tls", "this libmicrohttpd was built without TLS");
			goto fail;
		}
		srv->tls_cert = read_pem(cfg->tls_cert, err);
		srv->tls_key = srv->tls_cert ? read_pem(cfg->tls_key, err) : NULL;
		if (srv->tls_key == NULL)
			goto fail;
		flags |= MHD_USE_TLS;
	}
	srv->readers = longread_start(app, &LONGREAD_READERS, err);
	if (srv->readers == NULL)
		goto fail;
	srv->passwords = longread_start(app, &LONGREAD_PASSWORDS, err);
	if (srv->passwords == NULL)
		goto fail;
	srv->reports = longread_start(app, &LONGREAD_REPORTS, err);
	if (srv->reports == NULL)
		goto fail;
	srv->wd = start_watchdog(app, err);
	if (srv->wd == NULL)
		goto fail;
	srv->mhd = MHD_start_daemon(flags, (uint16_t)cfg->listen_port, NULL, NULL, handle, srv,
	    MHD_OPTION_EXTERNAL_LOGGER, mhdlog, NULL,
	    /* Without TLS the certificate options are skipped: MHD_OPTION_ARRAY with an empty list. */
	    srv->tls_cert ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_ARRAY, srv->tls_cert ? (void *)srv->tls_cert : (void *)NO_OPTIONS,
	    srv->tls_key ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_ARRAY, srv->tls_key ? (void *)srv->tls_key : (void *)NO_OPTIONS,
	    MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
	    MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)cfg->threads,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)cfg->connection_limit,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)cfg->connection_timeout,
	    /* The share of one client address is the watchdog's (it closes that address's slowest, not the newcomer). */
	    MHD_OPTION_NOTIFY_CONNECTION, watchdog_notify, srv->wd,
	    MHD_OPTION_URI_LOG_CALLBACK, watchdog_request_line, srv->wd,
	    MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
	    MHD_OPTION_NOTIFY_COMPLETED, completed, srv,
	    MHD_OPTION_END);
	if (srv->mhd != NULL)
		return srv;
	if (srv->tls_cert != NULL)
		pb_fail(err, 500, "listen_failed", "cannot start HTTPS on %s:%d: check that tls.cert %s and tls.key %s are PEM files "
		    "and that the key belongs to the certificate", cfg->listen_host, cfg->listen_port, cfg->tls_cert, cfg->tls_key);
	else
		pb_fail(err, 500, "listen_failed", "cannot serve on %s:%d", cfg->listen_host, cfg->listen_port);
fail:
	/* libmicrohttpd may have closed it already on its failure; nothing else opens files meanwhile. */
	if (fcntl(listen_fd, F_GETFD) >= 0)
		close(listen_fd);
	longread_stop(srv->readers);
	longread_stop(srv->passwords);
	longread_stop(srv->reports);
	watchdog_free(srv->wd);
	free(srv->tls_cert);
	free(srv->tls_key);
	free(srv);
	return NULL;
}

/*
 * Waits (at most 10 s) until every request begun has been answered, answers
 * from now on closing their connections, and only then stops the workers:
 * an acknowledged write is always answered.
 */
void
server_stop(struct server *srv)
{
	if (srv == NULL)
		return;
	/*
	 * No MHD_quiesce_daemon: with epoll and a thread pool, 0.9.75 can abort
	 * removing the listening socket twice.  New requests in the drain get
	 * answered with Connection: close instead.
	 */
	atomic_store(&srv->stopping, true);
	for (int i = 0; i < 1000 && atomic_load(&srv->in_flight) > 0; i++)
		usleep(10000);
	/* Every suspended connection is resumed (answered) before libmicrohttpd stops. */
	longread_stop(srv->readers);
	longread_stop(srv->passwords);
	longread_stop(srv->reports);
	MHD_stop_daemon(srv->mhd);
	watchdog_free(srv->wd);
	free(srv->tls_cert);
	free(srv->tls_key);
	free(srv);
}
