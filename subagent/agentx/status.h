/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx's state for the service manager: as an AgentX subagent,
 * snmpd's answers to its registrations, as one line that systemd shows
 * (`systemctl status fastmib-agentx`: "Status: ..."), sent (sd_notify
 * STATUS=) when an answer changes it, at most once a second. Without a
 * service manager ($NOTIFY_SOCKET unset) nothing is sent.
 */
#ifndef FMX_STATUS_H
#define FMX_STATUS_H

/** Report from now on (after init_snmp(), before the first registration). */
void fmx_status_start(void);

#endif /* FMX_STATUS_H */
