/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-agentx: how its configuration files are read (directives.h):
 * its directives (Net-SNMP handlers), the count of errors while the files
 * are read, and the two settings read before Net-SNMP starts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "connect.h"
#include "directives.h"

#include <net-snmp/agent/net-snmp-agent-includes.h>

/* ---- configuration directives (Net-SNMP handlers) ---- */

/*
 * The one value of a directive: a word, or a quoted string for a path with
 * spaces. A directive never takes a second one: a line such as
 * "segment a b" is an error, not a path "a b" or two segments.
 */
static bool
one_value(const char *token, char *line, char *buf, size_t len)
{
	char *rest;

	if (!line || !*line) {
		netsnmp_config_error("%s needs a value", token);
		return false;
	}
	rest = copy_nword(line, buf, (int)len);
	if (strlen(buf) >= len - 1) {
		netsnmp_config_error("%s: value too long", token);
		return false;
	}
	if (rest && *rest) {
		netsnmp_config_error("%s takes one value, not '%s'", token, line);
		return false;
	}
	if (!*buf) {
		netsnmp_config_error("%s needs a value", token);
		return false;
	}
	return true;
}

static void
dir_segment(const char *token, char *line)
{
	char path[PATH_MAX];

	if (one_value(token, line, path, sizeof(path)))
		fmx_add_segment(fmx_cfg->reading, path, true);
}

static void
dir_ports(const char *token, char *line)
{
	char spec[PATH_MAX + 16];

	if (one_value(token, line, spec, sizeof(spec)))
		fmx_add_ports(fmx_cfg->reading, spec, true);
}

static void
dir_number(const char *token, char *line)
{
	enum fma_setting s = fma_setting_by_token(token);
	char word[64], msg[256];
	long v;

	if (s == FMA_SETTING_COUNT || !one_value(token, line, word, sizeof(word)))
		return;
	if (fma_setting_parse(s, fma_settings[s].token, word, &v, msg,
				  sizeof(msg)) < 0)
		netsnmp_config_error("%s", msg);
	else
		fmx_cfg->reading->num[s] = v; /* a later line wins, as in Net-SNMP */
}

static void
dir_agentx_socket(const char *token, char *line)
{
	struct fmx_values *v = fmx_cfg->reading;
	char sock[PATH_MAX], why[96];

	if (!one_value(token, line, sock, sizeof(sock)))
		return;
	if (fmx_socket_problem(sock, why, sizeof(why))) {
		netsnmp_config_error("bad %s '%s': %s", token, sock, why);
		return;
	}
	free(v->agentx_socket);
	v->agentx_socket = fmx_keep(sock);
}

/*
 * listen and persistentDir/stateDir were taken from the -c files before
 * Net-SNMP started (fmx_config_early()). Here Net-SNMP meets them again: in those
 * files (same value, fine), or in a default file, too late to act on. In
 * a reload, a changed value waits for the next start.
 */
static void
dir_early(const char *token, char *line)
{
	struct fmx_settings *st = fmx_cfg;
	struct fmx_early *e = !strcasecmp(token, "listen") ? &st->listen : &st->state_dir;
	char value[PATH_MAX];

	if (!one_value(token, line, value, sizeof(value)) || e->from_cli)
		return;
	if (e->value && !strcmp(e->value, value))
		return;
	if (st->reloading)
		netsnmp_config_warn("%s changed to '%s': it takes effect when the agent "
				    "restarts", token, value);
	else
		netsnmp_config_error("%s is read from the command line and the -c "
				     "files only (it decides how the agent starts)", token);
}

/* The directives, once: for Net-SNMP's start and for our own reload. */
static struct config_line directives[] = {
	{ "segment", dir_segment, NULL, NULL, NORMAL_CONFIG, "PATH" },
	{ "ports", dir_ports, NULL, NULL, NORMAL_CONFIG, "PATH[,BASE]" },
	{ "agentxSocket", dir_agentx_socket, NULL, NULL, NORMAL_CONFIG, "SOCKET" },
	{ "listen", dir_early, NULL, NULL, NORMAL_CONFIG, "ADDRESS" },
	{ "persistentDir", dir_early, NULL, NULL, NORMAL_CONFIG, "DIR" },
	{ "stateDir", dir_early, NULL, NULL, NORMAL_CONFIG, "DIR" },
};
static struct config_line number_directives[FMA_SETTING_COUNT];

struct config_line *
fmx_directives(void)
{
	static bool linked;
	size_t n = sizeof(directives) / sizeof(directives[0]);

	if (!linked) {
		for (int i = 0; i < FMA_SETTING_COUNT; i++) {
			number_directives[i] = (struct config_line){
				(char *)fma_settings[i].token, dir_number, NULL,
				i + 1 < FMA_SETTING_COUNT ? &number_directives[i + 1] : NULL,
				NORMAL_CONFIG, (char *)"N" };
		}
		for (size_t i = 0; i < n; i++)
			directives[i].next = i + 1 < n ? &directives[i + 1] : number_directives;
		linked = true;
	}
	return directives;
}

