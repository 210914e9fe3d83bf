/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The names of state objects, and of what states bring to a module, which
 * <fastmib/names.h> does not spell: made from its own spellings
 * (state_names.c). Like single_names.h, below the enumeration of a
 * model's names (gen_names.c) and the emitters; it knows no model.
 */
#ifndef FASTMIB_GEN_STATE_NAMES_H
#define FASTMIB_GEN_STATE_NAMES_H

#include "fastmib/names.h"

/* `p` the prefix, G/g the group, S/s the state, L the label of an enum
 * value (state_name()'s a, b and c). */
enum state_name_role {
	/* ---- the module's (a, b, c unused) ---- */
	SN_MIB_NOTIFICATIONS,       /* pNotifications: R.5, models with a notify state */
	SN_MIB_STATE_NOTIFICATIONS, /* pStateNotifications: R.5.0 */
	SN_MIB_STATE_NOTIFICATION_GROUP, /* pStateNotificationGroup */
	SN_MIB_NOTIFICATIONS_DROPPED, /* pNotificationsDropped: models that notify */
	/* ---- a group's (a = group) ---- */
	SN_C_STATE_STRUCT,          /* struct p_g_state */
	SN_C_STATE_SIZE,            /* macro P_G_STATE_SIZE */
	SN_C_STATE_SET,             /* p_g_state_set(): every state of a row */
	SN_C_STATE_GET,             /* p_g_state_get() */
	SN_C_STATES,                /* p_g_states: the state schemas (schema.c) */
	SN_C_STATE_DEFAULT,         /* p_g_state_default: the defaults (schema.c) */
	/* ---- a state's (a = group, b = state) ---- */
	SN_MIB_STATE,               /* pGS: its object (an inet-address: the address) */
	SN_MIB_STATE_TYPE,          /* pGSType: an inet-address's InetAddressType */
	SN_MIB_STATE_CHANGE,        /* pGSChange: the notification of a notify state */
	SN_C_STATE_ONE_SET,         /* p_g_s_set(): one state of a row */
	SN_C_STATE_OFFSET,          /* macro P_G_STATE_S_OFFSET */
	SN_C_STATE_VALUES,          /* p_g_s_values: an enum's (schema.c) */
	/* ---- an enum value's (a = group, b = state, c = label) ---- */
	SN_C_ENUM_VALUE,            /* macro P_G_S_L */
	SN_N_ROLES
};

/* Namespace of the names of `role`. */
enum fastmib_name_space state_name_space(enum state_name_role role);
/* A heap copy (never NULL) of name `role` of prefix `prefix` from model
 * names a, b and c (NULL where the role takes none). */
char *state_name(enum state_name_role role, const char *prefix, const char *a, const char *b,
		 const char *c);

#endif
