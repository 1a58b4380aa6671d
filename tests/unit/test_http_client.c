/*
 * test_http_client.c - the HTTP client of the command-line tools against a
 * tiny scripted HTTP server running in a thread on a loopback ephemeral port.
 *
 * The server answers by path:
 *   /cl          Content-Length body
 *   /chunked     chunked body, sent in pieces, with an extension and a trailer
 *   /echo        the request as received (head and body) as the body
 *   /status      422 with an empty body
 *   /http10      an HTTP/1.0 answer framed by the end of the connection
 *   /continue    an interim 100 answer, then 201
 *   /close       answers, then closes the connection (no Connection: close)
 *   /drop-next   answers; the next request on the connection is read and the
 *                connection closed without an answer
 *   /drop        reads the request and closes without an answer
 *   /big         a 2000-byte Content-Length body
 *   /bigchunked  1800 bytes in three chunks
 *   /slow        answers after 1.5 s
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/*
 * The client is part of the `pitboss` binary, not of a library the unit
 * tests link, so its source is compiled into this test directly.
 */
#include "cli/http_client.c"

struct server {
	int lfd;
	int port;
	pthread_t thread;
	atomic_int accepts;
	char url[64];
};

static void
send_str(int fd, const char *s)
{
	size_t n = strlen(s);

	while (n > 0) {
		ssize_t k = send(fd, s, n, MSG_NOSIGNAL);
		if (k <= 0)
			return;
		s += k;
		n -= (size_t)k;
	}
}

static void
pause_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

/*
 * Reads one request (head and Content-Length body) into req (NUL-terminated).
 * Returns its length, or -1 when the connection ended first.
 */
static int
read_request(int fd, char *req, size_t cap)
{
	size_t len = 0;
	char *end = NULL;
	long clen = 0;
	const char *cl;

	while ((end = strstr(req, "\r\n\r\n")) == NULL || len < (size_t)(end - req) + 4 + (size_t)clen) {
		ssize_t k;

		if (len + 1 >= cap)
			return -1;
		if ((k = recv(fd, req + len, cap - len - 1, 0)) <= 0)
			return -1;
		len += (size_t)k;
		req[len] = '\0';
		if ((end = strstr(req, "\r\n\r\n")) != NULL &&
		    (cl = strcasestr(req, "\r\nContent-Length:")) != NULL && cl < end)
			clen = strtol(cl + 17, NULL, 10);
	}
	return (int)len;
}

