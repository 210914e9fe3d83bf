/* SPDX-License-Identifier: BSD-3-Clause */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "single_names.h"
#include "state_names.h"

void
wrap_text(struct strbuf *out, const char *text, const char *indent,
	  size_t width, int first_indented)
{
	size_t col = 0, ind = strlen(indent);
	const char *p = text;
	int line_empty = 1;

	if (first_indented) {
		sb_puts(out, indent);
		col = ind;
	}
	while (*p) {
		size_t n;

		if (*p == '\n') {
			/* paragraph break: end the line, leave one empty line */
			sb_puts(out, "\n\n");
			sb_puts(out, indent);
			col = ind;
			line_empty = 1;
			p++;
			continue;
		}
		if (*p == ' ') {
			p++;
			continue;
		}
		n = strcspn(p, " \n");
		if (!line_empty && col + 1 + n > width) {
			sb_putc(out, '\n');
			sb_puts(out, indent);
			col = ind;
			line_empty = 1;
		}
		if (!line_empty) {
			sb_putc(out, ' ');
			col++;
		}
		sb_printf(out, "%.*s", (int)n, p);
		col += n;
		line_empty = 0;
		p += n;
	}
}

void
put_c_comment(struct strbuf *o, const char *text)
{
	sb_puts(o, "/* ");
	wrap_text(o, text, " * ", 76, 0);
	sb_puts(o, " */\n");
}

void
put_c_comment_tab(struct strbuf *o, const char *text)
{
	/* a tab counts 8 columns, and 1 in wrap_text()'s count */
	sb_puts(o, "\t/* ");
	wrap_text(o, text, "\t * ", 76 - 7, 0);
	sb_puts(o, " */\n");
}

void
put_c_comment_text(struct strbuf *out, const char *text)
{
	/* break comment terminators and trigraph-like sequences */
	for (; *text; text++) {
		sb_putc(out, *text);
		if ((*text == '*' && text[1] == '/') || (*text == '?' && text[1] == '?'))
			sb_putc(out, ' ');
	}
}

void
put_c_string(struct strbuf *out, const char *text)
{
	/* the model allows printable ASCII minus '"'; '?' is escaped so no
	 * trigraph can form under -std=c11 */
	for (; *text; text++) {
		if (*text == '\\' || *text == '?')
			sb_putc(out, '\\');
		sb_putc(out, *text);
	}
}

void
pool_init(struct name_pool *np, const char *prefix)
{
	*np = (struct name_pool){ prefix, NULL, 0, 0 };
}

const char *
pool_keep(struct name_pool *np, char *s)
{
	if (np->n == np->cap) {
		np->cap = np->cap ? np->cap * 2 : 64;
		np->names = xrealloc(np->names, np->cap * sizeof(*np->names));
	}
	np->names[np->n++] = s;
	return s;
}

const char *
pool_name(struct name_pool *np, enum fastmib_name_role role, const char *a, const char *b)
{
	return pool_keep(np, gen_name(role, np->prefix, a, b));
}

const char *
pool_state_name(struct name_pool *np, enum state_name_role role, const char *a, const char *b,
		const char *c)
{
	return pool_keep(np, state_name(role, np->prefix, a, b, c));
}

const char *
pool_snake(struct name_pool *np, const char *name)
{
	return pool_keep(np, name_snake(name));
}

void
pool_free(struct name_pool *np)
{
	for (size_t i = 0; i < np->n; i++)
		free(np->names[i]);
	free(np->names);
	pool_init(np, np->prefix);
}

void
put_offset_assert(struct strbuf *o, const char *sassert, const char *tag, const char *member,
		  const char *offset, const char *what, const char *name)
{
	struct strbuf a;

	/* the condition on one line when it fits in 80 columns */
	sb_init(&a);
	sb_printf(&a, "%s(offsetof(struct %s, %s) == %s,", sassert, tag, member, offset);
	if (a.len > 80) {
		sb_free(&a);
		sb_printf(&a, "%s(offsetof(struct %s, %s) ==\n\t%s,", sassert, tag, member, offset);
	}
	sb_printf(o, "%s\n\t\"%s: %s offset\");\n", a.data, what, name);
	sb_free(&a);
}

void
put_size_assert(struct strbuf *o, const char *sassert, const char *tag, const char *size,
		const char *what)
{
	sb_printf(o, "%s(sizeof(struct %s) == %s,\n\t\"%s size\");\n\n", sassert, tag, size, what);
}

void
put_c_prototype(struct strbuf *o, const char *name, const char *const *params, size_t n)
{
	struct strbuf sig;
	const char *sep = " ";

	for (int pass = 0; pass < 2; pass++, sep = "\n\t") {
		sb_init(&sig);
		sb_printf(&sig, "%s(", name);
		for (size_t i = 0; i < n; i++)
			sb_printf(&sig, "%s%s%s", i ? "," : "", i ? sep : "", params[i]);
		sb_puts(&sig, ")");
		if (pass == 1 || sig.len <= 80)
			break;
		sb_free(&sig);
	}
	sb_puts(o, sig.data);
	sb_free(&sig);
}
