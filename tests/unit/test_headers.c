/*
 * test_headers.c - the security headers (http/headers.h): the policy's
 * promises (no inline script, no eval, no framing), the header lines written
 * for an answer sent on the socket itself, and a buffer too small for them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "http/headers.h"

/* The value of header name, or NULL. */
static const char *
value_of(const char *name)
{
	for (const struct security_header *h = SECURITY_HEADERS; h->name != NULL; h++)
		if (strcmp(h->name, name) == 0)
			return h->value;
	return NULL;
}

/* The directive of the policy that starts with name (up to its ';'), copied into out. */
static void
directive(const char *csp, const char *name, char *out, size_t size)
{
	const char *p = strstr(csp, name);
	size_t n;

	assert_non_null(p);
	assert_true(p == csp || p[-2] == ';');
	n = strcspn(p, ";");
	assert_true(n < size);
	memcpy(out, p, n);
	out[n] = '\0';
}

static void
test_policy(void **state)
{
	const char *csp = value_of("Content-Security-Policy");
	char d[256];

	(void)state;
	assert_non_null(csp);
	assert_null(strstr(csp, "unsafe-inline"));
	assert_null(strstr(csp, "unsafe-eval"));
	assert_null(strstr(csp, "*"));
	assert_null(strstr(csp, "data:"));
	directive(csp, "default-src ", d, sizeof(d));
	assert_string_equal(d, "default-src 'none'");
	directive(csp, "script-src ", d, sizeof(d));
	assert_string_equal(d, "script-src 'self'");
	directive(csp, "style-src ", d, sizeof(d));
	assert_string_equal(d, "style-src 'self'");
	directive(csp, "frame-ancestors ", d, sizeof(d));
	assert_string_equal(d, "frame-ancestors 'none'");
	assert_string_equal(value_of("X-Frame-Options"), "DENY");
	assert_string_equal(value_of("X-Content-Type-Options"), "nosniff");
	assert_string_equal(value_of("Referrer-Policy"), "no-referrer");
}

static void
test_text(void **state)
{
	char buf[1024], line[600];
	size_t len = 0, want = 0, count = 0;

	(void)state;
	assert_int_equal(security_headers_text(buf, sizeof(buf), &len), 0);
	assert_int_equal(len, strlen(buf));
	for (const struct security_header *h = SECURITY_HEADERS; h->name != NULL; h++, count++) {
		snprintf(line, sizeof(line), "%s: %s\r\n", h->name, h->value);
		assert_non_null(strstr(buf, line));
		want += strlen(line);
	}
	assert_int_equal(count, 7);
	assert_int_equal(len, want);
	/* One byte short of the lines and their NUL: refused, and nothing half written is left. */
	assert_int_equal(security_headers_text(buf, want, &len), -1);
	assert_string_equal(buf, "");
	assert_int_equal(security_headers_text(buf, want + 1, &len), 0);
	assert_int_equal(len, want);
	assert_int_equal(security_headers_text(buf, 0, &len), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
