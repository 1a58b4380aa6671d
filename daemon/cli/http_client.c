/*
 * http_client.c - a small blocking HTTP/1.1 client (see http_client.h).
 *
 * One request at a time on one kept-alive connection; answers are read
 * through a small buffer into a growing body.  Everything the server sends is
 * bounded: header lines, header count, body size.
 */
#include "cli/http_client.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>
#include <unistd.h>

#define HEAD_MAX (64 * 1024)    /* status line plus headers */
#define HEADERS_MAX 200
#define READ_BUF 16384

struct http_client {
	char *host;              /* for getaddrinfo, without brackets */
	char *port;
	char *authority;         /* the Host header: as written in the URL */
	char *prefix;            /* "" or "/prefix", no trailing slash */
	char *auth;              /* "Bearer TOKEN", or NULL */
	int fd;                  /* -1 when not connected */
	int timeout_ms;
	size_t max_response;
	unsigned long connections;
	size_t received;         /* bytes of the current answer received so far */
	size_t head_bytes;       /* bytes of status line and headers so far */
	size_t rpos, rlen;
	char rbuf[READ_BUF];
};

/* A growing byte buffer, always NUL-terminated once anything was added. */
struct buf {
	char *p;
	size_t len;
	size_t cap;
};

static int
buf_reserve(struct buf *b, size_t extra, struct pb_error *err)
{
	size_t want;
	char *np;

	if (extra > SIZE_MAX - b->len - 1)
		return pb_fail(err, 500, "out_of_memory", "buffer size overflow");
	want = b->len + extra + 1;
	if (want <= b->cap)
		return 0;
	if (b->cap < 256)
		b->cap = 256;
	while (b->cap < want)
		b->cap = b->cap > SIZE_MAX / 2 ? want : b->cap * 2;
	if ((np = realloc(b->p, b->cap)) == NULL)
		return pb_fail(err, 500, "out_of_memory", "out of memory (%zu bytes)", b->cap);
	b->p = np;
	return 0;
}

static int
buf_append(struct buf *b, const void *data, size_t n, struct pb_error *err)
{
	if (buf_reserve(b, n, err) == -1)
		return -1;
	if (n > 0)
		memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

static int
buf_str(struct buf *b, const char *s, struct pb_error *err)
{
	return buf_append(b, s, strlen(s), err);
}

static void
buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* True when s holds no byte that could break a request line or header (CR, LF, other controls). */
static bool
header_safe(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 && *s != '\t')
			return false;
		else if (*s == 0x7f)
			return false;
	return true;
}

/*
 * Splits "http://host[:port][/prefix]" into the client's fields.  IPv6
 * literals are bracketed; the port defaults to 80; the prefix loses its
 * trailing slashes.
 */
