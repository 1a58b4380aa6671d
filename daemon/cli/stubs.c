/* Subcommands not written yet: each answers that it is not available.
 * Remove a stub here when its real file lands. */
#include <stdio.h>

#include "cli/commands.h"

static int
not_yet(const char *name)
{
	fprintf(stderr, "pitboss %s: not available in this build yet\n", name);
	return 2;
}

int cmd_analyze(int argc, char **argv) { (void)argc; (void)argv; return not_yet("analyze"); }
int cmd_simulate(int argc, char **argv) { (void)argc; (void)argv; return not_yet("simulate"); }
int cmd_verify(int argc, char **argv) { (void)argc; (void)argv; return not_yet("verify"); }
int cmd_replay(int argc, char **argv) { (void)argc; (void)argv; return not_yet("replay"); }
int cmd_token(int argc, char **argv) { (void)argc; (void)argv; return not_yet("token"); }
int cmd_backup(int argc, char **argv) { (void)argc; (void)argv; return not_yet("backup"); }
