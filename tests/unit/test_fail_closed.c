/*
 * test_fail_closed.c - the pieces verification fails closed with
 * (docs/audit.md, "Verification fails closed"), each allocation of theirs
 * made to fail in turn (common/faults.h: this binary, of a build for the
 * tests, maps a control file of its own):
 *
 * - pb_oom: the one out-of-memory error;
 * - json_parse_checked: an escaped body parsed with every allocation of
 *   jansson's failing in turn gives the value, or NULL and "out of memory"
 *   (never a misread value, never jansson's assert), and only NULL and "not
 *   JSON" for a text that is not JSON;
 * - canonical_text_why: out of memory told from a body with no canonical form;
 * - audit_problem and audit_unchecked: -1, and nothing appended, when the
 *   problem cannot be; "unchecked": true on the second;
 * - the problem sink: its cap named, the rest counted in one last problem,
 *   and out of memory when a problem cannot be recorded;
 * - check_part: a part that ran out of memory (or during which jansson
 *   failed an allocation) has what it appended taken back and fails
 *   out_of_memory; a read error keeps it and stays a read error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/error.h"
#include "common/faults.h"
#include "common/json_alloc.h"
#include "common/json_text.h"
#include "store/audit.h"
#include "table/core/core.h"

/* The control block (common/faults.h), mapped here too: [0] fail_at, [1] flags, [2] counted, [3] failed. */
static volatile int64_t *ctl;

/* The nth allocation from now fails (0: none); the counts start again. */
static void
arm(int64_t n)
{
	ctl[0] = 0;
	ctl[1] = PB_FAULTS_NO_LIBRARY;
	ctl[2] = 0;
	ctl[3] = 0;
	ctl[0] = n;
}

static int64_t
counted(void)
{
	return ctl[2];
}

static int64_t
failed(void)
{
	return ctl[3];
}

/*
 * A body with every kind of escape jansson's lexer decodes, nested.  Its
 * first key is the first token to pass 15 bytes, and its 16th byte (where
 * the lexer's buffer grows first) is the "t" of an escape: without the
 * rescue (json_alloc_rescue) the lexer drops it when that growth fails, and
 * then asserts on "\x".
 */
static const char BODY[] =
    "{\"abcdefghijklm\\tx\":1,\"a\":\"line\\nnext\\ttab \\\"quoted\\\" back\\\\slash\",\"b\":[1,-2,{\"c\":\"caf\\u00E9 \\uD83D\\uDE00\"}],"
    "\"d\":{\"e\":null,\"f\":true,\"g\":\"\\/\\b\\f\\r\"},\"h\":\"a long enough string to make the lexer grow its buffer "
    "more than once, and then once more, with an escape at its end\\n\"}";

static void
test_pb_oom(void **state)
{
	struct pb_error err;

	(void)state;
	assert_int_equal(pb_oom(&err), -1);
	assert_int_equal(err.status, 500);
	assert_string_equal(err.code, "out_of_memory");
	assert_string_equal(err.message, "out of memory");
	assert_true(pb_is_oom(&err));
	pb_fail(&err, 500, "storage_error", "disk");
	assert_false(pb_is_oom(&err));
	assert_int_equal(pb_oom(NULL), -1);
}

static void
test_parse_every_allocation_failing(void **state)
{
	json_t *want, *got;
	bool oom;
	int64_t k;
	int values = 0, refused = 0;

	(void)state;
	arm(0);
	want = json_parse_checked(BODY, &oom);
	k = counted();
	assert_non_null(want);
	assert_false(oom);
	assert_true(k > 10);
	for (int64_t n = 1; n <= k + 1; n++) {
		arm(n);
		got = json_parse_checked(BODY, &oom);
		if (failed() == 0) {
			assert_false(oom);
			assert_true(json_equal(got, want));
			values++;
		} else {
			/* Whatever jansson made of it (it may parse on past a byte it dropped), it is thrown away. */
			assert_null(got);
			assert_true(oom);
			refused++;
		}
		json_decref(got);
	}
	arm(0);
	assert_int_equal(refused, k);
	assert_int_equal(values, 1);
	json_decref(want);
}

static void
test_parse_not_json(void **state)
{
	bool oom = true;

	(void)state;
	arm(0);
	assert_null(json_parse_checked("{\"a\":", &oom));
	assert_false(oom);
	assert_null(json_parse_checked("{\"a\":\"\\q\"}", &oom));
	assert_false(oom);
}

static void
test_canonical_why(void **state)
{
	json_t *body = json_pack("{s:s,s:[i,i]}", "z", "caf\xc3\xa9", "a", 1, 2);
	json_t *bad = json_pack("{s:o}", "a", json_stringn_nocheck("\xff", 1));
	char *text;
	bool oom;
	int64_t k;

	(void)state;
	arm(0);
	text = canonical_text_why(body, NULL, &oom);
	k = counted();
	assert_string_equal(text, "{\"a\":[1,2],\"z\":\"caf\\u00E9\"}");
	assert_false(oom);
	free(text);
	for (int64_t n = 1; n <= k; n++) {
		arm(n);
		text = canonical_text_why(body, NULL, &oom);
		assert_null(text);
		assert_true(oom);
	}
	arm(0);
	assert_null(canonical_text_why(bad, NULL, &oom));      /* a text that is not UTF-8 has no canonical form */
	assert_false(oom);
	json_decref(bad);
	json_decref(body);
}

