#include "http/auth.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "table/people/people.h"

static pthread_mutex_t auth_lock = PTHREAD_MUTEX_INITIALIZER;   /* the lockout log's minute */

/* The peer's address as text ("unknown" when there is none). */
static void
peer_address(const struct http_request *req, char *out, size_t outsz)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(req->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci ? ci->client_addr : NULL;

	snprintf(out, outsz, "unknown");
	if (sa == NULL)
		return;
	if (sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)outsz);
	else if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out, (socklen_t)outsz);
}

/* Every X-Forwarded-For header of the request, joined with commas in the order they came. */
struct forwarded {
	char text[1024];
	size_t len;
	bool truncated;
};

static enum MHD_Result
collect_forwarded(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct forwarded *f = cls;
	int n;

	(void)kind;
	if (strcasecmp(key, "X-Forwarded-For") != 0 || value == NULL)
		return MHD_YES;
	n = snprintf(f->text + f->len, sizeof(f->text) - f->len, "%s%s", f->len ? "," : "", value);
	if (n < 0 || (size_t)n >= sizeof(f->text) - f->len)
		f->truncated = true;
	else
		f->len += (size_t)n;
	return MHD_YES;
}

/*
 * The client's address.  The peer's, unless the peer is one of
 * trusted_proxies and the request carries X-Forwarded-For: then the hops
 * are read from the right (the one the nearest proxy added) and the first
 * that is not a trusted proxy is the client; when every hop is trusted,
 * the leftmost.  A hop that is no address ends the walk at the hop before
 * it (what the trusted proxies vouch for), as does a header too long to
 * read whole.  The address is written in its canonical form.
 */
