/* Placeholder until the real `pitboss simulate` lands: delete this file then. */
#include <stdio.h>

#include "cli/commands.h"

int
cmd_simulate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "pitboss simulate: not available in this build yet\n");
	return 2;
}
