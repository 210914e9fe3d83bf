/* SPDX-License-Identifier: BSD-3-Clause */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
oom(void)
{
	fputs("fastmib-gen: out of memory\n", stderr);
	exit(1);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

void
sb_init(struct strbuf *sb)
{
	sb->data = NULL;
	sb->len = 0;
	sb->cap = 0;
}

void
sb_free(struct strbuf *sb)
{
	free(sb->data);
	sb_init(sb);
}

char *
sb_take(struct strbuf *sb)
{
	char *text = xrealloc(sb->data, sb->len + 1);

	if (sb->data == NULL)
		text[0] = '\0';
	sb_init(sb);
	return text;
}

static void
sb_reserve(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->cap)
		return;
	if (sb->cap == 0)
		sb->cap = 4096;
	while (sb->cap < need)
		sb->cap *= 2;
	sb->data = xrealloc(sb->data, sb->cap);
}

void
sb_putc(struct strbuf *sb, char c)
{
	sb_reserve(sb, 1);
	sb->data[sb->len++] = c;
	sb->data[sb->len] = '\0';
}

void
sb_puts(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s);

	sb_reserve(sb, n);
	memcpy(sb->data + sb->len, s, n + 1);
	sb->len += n;
}

void
sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n >= 0) {
		sb_reserve(sb, (size_t)n);
		vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, again);
		sb->len += (size_t)n;
	}
	va_end(again);
}

void
sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}
