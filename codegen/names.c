/* SPDX-License-Identifier: BSD-3-Clause */
#include "names.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "strbuf.h"

bool
name_is_descriptor(const char *s)
{
	if (!islower((unsigned char)s[0]))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) || !isascii((unsigned char)*s))
			return false;
	return true;
}

bool
name_is_module(const char *s)
{
	const char *p;

	if (!isupper((unsigned char)s[0]))
		return false;
	for (p = s; *p; p++) {
		if (*p == '-') {
			if (p[1] == '-' || p[1] == '\0')
				return false;
		} else if (!isalnum((unsigned char)*p) || !isascii((unsigned char)*p)) {
			return false;
		}
	}
	return true;
}

bool
name_is_prefix(const char *s)
{
	if (!islower((unsigned char)s[0]))
		return false;
	for (; *s; s++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s)))
			return false;
	return true;
}

/* C11 and C++17 keywords (and alternative tokens) that a snake_case name
 * made of lowercase letters, digits and underscores could spell. */
static const char *const keywords[] = {
	"alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
	"bool", "break", "case", "catch", "char", "char16_t", "char32_t",
	"class", "compl", "const", "const_cast", "constexpr", "continue",
	"decltype", "default", "delete", "do", "double", "dynamic_cast", "else",
	"enum", "explicit", "export", "extern", "false", "float", "for",
	"friend", "goto", "if", "inline", "int", "long", "mutable", "namespace",
	"new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
	"or_eq", "private", "protected", "public", "register",
	"reinterpret_cast", "restrict", "return", "short", "signed", "sizeof",
	"static", "static_assert", "static_cast", "struct", "switch",
	"template", "this", "thread_local", "throw", "true", "try", "typedef",
	"typeid", "typename", "union", "unsigned", "using", "virtual", "void",
	"volatile", "wchar_t", "while", "xor", "xor_eq",
};

bool
name_is_c_keyword(const char *snake)
{
	size_t i;

	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (strcmp(snake, keywords[i]) == 0)
			return true;
	return false;
}

static char *
convert(const char *s, bool upper)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_puts(&sb, "");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (isupper(c))
			sb_putc(&sb, '_');
		sb_putc(&sb, (char)(upper ? toupper(c) : tolower(c)));
	}
	return sb.data;
}

char *
name_snake(const char *s)
{
	return convert(s, false);
}

char *
name_upper(const char *s)
{
	return convert(s, true);
}

char *
name_join(const char *first, ...)
{
	struct strbuf sb;
	const char *part;
	va_list ap;

	sb_init(&sb);
	sb_puts(&sb, first);
	va_start(ap, first);
	while ((part = va_arg(ap, const char *)) != NULL) {
		if (*part) {
			sb_putc(&sb, (char)toupper((unsigned char)part[0]));
			sb_puts(&sb, part + 1);
		}
	}
	va_end(ap);
	return sb.data;
}
