/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How fastmib-stat reports a failed call of the reader library, one line
 * on stderr naming the segment: the same for the entry point and every
 * mode, so it lives below all of them.
 */
#include <string.h>

#include "stat.h"

/* "fastmib-stat: PATH: message", without repeating a path the message has. */
void
fst_report_error(const char *path, const char *what)
{
	const char *msg = fastmib_last_error();

	fprintf(stderr, "fastmib-stat: ");
	if (msg == NULL || strstr(msg, path) == NULL)
		fprintf(stderr, "%s: ", path);
	if (what != NULL)
		fprintf(stderr, "%s: ", what);
	fprintf(stderr, "%s\n", msg ? msg : "unknown error");
}
