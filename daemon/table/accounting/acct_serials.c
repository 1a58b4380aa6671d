/*
 * acct_serials.c - serial control (accounting.h, docs/accounting.md
 * "Serial control"): the fill and credit slips of a year against their
 * pre-numbered series (accounting.serials), and what is wrong with them: a
 * serial outside its series, a number used twice, numbers missing between
 * two used ones.  A voided slip is accounted for: its number was used, and
 * a use that was voided is no second use.
 */
#include "table/accounting/acct_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

/* One slip of the year as the walk needs it (a whole document is far larger than this). */
struct slip {
	int64_t id;
	enum serial_kind kind;
	char serial[PB_ID_MAX];
	char table_id[PB_ID_MAX];
	char at[PB_TIME_LEN];
	bool voided;
	bool in_series;
	int64_t number;           /* in_series: the digits' value */
};

/* The year's slips, in the order recorded. */
struct slips {
	struct slip *v;
	size_t n, cap;
};

const char *
acct_serial_kind_name(enum serial_kind k)
{
	return k == SERIAL_CREDIT ? "credit" : "fill";
}

int
acct_serial_kind_of(const char *name)
{
	return strcmp(name, "fill") == 0 ? SERIAL_FILL : strcmp(name, "credit") == 0 ? SERIAL_CREDIT : -1;
}

bool
acct_serial_in_series(const struct serial_series *s, const char *serial, int64_t *number)
{
	size_t plen = strlen(s->prefix);
	const char *d = serial + plen;
	int64_t n = 0;

	if (!s->configured || strncmp(serial, s->prefix, plen) != 0 || strlen(d) != (size_t)s->digits)
		return false;
	for (; *d != '\0'; d++) {
		if (*d < '0' || *d > '9')
			return false;
		n = n * 10 + (*d - '0');      /* at most 18 digits: no overflow */
	}
	*number = n;
	return true;
}

void
acct_serial_format(const struct serial_series *s, int64_t number, char out[PB_ID_MAX])
{
	snprintf(out, PB_ID_MAX, "%s%0*lld", s->prefix, s->digits, (long long)number);
}

