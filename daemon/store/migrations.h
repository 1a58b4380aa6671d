/*
 * migrations.h - the schema migrations compiled into the binary from
 * schema/NNN_name.sql (see cmake/embed_schema.cmake).
 */
#ifndef PB_STORE_MIGRATIONS_H
#define PB_STORE_MIGRATIONS_H

struct migration {
	int version;        /* NNN of the file name; applied in order */
	const char *name;   /* the file name without .sql */
	const char *sql;
};

/* Terminated by an entry with version 0. */
extern const struct migration pb_migrations[];

#endif
