/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Names of states (state_names.h), spelled with <fastmib/names.h>: the
 * parts of a name (the prefix, fixed words, model names) glued in MIB
 * style by fastmib_name_mib_style(), each part capitalised, then for C
 * turned into snake_case or upper case by fastmib_name_snake() and
 * fastmib_name_upper(), which start a word at each capital. Every part
 * starts with a lowercase letter (the prefix, a model name, a word here),
 * so a C name is its parts joined by '_', each in snake_case: names.h's
 * own rule for C names.
 */
#include "state_names.h"

#include <stdlib.h>

#include "single_names.h"
#include "strbuf.h"

enum style { MIB, C_LOWER, C_UPPER };

struct rule {
	unsigned char space;       /* enum fastmib_name_space */
	unsigned char style;
	unsigned char parts;       /* model names used: 0, a, a and b, or a, b and c */
	const char *infix;         /* a word after a, or NULL */
	const char *suffix;        /* the last word, or NULL */
};

#define MIB(n, infix, sfx) { FASTMIB_NS_MIB, MIB, n, infix, sfx }
#define CO(n, infix, sfx) { FASTMIB_NS_C_ORDINARY, C_LOWER, n, infix, sfx }
#define CM(n, infix, sfx) { FASTMIB_NS_C_MACRO, C_UPPER, n, infix, sfx }
#define CT(n, infix, sfx) { FASTMIB_NS_C_TAG, C_LOWER, n, infix, sfx }

static const struct rule rules[SN_N_ROLES] = {
	[SN_MIB_NOTIFICATIONS] = MIB(0, NULL, "notifications"),
	[SN_MIB_STATE_NOTIFICATIONS] = MIB(0, NULL, "stateNotifications"),
	[SN_MIB_STATE_NOTIFICATION_GROUP] = MIB(0, NULL, "stateNotificationGroup"),
	[SN_MIB_NOTIFICATIONS_DROPPED] = MIB(0, NULL, "notificationsDropped"),
	[SN_C_STATE_STRUCT] = CT(1, NULL, "state"),
	[SN_C_STATE_SIZE] = CM(1, NULL, "stateSize"),
	[SN_C_STATE_SET] = CO(1, NULL, "stateSet"),
	[SN_C_STATE_GET] = CO(1, NULL, "stateGet"),
	[SN_C_STATES] = CO(1, NULL, "states"),
	[SN_C_STATE_DEFAULT] = CO(1, NULL, "stateDefault"),
	[SN_MIB_STATE] = MIB(2, NULL, NULL),
	[SN_MIB_STATE_TYPE] = MIB(2, NULL, "type"),
	[SN_MIB_STATE_CHANGE] = MIB(2, NULL, "change"),
	[SN_C_STATE_ONE_SET] = CO(2, NULL, "set"),
	[SN_C_STATE_OFFSET] = CM(2, "state", "offset"),
	[SN_C_STATE_VALUES] = CO(2, NULL, "values"),
	[SN_C_ENUM_VALUE] = CM(3, NULL, NULL),
};

enum fastmib_name_space
state_name_space(enum state_name_role role)
{
	return (enum fastmib_name_space)rules[role].space;
}

/* `glued` then part `s`, capitalised: a heap copy; `glued` is freed. */
static char *
glue(char *glued, const char *s)
{
	size_t n = fastmib_name_mib_style(NULL, 0, glued, s, NULL);
	char *r = xmalloc(n + 1);

	fastmib_name_mib_style(r, n + 1, glued, s, NULL);
	free(glued);
	return r;
}

char *
state_name(enum state_name_role role, const char *prefix, const char *a, const char *b,
	   const char *c)
{
	const struct rule *r = &rules[role];
	const char *parts[3] = { a, b, c };
	char *name = xstrdup(prefix), *spelled;

	for (unsigned i = 0; i < r->parts; i++) {
		name = glue(name, parts[i]);
		if (i == 0 && r->infix)
			name = glue(name, r->infix);
	}
	if (r->suffix)
		name = glue(name, r->suffix);
	if (r->style == MIB)
		return name;
	spelled = r->style == C_UPPER ? name_upper(name) : name_snake(name);
	free(name);
	return spelled;
}
