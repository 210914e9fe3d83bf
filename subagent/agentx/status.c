/* SPDX-License-Identifier: BSD-3-Clause */
/* fastmib-agentx: its state for the service manager (status.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <systemd/sd-daemon.h>

#include "axreg.h"
#include "status.h"

/*
 * sd_notify() waits while the service manager's queue is full (a few
 * datagrams): at most one line a second is sent, the changes of a second
 * (hundreds of answers when snmpd comes back) in the next one, and a
 * line that says nothing new is not sent at all.
 */
static struct {
	char said[512];    /* the line sent last */
	unsigned int quiet; /* alarm: a line was sent less than a second ago */
	bool changed;      /* ... and the state changed since */
} st;

static void
send_line(void)
{
	char line[sizeof(st.said)];

	fma_axreg_summary(line, sizeof(line));
	if (strcmp(line, st.said) == 0)
		return;
	memcpy(st.said, line, sizeof(st.said));
	sd_notifyf(0, "STATUS=%s", line);
}

static void
quiet_over(unsigned int reg, void *arg)
{
	(void)reg, (void)arg;
	st.quiet = 0;
	if (st.changed) {
		st.changed = false;
		send_line();
		st.quiet = snmp_alarm_register(1, 0, quiet_over, NULL);
	}
}

static void
update(void)
{
	if (st.quiet) {
		st.changed = true;
		return;
	}
	send_line();
	st.quiet = snmp_alarm_register(1, 0, quiet_over, NULL);
}

void
fmx_status_start(void)
{
	fma_axreg_watch(update);
	update();
}