/* Serves the requests of one connection; returns when it is closed. */
static void
serve_connection(int fd)
{
	char req[16384], resp[4096], big[2100];
	bool drop_next = false;

	for (;;) {
		char path[128] = "";
		int len;

		memset(req, 0, sizeof(req));
		if ((len = read_request(fd, req, sizeof(req))) < 0)
			break;
		if (drop_next)
			break;
		sscanf(req, "%*s %127s", path);
		if (strcmp(path, "/cl") == 0) {
			send_str(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
			    "Content-Length: 11\r\n\r\n{\"ok\":true}");
		} else if (strcmp(path, "/chunked") == 0) {
			send_str(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhel");
			pause_ms(20);
			send_str(fd, "lo\r\n6\r\n wor");
			pause_ms(20);
			send_str(fd, "ld\r\n0\r\nX-Trailer: yes\r\n\r\n");
		} else if (strcmp(path, "/echo") == 0) {
			snprintf(resp, sizeof(resp), "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n", len);
			send_str(fd, resp);
			send_str(fd, req);
		} else if (strcmp(path, "/status") == 0) {
			send_str(fd, "HTTP/1.1 422 Unprocessable Content\r\nContent-Length: 0\r\n\r\n");
		} else if (strcmp(path, "/http10") == 0) {
			send_str(fd, "HTTP/1.0 404 Not Found\r\nContent-Type: text/plain\r\n\r\nnope");
			break;
		} else if (strcmp(path, "/continue") == 0) {
			send_str(fd, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok");
		} else if (strcmp(path, "/close") == 0) {
			send_str(fd, "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nbye");
			break;
		} else if (strcmp(path, "/drop-next") == 0) {
			send_str(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
			drop_next = true;
		} else if (strcmp(path, "/drop") == 0) {
			break;
		} else if (strcmp(path, "/big") == 0) {
			memset(big, 'x', 2000);
			big[2000] = '\0';
			send_str(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\n");
			send_str(fd, big);
		} else if (strcmp(path, "/bigchunked") == 0) {
			memset(big, 'y', 600);
			big[600] = '\0';
			send_str(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
			for (int i = 0; i < 3; i++) {
				send_str(fd, "258\r\n");
				send_str(fd, big);
				send_str(fd, "\r\n");
			}
			send_str(fd, "0\r\n\r\n");
		} else if (strcmp(path, "/slow") == 0) {
			pause_ms(1500);
			send_str(fd, "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nslow");
		} else {
			send_str(fd, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
		}
	}
	close(fd);
}

static void *
server_main(void *arg)
{
	struct server *s = arg;

	for (;;) {
		int fd = accept(s->lfd, NULL, NULL);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			return NULL;    /* the listening socket was shut down */
		}
		atomic_fetch_add(&s->accepts, 1);
		serve_connection(fd);
	}
}

static int
server_start(void **state)
{
	struct server *s = calloc(1, sizeof(*s));
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int one = 1;

	assert_non_null(s);
	s->lfd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(s->lfd >= 0);
	setsockopt(s->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = 0;
	assert_int_equal(bind(s->lfd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(listen(s->lfd, 16), 0);
	assert_int_equal(getsockname(s->lfd, (struct sockaddr *)&sin, &len), 0);
	s->port = ntohs(sin.sin_port);
	snprintf(s->url, sizeof(s->url), "http://127.0.0.1:%d", s->port);
	atomic_init(&s->accepts, 0);
	assert_int_equal(pthread_create(&s->thread, NULL, server_main, s), 0);
	*state = s;
	return 0;
}

static int
server_stop(void **state)
{
	struct server *s = *state;

	shutdown(s->lfd, SHUT_RDWR);
	pthread_join(s->thread, NULL);
	close(s->lfd);
	free(s);
	return 0;
}

static struct http_client *
client_for(struct server *s)
{
	struct pb_error err;
	struct http_client *c = http_client_new(s->url, "sekret", &err);

	assert_non_null(c);
	return c;
}

static void
test_content_length(void **state)
{
	struct server *s = *state;
	struct http_client *c = client_for(s);
	struct http_response r;
	struct pb_error err;

	assert_int_equal(http_request(c, "GET", "/cl", NULL, NULL, &r, &err), 0);
	assert_int_equal(r.status, 200);
	assert_int_equal(r.len, 11);
	assert_string_equal(r.body, "{\"ok\":true}");
	assert_string_equal(http_response_header(&r, "content-type"), "application/json");
	assert_null(http_response_header(&r, "X-Missing"));
	http_response_free(&r);
	http_client_free(c);
}

static void
test_chunked(void **state)
{
	struct server *s = *state;
	struct http_client *c = client_for(s);
	struct http_response r;
	struct pb_error err;

	assert_int_equal(http_request(c, "GET", "/chunked", NULL, NULL, &r, &err), 0);
	assert_int_equal(r.status, 200);
	assert_int_equal(r.len, 11);
	assert_string_equal(r.body, "hello world");
	assert_string_equal(http_response_header(&r, "X-Trailer"), "yes");
	http_response_free(&r);
	/* The connection stays usable after a chunked answer. */
	assert_int_equal(http_request(c, "GET", "/cl", NULL, NULL, &r, &err), 0);
	assert_string_equal(r.body, "{\"ok\":true}");
	http_response_free(&r);
	assert_int_equal(http_client_connections(c), 1);
	http_client_free(c);
}

static void
test_keepalive_reuse(void **state)
{
	struct server *s = *state;
	struct http_client *c = client_for(s);
	struct http_response r;
	struct pb_error err;
	const char *paths[] = {"/cl", "/chunked", "/status", "/continue", "/cl", "/echo"};

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		assert_int_equal(http_request(c, "GET", paths[i], NULL, NULL, &r, &err), 0);
		http_response_free(&r);
	}
	assert_int_equal(http_client_connections(c), 1);
	assert_int_equal(atomic_load(&s->accepts), 1);
	http_client_free(c);
}

static void
test_request_headers(void **state)
{
	struct server *s = *state;
	struct http_client *c = client_for(s);
	struct http_response r;
	struct pb_error err;

	assert_int_equal(http_request(c, "POST", "/echo", "{\"a\":1}", "key-123", &r, &err), 0);
	assert_int_equal(r.status, 200);
	assert_non_null(strstr(r.body, "POST /echo HTTP/1.1\r\n"));
	assert_non_null(strstr(r.body, "\r\nAuthorization: Bearer sekret\r\n"));
	assert_non_null(strstr(r.body, "\r\nIdempotency-Key: key-123\r\n"));
	assert_non_null(strstr(r.body, "\r\nContent-Type: application/json\r\n"));
	assert_non_null(strstr(r.body, "\r\nContent-Length: 7\r\n"));
	assert_non_null(strstr(r.body, "\r\nHost: 127.0.0.1:"));
	assert_non_null(strstr(r.body, "\r\n\r\n{\"a\":1}"));
	http_response_free(&r);

	/* A POST without a body still says Content-Length: 0. */
	assert_int_equal(http_request(c, "POST", "/echo", NULL, NULL, &r, &err), 0);
	assert_non_null(strstr(r.body, "\r\nContent-Length: 0\r\n"));
	assert_null(strstr(r.body, "Idempotency-Key"));
	http_response_free(&r);

	/* Header injection is refused before anything is sent. */
	assert_int_equal(http_request(c, "POST", "/echo", NULL, "a\r\nX-Evil: 1", &r, &err), -1);
	assert_string_equal(err.code, "invalid_argument");
	assert_int_equal(http_request(c, "GET", "/a b", NULL, NULL, &r, &err), -1);
	assert_int_equal(http_request(c, "GET", "no-slash", NULL, NULL, &r, &err), -1);
	http_client_free(c);
}

static void
test_reconnect(void **state)
{
	struct server *s = *state;
	struct http_client *c = client_for(s);
	struct http_response r;
	struct pb_error err;

	assert_int_equal(http_request(c, "GET", "/cl", NULL, NULL, &r, &err), 0);
	http_response_free(&r);
	/* The server closes the connection after this answer, unannounced. */
	assert_int_equal(http_request(c, "GET", "/close", NULL, NULL, &r, &err), 0);
	assert_string_equal(r.body, "bye");
	http_response_free(&r);
	assert_int_equal(http_request(c, "GET", "/cl", NULL, NULL, &r, &err), 0);
	assert_int_equal(r.status, 200);
	http_response_free(&r);
	assert_int_equal(http_client_connections(c), 2);

	/* The server reads the next request and closes without a byte of answer. */
	assert_int_equal(http_request(c, "GET", "/drop-next", NULL, NULL, &r, &err), 0);
	http_response_free(&r);
	assert_int_equal(http_request(c, "POST", "/cl", "{}", "k", &r, &err), 0);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.body, "{\"ok\":true}");
	http_response_free(&r);
	assert_int_equal(http_client_connections(c), 3);

	/* On a fresh connection the same failure is reported, not retried. */
	http_client_close(c);
	assert_int_equal(http_request(c, "GET", "/drop", NULL, NULL, &r, &err), -1);
	assert_string_equal(err.code, "network_error");
	assert_true(http_error_is_transport(&err));
	assert_null(r.body);
	assert_int_equal(http_client_connections(c), 4);
	assert_int_equal(atomic_load(&s->accepts), 4);
	http_client_free(c);
}

static void
test_status_parsing(void **state)
{
	struct server *s = *state;
	struct http_client *c = client_for(s);
	struct http_response r;
	struct pb_error err;

	assert_int_equal(http_request(c, "GET", "/status", NULL, NULL, &r, &err), 0);
	assert_int_equal(r.status, 422);
	assert_non_null(r.body);
	assert_int_equal(r.len, 0);
	assert_string_equal(r.body, "");
	http_response_free(&r);

	assert_int_equal(http_request(c, "GET", "/continue", NULL, NULL, &r, &err), 0);
	assert_int_equal(r.status, 201);
	assert_string_equal(r.body, "ok");
	http_response_free(&r);

	assert_int_equal(http_request(c, "GET", "/http10", NULL, NULL, &r, &err), 0);
	assert_int_equal(r.status, 404);
	assert_string_equal(r.body, "nope");
	assert_string_equal(http_response_header(&r, "Content-Type"), "text/plain");
	http_response_free(&r);

	assert_int_equal(http_request(c, "GET", "/nowhere", NULL, NULL, &r, &err), 0);
	assert_int_equal(r.status, 404);
	http_response_free(&r);
	/* The HTTP/1.0 answer ended its connection: a second one was needed. */
	assert_int_equal(http_client_connections(c), 2);
	http_client_free(c);
}

static void
test_oversized(void **state)
{
	struct server *s = *state;
	struct http_client *c = client_for(s);
	struct http_response r;
	struct pb_error err;

	http_client_set_max_response(c, 1000);
	assert_int_equal(http_request(c, "GET", "/big", NULL, NULL, &r, &err), -1);
	assert_string_equal(err.code, "response_too_large");
	assert_false(http_error_is_transport(&err));
	assert_null(r.body);
	assert_int_equal(http_request(c, "GET", "/bigchunked", NULL, NULL, &r, &err), -1);
	assert_string_equal(err.code, "response_too_large");
	/* The client stays usable: the next request gets a fresh connection. */
	assert_int_equal(http_request(c, "GET", "/cl", NULL, NULL, &r, &err), 0);
	assert_int_equal(r.status, 200);
	http_response_free(&r);
	http_client_set_max_response(c, 2000);
	assert_int_equal(http_request(c, "GET", "/big", NULL, NULL, &r, &err), 0);
	assert_int_equal(r.len, 2000);
	http_response_free(&r);
	http_client_free(c);
}

static void
test_timeout(void **state)
{
	struct server *s = *state;
	struct http_client *c = client_for(s);
	struct http_response r;
	struct pb_error err;

	http_client_set_timeout(c, 300);
	assert_int_equal(http_request(c, "GET", "/slow", NULL, NULL, &r, &err), -1);
	assert_string_equal(err.code, "timeout");
	assert_true(http_error_is_transport(&err));
	assert_int_equal(http_client_connections(c), 1);    /* a timeout is never retried */
	http_client_free(c);
}

static void
test_urls(void **state)
{
	struct pb_error err;
	struct http_client *c;
	const char *bad[] = {"https://127.0.0.1:1", "127.0.0.1:8080", "http://", "http://[::1", "http://h:0",
	    "http://h:99999", "http://h:x", "http://u@h:80", "http://h:80?q=1", "http://h h:80"};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_null(http_client_new(bad[i], "t", &err));
		assert_string_equal(err.code, "invalid_argument");
	}
	assert_null(http_client_new("http://127.0.0.1:80", "two words", &err));
	c = http_client_new("http://[::1]:8080/api/", NULL, &err);
	assert_non_null(c);
	assert_string_equal(c->host, "::1");
	assert_string_equal(c->port, "8080");
	assert_string_equal(c->authority, "[::1]:8080");
	assert_string_equal(c->prefix, "/api");
	http_client_free(c);
	c = http_client_new("HTTP://example.org", "t", &err);
	assert_non_null(c);
	assert_string_equal(c->port, "80");
	assert_string_equal(c->prefix, "");
	http_client_free(c);
}

static void
test_connect_refused(void **state)
{
	struct server *s = *state;
	struct pb_error err;
	struct http_response r;
	struct http_client *c;
	char url[64];
	int port;

	/* A port just freed by closing a listening socket refuses connections. */
	{
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		struct sockaddr_in sin;
		socklen_t len = sizeof(sin);

		memset(&sin, 0, sizeof(sin));
		sin.sin_family = AF_INET;
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
		assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
		port = ntohs(sin.sin_port);
		close(fd);
	}
	(void)s;
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", port);
	c = http_client_new(url, "t", &err);
	assert_non_null(c);
	assert_int_equal(http_request(c, "GET", "/cl", NULL, NULL, &r, &err), -1);
	assert_string_equal(err.code, "connect_failed");
	assert_true(http_error_is_transport(&err));
	http_client_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_content_length, server_start, server_stop),
		cmocka_unit_test_setup_teardown(test_chunked, server_start, server_stop),
		cmocka_unit_test_setup_teardown(test_keepalive_reuse, server_start, server_stop),
		cmocka_unit_test_setup_teardown(test_request_headers, server_start, server_stop),
		cmocka_unit_test_setup_teardown(test_reconnect, server_start, server_stop),
		cmocka_unit_test_setup_teardown(test_status_parsing, server_start, server_stop),
		cmocka_unit_test_setup_teardown(test_oversized, server_start, server_stop),
		cmocka_unit_test_setup_teardown(test_timeout, server_start, server_stop),
		cmocka_unit_test_setup_teardown(test_connect_refused, server_start, server_stop),
		cmocka_unit_test(test_urls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
