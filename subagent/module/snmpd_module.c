/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib snmpd module: the serving core loaded into snmpd itself, so that
 * every request is answered in-process instead of over AgentX.
 *
 *   dlmod          fastmib /usr/lib/x86_64-linux-gnu/fastmib/fastmib_snmpd.so
 *   fastmibSegment /run/fastmib/dataplane.seg      # after the dlmod line
 *   fastmibEventHistory 1024                       # optional, default 256
 *   fastmibNotifyRate 10 20                        # optional: per second, burst
 *   fastmibPorts   /var/run/dpdk/rte               # IF-MIB rows of a DPDK
 *                                                  # application's ports
 *   fastmibIfIndexBase 1000                        # optional
 *   fastmibPortsTimeout 5                          # optional, milliseconds
 *   fastmibPortsLinkTrapRate 10                    # optional, per second
 *
 *   fastmibGuard   .1.3.6.1.4.1.8072.9999.42        # errors, not silence, when
 *                                                  # the subagent serving this
 *                                                  # root over AgentX is gone
 *
 * Event notifications go to snmpd's own trap sinks (trap2sink, trapsess).
 * A changed fastmibEventHistory applies to segments attached afterwards.
 *
 * snmpd calls init_fastmib() when it reads the dlmod line; that registers
 * the fastmibSegment directive, so only lines after it reach this module
 * (snmpd warns "Unknown token" about earlier ones). Once snmpd has read its
 * whole configuration, the POST_READ_CONFIG callback attaches the segments
 * and registers their roots; from then on the core's periodic check
 * re-attaches re-created segments.
 *
 * Reload (SIGHUP): snmpd calls the free function of every configuration
 * directive, reads the files again, then runs the POST_READ_CONFIG
 * callbacks. The free function starts a reload of the core's segment set,
 * the callback ends it: paths named again keep their attachment and their
 * registration untouched, new paths are attached, paths no longer named
 * are unregistered and detached.
 *
 * snmpd 5.9's own dlmod directive frees by unloading every module
 * (deinit_fastmib(), dlclose()) and loads them again while re-reading. So
 * that a reload does not tear everything down, the module pins itself in
 * memory (RTLD_NODELETE) and deinit_fastmib() only starts the reload. If
 * init_fastmib() does not follow (the dlmod line was removed, or the
 * module was unloaded through UCD-DLMOD-MIB), a POST_READ_CONFIG callback
 * or, failing a configuration read, a one-shot alarm unregisters and
 * detaches everything.
 *
 * Inside snmpd this code must be a good guest: it runs in snmpd's only
 * thread, never blocks (the core maps files and reads memory), never
 * exits, installs no signal handler, maps counter data read-only, and
 * bounds what it keeps (FMA_MAX_SEGMENTS paths, each indexed
 * once per attach).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr(), RTLD_NODELETE */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "core.h"
#include "ports.h"
#include "settings.h"

#ifndef FASTMIB_VERSION
#define FASTMIB_VERSION "0.0.0"
#endif

#define FMM_TOKEN "fastmibSegment"
#define FMM_TOKEN_PORTS "fastmibPorts"
#define FMM_TOKEN_GUARD "fastmibGuard"
/* the numeric directives are named by the settings table */
#define FMM_TOKEN_HISTORY (fma_settings[FMA_SETTING_EV_HISTORY].module_token)
#define FMM_TOKEN_NOTIFY (fma_settings[FMA_SETTING_NOTIFY_RATE].module_token)
#define FMM_TOKEN_IFBASE (fma_settings[FMA_SETTING_IFINDEX_BASE].module_token)
#define FMM_TOKEN_PTIMEOUT (fma_settings[FMA_SETTING_PORTS_TIMEOUT].module_token)
#define FMM_TOKEN_PTRAPS (fma_settings[FMA_SETTING_PORTS_TRAP_RATE].module_token)

/* Guarded roots one snmpd holds at most. */
#define FMM_MAX_GUARDS 64
/* Below every registration an AgentX subagent makes (they default to 127):
 * the guard answers only where nobody else does. */
#define FMM_GUARD_PRIORITY 255

#define FMM_EXPORT __attribute__((visibility("default")))

void init_fastmib(void) FMM_EXPORT;
void deinit_fastmib(void) FMM_EXPORT;

/*
 * The module's only state. snmpd's entry points (init_NAME, configuration
 * directives) take no argument, so it cannot travel with the calls.
 */