static int
parse_url(struct http_client *c, const char *url, struct pb_error *err)
{
	const char *p, *auth_end, *host_start, *host_end, *port_start = NULL;
	size_t plen;

	if (url == NULL || strncasecmp(url, "http://", 7) != 0)
		return pb_fail(err, 400, "invalid_argument",
		    "URL \"%.100s\" must start with http:// (e.g. http://127.0.0.1:8080)", url ? url : "");
	p = url + 7;
	auth_end = p + strcspn(p, "/?#");
	if (*auth_end == '?' || *auth_end == '#')
		return pb_fail(err, 400, "invalid_argument", "URL \"%.100s\" must not carry a query or fragment", url);
	if (p == auth_end)
		return pb_fail(err, 400, "invalid_argument", "URL \"%.100s\" has no host", url);
	if (memchr(p, '@', auth_end - p) != NULL)
		return pb_fail(err, 400, "invalid_argument", "URL \"%.100s\": user information is not supported", url);
	if (*p == '[') {
		host_start = p + 1;
		host_end = memchr(host_start, ']', auth_end - host_start);
		if (host_end == NULL || host_end == host_start)
			return pb_fail(err, 400, "invalid_argument", "URL \"%.100s\": unterminated IPv6 address", url);
		if (host_end + 1 < auth_end) {
			if (host_end[1] != ':')
				return pb_fail(err, 400, "invalid_argument", "URL \"%.100s\": expected ':' after ']'", url);
			port_start = host_end + 2;
		}
	} else {
		host_start = p;
		host_end = memchr(p, ':', auth_end - p);
		if (host_end != NULL)
			port_start = host_end + 1;
		else
			host_end = auth_end;
		if (host_end == host_start)
			return pb_fail(err, 400, "invalid_argument", "URL \"%.100s\" has no host", url);
	}
	if (port_start != NULL) {
		long port = 0;
		const char *q;

		if (port_start == auth_end)
			return pb_fail(err, 400, "invalid_argument", "URL \"%.100s\": empty port", url);
		for (q = port_start; q < auth_end; q++) {
			if (*q < '0' || *q > '9' || (port = port * 10 + (*q - '0')) > 65535)
				return pb_fail(err, 400, "invalid_argument", "URL \"%.100s\": bad port", url);
		}
		if (port == 0)
			return pb_fail(err, 400, "invalid_argument", "URL \"%.100s\": bad port", url);
		c->port = strndup(port_start, auth_end - port_start);
	} else
		c->port = strdup("80");
	c->host = strndup(host_start, host_end - host_start);
	c->authority = strndup(p, auth_end - p);
	plen = strlen(auth_end);
	while (plen > 0 && auth_end[plen - 1] == '/')
		plen--;
	c->prefix = strndup(auth_end, plen);
	if (c->port == NULL || c->host == NULL || c->authority == NULL || c->prefix == NULL)
		return pb_oom(err);
	if (!header_safe(c->authority) || strchr(c->authority, ' ') != NULL ||
	    !header_safe(c->prefix) || strchr(c->prefix, ' ') != NULL)
		return pb_fail(err, 400, "invalid_argument", "URL \"%.100s\" holds blanks or control characters", url);
	return 0;
}

struct http_client *
http_client_new(const char *url_base, const char *token, struct pb_error *err)
{
	struct http_client *c;

	if ((c = calloc(1, sizeof(*c))) == NULL) {
		pb_oom(err);
		return NULL;
	}
	c->fd = -1;
	c->timeout_ms = HTTP_CLIENT_DEFAULT_TIMEOUT_MS;
	c->max_response = HTTP_CLIENT_DEFAULT_MAX_RESPONSE;
	if (parse_url(c, url_base, err) == -1)
		goto fail;
	if (token != NULL) {
		if (*token == '\0' || !header_safe(token) || strchr(token, ' ') != NULL) {
			pb_fail(err, 400, "invalid_argument", "the token must be non-empty, without blanks or control characters");
			goto fail;
		}
		if (asprintf(&c->auth, "Bearer %s", token) == -1) {
			c->auth = NULL;
			pb_oom(err);
			goto fail;
		}
	}
	return c;
fail:
	http_client_free(c);
	return NULL;
}

/* Closes the connection and forgets any buffered bytes. */
static void
conn_close(struct http_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->rpos = c->rlen = 0;
}

void
http_client_free(struct http_client *c)
{
	if (c == NULL)
		return;
	conn_close(c);
	free(c->host);
	free(c->port);
	free(c->authority);
	free(c->prefix);
	free(c->auth);
	free(c);
}

void
http_client_set_timeout(struct http_client *c, int timeout_ms)
{
	if (timeout_ms > 0)
		c->timeout_ms = timeout_ms;
}

void
http_client_set_max_response(struct http_client *c, size_t max_bytes)
{
	if (max_bytes > 0)
		c->max_response = max_bytes;
}

void
http_client_close(struct http_client *c)
{
	conn_close(c);
}

unsigned long
http_client_connections(const struct http_client *c)
{
	return c->connections;
}

bool
http_error_is_transport(const struct pb_error *err)
{
	return err != NULL && (strcmp(err->code, "connect_failed") == 0 ||
	    strcmp(err->code, "network_error") == 0 || strcmp(err->code, "timeout") == 0);
}

/* Fills err for a failed socket call: timeout for EAGAIN, network_error else. */
static int
io_fail(int e, const char *what, struct pb_error *err)
{
	if (e == EAGAIN || e == EWOULDBLOCK || e == ETIMEDOUT)
		return pb_fail(err, 504, "timeout", "%s: no progress within the timeout", what);
	return pb_fail(err, 503, "network_error", "%s: %s", what, strerror(e));
}

