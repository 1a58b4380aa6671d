#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int
pb_fail(struct pb_error *err, int status, const char *code, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return -1;
	err->status = status;
	err->guess = false;
	snprintf(err->code, sizeof(err->code), "%s", code);
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return -1;
}

int
pb_oom(struct pb_error *err)
{
	return pb_fail(err, 500, "out_of_memory", "out of memory");
}

bool
pb_is_oom(const struct pb_error *err)
{
	return err != NULL && strcmp(err->code, "out_of_memory") == 0;
}

void
pb_error_clear(struct pb_error *err)
{
	if (err != NULL)
		memset(err, 0, sizeof(*err));
}