static struct {
	struct fma_agent *set; /* from the first init to the real unload */
	struct fmp_ports *ports; /* the same, for DPDK applications' ports */
	bool pinned;               /* dlclose() leaves this object mapped */
	bool loaded;               /* between init_fastmib() and deinit_fastmib() */
	unsigned int unload_alarm; /* pending end of a real unload */
	bool watching;             /* fmm_after_reload() registered */
	netsnmp_handler_registration *guards[FMM_MAX_GUARDS];
	unsigned int n_guards;
} fmm;

/*
 * The guard of a root served by a fastmib-agentx subagent. When the
 * subagent dies, snmpd drops its registrations at once, and a walk that
 * was crossing its subtree would carry on past it: a short answer that
 * looks complete. A guard is a registration of the same root at the
 * lowest priority: shadowed while the subagent is registered, it answers
 * alone once it is gone: an error for every request, so a walk ends with
 * genErr and a GET says the data is unavailable, until the subagent
 * registers again.
 */
static int
fmm_guard_handler(netsnmp_mib_handler *handler, netsnmp_handler_registration *reginfo,
		  netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	(void)handler;
	(void)reginfo;
	for (netsnmp_request_info *r = requests; r; r = r->next) {
		if (r->processed)
			continue;
		if (reqinfo->mode == MODE_GET || reqinfo->mode == MODE_GETNEXT)
			netsnmp_set_request_error(reqinfo, r, SNMP_ERR_GENERR);
		else if (reqinfo->mode == MODE_SET_RESERVE1)
			netsnmp_set_request_error(reqinfo, r, SNMP_ERR_RESOURCEUNAVAILABLE);
	}
	return SNMP_ERR_NOERROR;
}

/* `fastmibGuard OID`: a module root, numeric or by name. */
static void
fmm_parse_guard(const char *token, char *line)
{
	char text[SPRINT_MAX_LEN];
	oid root[MAX_OID_LEN];
	size_t len = MAX_OID_LEN;
	netsnmp_handler_registration *reg;
	const char *rest;

	(void)token;
	rest = copy_nword_const(line, text, sizeof(text));
	if (!text[0] || (rest && *rest && *rest != '#')) {
		config_perror(FMM_TOKEN_GUARD " takes one OID per line");
		return;
	}
	if (!read_objid(text, root, &len) || len < 2) {
		config_perror(FMM_TOKEN_GUARD ": not an OID (numeric, or a name of a loaded MIB)");
		return;
	}
	if (fmm.n_guards == FMM_MAX_GUARDS) {
		config_perror(FMM_TOKEN_GUARD ": too many guarded roots for one snmpd");
		return;
	}
	reg = netsnmp_create_handler_registration(FMM_TOKEN_GUARD, fmm_guard_handler, root,
						  len, HANDLER_CAN_RWRITE);
	if (!reg) {
		config_perror(FMM_TOKEN_GUARD ": out of memory");
		return;
	}
	reg->priority = FMM_GUARD_PRIORITY;
	if (netsnmp_register_handler(reg) != MIB_REGISTERED_OK) {
		config_perror(FMM_TOKEN_GUARD ": cannot register this root (guarded twice?)");
		return;
	}
	fmm.guards[fmm.n_guards++] = reg;
}

/* Called before a reload and at unload: the lines read next decide. */
static void
fmm_release_guards(void)
{
	for (unsigned int i = 0; i < fmm.n_guards; i++)
		netsnmp_unregister_handler(fmm.guards[i]);
	fmm.n_guards = 0;
}

/*
 * The one absolute path of a directive line (`directive` PATH...) in buf;
 * `missing` says what the line must give, `one` what it takes once per
 * line. Returns false after a configuration error.
 */
static bool
fmm_one_path(const char *directive, char *line, char *buf, size_t len,
	     const char *missing, const char *one)
{
	const char *rest = copy_nword_const(line, buf, (int)len);
	char msg[128];

	if (!buf[0])
		snprintf(msg, sizeof(msg), "%s needs %s", directive, missing);
	else if (rest && *rest && *rest != '#')
		snprintf(msg, sizeof(msg), "%s takes one %s per line", directive, one);
	else if (buf[0] != '/')
		/* snmpd runs in / as a daemon: a relative path would name
		 * something else than the operator meant */
		snprintf(msg, sizeof(msg), "%s needs an absolute path", directive);
	else
		return true;
	config_perror(msg);
	return false;
}

