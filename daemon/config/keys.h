/*
 * keys.h - configuration as key tables: the generic reader.
 *
 * A section of the configuration (the top level, "checkpoint", a table
 * entry, a token ...) is described by a static table of keys, each with its
 * type, bounds, default, where its value goes (offsetof in a destination
 * struct), whether SIGHUP may change it and a one-line description.  One
 * reader walks a JSON object against such a table; one message shape
 * reports every problem, with its place:
 *
 *     PATH: must TEXT           a value of the wrong type or out of bounds
 *     PATH.KEY: REQUIRED        a required key that is missing
 *     PATH.KEY: unknown key; NOUN has KEY, KEY, ...
 *
 * The tables themselves live beside what they describe: config/settings.c
 * (the daemon's own settings) and config/entries.c (games, tables, tokens).
 */
#ifndef PB_CONFIG_KEYS_H
#define PB_CONFIG_KEYS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* What a key holds, and so how it is checked and where it is stored. */
enum cfg_type {
	CFG_INT,      /* an integer in [min, max], into an int, unsigned, int64_t or size_t (by size) */
	CFG_BOOL,     /* true or false, into a bool */
	CFG_REAL,     /* a number in [real_min, real_max] ((real_min, ...] with min_open), into a double */
	CFG_TEXT,     /* a string of at most size - 1 bytes, into char[size] */
	CFG_ID,       /* an id (pb_valid_id), into char[size] */
	CFG_PATH,     /* a string of at least min bytes, taken from the file's directory, into char[size] */
	CFG_WORD,     /* one of choices, the word itself into char[size] */
	CFG_CHOICE,   /* one of choices, its index into an int-sized enum or a bool (by size) */
	CFG_SECTION,  /* an object read against the key's own section, into the field at offset */
	CFG_CUSTOM,   /* read by the key's own function */
	CFG_LATER,    /* accepted here, read by the section's check (it depends on other keys) */
};

struct cfg_key;
struct cfg_section;

/* Where a value is being read: passed to custom readers and to a section's check. */
struct cfg_at {
	const char *dir;        /* the configuration file's directory: relative paths start here */
	void *owner;            /* the whole being built (a struct config), for lookups */
	void *dst;              /* the struct the section's offsets point into */
	const json_t *object;   /* the section's JSON object */
	const char *path;       /* the section's place: "", "checkpoint", "tables[1]" */
	uint64_t seen;          /* bit i: the section's key i was present */
};

/*
 * Reads v for key k into at->dst (path is the key's place).  Returns 0 when
 * read, 1 to refuse it with the key's `must` text, -1 with err filled.
 */
typedef int cfg_read_fn(const struct cfg_key *k, const json_t *v, const struct cfg_at *at, const char *path,
    struct pb_error *err);

/* Checks a section once its keys are read (rules across keys); 0 or -1 with err filled. */
typedef int cfg_check_fn(const struct cfg_at *at, struct pb_error *err);

struct cfg_key {
	const char *name;
	enum cfg_type type;
	long long min, max;            /* CFG_INT: bounds; CFG_PATH: min is the least length */
	double real_min, real_max;     /* CFG_REAL: bounds */
	bool min_open;                 /* CFG_REAL: real_min itself is refused */
	size_t offset, size;           /* the field in the destination: offsetof and sizeof */
	const char *const *choices;    /* CFG_WORD, CFG_CHOICE: NULL-terminated */
	const char *def;               /* the default as JSON text, read like a value; NULL: none */
	const char *must;              /* refusal: "PATH: must MUST"; NULL: derived from the type */
	const char *required;          /* non-NULL: required; "PATH.KEY: REQUIRED" when missing */
	const struct cfg_section *section;  /* CFG_SECTION */
	cfg_read_fn *read;             /* CFG_CUSTOM */
	bool reload;                   /* SIGHUP changes it (else it takes effect at start only) */
	const char *describe;          /* one line, for people */
};

struct cfg_section {
	const char *name;              /* for people and the docs check: "checkpoint", "a table" */
	const struct cfg_key *keys;
	size_t count;
	const char *must;              /* refusal of a value that is not an object: "PATH: must MUST" */
	const char *noun;              /* "PATH: unknown key; NOUN has ..."; NULL: see docs (the top level) */
	const char *required;          /* non-NULL: one message for any missing required key: "PATH: REQUIRED" */
	bool strict;                   /* any problem inside is refused with the section's `must` */
	cfg_check_fn *check;           /* run after the keys; NULL: none */
};

#define CFG_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A field of struct type T, for a key's offset and size. */
#define CFG_FIELD(T, f) .offset = offsetof(T, f), .size = sizeof(((T *)0)->f)

/*
 * Reads obj against section s into dst: the defaults first, then each key of
 * obj in its order, then the required keys and the section's check.  path is
 * the section's place ("" for the top level).  0, or -1 with err filled
 * (400 invalid_config unless a reader says otherwise).
 */
int cfg_read_section(const struct cfg_section *s, const json_t *obj, const char *path, const char *dir, void *owner,
    void *dst, struct pb_error *err);

/* The key named name in s, or NULL. */
const struct cfg_key *cfg_find_key(const struct cfg_section *s, const char *name);

/* Fails with "PATH: must MUST" for key k (its must text, or the one its type implies). */
int cfg_refuse(const struct cfg_key *k, const char *path, struct pb_error *err);

/* Joins dir and a relative path (an absolute path is kept as it is). */
void cfg_resolve_path(const char *dir, const char *p, char *out, size_t outsz);

/* The place of a key in a section: "KEY" at the top level, else "PATH.KEY". */
void cfg_key_path(const char *path, const char *key, char *out, size_t outsz);

#endif
