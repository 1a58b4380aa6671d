/*
 * checkpointer.c - WAL checkpoints on a thread of their own (checkpointer.h).
 */
#include "store/checkpointer.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "common/log.h"
#include "common/priority.h"
#include "store/sql.h"

struct store_checkpointer {
	sqlite3 *writer_db;        /* the write connection whose WAL hook wakes us */
	sqlite3 *db;               /* our own connection: the checkpoints run on it */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;       /* wanted or stop */
	bool wanted;
	bool stop;
};

/*
 * The write connection's WAL hook, called after each commit with the WAL's
 * pages: wakes the checkpointer past CHECKPOINTER_PAGES, checkpoints here
 * past CHECKPOINTER_PAGES_MAX (the checkpointer got no time to do it).
 */
static int
wal_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
	struct store_checkpointer *c = arg;

	if (pages >= CHECKPOINTER_PAGES_MAX) {
		sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	} else if (pages >= CHECKPOINTER_PAGES) {
		pthread_mutex_lock(&c->lock);
		c->wanted = true;
		pthread_cond_signal(&c->cond);
		pthread_mutex_unlock(&c->lock);
	}
	return SQLITE_OK;
}

/* The thread: a passive checkpoint (it never waits for readers or the writer) each time it is woken. */
static void *
checkpointer_main(void *arg)
{
	struct store_checkpointer *c = arg;

	if (pb_lower_thread_priority(CHECKPOINTER_NICE) < 0)
		log_warn("WAL checkpointer: cannot lower its priority; it runs at the daemon's");
	pthread_mutex_lock(&c->lock);
	for (;;) {
		int rc;

		while (!c->wanted && !c->stop)
			pthread_cond_wait(&c->cond, &c->lock);
		if (c->stop)
			break;
		c->wanted = false;
		pthread_mutex_unlock(&c->lock);
		/* Its pager in WAL mode first: otherwise the checkpoint finds no WAL and does nothing (SQLite 3.40). */
		rc = sqlite3_exec(c->db, store_sql_text(STMT_JOURNAL_WAL), NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_wal_checkpoint_v2(c->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		if (rc != SQLITE_OK && rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
			log_warn("WAL checkpoint: %s (the next commit past %d pages tries again)", sqlite3_errmsg(c->db),
			    CHECKPOINTER_PAGES);
		pthread_mutex_lock(&c->lock);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

struct store_checkpointer *
store_checkpointer_start(sqlite3 *writer_db, const char *path, struct pb_error *err)
{
	struct store_checkpointer *c = calloc(1, sizeof(*c));

	if (c == NULL) {
		pb_oom(err);
		return NULL;
	}
	c->writer_db = writer_db;
	if (sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		pb_fail(err, 500, "storage_error", "cannot open %s for the WAL checkpointer: %s", path,
		    c->db ? sqlite3_errmsg(c->db) : "out of memory");
		goto fail_db;
	}
	if (pthread_mutex_init(&c->lock, NULL) != 0)
		goto fail_lock;
	if (pthread_cond_init(&c->cond, NULL) != 0)
		goto fail_cond;
	if (pthread_create(&c->thread, NULL, checkpointer_main, c) != 0)
		goto fail_thread;
	sqlite3_wal_hook(writer_db, wal_hook, c);
	return c;
fail_thread:
	pthread_cond_destroy(&c->cond);
fail_cond:
	pthread_mutex_destroy(&c->lock);
fail_lock:
	pb_fail(err, 500, "internal_error", "cannot start the WAL checkpointer's thread");
fail_db:
	sqlite3_close(c->db);
	free(c);
	return NULL;
}

void
store_checkpointer_stop(struct store_checkpointer *c)
{
	if (c == NULL)
		return;
	sqlite3_wal_autocheckpoint(c->writer_db, CHECKPOINTER_PAGES);
	pthread_mutex_lock(&c->lock);
	c->stop = true;
	pthread_cond_signal(&c->cond);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
	sqlite3_close(c->db);
	free(c);
}