/* `fastmibSegment PATH`: one absolute path per line. */
static void
fmm_parse_segment(const char *token, char *line)
{
	char path[PATH_MAX + 1];
	int rc;

	(void)token;
	if (!fmm.set || !fmm_one_path(FMM_TOKEN, line, path, sizeof(path),
				      "a segment path", "path"))
		return;
	rc = fma_add(fmm.set, path);
	if (rc == -EEXIST)
		config_pwarn(FMM_TOKEN " names this path twice; served once");
	else if (rc == -ENOSPC)
		config_perror(FMM_TOKEN ": too many segments for one snmpd");
	else if (rc < 0)
		config_perror(FMM_TOKEN ": out of memory");
}

/*
 * The numbers of a directive line, `n` of them at least and `max` at most,
 * each as the setting of settings.h it stands for; what the line leaves
 * out keeps its default. Returns false after a configuration error.
 */
static bool
fmm_numbers(const char *token, char *line, const enum fma_setting *which,
	    unsigned int n, unsigned int max, long *out)
{
	char word[64], msg[256];
	const char *rest = line;
	unsigned int given = 0;

	for (unsigned int i = 0; i < max; i++) {
		out[i] = fma_settings[which[i]].def;
		if (!rest || !*rest || *rest == '#')
			continue;
		rest = copy_nword_const(rest, word, sizeof(word));
		if (fma_setting_parse(which[i], token, word, &out[i], msg,
					  sizeof(msg)) < 0) {
			config_perror(msg);
			return false;
		}
		given++;
	}
	if (rest && *rest && *rest != '#') {
		config_perror("text after the number(s); the line is ignored");
		return false;
	}
	if (given < n) {
		config_perror("a number is missing; the line is ignored");
		return false;
	}
	return true;
}

/* `fastmibEventHistory N` */
static void
fmm_parse_history(const char *token, char *line)
{
	static const enum fma_setting which[] = { FMA_SETTING_EV_HISTORY };
	long v;

	if (fmm.set && fmm_numbers(token, line, which, 1, 1, &v))
		fma_config_event_history(fmm.set, (unsigned int)v);
}

/* `fastmibNotifyRate PER_SECOND [BURST]` */
static void
fmm_parse_notify(const char *token, char *line)
{
	static const enum fma_setting which[] = { FMA_SETTING_NOTIFY_RATE, FMA_SETTING_NOTIFY_BURST };
	long v[2];

	if (!fmm.set || !fmm_numbers(token, line, which, 1, 2, v))
		return;
	if (fma_config_notify_limit(fmm.set, (unsigned int)v[0],
					   (unsigned int)v[1]) < 0)
		config_perror("a notification rate needs a burst of at least 1");
}

/* `fastmibPorts PATH[,BASE]`: one absolute path per line. */
static void
fmm_parse_ports(const char *token, char *line)
{
	char spec[PATH_MAX + 16];
	int rc;

	(void)token;
	if (!fmm.ports || !fmm_one_path(FMM_TOKEN_PORTS, line, spec, sizeof(spec),
					"a telemetry socket or runtime directory",
					"PATH[,BASE]"))
		return;
	rc = fmp_ports_add(fmm.ports, spec);
	if (rc == -EEXIST)
		config_pwarn(FMM_TOKEN_PORTS " names this path twice; served once");
	else if (rc == -EINVAL)
		config_perror(FMM_TOKEN_PORTS ": BASE must be a number, 1..2147483647");
	else if (rc == -ENOSPC)
		config_perror(FMM_TOKEN_PORTS ": too many applications for one snmpd");
	else if (rc < 0)
		config_perror(FMM_TOKEN_PORTS ": cannot add it (out of memory, or path too long)");
}

/* `fastmibIfIndexBase N`, `fastmibPortsTimeout MS`, `fastmibPortsLinkTrapRate N` */
static void
fmm_parse_ports_number(const char *token, char *line)
{
	enum fma_setting which = strcmp(token, FMM_TOKEN_IFBASE) == 0 ? FMA_SETTING_IFINDEX_BASE
				 : strcmp(token, FMM_TOKEN_PTRAPS) == 0 ? FMA_SETTING_PORTS_TRAP_RATE
				 : FMA_SETTING_PORTS_TIMEOUT;
	long v;

	if (!fmm.ports || !fmm_numbers(token, line, &which, 1, 1, &v))
		return;
	if (which == FMA_SETTING_IFINDEX_BASE)
		fmp_ports_config_base(fmm.ports, (uint32_t)v);
	else if (which == FMA_SETTING_PORTS_TRAP_RATE)
		fmp_ports_config_link_trap_rate(fmm.ports, (unsigned int)v);
	else
		fmp_ports_config_timeout(fmm.ports, (unsigned int)v);
}

