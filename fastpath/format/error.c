/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdio.h>

#include "fastmib/reader.h"
#include "fms_util.h"
#include "segment_format.h"

/* Per thread, so concurrent callers never see each other's messages. */
static __thread char fms_errbuf[512];

int
fms_error(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fms_errbuf, sizeof(fms_errbuf), fmt, ap);
	va_end(ap);
	return err;
}

const char *
fastmib_last_error(void)
{
	return fms_errbuf[0] ? fms_errbuf : "no error";
}
