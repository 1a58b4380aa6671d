/* Placeholder until the real `pitboss backup` lands: delete this file then. */
#include <stdio.h>

#include "cli/commands.h"

int
cmd_backup(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "pitboss backup: not available in this build yet\n");
	return 2;
}