/* The slip of this id, or NULL (ids ascend in the order recorded). */
static struct slip *
slip_of(struct slips *all, int64_t id)
{
	size_t lo = 0, hi = all->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (all->v[mid].id == id)
			return &all->v[mid];
		if (all->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* One document of the year into the list: a slip, or a void marking its slip (acct_document_fn). */
static int
add_slip(void *ctx, const struct acct_document *d, struct pb_error *err)
{
	struct slips *all = ctx;
	struct slip *s;

	if (d->voids != 0) {
		if ((s = slip_of(all, d->voids)) != NULL)
			s->voided = true;
		return 0;
	}
	if (all->n == all->cap) {
		size_t cap = all->cap ? all->cap * 2 : 64;
		struct slip *v = realloc(all->v, cap * sizeof(*v));
		if (v == NULL)
			return pb_oom(err);
		all->v = v;
		all->cap = cap;
	}
	s = &all->v[all->n++];
	memset(s, 0, sizeof(*s));
	s->id = d->id;
	s->kind = strcmp(d->kind, "credit") == 0 ? SERIAL_CREDIT : SERIAL_FILL;
	snprintf(s->serial, sizeof(s->serial), "%s", d->serial);
	snprintf(s->table_id, sizeof(s->table_id), "%s", d->table_id);
	snprintf(s->at, sizeof(s->at), "%s", d->at);
	return 0;
}

/* Two kinds in one series: the same prefix and digits (one book of slips used for both). */
static bool
same_series(const struct serial_series *a, const struct serial_series *b)
{
	return a->configured && b->configured && a->digits == b->digits && strcmp(a->prefix, b->prefix) == 0;
}

/* In-series slips by number, then in the order recorded. */
static int
cmp_number(const void *x, const void *y)
{
	const struct slip *a = *(const struct slip *const *)x, *b = *(const struct slip *const *)y;

	if (a->number != b->number)
		return a->number < b->number ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

/* The problem x shown by slip s, handed to fn. */
static int
emit(const struct slip *s, struct acct_serial_problem *x, acct_serial_problem_fn fn, void *ctx, struct pb_error *err)
{
	snprintf(x->kind, sizeof(x->kind), "%s", acct_serial_kind_name(s->kind));
	snprintf(x->table_id, sizeof(x->table_id), "%s", s->table_id);
	snprintf(x->at, sizeof(x->at), "%s", s->at);
	x->document = s->id;
	return fn(ctx, x, err);
}

/*
 * The duplicates and gaps of one series, its in-series slips sorted by
 * number in v[0 .. n): a number used by two slips not voided is a
 * duplicate, shown by its latest use; numbers missing between two used
 * ones (voided or not) are one gap, shown by the first slip after it.
 */
static int
series_problems(const struct serial_series *series, int64_t year, struct slip **v, size_t n, acct_serial_problem_fn fn,
    void *ctx, struct pb_error *err)
{
	struct acct_serial_problem x;
	size_t i = 0, j;
	int rc;

	while (i < n) {
		const struct slip *latest = NULL;
		int64_t uses = 0;
		for (j = i; j < n && v[j]->number == v[i]->number; j++)
			if (!v[j]->voided) {
				uses++;
				latest = v[j];
			}
		memset(&x, 0, sizeof(x));
		x.year = year;
		if (uses > 1) {
			x.problem = "duplicate";
			x.count = uses;
			snprintf(x.serial, sizeof(x.serial), "%s", latest->serial);
			if ((rc = emit(latest, &x, fn, ctx, err)) != 0)
				return rc;
		}
		if (i > 0 && v[i]->number - v[i - 1]->number > 1) {
			memset(&x, 0, sizeof(x));
			x.year = year;
			x.problem = "gap";
			x.count = v[i]->number - v[i - 1]->number - 1;
			acct_serial_format(series, v[i - 1]->number + 1, x.serial);
			acct_serial_format(series, v[i]->number - 1, x.last);
			snprintf(x.before, sizeof(x.before), "%s", v[i - 1]->serial);
			snprintf(x.after, sizeof(x.after), "%s", v[i]->serial);
			if ((rc = emit(v[i], &x, fn, ctx, err)) != 0)
				return rc;
		}
		i = j;
	}
	return 0;
}

/* Every problem of the year's slips in all (out of series first, then each series'), handed to fn. */
static int
walk_problems(const struct config *cfg, int64_t year, struct slips *all, acct_serial_problem_fn fn, void *ctx,
    struct pb_error *err)
{
	const struct serial_series *series = cfg->accounting.serials;
	struct slip **v = calloc(all->n + 1, sizeof(*v));
	struct acct_serial_problem x;
	int rc = 0;

	if (v == NULL)
		return pb_oom(err);
	for (size_t i = 0; rc == 0 && i < all->n; i++) {
		struct slip *s = &all->v[i];
		s->in_series = acct_serial_in_series(&series[s->kind], s->serial, &s->number);
		if (!series[s->kind].configured || s->in_series || s->voided)
			continue;
		memset(&x, 0, sizeof(x));
		x.year = year;
		x.problem = "out_of_series";
		x.count = 1;
		snprintf(x.serial, sizeof(x.serial), "%s", s->serial);
		rc = emit(s, &x, fn, ctx, err);
	}
	for (int k = 0; rc == 0 && k < SERIAL_KINDS; k++) {
		size_t n = 0;
		if (!series[k].configured || (k == SERIAL_CREDIT && same_series(&series[SERIAL_FILL], &series[k])))
			continue;     /* a credit series that is the fills' was walked with them */
		for (size_t i = 0; i < all->n; i++)
			if (all->v[i].in_series && (all->v[i].kind == (enum serial_kind)k ||
			    same_series(&series[all->v[i].kind], &series[k])))
				v[n++] = &all->v[i];
		qsort(v, n, sizeof(*v), cmp_number);
		rc = series_problems(&series[k], year, v, n, fn, ctx, err);
	}
	free(v);
	return rc;
}

int
acct_serial_problems(struct pit *p, int64_t year, acct_serial_problem_fn fn, void *ctx, struct pb_error *err)
{
	struct slips all = {0};
	int rc;

	if (!p->cfg->accounting.serials[SERIAL_FILL].configured && !p->cfg->accounting.serials[SERIAL_CREDIT].configured)
		return 0;
	rc = store_acct_year_slips(p->store, year, add_slip, &all, err);
	if (rc == 0)
		rc = walk_problems(p->cfg, year, &all, fn, ctx, err);
	free(all.v);
	return rc;
}
