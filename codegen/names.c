/* SPDX-License-Identifier: BSD-3-Clause */
#include "names.h"

#include <ctype.h>
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

char *
name_snake(const char *s)
{
	size_t n = fastmib_name_snake(NULL, 0, s);
	char *r = xmalloc(n + 1);

	fastmib_name_snake(r, n + 1, s);
	return r;
}

char *
name_upper(const char *s)
{
	size_t n = fastmib_name_upper(NULL, 0, s);
	char *r = xmalloc(n + 1);

	fastmib_name_upper(r, n + 1, s);
	return r;
}

char *
gen_name(enum fastmib_name_role role, const char *prefix, const char *a, const char *b)
{
	size_t n = fastmib_name(NULL, 0, role, prefix, a, b);
	char *r = xmalloc(n + 1);

	fastmib_name(r, n + 1, role, prefix, a, b);
	return r;
}

char *
gen_exporter_module(const char *module)
{
	size_t n = fastmib_name_exporter_module(NULL, 0, module);
	char *r = xmalloc(n + 1);

	fastmib_name_exporter_module(r, n + 1, module);
	return r;
}
