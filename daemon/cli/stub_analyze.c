/* Placeholder until the real `pitboss analyze` lands: delete this file then. */
#include <stdio.h>

#include "cli/commands.h"

int
cmd_analyze(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "pitboss analyze: not available in this build yet\n");
	return 2;
}
