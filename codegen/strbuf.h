/* SPDX-License-Identifier: BSD-3-Clause */
/* Growable text buffer: every generated file is built in memory first so
 * that nothing reaches the output directory unless all of it succeeded. */
#ifndef FASTMIB_GEN_STRBUF_H
#define FASTMIB_GEN_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *data;
	size_t len;
	size_t cap;
};

void sb_init(struct strbuf *sb);
void sb_free(struct strbuf *sb);
void sb_putc(struct strbuf *sb, char c);
void sb_puts(struct strbuf *sb, const char *s);
void sb_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* The text, in a block of its own size (a buffer grows in steps of 4 KiB
 * and more: a model keeps thousands of short texts); `sb` is left empty. */
char *sb_take(struct strbuf *sb);

/* Allocation helpers: the generator is a short-lived CLI, so running out of
 * memory ends it with exit status 1 rather than threading errors around. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