static void
fmm_release_ports(void)
{
	if (fmm.ports)
		fmp_ports_reload_begin(fmm.ports);
}

static void
fmm_release_ports_timeout(void)
{
	if (fmm.ports)
		fmp_ports_config_timeout(fmm.ports, FMP_PORTS_TIMEOUT_MS);
}

static void
fmm_release_ports_traps(void)
{
	if (fmm.ports)
		fmp_ports_config_link_trap_rate(fmm.ports, FMP_PORTS_TRAP_RATE);
}

/* Lines removed in a reload go back to the defaults. */
static void
fmm_release_history(void)
{
	if (fmm.set)
		fma_config_event_history(fmm.set, FMA_EVENT_HISTORY);
}

static void
fmm_release_notify(void)
{
	if (fmm.set)
		fma_config_notify_limit(fmm.set, FMA_NOTIFY_RATE,
					       FMA_NOTIFY_BURST);
}

/* Called by snmpd before it re-reads its configuration. */
static void
fmm_release_segments(void)
{
	if (fmm.set)
		fma_reload_begin(fmm.set);
}

/*
 * snmpd has read every configuration file: serve what they name. (No
 * client argument: at shutdown Net-SNMP frees the client arguments of the
 * callbacks still registered.)
 */
static int
fmm_post_config(int major, int minor, void *server_arg, void *client_arg)
{
	struct fma_agent *set = fmm.set;
	int rc;

	(void)major;
	(void)minor;
	(void)server_arg;
	(void)client_arg;
	if (!fmm.loaded || !set)
		return SNMPERR_SUCCESS;
	rc = fma_start(set, 0);
	if (rc == -EALREADY)
		fma_reload_end(set);
	else if (rc < 0)
		snmp_log(LOG_ERR, "fastmib: cannot start: %s\n", strerror(-rc));
	/* the ports' ifIndex and ifAlias are kept where snmpd keeps its state */
	fmp_ports_config_mode(fmm.ports, FMP_PORTS_MODULE);
	fmp_ports_config_state_dir(fmm.ports, get_persistent_directory());
	rc = fmp_ports_start(fmm.ports);
	if (rc == -EALREADY)
		fmp_ports_reload_end(fmm.ports);
	else if (rc < 0)
		snmp_log(LOG_ERR, "fastmib: cannot start the ports: %s\n", strerror(-rc));
	if (fma_count(set) == 0 && fmp_ports_count(fmm.ports) == 0 &&
	    fmm.n_guards == 0)
		snmp_log(LOG_WARNING, "fastmib: no " FMM_TOKEN " or " FMM_TOKEN_PORTS
			 " line after the dlmod line: nothing to serve\n");
	return SNMPERR_SUCCESS;
}

/* Keep this object mapped after dlmod's dlclose(); see the top. */
static bool
fmm_pin(void)
{
	Dl_info info;

	if (!dladdr((void *)init_fastmib, &info) || !info.dli_fname)
		return false;
	/* a reference never dropped, on an object dlclose() will not unmap */
	return dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE) != NULL;
}

/*
 * Register (on) or unregister (!on) every directive of the module, from
 * one list: what is registered at a load is what goes at the unload.
 * (Built at each call: the numeric directives' names are the settings
 * table's, no constants.)
 */
static void
fmm_directives(bool on)
{
	const struct {
		const char *token;
		void (*parse)(const char *token, char *line);
		void (*release)(void); /* before snmpd reads its files again */
		const char *help;
	} d[] = {
		{ FMM_TOKEN, fmm_parse_segment, fmm_release_segments, "PATH" },
		{ FMM_TOKEN_HISTORY, fmm_parse_history, fmm_release_history, "RECORDS" },
		{ FMM_TOKEN_NOTIFY, fmm_parse_notify, fmm_release_notify,
		  "PER_SECOND [BURST]" },
		{ FMM_TOKEN_PORTS, fmm_parse_ports, fmm_release_ports, "PATH[,BASE]" },
		{ FMM_TOKEN_IFBASE, fmm_parse_ports_number, NULL, "N" },
		{ FMM_TOKEN_PTIMEOUT, fmm_parse_ports_number, fmm_release_ports_timeout,
		  "MILLISECONDS" },
		{ FMM_TOKEN_PTRAPS, fmm_parse_ports_number, fmm_release_ports_traps,
		  "PER_SECOND" },
		{ FMM_TOKEN_GUARD, fmm_parse_guard, fmm_release_guards, "OID" },
	};

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		if (on)
			register_config_handler("snmpd", d[i].token, d[i].parse,
						d[i].release, d[i].help);
		else
			unregister_config_handler("snmpd", d[i].token);
	}
}

