/* Placeholder until the real `pitboss token` lands: delete this file then. */
#include <stdio.h>

#include "cli/commands.h"

int
cmd_token(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "pitboss token: not available in this build yet\n");
	return 2;
}
