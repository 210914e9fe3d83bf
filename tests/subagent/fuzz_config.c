/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target of fastmib-agentx's configuration file, read the two
 * ways the agent reads a -c file (subagent/agentx/directives.c): first
 * for the settings taken before Net-SNMP starts (listen, persistentDir,
 * stateDir), then by Net-SNMP's reader calling the agent's directive
 * handlers (segment, ports, agentxSocket, the numbers), into a fresh set
 * of values as a reload reads them.
 *
 * What is checked besides crashes, leaks and undefined behaviour: every
 * error and warning logged names the file and the line; what the
 * directives keep is what the agent can use: segment and ports paths
 * absolute, every number within its setting's limits, an AgentX socket
 * that fits.
 *
 * A file with an include line (includeFile, includeDir, includeSearch:
 * Net-SNMP's own, which read the files they name, and report one they
 * cannot open by its name alone) is not read: what this target is about
 * is the agent's directives, not the host's other files.
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "connect.h"
#include "directives.h"

static struct fmx_settings st;
static char file[256];
static char where[300];

/* Every message of the configuration's read at warning level or worse
 * says where: "FILE: line N: ". */
static int
on_log(int major, int minor, void *serverarg, void *clientarg)
{
	const struct snmp_log_message *m = serverarg;

	(void)major, (void)minor, (void)clientarg;
	if (m->priority <= LOG_WARNING && strncmp(m->msg, where, strlen(where)) != 0)
		abort();
	return 0;
}

static void
init(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(file, sizeof(file), "%s/fuzz-config-%d.conf", tmp ? tmp : "/tmp",
		 (int)getpid());
	snprintf(where, sizeof(where), "%s: line ", file);
	fmx_settings_init(&st);
	netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_APPTYPE, APP);
	fmx_register_directives();
	netsnmp_register_loghandler(NETSNMP_LOGHANDLER_CALLBACK, LOG_WARNING);
	snmp_register_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_LOGGING, on_log, NULL);
}

static void
check_values(const struct fmx_values *v)
{
	char why[128];

	for (unsigned int i = 0; i < v->n_segments; i++)
		if (v->segments[i][0] != '/')
			abort();
	for (unsigned int i = 0; i < v->n_ports; i++)
		if (v->ports[i][0] != '/')
			abort();
	for (int s = 0; s < FMA_SETTING_COUNT; s++)
		if (v->num[s] != -1 && (v->num[s] < fma_settings[s].min ||
					v->num[s] > fma_settings[s].max))
			abort();
	if (v->agentx_socket && fmx_socket_problem(v->agentx_socket, why, sizeof(why)))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fmx_values fresh;
	FILE *f;

	for (size_t i = 0; i + 7 <= size; i++)
		if (!strncasecmp((const char *)data + i, "include", 7))
			return 0;
	if (!file[0])
		init();
	f = fopen(file, "w");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
		abort();
	/* before Net-SNMP starts: listen and the state directory */
	st.config = file;
	(void)fmx_config_early(&st);
	st.config = NULL;
	/* then every directive, as at the start (fresh values, as a reload
	 * reads them) */
	memset(&fresh, 0, sizeof(fresh));
	fmx_values_reset(&fresh);
	st.reading = &fresh;
	fmx_count_errors_begin(&st);
	read_config(file, fmx_directives(), NORMAL_CONFIG);
	(void)fmx_count_errors_end(&st);
	st.reading = &st.files;
	check_values(&fresh);
	fmx_values_reset(&fresh);
	free(st.listen.value);
	free(st.state_dir.value);
	memset(&st.listen, 0, sizeof(st.listen));
	memset(&st.state_dir, 0, sizeof(st.state_dir));
	unlink(file);
	return 0;
}