static void
test_problem_not_recorded(void **state)
{
	json_t *problems = json_array();
	int64_t k;

	(void)state;
	arm(0);
	assert_int_equal(audit_unchecked(problems, "T1", 7, 3, "round %d could not be checked", 7), 0);
	k = counted();
	assert_int_equal(json_array_size(problems), 1);
	assert_true(json_is_true(json_object_get(json_array_get(problems, 0), "unchecked")));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(problems, 0), "round")), 7);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(problems, 0), "event")), 3);
	for (int64_t n = 1; n <= k; n++) {
		size_t before = json_array_size(problems);
		arm(n);
		/* Either it is there whole, or it is not there and the caller is told. */
		if (audit_unchecked(problems, "T1", 7, 3, "round %d could not be checked", 7) < 0)
			assert_int_equal(json_array_size(problems), before);
		else
			assert_int_equal(json_array_size(problems), before + 1);
	}
	arm(1);
	assert_int_equal(audit_problem(problems, "T1", 0, 0, "altered"), -1);
	arm(0);
	assert_int_equal(audit_problem(NULL, "T1", 0, 0, "nowhere"), 0);
	assert_int_equal(audit_problem(problems, "T1", 0, 0, "altered"), 0);
	assert_null(json_object_get(json_array_get(problems, json_array_size(problems) - 1), "unchecked"));
	json_decref(problems);
}

/* The sink names cap problems with their event, counts the rest, says how many in one last problem. */
static void
test_problem_sink(void **state)
{
	json_t *problems = json_array();
	struct stored_event e = {.table_id = "T1", .table_seq = 12};
	struct problem_sink k;
	struct pb_error err;

	(void)state;
	arm(0);
	problem_sink_init(&k, problems, 2, "problems of the rows (not named)");
	assert_int_equal(problem_sink_end(&k, &err), 0);
	assert_int_equal(json_array_size(problems), 0);
	for (int i = 0; i < 5; i++)
		assert_int_equal(problem_sink_event(&k, &e, &err, "row %d differs", i), 0);
	assert_int_equal(json_array_size(problems), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(problems, 1), "problem")), "row 1 differs");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(problems, 1), "event")), 12);
	assert_string_equal(json_string_value(json_object_get(json_array_get(problems, 1), "table")), "T1");
	assert_null(json_object_get(json_array_get(problems, 1), "round"));
	assert_int_equal(problem_sink_end(&k, &err), 0);
	assert_int_equal(json_array_size(problems), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(problems, 2), "problem")),
	    "3 more problems of the rows (not named)");
	/* a problem that cannot be recorded is out of memory, and nothing half of it is left */
	problem_sink_init(&k, problems, 10, "more");
	arm(1);
	assert_int_equal(problem_sink_event(&k, &e, &err, "lost"), -1);
	assert_true(pb_is_oom(&err));
	arm(0);
	assert_int_equal(json_array_size(problems), 3);
	json_decref(problems);
}

static void
test_check_part(void **state)
{
	json_t *problems = json_array();
	struct check_part part;
	struct pb_error err;
	bool oom;

	(void)state;
	arm(0);
	assert_int_equal(audit_problem(problems, "T1", 0, 0, "before the part"), 0);
	/* completed */
	check_part_begin(&part, problems);
	assert_int_equal(audit_problem(problems, "T1", 0, 0, "found"), 0);
	assert_int_equal(check_part_end(&part, 0, &err), 0);
	assert_int_equal(json_array_size(problems), 2);
	/* out of memory: what it found is taken back */
	check_part_begin(&part, problems);
	assert_int_equal(audit_problem(problems, "T1", 0, 0, "maybe misread"), 0);
	assert_int_equal(check_part_end(&part, pb_oom(&err), &err), -1);
	assert_true(pb_is_oom(&err));
	assert_int_equal(json_array_size(problems), 2);
	/* a read error keeps what was read before it */
	check_part_begin(&part, problems);
	assert_int_equal(audit_problem(problems, "T1", 0, 0, "read before the error"), 0);
	pb_fail(&err, 500, "storage_error", "disk I/O error");
	assert_int_equal(check_part_end(&part, -1, &err), -1);
	assert_string_equal(err.code, "storage_error");
	assert_int_equal(json_array_size(problems), 3);
	/* returned 0, but jansson failed an allocation meanwhile: out of memory all the same */
	check_part_begin(&part, problems);
	assert_int_equal(audit_problem(problems, "T1", 0, 0, "found on a misread"), 0);
	arm(1);
	json_decref(json_parse_checked("{\"x\":1}", &oom));
	assert_true(oom);
	arm(0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(check_part_end(&part, 0, &err), -1);
	assert_true(pb_is_oom(&err));
	assert_int_equal(json_array_size(problems), 3);
	json_decref(problems);
}

/* Maps a control file of this process's own, as PITBOSS_TEST_FAULTS would name it. */
static int
setup(void)
{
	char path[] = "/tmp/pb-test-faults-XXXXXX";
	struct pb_error err;
	int fd = mkstemp(path);

	if (!pb_faults_built()) {
		fprintf(stderr, "test_fail_closed: this build cannot make allocations fail: configure with "
		    "-DPITBOSS_TEST_CLOCK=ON (the tests' build)\n");
		return -1;
	}
	if (fd < 0 || ftruncate(fd, 32) < 0)
		return -1;
	ctl = mmap(NULL, 32, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (ctl == MAP_FAILED || pb_faults_open(path, true, &err) < 0) {
		fprintf(stderr, "test_fail_closed: %s\n", ctl == MAP_FAILED ? "cannot map the control file" : err.message);
		unlink(path);
		return -1;
	}
	unlink(path);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pb_oom),
		cmocka_unit_test(test_parse_every_allocation_failing),
		cmocka_unit_test(test_parse_not_json),
		cmocka_unit_test(test_canonical_why),
		cmocka_unit_test(test_problem_not_recorded),
		cmocka_unit_test(test_problem_sink),
		cmocka_unit_test(test_check_part),
	};

	if (setup() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
