/*
 * static.c - the pit boss page's files, served from web_root, and the
 * dealer's page (web_root/dealer/) as /dealer/: a directory is served as
 * its index.html.  Only plain names ([A-Za-z0-9_.-] segments, none
 * starting with a dot) are served, and only files that really lie under
 * web_root.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "http/routes.h"

#define STATIC_MAX_BYTES (8 * 1024 * 1024)

static const struct {
	const char *ext;
	const char *type;
} TYPES[] = {
	{".html", "text/html; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
	{".js", "text/javascript; charset=utf-8"}, {".mjs", "text/javascript; charset=utf-8"},
	{".json", "application/json"}, {".svg", "image/svg+xml"}, {".png", "image/png"},
	{".ico", "image/x-icon"}, {".txt", "text/plain; charset=utf-8"}, {".woff2", "font/woff2"},
};

static bool
plain_path(const char *p)
{
	bool seg_start = true;

	if (*p != '/')
		return false;
	for (p++; *p != '\0'; p++) {
		char c = *p;
		if (c == '/') {
			if (seg_start)
				return false;
			seg_start = true;
			continue;
		}
		if (seg_start && c == '.')
			return false;
		seg_start = false;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return false;
	}
	return true;
}

static void
static_not_found(struct http_answer *ans)
{
	answer_fail(ans, 404, "not_found", "no such page");
}

void
static_serve(struct app *app, const struct http_request *req, struct http_answer *ans)
{
	char want[PATH_MAX], real[PATH_MAX], root[PATH_MAX];
	const char *path = req->path;
	const char *type = "application/octet-stream";
	struct stat st;
	FILE *f;
	char *buf;
	size_t plen;

	ans->route = ROUTE_STATIC;
	if (strcmp(req->method, "GET") != 0 && strcmp(req->method, "HEAD") != 0) {
		answer_fail(ans, 405, "method_not_allowed", "use GET here");
		snprintf(ans->allow, sizeof(ans->allow), "GET, HEAD");
		return;
	}
	if (strcmp(path, "/") == 0)
		path = "/index.html";
	if (!plain_path(path) || realpath(app->cfg->web_root, root) == NULL)
		return static_not_found(ans);
	snprintf(want, sizeof(want), "%s%s", root, path);
	if (realpath(want, real) == NULL)
		return static_not_found(ans);
	/* a directory (the dealer's page, /dealer/) is served as its index.html */
	if (stat(real, &st) == 0 && S_ISDIR(st.st_mode) && strlen(real) + sizeof("/index.html") <= sizeof(real))
		strcat(real, "/index.html");
	plen = strlen(root);
	if (strncmp(real, root, plen) != 0 || real[plen] != '/' || stat(real, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > STATIC_MAX_BYTES)
		return static_not_found(ans);
	f = fopen(real, "rb");
	if (f == NULL)
		return static_not_found(ans);
	buf = malloc((size_t)st.st_size + 1);
	if (buf == NULL || fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		free(buf);
		fclose(f);
		return static_not_found(ans);
	}
	fclose(f);
	for (size_t i = 0; i < sizeof(TYPES) / sizeof(TYPES[0]); i++) {
		size_t el = strlen(TYPES[i].ext), rl = strlen(real);
		if (rl > el && strcmp(real + rl - el, TYPES[i].ext) == 0)
			type = TYPES[i].type;
	}
	ans->status = 200;
	ans->text = buf;
	ans->text_len = (size_t)st.st_size;
	ans->content_type = type;
	ans->cache_control = "no-cache";
}
