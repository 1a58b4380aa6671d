/*
 * acct_signatures.c - who signs each accounting document (acct_private.h),
 * by the policy accounting.signatures (docs/accounting.md, "Who signs"):
 *
 *   "nj" (N.J.A.C. 13:69D-1.21, 1.33, 1.34; Nevada MICS; NIGC 25 CFR 543.10)
 *     opener, closer, shift change   the dealer and a floor supervisor or pit boss,
 *                                    one as the session, the other as witness
 *     fill, credit                   the cage's session, a floor supervisor or
 *                                    pit boss and the runner (security)
 *     their receipts at the table    as an opener
 *   "basic" (the rules before): the session and one witness of the
 *     document's roles (accounting.h), a slip counted as soon as issued.
 *
 * The voids and the drop are signed alike under both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "table/accounting/acct_private.h"
#include "table/people/people.h"

#define FLOOR_ROLES (ROLE_BIT(ROLE_FLOOR) | ROLE_BIT(ROLE_PITBOSS))

static bool
kind_in(const char *kind, const char *const *kinds)
{
	for (; *kinds != NULL; kinds++)
		if (strcmp(kind, *kinds) == 0)
			return true;
	return false;
}

/* The documents the dealer and the floor sign together, and the slips. */
static const char *const TABLE_PAIR[] = {"opener", "closer", "shift_change", "fill_receipt", "credit_receipt", NULL};
static const char *const SLIPS[] = {"fill", "credit", NULL};

/* The one witness a table document needs beside a's session: the other of the dealer and the floor. */
static struct witness_need
pair_need(const struct actor *a)
{
	bool dealer = (a->roles & ROLE_BIT(ROLE_DEALER)) != 0, floor = (a->roles & FLOOR_ROLES) != 0;

	if (dealer && floor)
		return (struct witness_need){ROLE_BIT(ROLE_DEALER) | FLOOR_ROLES, "the dealer, a floor supervisor or a pit boss"};
	if (dealer)
		return (struct witness_need){FLOOR_ROLES, "a floor supervisor or pit boss"};
	return (struct witness_need){ROLE_BIT(ROLE_DEALER), "the dealer"};
}

/* The runner of an "nj" slip is its security witness, not a dealer; the body's "runner", when given, names him. */
static int
check_runner(const json_t *body, const struct witness_signed *runner, struct pb_error *err)
{
	const char *given = json_string_value(json_object_get(body, "runner"));

	if (runner->roles & ROLE_BIT(ROLE_DEALER))
		return pb_fail(err, 422, "invalid_runner", "runner: %s is a dealer; the runner who carries a slip is security, "
		    "neither the table's dealer nor the cashier", runner->id);
	if (given != NULL && strcasecmp(given, runner->id) != 0)
		return pb_fail(err, 422, "invalid_runner", "runner: \"%s\" did not sign; the runner is the security witness who "
		    "signs (%s): give that id or leave \"runner\" out", given, runner->id);
	return 0;
}

/* The ids signed, in the needs' order, as compact JSON into out->witnesses. */
static int
witnesses_json(const struct witness_signed *signed_by, int n, struct acct_signed *out, struct pb_error *err)
{
	json_t *ids = json_array();
	char *text;
	int rc = 0;

	for (int i = 0; ids != NULL && i < n; i++)
		if (json_array_append_new(ids, json_string(signed_by[i].id)) < 0) {
			json_decref(ids);
			ids = NULL;
		}
	if (ids == NULL || (text = json_dumps(ids, JSON_COMPACT)) == NULL) {
		json_decref(ids);
		return pb_oom(err);
	}
	if (strlen(text) >= sizeof(out->witnesses))
		rc = pb_fail(err, 500, "internal_error", "the witnesses' ids are longer than a document holds");
	else
		snprintf(out->witnesses, sizeof(out->witnesses), "%s", text);
	free(text);
	json_decref(ids);
	return rc;
}

int
acct_sign(struct pit *p, const struct actor *a, const char *kind, const json_t *body, unsigned basic_roles,
    const char *what, struct acct_signed *out, struct pb_error *err)
{
	bool nj = p->cfg->accounting.signatures == ACCT_SIGNATURES_NJ;
	bool pair = kind_in(kind, TABLE_PAIR), slip = kind_in(kind, SLIPS);
	struct witness_need needs[2] = {{basic_roles, NULL}};
	struct witness_signed signed_by[2];
	unsigned eligible = 0;
	int n = 1;

	memset(out, 0, sizeof(*out));
	if (pair && !nj && strstr(kind, "_receipt") == NULL && (a->roles & FLOOR_ROLES) == 0)
		return pb_fail(err, 403, "forbidden", "%s is signed by a floor supervisor or pit boss (accounting.signatures "
		    "\"basic\")", what);
	if (pair && (nj || strstr(kind, "_receipt") != NULL)) {
		needs[0] = pair_need(a);
		eligible = ROLE_BIT(ROLE_DEALER) | FLOOR_ROLES;   /* two floor supervisors: "needs the dealer", no guess */
	} else if (slip && nj) {
		needs[0] = (struct witness_need){FLOOR_ROLES, "a floor supervisor or pit boss"};
		needs[1] = (struct witness_need){ROLE_BIT(ROLE_SECURITY), "the runner (security)"};
		n = 2;
	}
	if (pit_witnesses_check(p, a, body, needs, n, eligible, what, signed_by, err) < 0)
		return -1;
	if (slip && nj) {
		if (check_runner(body, &signed_by[1], err) < 0)
			return -1;
		snprintf(out->runner, sizeof(out->runner), "%s", signed_by[1].id);
	}
	snprintf(out->witness, sizeof(out->witness), "%s", signed_by[0].id);
	return witnesses_json(signed_by, n, out, err);
}

const char *
acct_slip_status(const struct config *cfg, const struct acct_document *d)
{
	if (!kind_in(d->kind, SLIPS))
		return NULL;
	return cfg->accounting.signatures == ACCT_SIGNATURES_NJ ? "pending" : "issued";
}
