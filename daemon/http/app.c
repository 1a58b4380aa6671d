#include "http/app.h"

#include "common/timeutil.h"
#include "http/report_cache.h"
#include "table/ops/ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
free_thread_store(void *p)
{
	pit_disconnect(p);
}

int
app_init(struct app *app, struct config *cfg, struct pb_error *err)
{
	memset(app, 0, sizeof(*app));
	if (pthread_rwlock_init(&app->lock, NULL) != 0 || pthread_mutex_init(&app->refusal_lock, NULL) != 0 || pthread_key_create(&app->store_key, free_thread_store) != 0)
		return pb_fail(err, 500, "internal_error", "cannot create locks");
	app->cfg = cfg;
	snprintf(app->database, sizeof(app->database), "%s", cfg->database);
	snprintf(app->synchronous, sizeof(app->synchronous), "%s", cfg->synchronous);
	app->started_ms = pb_time_now_ms();
	return 0;
}

void
app_free(struct app *app)
{
	struct store *s = pthread_getspecific(app->store_key);

	if (s != NULL) {
		pit_disconnect(s);
		pthread_setspecific(app->store_key, NULL);
	}
	pthread_key_delete(app->store_key);
	/* Pool threads free their report caches as they exit; this thread never exits that way. */
	report_cache_thread_release();
	pthread_rwlock_destroy(&app->lock);
	pthread_mutex_destroy(&app->refusal_lock);
	config_free(app->cfg);
	app->cfg = NULL;
}

struct store *
app_thread_store(struct app *app, struct pb_error *err)
{
	struct store *s = pthread_getspecific(app->store_key);

	if (s != NULL)
		return s;
	s = pit_connect(app->database, app->synchronous, err);
	if (s != NULL)
		pthread_setspecific(app->store_key, s);
	return s;
}