/*
 * Connects one socket to ai within the timeout and sets it up: blocking,
 * send/receive timeouts, TCP_NODELAY.  Returns the socket, or -1 with errno.
 */
static int
connect_one(const struct addrinfo *ai, int timeout_ms)
{
	struct timeval tv;
	struct pollfd pfd;
	socklen_t len;
	int fd, flags, one = 1, soerr = 0, e;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
	if (fd == -1)
		return -1;
	if ((flags = fcntl(fd, F_GETFL)) == -1 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) == -1)
		goto fail;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == -1) {
		if (errno != EINPROGRESS)
			goto fail;
		pfd.fd = fd;
		pfd.events = POLLOUT;
		for (;;) {
			int n = poll(&pfd, 1, timeout_ms);
			if (n == 1)
				break;
			if (n == 0) {
				errno = ETIMEDOUT;
				goto fail;
			}
			if (errno != EINTR)
				goto fail;
		}
		len = sizeof(soerr);
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) == -1)
			goto fail;
		if (soerr != 0) {
			errno = soerr;
			goto fail;
		}
	}
	if (fcntl(fd, F_SETFL, flags) == -1)
		goto fail;
	tv.tv_sec = timeout_ms / 1000;
	tv.tv_usec = (timeout_ms % 1000) * 1000;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) == -1 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) == -1)
		goto fail;
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

/* Opens a connection to the first address of the host that accepts one. */
static int
conn_open(struct http_client *c, struct pb_error *err)
{
	struct addrinfo hints, *res = NULL, *ai;
	int rc, e = ECONNREFUSED;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	if ((rc = getaddrinfo(c->host, c->port, &hints, &res)) != 0)
		return pb_fail(err, 503, "connect_failed", "cannot resolve %s: %s", c->host, gai_strerror(rc));
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if ((c->fd = connect_one(ai, c->timeout_ms)) >= 0)
			break;
		e = errno;
	}
	freeaddrinfo(res);
	if (c->fd < 0)
		return pb_fail(err, 503, "connect_failed", "cannot connect to %s: %s", c->authority, strerror(e));
	c->connections++;
	c->rpos = c->rlen = 0;
	return 0;
}

/*
 * True when the kept-alive connection still looks usable: nothing is
 * pending on it (a server that closed an idle connection has sent FIN, and
 * a well-behaved one sends nothing unasked).
 */
