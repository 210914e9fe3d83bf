/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx's answer to a request whose response would not fit what
 * the master accepts: tooBig (size.c says how and why there).
 */
#ifndef FASTMIB_AGENTX_SIZE_H
#define FASTMIB_AGENTX_SIZE_H

/* Watch every AgentX session to the master opened from now on. Called by
 * main.c before init_snmp(), in the subagent role only. */
void fmx_limit_responses(void);

#endif /* FASTMIB_AGENTX_SIZE_H */
