/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Single names: heap copies of what <fastmib/names.h> spells, and the C
 * and C++ keywords a model name must not give.
 */
#include "single_names.h"

#include <string.h>

#include "strbuf.h"

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

/* A heap copy of what `spell` (a <fastmib/names.h> function of one name)
 * makes of `s`. */
static char *
spelled(size_t (*spell)(char *buf, size_t len, const char *s), const char *s)
{
	size_t n = spell(NULL, 0, s);
	char *r = xmalloc(n + 1);

	spell(r, n + 1, s);
	return r;
}

char *
name_snake(const char *s)
{
	return spelled(fastmib_name_snake, s);
}

char *
name_upper(const char *s)
{
	return spelled(fastmib_name_upper, s);
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
	return spelled(fastmib_name_exporter_module, module);
}
