/* Placeholder until the real `pitboss replay` lands: delete this file then. */
#include <stdio.h>

#include "cli/commands.h"

int
cmd_replay(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "pitboss replay: not available in this build yet\n");
	return 2;
}
