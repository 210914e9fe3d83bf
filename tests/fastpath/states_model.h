/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A model of state objects for the tests of what shows them (fastmib-stat
 * through mkstates, the telemetry commands): every state type in a scalar
 * group beside counters, a dense `rows: present` table, a keyed table and
 * a group of states only. Written by hand: fastmib-gen does not write
 * states yet.
 */
#ifndef FASTMIB_TEST_STATES_MODEL_H
#define FASTMIB_TEST_STATES_MODEL_H

#include "fastmib/schema.h"

/* The groups, in schema order. */
enum { SM_GLOBAL, SM_PORT, SM_TUNNEL, SM_INFO, SM_N_GROUPS };

/* The states of `global`, in schema order: one of every type. */
enum { SM_OPER, SM_LABEL, SM_VERSION, SM_PEAK, SM_SINCE, SM_STARTED, SM_ENABLED, SM_ADDR,
       SM_MAC, SM_REMOTE, SM_BLOB, SM_UPTIME, SM_TEMP, SM_N_GLOBAL };
/* The states of `port` and `tunnel` (the same names and types), and
 * tunnel's `note` after them (a table whose rows fill an answer). */
enum { SM_LINK, SM_SPEED, SM_NAME, SM_PEER, SM_N_ROW, SM_NOTE = SM_N_ROW, SM_N_TUNNEL };
/* The states of `info`, a group of states only, with texts longer than a
 * DPDK telemetry string. */
enum { SM_RELEASE, SM_READY, SM_MOTD, SM_CERT, SM_N_INFO };

#define SM_PORT_ROWS 4
#define SM_TUNNEL_CAPACITY 64
#define SM_NOTE_SIZE 100
#define SM_MOTD_SIZE 200
#define SM_CERT_SIZE 100

/* The model, VIEWS-TEST-MIB (prefix vw), laid out. */
const struct fastmib_schema *sm_schema(void);

#endif
