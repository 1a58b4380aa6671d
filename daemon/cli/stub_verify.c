/* Placeholder until the real `pitboss verify` lands: delete this file then. */
#include <stdio.h>

#include "cli/commands.h"

int
cmd_verify(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "pitboss verify: not available in this build yet\n");
	return 2;
}
