/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-exporter's log: one line per message on standard error, in the
 * logfmt form of the Prometheus exporters (ts=... level=... msg="..."),
 * filtered by --log.level. Any thread may log; a line is written whole.
 */
#ifndef FMX_EXPO_LOG_H
#define FMX_EXPO_LOG_H

enum fme_level { FME_DEBUG, FME_INFO, FME_WARN, FME_ERROR };

/** Set the threshold from its name (debug, info, warn, error): 0 or -1. */
int fme_log_level(const char *name);

void fme_log(enum fme_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
