/* SPDX-License-Identifier: BSD-3-Clause */
/* fastmib-agentx's state directory (Net-SNMP's persistent files). */
#ifndef FASTMIB_AGENTX_STATE_H
#define FASTMIB_AGENTX_STATE_H

struct fmx_settings;

/*
 * The state directory: --state-dir, else persistentDir/stateDir of a -c
 * file, else the one systemd made for the unit (StateDirectory=, passed as
 * $STATE_DIRECTORY, first of a colon-separated list), else none: the
 * agent then keeps no state at all. Sets st->state_path. Returns 0, or -1
 * after a message on stderr (a directory that others could write, a
 * link, a planted file).
 */
int fmx_choose_state_dir(struct fmx_settings *st);

#endif
