/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The AgentX front end's answer to a request whose response would not fit
 * what the master accepts. See agentx_size.c.
 */
#ifndef FASTMIB_AGENTX_SIZE_H
#define FASTMIB_AGENTX_SIZE_H

/* Largest AgentX packet the subagent sends; a bigger response becomes an
 * error response tooBig without varbinds. snmpd 5.9 drops an AgentX
 * response over 64 KiB. */
#define FASTMIB_AGENTX_MAX_PACKET 65000

/* Watch every AgentX session to the master opened from now on. Call
 * before init_snmp(). */
void fmx_limit_responses(void);

/* The packet that replaces an oversized AgentX Response in `in` (len
 * bytes): the same header fields, error tooBig, index 1, no varbinds.
 * Writes 28 bytes to `out` and returns 28, or 0 when `in` is not a
 * Response (then nothing replaces it). Pure; unit-tested. */
int fmx_toobig(const unsigned char *in, int len, unsigned char *out);

#endif /* FASTMIB_AGENTX_SIZE_H */
