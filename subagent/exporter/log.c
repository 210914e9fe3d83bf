/* SPDX-License-Identifier: BSD-3-Clause */
/* fastmib-exporter's log (log.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "log.h"

static const char *const names[] = { "debug", "info", "warn", "error" };
static enum fme_level threshold = FME_INFO;

int
fme_log_level(const char *name)
{
	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			threshold = (enum fme_level)i;
			return 0;
		}
	return -1;
}

void
fme_log(enum fme_level level, const char *fmt, ...)
{
	char msg[1024], line[2300], ts[40];
	struct timespec now;
	struct tm tm;
	size_t n = 0;
	va_list ap;

	if (level < threshold)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	clock_gettime(CLOCK_REALTIME, &now);
	gmtime_r(&now.tv_sec, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", &tm);
	n = (size_t)snprintf(line, sizeof(line), "ts=%s.%03ldZ level=%s msg=\"", ts,
			     now.tv_nsec / 1000000, names[level]);
	/* logfmt: the message quoted, its quotes and backslashes escaped */
	for (const char *p = msg; *p && n + 4 < sizeof(line); p++) {
		if (*p == '"' || *p == '\\')
			line[n++] = '\\';
		line[n++] = *p == '\n' ? ' ' : *p;
	}
	line[n++] = '"';
	line[n++] = '\n';
	fwrite(line, 1, n, stderr); /* one call: a line is never split */
}
