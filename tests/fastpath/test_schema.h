/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A hand-written schema covering every storage kind and table shape, with
 * the offsets a generated header would hold as constants.
 */
#ifndef FASTMIB_TEST_SCHEMA_H
#define FASTMIB_TEST_SCHEMA_H

#include "fastmib/schema.h"

extern const struct fastmib_schema ts_schema;
/* ts_schema plus events (ts_schema itself has none). */
extern const struct fastmib_schema ts_ev_schema;

enum {
	TS_EV_TOP = 0,    /* level 0, rate 9, args a, b (types not given) */
	TS_EV_OUTER = 1,  /* level 1, rate 9, args a uint32, b uint64, c int32, d uint64 */
	TS_EV_INNER = 2,  /* level 2, rate 9, args as outer */
	TS_EV_SAMPLED = 3, /* level 3, rate 5, no args */
	TS_N_EVENTS = 4,
};

enum {
	TS_GLOBAL = 0,  /* scalar, per-core: pkts, bytes, flows (gauge32) */
	TS_PORT = 1,    /* table portId (4), rows all, per-core: rxPkts, rxBytes */
	TS_SESSION = 2, /* table sessionId (100), rows present, shared-buffered: pkts, bytes */
	TS_POOL = 3,    /* scalar, shared-atomic: allocs, inUse (gauge32), fails (counter32) */
	TS_FLOW = 4,    /* table vrf (3) x queue (5), rows present, per-core: pkts, bytes */
	TS_N_GROUPS = 5,
};

#define TS_PORT_ROWS 4
#define TS_SESSION_ROWS 100
#define TS_FLOW_ROWS 15

/* Per-core area. */
#define TS_GLOBAL_PKTS 0u
#define TS_GLOBAL_BYTES 8u
#define TS_GLOBAL_FLOWS 16u
#define TS_PORT_OFF 64u
#define TS_PORT_ROW 16u
#define TS_PORT_RX_PKTS(r) (TS_PORT_OFF + (r) * TS_PORT_ROW + 0u)
#define TS_PORT_RX_BYTES(r) (TS_PORT_OFF + (r) * TS_PORT_ROW + 8u)
#define TS_FLOW_OFF 192u
#define TS_FLOW_ROW 16u
#define TS_FLOW_PKTS(r) (TS_FLOW_OFF + (r) * TS_FLOW_ROW + 0u)
#define TS_FLOW_BYTES(r) (TS_FLOW_OFF + (r) * TS_FLOW_ROW + 8u)
/* Shared area. */
#define TS_SESSION_OFF 0u
#define TS_SESSION_ROW 16u
#define TS_SESSION_PKTS(r) (TS_SESSION_OFF + (r) * TS_SESSION_ROW + 0u)
#define TS_SESSION_BYTES(r) (TS_SESSION_OFF + (r) * TS_SESSION_ROW + 8u)
#define TS_POOL_ALLOCS 1664u
#define TS_POOL_IN_USE 1672u
#define TS_POOL_FAILS 1680u

#endif