static void
fmm_register_directives(void)
{
	fmm_directives(true);
	snmp_register_callback(SNMP_CALLBACK_LIBRARY,
			       SNMP_CALLBACK_POST_READ_CONFIG, fmm_post_config,
			       NULL);
}

static void
fmm_unregister_directives(void)
{
	snmp_unregister_callback(SNMP_CALLBACK_LIBRARY,
				 SNMP_CALLBACK_POST_READ_CONFIG, fmm_post_config,
				 NULL, 1);
	fmm_directives(false);
}

static void
fmm_destroy(void)
{
	fmm_release_guards();
	fmp_ports_destroy(fmm.ports);
	fmm.ports = NULL;
	fma_destroy(fmm.set);
	fmm.set = NULL;
	snmp_log(LOG_INFO, "fastmib: snmpd module unloaded\n");
}

/*
 * Called after every configuration read once the module has been
 * unloaded: a reload that dropped the dlmod line is a real unload.
 */
static int
fmm_after_reload(int major, int minor, void *server_arg, void *client_arg)
{
	(void)major;
	(void)minor;
	(void)server_arg;
	(void)client_arg;
	if (!fmm.loaded && fmm.set)
		fmm_destroy();
	return SNMPERR_SUCCESS;
}

/* The same for an unload without a reload (UCD-DLMOD-MIB dlmodStatus). */
static void
fmm_finish_unload(unsigned int reg, void *arg)
{
	(void)reg;
	(void)arg;
	fmm.unload_alarm = 0;
	if (!fmm.loaded && fmm.set)
		fmm_destroy();
}

void
init_fastmib(void)
{
	if (fmm.loaded)
		return;
	if (fmm.unload_alarm)
		snmp_alarm_unregister(fmm.unload_alarm);
	fmm.unload_alarm = 0;
	if (fmm.watching)
		snmp_unregister_callback(SNMP_CALLBACK_LIBRARY,
					 SNMP_CALLBACK_POST_READ_CONFIG,
					 fmm_after_reload, NULL, 1);
	fmm.watching = false;
	if (fmm.set) {
		/* loaded again by a configuration reload: keep serving */
		fmm.loaded = true;
		fmm_register_directives();
		return;
	}
	if (fma_create(&fmm.set) < 0 || fmp_ports_create(&fmm.ports) < 0) {
		fma_destroy(fmm.set);
		fmm.set = NULL;
		snmp_log(LOG_ERR, "fastmib: out of memory, module inactive\n");
		return;
	}
	fmm.pinned = fmm_pin();
	fmm.loaded = true;
	fmm_register_directives();
	snmp_log(LOG_INFO, "fastmib: snmpd module " FASTMIB_VERSION " loaded%s\n",
		 fmm.pinned ? "" : " (not pinned: a reload re-attaches)");
}

/*
 * Everything snmpd holds that points into this object (the directive, the
 * callback, and unless the object is pinned the handlers and the alarm)
 * goes before dlclose().
 */
void
deinit_fastmib(void)
{
	if (!fmm.loaded)
		return;
	fmm.loaded = false;
	fmm_unregister_directives();
	if (!fmm.pinned) {
		fmm_destroy();
		return;
	}
	/* Maybe a reload: the segments named again will be kept. Whether
	 * init_fastmib() follows is known after the configuration is read, or
	 * at the latest when snmpd's main loop runs alarms again. */
	fma_reload_begin(fmm.set);
	fmp_ports_reload_begin(fmm.ports);
	fmm.watching = snmp_register_callback(SNMP_CALLBACK_LIBRARY,
					      SNMP_CALLBACK_POST_READ_CONFIG,
					      fmm_after_reload, NULL) ==
		       SNMPERR_SUCCESS;
	fmm.unload_alarm = snmp_alarm_register(0, 0, fmm_finish_unload, NULL);
	if (!fmm.watching && !fmm.unload_alarm)
		fmm_destroy();
}
