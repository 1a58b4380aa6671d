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

void
pb_error_clear(struct pb_error *err)
{
	if (err != NULL)
		memset(err, 0, sizeof(*err));
}
