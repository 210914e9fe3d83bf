/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Text from outside on its way to a log: a port name, a path, a piece of a
 * telemetry answer could hold a newline and forge a line of its own, or a
 * terminal escape. See fme_escape() in client.h.
 */
#include <stdio.h>
#include <string.h>

#include "fastmib/ethdev/client.h"

char *
fme_escape(const char *in, size_t len, char *out, size_t size)
{
	size_t o = 0;

	if (size == 0)
		return out;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)in[i];
		char piece[5];
		size_t n;

		if (c == '\\') {
			memcpy(piece, "\\\\", 3);
			n = 2;
		} else if (c >= 0x20 && c < 0x7f) {
			piece[0] = (char)c;
			piece[1] = '\0';
			n = 1;
		} else {
			snprintf(piece, sizeof(piece), "\\x%02x", c);
			n = 4;
		}
		/* a piece is shown whole or not at all */
		if (o + n >= size)
			break;
		memcpy(out + o, piece, n);
		o += n;
	}
	out[o] = '\0';
	return out;
}

char *
fme_escape_str(const char *in, char *out, size_t size)
{
	return fme_escape(in, in ? strlen(in) : 0, out, size);
}

int
fme_hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
