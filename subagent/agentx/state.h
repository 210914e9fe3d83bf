/* SPDX-License-Identifier: BSD-3-Clause */
/* fastmib-agentx's state directory (Net-SNMP's persistent files). */
#ifndef FASTMIB_AGENTX_STATE_H
#define FASTMIB_AGENTX_STATE_H

struct fmx_settings;
struct fmx_identity;

/*
 * The state directory: --state-dir, else persistentDir/stateDir of a -c
 * file, else the one systemd made for the unit (StateDirectory=, passed as
 * $STATE_DIRECTORY, first of a colon-separated list), else none: the
 * agent then keeps no state at all. Sets st->state_path. It must belong
 * to root, this user or `id`, the user the agent will serve as, who owns
 * it if it is created. Returns 0, or -1 after a message on stderr (a
 * directory that others could write, a link, a planted file). Called by
 * main.c before Net-SNMP starts.
 */
int fmx_choose_state_dir(struct fmx_settings *st, const struct fmx_identity *id);

#endif
