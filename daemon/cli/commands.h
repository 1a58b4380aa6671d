/*
 * commands.h - the subcommands of the `pitboss` command-line tool.
 * Each takes the arguments after its name (argv[0] is the subcommand name)
 * and returns the process exit status.
 */
#ifndef PB_CLI_COMMANDS_H
#define PB_CLI_COMMANDS_H

#include <stdbool.h>
#include <stdint.h>

struct store;

int cmd_analyze(int argc, char **argv);   /* cli/analyze.c */
int cmd_simulate(int argc, char **argv);  /* cli/simulate.c */
int cmd_verify(int argc, char **argv);    /* cli/verify.c */
int cmd_replay(int argc, char **argv);    /* cli/replay.c */
int cmd_token(int argc, char **argv);     /* cli/token.c */
int cmd_backup(int argc, char **argv);    /* cli/backup.c */
int cmd_person(int argc, char **argv);    /* cli/person.c */
int cmd_central(int argc, char **argv);   /* cli/central.c */
int cmd_event_types(int argc, char **argv);   /* cli/event_types.c */
int cmd_routes(int argc, char **argv);    /* cli/routes.c */

/*
 * cli/database.c: the database of an offline command; NULL after saying
 * why.  Read-only: never created, migrated or written (an older schema is
 * read through a private migrated copy, or with as_is opened as it is).
 */
struct store *cli_open_database(const char *cmd, const char *path, bool read_only);
struct store *cli_open(const char *cmd, const char *path, bool read_only, bool as_is);

/* When an argument before "--" is -h or --help: prints text on stdout and returns true (the command exits 0). */
bool cli_help(int argc, char **argv, const char *text);

/*
 * cli/database.c: a round id given to command cmd as what (an option or an
 * argument): decimal digits only, at least 1, no sign, space or suffix
 * ("abc", "-1", "1x" and "" are refused).  false after saying on stderr
 * what was expected: the command then exits 2, as for any usage error.
 */
bool cli_round_id(const char *cmd, const char *what, const char *text, int64_t *out);

/* The next long option of a command that takes long options only (getopt_long); -1 at the end. */
struct option;
int cli_option(int argc, char **argv, const struct option *options);

#endif
