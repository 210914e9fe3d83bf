/* SPDX-License-Identifier: BSD-3-Clause */
/* How values, rates, types and times read in the output. */
#include <inttypes.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "stat.h"

/* The model's word for a counter type (fastmib_type_word()), as JSON has it. */
const char *
fst_type_name(uint32_t type)
{
	const char *word = fastmib_type_word(type);

	return word ? word : "unknown";
}

/* Units that count bytes: -H shows them in KiB, MiB... as sizes are. */
bool
fst_units_are_octets(const char *units)
{
	static const char *const octets[] = { "octets", "octet", "bytes", "byte" };

	for (size_t i = 0; i < sizeof(octets) / sizeof(octets[0]); i++)
		if (strcasecmp(units, octets[i]) == 0)
			return true;
	return false;
}

/*
 * -H, as ls -h and numfmt do: a number below 1000 as it is, above with an
 * SI prefix and one decimal below 100 ("1.2k", "12.3M"), none above
 * ("123G"); octets in powers of 1024 with IEC prefixes and a B ("512B",
 * "1.5KiB", "1023KiB"), as sizes are shown. A number that would round up
 * to the next power (999.96k) takes the next prefix (1.0M).
 */
static void
human(char *buf, size_t len, double v, bool octets)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	const double base = octets ? 1024 : 1000;
	unsigned k = 0;

	while (k < 6 && v >= base - 0.5) {
		v /= base;
		k++;
	}
	if (k == 0)
		snprintf(buf, len, "%.0f%s", v, octets ? "B" : "");
	else if (v < 99.95)
		snprintf(buf, len, "%.1f%s", v, octets ? iec[k] : si[k]);
	else
		snprintf(buf, len, "%.0f%s", v, octets ? iec[k] : si[k]);
}

/* v in decimal: what snprintf("%" PRIu64) writes, a million cells a
 * second faster (a table of a million rows is printed cell by cell). */
static void
decimal(char *buf, size_t len, uint64_t v)
{
	char digits[20];
	size_t n = 0, i = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (; n > 0 && i + 1 < len; i++)
		buf[i] = digits[--n];
	if (len)
		buf[i] = '\0';
}

void
fst_format_count(char *buf, size_t len, uint64_t v, bool human_form, bool octets)
{
	if (human_form)
		human(buf, len, (double)v, octets);
	else
		decimal(buf, len, v);
}

void
fst_format_rate(char *buf, size_t len, double r, bool human_form, bool octets)
{
	if (human_form)
		human(buf, len, r, octets);
	else
		snprintf(buf, len, "%.0f", r);
}

void
fst_format_utc(char *buf, size_t len, int64_t sec, uint32_t nsec, int digits)
{
	time_t t = (time_t)sec;
	uint32_t frac = nsec;
	struct tm tm;
	size_t n;

	if (gmtime_r(&t, &tm) == NULL)
		memset(&tm, 0, sizeof(tm));
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	for (int d = digits; d < 9; d++)
		frac /= 10; /* cut, as a clock reads: .19 s is .1 */
	if (digits > 0)
		snprintf(buf + n, len - n, ".%0*" PRIu32 "Z", digits, frac);
	else
		snprintf(buf + n, len - n, "Z");
}
