/*
 * backup_schedule.c - the daemon's scheduled backups (ops.h).
 */
#include "table/ops/ops_private.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "config/config.h"
#include "store/store.h"

struct backup_schedule {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;
	char database[4096];
	char backup_dir[4096];
	int64_t keep;
	unsigned every_seconds;
	const struct signer *signer;
	struct store_writer *writer;
};

/* Waits one interval, or less when stopped; true when the schedule is to stop. */
static bool
wait_interval(struct backup_schedule *b)
{
	struct timespec until;
	bool stop;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += b->every_seconds;
	pthread_mutex_lock(&b->lock);
	while (!b->stop && pthread_cond_timedwait(&b->wake, &b->lock, &until) != ETIMEDOUT)
		;
	stop = b->stop;
	pthread_mutex_unlock(&b->lock);
	return stop;
}

/* One copy, as POST /api/v1/backups makes it, under the daemon's own name. */
static void
backup_once(struct backup_schedule *b, struct store *s)
{
	struct actor a = {.name = "pitbossd-schedule", .roles = ROLE_BIT(ROLE_ADMIN), .token = NULL};
	struct pit p = {.store = s, .signer = b->signer, .writer = b->writer};
	struct pb_error err;
	json_t *out = NULL;

	if (backup_into_dir(&p, &a, b->backup_dir, b->keep, &out, &err) < 0) {
		log_error("scheduled backup into %s failed: %s", b->backup_dir, err.message);
		return;
	}
	log_info("scheduled backup: %s", json_string_value(json_object_get(out, "path")));
	json_decref(out);
}

static void *
schedule_main(void *arg)
{
	struct backup_schedule *b = arg;
	struct store_options so = {.path = b->database, .read_only = true, .as_is = true};
	struct pb_error err;
	struct store *s = NULL;

	while (!wait_interval(b)) {
		if (s == NULL && (s = store_open(&so, &err)) == NULL) {
			log_error("scheduled backup: cannot open %s: %s", b->database, err.message);
			continue;
		}
		backup_once(b, s);
	}
	store_free(s);
	return NULL;
}

int
backup_schedule_start(const struct backup_schedule_options *o, struct backup_schedule **out, struct pb_error *err)
{
	struct backup_schedule *b;

	*out = NULL;
	if (o->every_seconds == 0)
		return 0;
	b = calloc(1, sizeof(*b));
	if (b == NULL)
		return pb_oom(err);
	snprintf(b->database, sizeof(b->database), "%s", o->database);
	snprintf(b->backup_dir, sizeof(b->backup_dir), "%s", o->backup_dir);
	b->keep = o->keep;
	b->every_seconds = o->every_seconds;
	b->signer = o->signer;
	b->writer = o->writer;
	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->wake, NULL);
	if (pthread_create(&b->thread, NULL, schedule_main, b) != 0) {
		pthread_cond_destroy(&b->wake);
		pthread_mutex_destroy(&b->lock);
		free(b);
		return pb_fail(err, 500, "internal_error", "cannot start the backup schedule's thread");
	}
	log_info("backups every %u s into %s, keeping %lld", b->every_seconds, b->backup_dir, (long long)b->keep);
	*out = b;
	return 0;
}

void
backup_schedule_free(struct backup_schedule *b)
{
	if (b == NULL)
		return;
	pthread_mutex_lock(&b->lock);
	b->stop = true;
	pthread_cond_signal(&b->wake);
	pthread_mutex_unlock(&b->lock);
	pthread_join(b->thread, NULL);
	pthread_cond_destroy(&b->wake);
	pthread_mutex_destroy(&b->lock);
	free(b);
}