static void
client_address(const struct config *cfg, const struct http_request *req, char *out, size_t outsz)
{
	struct forwarded f = {.len = 0};
	char *hop;

	peer_address(req, out, outsz);
	if (!config_trusted_proxy(cfg, out))
		return;
	MHD_get_connection_values(req->conn, MHD_HEADER_KIND, collect_forwarded, &f);
	if (f.len == 0 || f.truncated)
		return;
	while (f.len > 0) {
		struct config_cidr a;
		char *end = f.text + f.len;
		hop = memrchr(f.text, ',', f.len);
		hop = hop ? hop + 1 : f.text;
		f.len = hop > f.text ? (size_t)(hop - 1 - f.text) : 0;
		while (hop < end && (*hop == ' ' || *hop == '\t'))
			hop++;
		while (end > hop && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		*end = '\0';
		if (config_parse_cidr(hop, &a) < 0 || strchr(hop, '/') != NULL)
			return;
		inet_ntop(a.family, a.addr, out, (socklen_t)outsz);
		if (!config_trusted_proxy(cfg, out))
			return;
	}
}

/*
 * A lockout is logged, at most LOCKOUT_LOG_BURST lines a minute (many
 * addresses locked out at once would flood the log); the lines left out are
 * counted in the next one.  The significant events are bounded apart
 * (table/people/people.h).
 */
#define LOCKOUT_LOG_BURST 10

static void
log_lockout(const char *addr, unsigned failures, unsigned seconds, int64_t now)
{
	static int64_t window_ms;
	static unsigned logged, dropped;
	unsigned left_out;

	pthread_mutex_lock(&auth_lock);
	if (now - window_ms >= 60000) {
		window_ms = now;
		logged = 0;
	}
	if (logged >= LOCKOUT_LOG_BURST) {
		dropped++;
		pthread_mutex_unlock(&auth_lock);
		return;
	}
	logged++;
	left_out = dropped;
	dropped = 0;
	pthread_mutex_unlock(&auth_lock);
	if (left_out > 0)
		log_warn("auth: %s locked out for %u s after %u failed sign-ins (and %u more lockouts not logged)", addr,
		    seconds, failures, left_out);
	else
		log_warn("auth: %s locked out for %u s after %u failed sign-ins", addr, seconds, failures);
}

/* The token of the Authorization header when it is a known one, else NULL. */
static const struct token_config *
known_token(const struct config *cfg, const char *h)
{
	if (h == NULL || strncasecmp(h, "Bearer ", 7) != 0 || strlen(h + 7) == 0 || strlen(h + 7) > 512)
		return NULL;
	return config_token_by_secret(cfg, h + 7, strlen(h + 7));
}

/*
 * A failed sign-in from addr at now: counted towards the address's lockout
 * unless it is locked out already (table/people/people.h); noted for the summary
 * (table/people/people.h) and the metrics; the lockout itself logged.  Returns
 * the refusal: 429 locked_out while locked, else 401 unauthorized.
 */
static int
failed(struct app *app, const char *addr, int64_t now, struct pb_error *err)
{
	const struct config *cfg = app->cfg;
	struct door_count c;
	long long wait;

	door_address_failed(addr, cfg->auth_max_failures, (int64_t)cfg->auth_lockout_seconds * 1000, now, &c);
	wait = (c.locked_until_ms - now + 999) / 1000;
	atomic_fetch_add(&app->metrics.auth_failures, 1);
	authlog_failure(addr, c.was_locked, now);
	if (c.was_locked)
		return pb_fail(err, 429, "locked_out", "too many failed sign-ins from %s; try again in %lld seconds "
		    "(a good token is served meanwhile)", addr, wait);
	if (!c.locked_now)
		return pb_fail(err, 401, "unauthorized", "unknown token");
	authlog_lockout(addr, c.failures, (unsigned)wait, now);
	log_lockout(addr, c.failures, (unsigned)wait, now);
	return pb_fail(err, 429, "locked_out", "too many failed sign-ins from %s; locked out for %lld seconds "
	    "(a good token is served meanwhile)", addr, wait);
}

/*
 * A bearer token of a session's shape: the session's person as the actor
 * (*found), or 401 session_expired.  Read only: the session's last use is
 * written at most once a minute (table/people/people.h).
 */
static int
session_actor(struct pit *pit, const char *h, struct actor *a, struct pit_session *s, bool *found,
    struct pb_error *err)
{
	*found = false;
	if (h == NULL || strncasecmp(h, "Bearer ", 7) != 0 || !pit_session_token_shaped(h + 7))
		return 0;
	if (pit_session_find(pit, h + 7, s, found, err) < 0)
		return -1;
	if (*found) {
		a->name = s->person_id;
		a->roles = s->roles;
		a->token = NULL;
		a->is_person = true;
	}
	return 0;
}

/*
 * A good token is served from any address, one locked out for failures
 * included: the lockout stops guessing, not users (behind one proxy or
 * NAT, a guesser would otherwise lock every terminal out).  A failing
 * attempt from a locked-out address is refused with 429 without counting
 * towards another lockout; a good token does not clear the failures (a
 * holder of one token could otherwise guess without end).  No failure
 * writes to the database here: failures and lockouts are noted in memory
 * and written in bounded form by the main loop (table/people/people.h); a
 * session's use is noted at most once a minute (table/people/people.h).
 */
int
auth_authenticate(struct app *app, struct pit *pit, const struct http_request *req, struct actor *a,
    struct pit_session *session, struct pb_error *err)
{
	const struct config *cfg = app->cfg;
	const struct token_config *t = known_token(cfg, req->authorization);
	char addr[INET6_ADDRSTRLEN];
	int64_t now = pb_time_now_ms();
	bool found = false;

	memset(session, 0, sizeof(*session));
	a->is_person = false;
	if (t == NULL && session_actor(pit, req->authorization, a, session, &found, err) < 0)
		return -1;
	client_address(cfg, req, addr, sizeof(addr));
	if (t != NULL || found) {
		if (door_address_locked(addr, now, NULL))
			authlog_served_while_locked(now);
		if (found)
			return 0;
		a->name = t->name;
		a->roles = ROLE_BIT(t->role);
		a->token = t;
		return 0;
	}
	if (req->authorization == NULL)
		return pb_fail(err, 401, "unauthorized", "send the header \"Authorization: Bearer TOKEN\"");
	return failed(app, addr, now, err);
}

void
auth_client_address(struct app *app, const struct http_request *req, char addr[INET6_ADDRSTRLEN])
{
	client_address(app->cfg, req, addr, INET6_ADDRSTRLEN);
}

int
auth_password_failed(struct app *app, const char *addr, struct pb_error *err)
{
	struct pb_error why = *err;
	int64_t now = pb_time_now_ms();

	failed(app, addr, now, err);
	if (why.status != 401 || err->status != 429)
		*err = why;   /* only a sign-in's 401 becomes the address's 429 */
	return -1;
}