void
fmx_register_directives(void)
{
	/* agentxSocket before init_agent(): found ahead of Net-SNMP's own
	 * agentxsocket, so that -x keeps precedence over the files. */
	for (struct config_line *l = fmx_directives(); l; l = l->next)
		register_app_config_handler(l->config_token, l->parse_line, NULL, l->help);
}

/* ---- counting configuration errors ---- */

static int
count_config_error(int major, int minor, void *serverarg, void *clientarg)
{
	const struct snmp_log_message *m = serverarg;

	(void)major, (void)minor, (void)clientarg;
	if (m->priority <= LOG_ERR)
		fmx_cfg->config_errors++;
	return 0;
}

/* Anything logged as an error while the files are read is a configuration
 * error (Net-SNMP's own directives included). */
void
fmx_count_errors_begin(struct fmx_settings *st)
{
	st->config_errors = 0;
	st->error_counter = netsnmp_register_loghandler(NETSNMP_LOGHANDLER_CALLBACK,
							LOG_ERR);
	snmp_register_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_LOGGING,
			       count_config_error, NULL);
}

unsigned int
fmx_count_errors_end(struct fmx_settings *st)
{
	if (st->error_counter)
		netsnmp_remove_loghandler(st->error_counter);
	st->error_counter = NULL;
	snmp_unregister_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_LOGGING,
				 count_config_error, NULL, 1);
	return st->config_errors;
}

/* ---- listen and persistentDir before Net-SNMP starts ---- */

/*
 * One line of a -c file, read before Net-SNMP starts: a listen,
 * persistentDir or stateDir line gives its value unless the command line
 * did, a directive without a value is refused, any other line waits for
 * Net-SNMP (which reads the files again in full). Returns 0, or -1 after
 * a message naming the file and line.
 */
static int
early_line(struct fmx_settings *st, const char *file, unsigned int lineno, char *line,
	   size_t len)
{
	char token[64], value[PATH_MAX], *p, *rest;
	struct fmx_early *e;

	if (strlen(line) != len) {
		/* Net-SNMP's reader would join what follows the NUL to the
		 * next line: the two readings would differ */
		fprintf(stderr, "%s: line %u: Error: a NUL octet in the line\n", file, lineno);
		return -1;
	}
	line[strcspn(line, "\r\n")] = '\0';
	p = skip_white(line);   /* NULL for a blank line or a comment */
	if (!p)
		return 0;
	p = copy_nword(p, token, sizeof(token));
	if (token[0] == '[' && p) /* "[snmp] token value": the token */
		p = copy_nword(p, token, sizeof(token));
	else if (token[0] == '[')
		return 0;               /* a section of its own */
	if (!p) {
		/* Net-SNMP would report it in each of its two passes */
		fprintf(stderr, "%s: line %u: Error: %s needs a value\n", file, lineno,
			token);
		return -1;
	}
	if (!strcasecmp(token, "listen"))
		e = &st->listen;
	else if (!strcasecmp(token, "persistentDir") || !strcasecmp(token, "stateDir"))
		e = &st->state_dir;
	else
		return 0;
	rest = copy_nword(p, value, sizeof(value));
	if (!value[0] || (rest && *rest)) {
		fprintf(stderr, "%s: line %u: Error: %s takes one value\n", file, lineno,
			token);
		return -1;
	}
	if (e->from_cli)
		return 0;
	if (e->value) {
		fprintf(stderr, "%s: line %u: Error: %s given twice (first at %s)\n", file,
			lineno, token, e->origin);
		return -1;
	}
	e->value = fmx_keep(value);
	snprintf(e->origin, sizeof(e->origin), "%s: line %u", file, lineno);
	snprintf(e->token, sizeof(e->token), "%s", token);
	return 0;
}

/* The -c files are comma-separated, as Net-SNMP reads them. */
int
fmx_config_early(struct fmx_settings *st)
{
	char *list, *file, *save = NULL, *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int rc = 0;

	if (!st->config)
		return 0;
	list = fmx_keep(st->config);
	for (file = strtok_r(list, ",", &save); file; file = strtok_r(NULL, ",", &save)) {
		FILE *f = fopen(file, "r");
		unsigned int lineno = 0;

		if (!f) {
			fprintf(stderr, APP ": %s: %s\n", file, strerror(errno));
			rc = -1;
			continue;
		}
		while ((got = getline(&line, &cap, f)) > 0)
			if (early_line(st, file, ++lineno, line, (size_t)got) < 0)
				rc = -1;
		fclose(f);
	}
	free(line);
	free(list);
	return rc;
}