static bool
conn_usable(struct http_client *c)
{
	struct pollfd pfd;
	char b;
	ssize_t k;
	int n;

	if (c->rpos != c->rlen)
		return false;   /* unasked bytes after the last answer */
	pfd.fd = c->fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	n = poll(&pfd, 1, 0);
	if (n == 0)
		return true;
	if (n < 0)
		return errno == EINTR;
	if (pfd.revents & (POLLERR | POLLNVAL))
		return false;
	k = recv(c->fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
	return k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

/* Sends all n bytes (no SIGPIPE: a closed peer is an EPIPE network_error). */
static int
send_all(struct http_client *c, const char *p, size_t n, struct pb_error *err)
{
	while (n > 0) {
		ssize_t k = send(c->fd, p, n, MSG_NOSIGNAL);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return io_fail(errno, "sending the request", err);
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/*
 * Receives more bytes into the read buffer.  Returns 0 when some arrived, 1
 * at the end of the connection, -1 on error or timeout (err filled).
 */
static int
fill(struct http_client *c, struct pb_error *err)
{
	if (c->rpos == c->rlen)
		c->rpos = c->rlen = 0;
	else if (c->rlen == sizeof(c->rbuf)) {
		memmove(c->rbuf, c->rbuf + c->rpos, c->rlen - c->rpos);
		c->rlen -= c->rpos;
		c->rpos = 0;
	}
	for (;;) {
		ssize_t k = recv(c->fd, c->rbuf + c->rlen, sizeof(c->rbuf) - c->rlen, 0);
		if (k > 0) {
			c->rlen += (size_t)k;
			c->received += (size_t)k;
			return 0;
		}
		if (k == 0)
			return 1;
		if (errno == EINTR)
			continue;
		return io_fail(errno, "reading the answer", err);
	}
}

/* fill(), with the end of the connection an error: the answer is incomplete. */
static int
fill_more(struct http_client *c, struct pb_error *err)
{
	int rc = fill(c, err);

	if (rc == 1)
		return pb_fail(err, 503, "network_error", "the server closed the connection %s",
		    c->received == 0 ? "without answering" : "in the middle of its answer");
	return rc;
}

/*
 * Reads one line of the head (up to LF; CRLF or LF removed) into line.
 * Counts it against HEAD_MAX.
 */
static int
read_line(struct http_client *c, struct buf *line, struct pb_error *err)
{
	line->len = 0;
	if (buf_reserve(line, 0, err) == -1)
		return -1;
	line->p[0] = '\0';
	for (;;) {
		char *start = c->rbuf + c->rpos;
		size_t avail = c->rlen - c->rpos;
		char *nl = memchr(start, '\n', avail);
		size_t take = nl != NULL ? (size_t)(nl - start) + 1 : avail;

		if (c->head_bytes + take > HEAD_MAX)
			return pb_fail(err, 502, "bad_response", "the answer's headers exceed %d bytes", HEAD_MAX);
		if (buf_append(line, start, take, err) == -1)
			return -1;
		c->rpos += take;
		c->head_bytes += take;
		if (nl != NULL)
			break;
		if (fill_more(c, err) == -1)
			return -1;
	}
	line->len--;    /* the LF */
	if (line->len > 0 && line->p[line->len - 1] == '\r')
		line->len--;
	line->p[line->len] = '\0';
	if (memchr(line->p, '\0', line->len) != NULL)
		return pb_fail(err, 502, "bad_response", "NUL byte in the answer's headers");
	return 0;
}

/* Appends exactly n bytes of the answer to body. */
static int
read_n(struct http_client *c, struct buf *body, size_t n, struct pb_error *err)
{
	while (n > 0) {
		size_t avail, take;

		if (c->rpos == c->rlen && fill_more(c, err) == -1)
			return -1;
		avail = c->rlen - c->rpos;
		take = avail < n ? avail : n;
		if (buf_append(body, c->rbuf + c->rpos, take, err) == -1)
			return -1;
		c->rpos += take;
		n -= take;
	}
	return 0;
}

static int
too_large(struct http_client *c, struct pb_error *err)
{
	return pb_fail(err, 502, "response_too_large", "the answer's body exceeds the limit of %zu bytes",
	    c->max_response);
}

/* Appends the rest of the connection's bytes to body (an answer framed by close). */
static int
read_to_eof(struct http_client *c, struct buf *body, struct pb_error *err)
{
	for (;;) {
		size_t avail = c->rlen - c->rpos;
		int rc;

		if (body->len + avail > c->max_response)
			return too_large(c, err);
		if (buf_append(body, c->rbuf + c->rpos, avail, err) == -1)
			return -1;
		c->rpos = c->rlen;
		if ((rc = fill(c, err)) == -1)
			return -1;
		if (rc == 1)
			return 0;
	}
}

static void
headers_free(struct http_response *r)
{
	for (size_t i = 0; i < r->header_count; i++) {
		free(r->headers[i].name);
		free(r->headers[i].value);
	}
	free(r->headers);
	r->headers = NULL;
	r->header_count = 0;
}

/*
 * Reads header lines up to the empty line into r->headers (trailers too,
 * for chunked answers).  Folded continuation lines are joined to the
 * previous value.
 */
static int
read_headers(struct http_client *c, struct http_response *r, struct buf *line, struct pb_error *err)
{
	for (;;) {
		struct http_header *h;
		char *colon, *v, *end;

		if (read_line(c, line, err) == -1)
			return -1;
		if (line->len == 0)
			return 0;
		if (line->p[0] == ' ' || line->p[0] == '\t') {
			char *joined;

			if (r->header_count == 0)
				return pb_fail(err, 502, "bad_response", "continuation line before any header");
			for (v = line->p; *v == ' ' || *v == '\t'; v++)
				;
			h = &r->headers[r->header_count - 1];
			if (asprintf(&joined, "%s %s", h->value, v) == -1)
				return pb_oom(err);
			free(h->value);
			h->value = joined;
			continue;
		}
		if ((colon = strchr(line->p, ':')) == NULL || colon == line->p ||
		    strcspn(line->p, " \t") < (size_t)(colon - line->p))
			return pb_fail(err, 502, "bad_response", "malformed header line \"%.60s\"", line->p);
		if (r->header_count == HEADERS_MAX)
			return pb_fail(err, 502, "bad_response", "more than %d headers", HEADERS_MAX);
		h = realloc(r->headers, (r->header_count + 1) * sizeof(*h));
		if (h == NULL)
			return pb_oom(err);
		r->headers = h;
		for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
			;
		for (end = line->p + line->len; end > v && (end[-1] == ' ' || end[-1] == '\t'); end--)
			;
		h = &r->headers[r->header_count];
		h->name = strndup(line->p, colon - line->p);
		h->value = strndup(v, end - v);
		if (h->name == NULL || h->value == NULL) {
			free(h->name);
			free(h->value);
			return pb_oom(err);
		}
		r->header_count++;
	}
}

const char *
http_response_header(const struct http_response *r, const char *name)
{
	for (size_t i = 0; i < r->header_count; i++)
		if (strcasecmp(r->headers[i].name, name) == 0)
			return r->headers[i].value;
	return NULL;
}

/* True when the comma-separated list value holds token (case-insensitive). */
static bool
list_has(const char *value, const char *token)
{
	size_t tlen = strlen(token);

	while (value != NULL && *value != '\0') {
		const char *end;
		size_t n;

		value += strspn(value, " \t,");
		end = value + strcspn(value, ",");
		n = (size_t)(end - value);
		while (n > 0 && (value[n - 1] == ' ' || value[n - 1] == '\t'))
			n--;
		if (n == tlen && strncasecmp(value, token, n) == 0)
			return true;
		value = end;
	}
	return false;
}

/* True when the last transfer coding of value is chunked. */
static bool
last_coding_chunked(const char *value)
{
	const char *last = strrchr(value, ',');

	return list_has(last != NULL ? last + 1 : value, "chunked");
}

/* Parses every Content-Length header; they must agree.  *out = -1 when there is none. */
static int
content_length(const struct http_response *r, long long *out, struct pb_error *err)
{
	*out = -1;
	for (size_t i = 0; i < r->header_count; i++) {
		const char *v = r->headers[i].value;
		long long n = 0;

		if (strcasecmp(r->headers[i].name, "Content-Length") != 0)
			continue;
		if (*v == '\0')
			return pb_fail(err, 502, "bad_response", "empty Content-Length");
		for (; *v != '\0'; v++) {
			if (*v < '0' || *v > '9' || n > (LLONG_MAX - 9) / 10)
				return pb_fail(err, 502, "bad_response", "bad Content-Length \"%.40s\"",
				    r->headers[i].value);
			n = n * 10 + (*v - '0');
		}
		if (*out != -1 && *out != n)
			return pb_fail(err, 502, "bad_response", "conflicting Content-Length headers");
		*out = n;
	}
	return 0;
}

/* Reads a chunked body and its trailers. */
static int
read_chunked(struct http_client *c, struct http_response *r, struct buf *body, struct buf *line,
    struct pb_error *err)
{
	for (;;) {
		unsigned long long size = 0;
		const char *p;
		int digits = 0;

		c->head_bytes = 0;    /* chunk lines have their own HEAD_MAX budget */
		if (read_line(c, line, err) == -1)
			return -1;
		for (p = line->p; *p != '\0'; p++, digits++) {
			int d;

			if (*p >= '0' && *p <= '9')
				d = *p - '0';
			else if (*p >= 'a' && *p <= 'f')
				d = *p - 'a' + 10;
			else if (*p >= 'A' && *p <= 'F')
				d = *p - 'A' + 10;
			else
				break;
			if (size > (ULLONG_MAX >> 4))
				return too_large(c, err);
			size = size * 16 + (unsigned long long)d;
		}
		if (digits == 0 || (*p != '\0' && *p != ';' && *p != ' ' && *p != '\t'))
			return pb_fail(err, 502, "bad_response", "bad chunk size line \"%.40s\"", line->p);
		if (size == 0)
			return read_headers(c, r, line, err);
		if (size > c->max_response - body->len)
			return too_large(c, err);
		if (read_n(c, body, (size_t)size, err) == -1)
			return -1;
		if (read_line(c, line, err) == -1)
			return -1;
		if (line->len != 0)
			return pb_fail(err, 502, "bad_response", "chunk data longer than its size");
	}
}

/*
 * Reads one complete answer into r (skipping interim 1xx answers).  Sets
 * *keep to whether the connection may serve another request.
 */
static int
read_response(struct http_client *c, bool head, struct http_response *r, bool *keep, struct pb_error *err)
{
	struct buf line = {0}, body = {0};
	const char *conn, *te;
	long long clen;
	int minor = 1, rc = -1;

	*keep = false;
	c->head_bytes = 0;
	for (;;) {
		const char *p;

		if (read_line(c, &line, err) == -1)
			goto done;
		p = line.p;
		if (strncmp(p, "HTTP/1.", 7) != 0 || p[7] < '0' || p[7] > '9' || p[8] != ' ' ||
		    p[9] < '1' || p[9] > '5' || p[10] < '0' || p[10] > '9' || p[11] < '0' || p[11] > '9' ||
		    (p[12] != '\0' && p[12] != ' ')) {
			pb_fail(err, 502, "bad_response", "not an HTTP/1.x status line: \"%.60s\"", p);
			goto done;
		}
		minor = p[7] - '0';
		r->status = (p[9] - '0') * 100 + (p[10] - '0') * 10 + (p[11] - '0');
		if (read_headers(c, r, &line, err) == -1)
			goto done;
		if (r->status >= 200)
			break;
		if (r->status == 101) {
			pb_fail(err, 502, "bad_response", "unexpected 101 Switching Protocols");
			goto done;
		}
		headers_free(r);    /* an interim answer: the real one follows */
	}

	conn = http_response_header(r, "Connection");
	*keep = minor >= 1 ? !list_has(conn, "close") : list_has(conn, "keep-alive");
	if (buf_reserve(&body, 0, err) == -1)
		goto done;
	body.p[0] = '\0';
	if (head || r->status == 204 || r->status == 304) {
		/* no body */
	} else if ((te = http_response_header(r, "Transfer-Encoding")) != NULL) {
		if (last_coding_chunked(te)) {
			if (read_chunked(c, r, &body, &line, err) == -1)
				goto done;
		} else {
			*keep = false;
			if (read_to_eof(c, &body, err) == -1)
				goto done;
		}
	} else {
		if (content_length(r, &clen, err) == -1)
			goto done;
		if (clen >= 0) {
			if ((unsigned long long)clen > c->max_response) {
				too_large(c, err);
				goto done;
			}
			if (read_n(c, &body, (size_t)clen, err) == -1)
				goto done;
		} else {
			*keep = false;
			if (read_to_eof(c, &body, err) == -1)
				goto done;
		}
	}
	r->body = body.p;
	r->len = body.len;
	body.p = NULL;
	rc = 0;
done:
	buf_free(&line);
	buf_free(&body);
	return rc;
}

/* Checks that s is a non-empty run of token characters (for the method). */
static bool
is_token(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    strchr("!#$%&'*+-.^_`|~", *s) != NULL))
			return false;
	return true;
}

/* Builds the request bytes into req. */
static int
build_request(struct http_client *c, const char *method, const char *path, const char *const *extra,
    const char *body, size_t body_len, struct buf *req, struct pb_error *err)
{
	bool has_ctype = false;
	char num[32];

	if (buf_str(req, method, err) == -1 || buf_str(req, " ", err) == -1 ||
	    buf_str(req, c->prefix, err) == -1 || buf_str(req, path, err) == -1 ||
	    buf_str(req, " HTTP/1.1\r\nHost: ", err) == -1 || buf_str(req, c->authority, err) == -1 ||
	    buf_str(req, "\r\nUser-Agent: pitboss-http-client\r\n", err) == -1)
		return -1;
	if (c->auth != NULL && (buf_str(req, "Authorization: ", err) == -1 ||
	    buf_str(req, c->auth, err) == -1 || buf_str(req, "\r\n", err) == -1))
		return -1;
	for (size_t i = 0; extra != NULL && extra[i] != NULL; i++) {
		if (strncasecmp(extra[i], "Content-Type:", 13) == 0)
			has_ctype = true;
		if (buf_str(req, extra[i], err) == -1 || buf_str(req, "\r\n", err) == -1)
			return -1;
	}
	if (body != NULL && !has_ctype && buf_str(req, "Content-Type: application/json\r\n", err) == -1)
		return -1;
	if (body != NULL || strcmp(method, "POST") == 0 || strcmp(method, "PUT") == 0 ||
	    strcmp(method, "PATCH") == 0) {
		snprintf(num, sizeof(num), "%zu", body != NULL ? body_len : 0);
		if (buf_str(req, "Content-Length: ", err) == -1 || buf_str(req, num, err) == -1 ||
		    buf_str(req, "\r\n", err) == -1)
			return -1;
	}
	if (buf_str(req, "\r\n", err) == -1)
		return -1;
	if (body != NULL && buf_append(req, body, body_len, err) == -1)
		return -1;
	return 0;
}

/*
 * See http_client.h.  The request is built once, then sent at most twice:
 * the second time only when the first went out on a kept-alive connection
 * and died (network_error) before any byte of the answer came back.
 */
int
http_request_ex(struct http_client *c, const char *method, const char *path,
    const char *const *extra_headers, const char *body, size_t body_len,
    struct http_response *out, struct pb_error *err)
{
	struct buf req = {0};
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (method == NULL || !is_token(method))
		return pb_fail(err, 400, "invalid_argument", "bad method");
	if (path == NULL || path[0] != '/' || !header_safe(path) || strchr(path, ' ') != NULL)
		return pb_fail(err, 400, "invalid_argument", "bad path \"%.100s\": it must start with '/' "
		    "and hold no blanks or control characters", path ? path : "");
	for (size_t i = 0; extra_headers != NULL && extra_headers[i] != NULL; i++)
		if (!header_safe(extra_headers[i]) || strchr(extra_headers[i], ':') == NULL)
			return pb_fail(err, 400, "invalid_argument", "bad header line \"%.60s\"", extra_headers[i]);
	if (build_request(c, method, path, extra_headers, body, body_len, &req, err) == -1)
		goto done;

	for (int attempt = 0; attempt < 2; attempt++) {
		bool reused, keep;

		if (c->fd >= 0 && !conn_usable(c))
			conn_close(c);
		reused = c->fd >= 0;
		if (!reused && conn_open(c, err) == -1)
			goto done;
		c->received = 0;
		if (send_all(c, req.p, req.len, err) == 0 &&
		    read_response(c, strcmp(method, "HEAD") == 0, out, &keep, err) == 0) {
			if (!keep || c->rpos != c->rlen)
				conn_close(c);
			rc = 0;
			goto done;
		}
		conn_close(c);
		http_response_free(out);
		/* Only a kept-alive connection that died before answering is retried. */
		if (!reused || c->received != 0 || strcmp(err->code, "network_error") != 0)
			goto done;
	}
done:
	buf_free(&req);
	return rc;
}

int
http_request(struct http_client *c, const char *method, const char *path, const char *body,
    const char *idem_key, struct http_response *out, struct pb_error *err)
{
	const char *extra[2] = {NULL, NULL};
	char *line = NULL;
	int rc;

	if (idem_key != NULL) {
		if (*idem_key == '\0' || !header_safe(idem_key)) {
			memset(out, 0, sizeof(*out));
			return pb_fail(err, 400, "invalid_argument", "bad Idempotency-Key");
		}
		if (asprintf(&line, "Idempotency-Key: %s", idem_key) == -1) {
			memset(out, 0, sizeof(*out));
			return pb_oom(err);
		}
		extra[0] = line;
	}
	rc = http_request_ex(c, method, path, extra, body, body != NULL ? strlen(body) : 0, out, err);
	free(line);
	return rc;
}

void
http_response_free(struct http_response *r)
{
	if (r == NULL)
		return;
	free(r->body);
	headers_free(r);
	memset(r, 0, sizeof(*r));
}
