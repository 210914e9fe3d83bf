/* SPDX-License-Identifier: BSD-3-Clause */
/* fastmib-exporter's command line and -c files (options.h). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <curl/curl.h>
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/library/read_config.h>

#include "log.h"
#include "options.h"

#ifndef FASTMIB_VERSION
#define FASTMIB_VERSION "0.0.0"
#endif

static void
usage(FILE *f)
{
	fprintf(f,
		"Usage: " FME_APP " [OPTIONS] SEGMENT...\n"
		"       " FME_APP " [OPTIONS] --ports PATH[,BASE] [SEGMENT...]\n"
		"       " FME_APP " [OPTIONS] -c FILE [SEGMENT...]\n"
		"Export fastmib counter segments to Prometheus: GET /metrics answers in the\n"
		"Prometheus text format 0.0.4, or in OpenMetrics 1.0 when the scrape's\n"
		"Accept header asks for it; every value read from the segment at the scrape.\n\n"
		"  --web.listen-address ADDR  address to listen on (repeatable; default\n"
		"                             " FME_DEFAULT_LISTEN "): HOST:PORT, [IPV6]:PORT, or :PORT\n"
		"                             for every address\n"
		"  --web.telemetry-path PATH  path of the metrics (default /metrics)\n"
		"  --web.config.file FILE     TLS and basic authentication, in the Prometheus\n"
		"                             exporter-toolkit's format (tls_server_config:\n"
		"                             cert_file, key_file; basic_auth_users: bcrypt)\n"
		"  --log.level LEVEL          debug, info (default), warn or error\n"
		"  -c, --config FILE          read the segment and ports lines of FILE\n"
		"                             (comma-separated list, repeatable), as\n"
		"                             fastmib-agentx does\n"
		"  --ports PATH[,BASE]        the ethdev ports of the DPDK application whose\n"
		"                             telemetry socket (or runtime directory) is PATH,\n"
		"                             under snmp_exporter's if_mib names (repeatable)\n"
		"  --ports.state-dir DIR      fastmib-agentx's state directory, for the ports'\n"
		"                             ifIndex and ifAlias (default\n"
		"                             /var/lib/fastmib-agentx where it exists)\n"
		"  --push.url URL             also send the samples of a scrape to this\n"
		"                             Prometheus remote write 1.0 receiver (http or\n"
		"                             https; user:password@ for basic\n"
		"                             authentication), read every --push.interval\n"
		"  --push.interval DURATION   time between two reads for the push (default\n"
		"                             15s); durations as Prometheus writes them:\n"
		"                             200ms, 15s, 1m30s, 1h\n"
		"  --push.timeout DURATION    a request's time limit (default 10s)\n"
		"  --push.max-age DURATION    samples older than this are dropped unsent\n"
		"                             (default 5m)\n"
		"  --push.queue-size SIZE     bytes of compressed batches held while the\n"
		"                             receiver is away, the oldest dropped beyond\n"
		"                             (default 64MiB; B, KiB, MiB, GiB)\n"
		"  -h, --help                 this text\n"
		"      --version              version\n\n"
		"Segments are named as fastmib-agentx takes them: as arguments, and as\n"
		"`segment PATH` lines of the -c files, in Net-SNMP's configuration syntax\n"
		"(the same file may be the agent's: its other lines are the agent's and\n"
		"Net-SNMP's, and left to them). A segment that is absent or invalid is\n"
		"attached once it is there; a replaced one is attached again.\n");
}

static bool
add_segment(struct fme_options *opt, const char *name, const char *where)
{
	char cwd[PATH_MAX], *abs;

	if (name[0] == '/') {
		abs = strdup(name);
	} else if (!getcwd(cwd, sizeof(cwd))) {
		fprintf(stderr, FME_APP ": %s%s: %s\n", where, name, strerror(errno));
		return false;
	} else if ((abs = malloc(strlen(cwd) + strlen(name) + 2)) != NULL) {
		sprintf(abs, "%s/%s", strcmp(cwd, "/") ? cwd : "", name);
	}
	if (!abs) {
		fprintf(stderr, FME_APP ": out of memory\n");
		return false;
	}
	for (unsigned int i = 0; i < opt->n_segments; i++)
		if (!strcmp(opt->segments[i], abs)) {
			free(abs); /* listed twice: exported once */
			return true;
		}
	if (opt->n_segments == FME_MAX_SEGMENTS) {
		fprintf(stderr, FME_APP ": %ssegment %s: at most %u segments\n", where, name,
			FME_MAX_SEGMENTS);
		free(abs);
		return false;
	}
	opt->segments[opt->n_segments++] = abs;
	return true;
}

/*
 * One line of a -c file. `segment` takes one value, a word or a quoted
 * string, as fastmib-agentx's directive does (Net-SNMP's copy_nword());
 * a `[snmp]` or other section line is Net-SNMP's; every other directive
 * belongs to the agent or to Net-SNMP.
 */
/* A ports source, kept as given: the ports library parses it. Named twice
 * is once, as in the agent. */
static bool
add_ports(struct fme_options *opt, const char *spec, const char *where)
{
	for (unsigned int i = 0; i < opt->n_ports; i++)
		if (!strcmp(opt->ports[i], spec))
			return true;
	if (opt->n_ports == FME_MAX_SEGMENTS) {
		fprintf(stderr, FME_APP ": %sat most %d ports sources\n", where, FME_MAX_SEGMENTS);
		return false;
	}
	if (!(opt->ports[opt->n_ports] = strdup(spec))) {
		fprintf(stderr, FME_APP ": out of memory\n");
		return false;
	}
	opt->n_ports++;
	return true;
}

static bool
config_line(struct fme_options *opt, const char *file, unsigned int lineno, char *line,
	    bool *ports_seen)
{
	char token[64], value[PATH_MAX], where[PATH_MAX + 32], *p, *rest;

	line[strcspn(line, "\r\n")] = '\0';
	p = skip_white(line);
	if (!p || p[0] == '[')
		return true;
	p = copy_nword(p, token, sizeof(token));
	(void)ports_seen;
	if (strcasecmp(token, "segment") && strcasecmp(token, "ports"))
		return true;
	snprintf(where, sizeof(where), "%s: line %u: ", file, lineno);
	if (!p) {
		fprintf(stderr, FME_APP ": %s%s needs a value\n", where, token);
		return false;
	}
	rest = copy_nword(p, value, sizeof(value));
	if (!value[0] || strlen(value) >= sizeof(value) - 1) {
		fprintf(stderr, FME_APP ": %s%s needs a value\n", where, token);
		return false;
	}
	if (rest && *rest) {
		fprintf(stderr, FME_APP ": %s%s takes one value, not '%s'\n", where, token, p);
		return false;
	}
	if (!strcasecmp(token, "ports"))
		return add_ports(opt, value, where);
	return add_segment(opt, value, where);
}

static bool
read_files(struct fme_options *opt, const char *list)
{
	char *copy = strdup(list), *file, *save = NULL, *line = NULL;
	bool ok = copy != NULL, ports = false;
	size_t cap = 0;

	for (file = copy ? strtok_r(copy, ",", &save) : NULL; file;
	     file = strtok_r(NULL, ",", &save)) {
		FILE *f = fopen(file, "r");
		unsigned int lineno = 0;

		if (!f) {
			fprintf(stderr, FME_APP ": %s: %s\n", file, strerror(errno));
			ok = false;
			continue;
		}
		while (getline(&line, &cap, f) > 0)
			ok &= config_line(opt, file, ++lineno, line, &ports);
		fclose(f);
	}
	(void)ports;
	free(line);
	free(copy);
	return ok;
}

enum {
	OPT_LISTEN = 256,
	OPT_PATH,
	OPT_WEB_CONFIG,
	OPT_LOG_LEVEL,
	OPT_VERSION,
	OPT_PORTS,
	OPT_PORTS_STATE,
	OPT_PUSH_URL,
	OPT_PUSH_INTERVAL,
	OPT_PUSH_TIMEOUT,
	OPT_PUSH_MAX_AGE,
	OPT_PUSH_QUEUE,
};

static const struct option longopts[] = {
	{ "web.listen-address", required_argument, NULL, OPT_LISTEN },
	{ "web.telemetry-path", required_argument, NULL, OPT_PATH },
	{ "web.config.file", required_argument, NULL, OPT_WEB_CONFIG },
	{ "log.level", required_argument, NULL, OPT_LOG_LEVEL },
	{ "config", required_argument, NULL, 'c' },
	{ "ports", required_argument, NULL, OPT_PORTS },
	{ "ports.state-dir", required_argument, NULL, OPT_PORTS_STATE },
	{ "push.url", required_argument, NULL, OPT_PUSH_URL },
	{ "push.interval", required_argument, NULL, OPT_PUSH_INTERVAL },
	{ "push.timeout", required_argument, NULL, OPT_PUSH_TIMEOUT },
	{ "push.max-age", required_argument, NULL, OPT_PUSH_MAX_AGE },
	{ "push.queue-size", required_argument, NULL, OPT_PUSH_QUEUE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

int
fme_parse_duration(const char *s, uint64_t *ms)
{
	/* each unit at most once, largest first, as Prometheus has it */
	static const struct {
		const char *unit;
		uint64_t ms;
	} units[] = { { "y", 365ull * 86400000 }, { "w", 7ull * 86400000 }, { "d", 86400000 },
		      { "h", 3600000 }, { "m", 60000 }, { "s", 1000 }, { "ms", 1 } };
	uint64_t total = 0;
	unsigned int next = 0;
	const char *p = s;

	if (!strcmp(s, "0")) {
		*ms = 0;
		return 0;
	}
	if (!*p)
		return -EINVAL;
	while (*p) {
		uint64_t n = 0;
		size_t len;
		unsigned int u;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		while (*p >= '0' && *p <= '9') {
			if (n > (UINT64_MAX - 9) / 10)
				return -EINVAL;
			n = n * 10 + (uint64_t)(*p++ - '0');
		}
		len = strspn(p, "ywdhms");
		for (u = next; u < sizeof(units) / sizeof(units[0]); u++)
			if (strlen(units[u].unit) == len && !strncmp(p, units[u].unit, len))
				break;
		if (u == sizeof(units) / sizeof(units[0]) || n > (UINT64_MAX - total) / units[u].ms)
			return -EINVAL;
		total += n * units[u].ms;
		next = u + 1;
		p += len;
	}
	*ms = total;
	return 0;
}

int
fme_parse_size(const char *s, uint64_t *bytes)
{
	static const struct {
		const char *unit;
		unsigned int shift;
	} units[] = { { "", 0 }, { "B", 0 }, { "KiB", 10 }, { "KB", 10 }, { "MiB", 20 },
		      { "MB", 20 }, { "GiB", 30 }, { "GB", 30 } };
	char *end;
	unsigned long long n;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++)
		if (!strcmp(end, units[u].unit)) {
			if (n > (UINT64_MAX >> units[u].shift))
				return -EINVAL;
			*bytes = (uint64_t)n << units[u].shift;
			return 0;
		}
	return -EINVAL;
}

/* A duration the push can add to a clock: Prometheus' own bound, what
 * nanoseconds fit in an int64 (292 years). */
#define FME_MAX_DURATION_MS ((uint64_t)INT64_MAX / 1000000u)

static bool
duration_arg(const char *name, const char *arg, uint64_t *ms)
{
	if (fme_parse_duration(arg, ms) < 0 || !*ms || *ms > FME_MAX_DURATION_MS) {
		fprintf(stderr, FME_APP ": bad --%s '%s': a duration such as 200ms, 15s, "
			"1m30s, not 0, at most 292y\n", name, arg);
		return false;
	}
	return true;
}

/*
 * --push.url: an http or https URL with a host, checked as libcurl will
 * read it, so that a URL it cannot use stops the start rather than fails
 * every request. The message shows the URL without its password.
 */
static bool
push_url_arg(const char *url)
{
	CURLU *u = curl_url();
	CURLUcode rc = u ? curl_url_set(u, CURLUPART_URL, url, 0) : CURLUE_OUT_OF_MEMORY;
	char *host = NULL, shown[512];
	const char *why = NULL;

	if (rc != CURLUE_OK)
		why = curl_url_strerror(rc);
	else if (strncasecmp(url, "http://", 7) && strncasecmp(url, "https://", 8))
		why = "not http:// or https://";
	else if (curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK || !host[0])
		why = "no host";
	curl_free(host);
	curl_url_cleanup(u);
	if (why) {
		fme_push_shown_url(url, shown, sizeof(shown));
		fprintf(stderr, FME_APP ": bad --push.url '%s': %s (an http:// or https:// URL)\n",
			shown, why);
	}
	return !why;
}

int
fme_parse_args(int argc, char **argv, struct fme_options *opt)
{
	const char *configs[FME_MAX_SEGMENTS];
	unsigned int n_configs = 0;
	int c;

	memset(opt, 0, sizeof(*opt));
	opt->telemetry_path = "/metrics";
	opt->push.interval_ms = FME_PUSH_DEFAULT_INTERVAL_MS;
	opt->push.timeout_ms = FME_PUSH_DEFAULT_TIMEOUT_MS;
	opt->push.max_age_ms = FME_PUSH_DEFAULT_MAX_AGE_MS;
	opt->push.queue_bytes = FME_PUSH_DEFAULT_QUEUE_BYTES;
	while ((c = getopt_long(argc, argv, "c:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_LISTEN:
			if (opt->n_listen == FME_MAX_LISTEN) {
				fprintf(stderr, FME_APP ": at most %d listen addresses\n",
					FME_MAX_LISTEN);
				return 1;
			}
			opt->listen[opt->n_listen++] = optarg;
			break;
		case OPT_PATH:
			if (optarg[0] != '/' || !strcmp(optarg, "/")) {
				fprintf(stderr, FME_APP ": bad --web.telemetry-path '%s': a path "
					"from '/', not '/' itself (the landing page)\n", optarg);
				return 1;
			}
			opt->telemetry_path = optarg;
			break;
		case OPT_WEB_CONFIG:
			opt->web_config = optarg;
			break;
		case OPT_LOG_LEVEL:
			if (fme_log_level(optarg) < 0) {
				fprintf(stderr, FME_APP ": bad --log.level '%s' (debug, info, warn, "
					"error)\n", optarg);
				return 1;
			}
			break;
		case 'c':
			if (n_configs == FME_MAX_SEGMENTS) {
				fprintf(stderr, FME_APP ": too many -c options\n");
				return 1;
			}
			configs[n_configs++] = optarg;
			break;
		case OPT_PORTS:
			if (!add_ports(opt, optarg, "--ports: "))
				return 1;
			break;
		case OPT_PORTS_STATE:
			opt->ports_state_dir = optarg;
			break;
		case OPT_PUSH_URL:
			if (!push_url_arg(optarg))
				return 1;
			opt->push.url = optarg;
			break;
		case OPT_PUSH_INTERVAL:
			if (!duration_arg("push.interval", optarg, &opt->push.interval_ms))
				return 1;
			break;
		case OPT_PUSH_TIMEOUT:
			if (!duration_arg("push.timeout", optarg, &opt->push.timeout_ms))
				return 1;
			break;
		case OPT_PUSH_MAX_AGE:
			if (!duration_arg("push.max-age", optarg, &opt->push.max_age_ms))
				return 1;
			break;
		case OPT_PUSH_QUEUE:
			if (fme_parse_size(optarg, &opt->push.queue_bytes) < 0 ||
			    !opt->push.queue_bytes) {
				fprintf(stderr, FME_APP ": bad --push.queue-size '%s': bytes, "
					"with B, KiB, MiB or GiB\n", optarg);
				return 1;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		case OPT_VERSION:
			printf(FME_APP " " FASTMIB_VERSION "\n");
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (!opt->n_listen)
		opt->listen[opt->n_listen++] = FME_DEFAULT_LISTEN;
	/* the command line's segments first, then the files', as the agent */
	for (int i = optind; i < argc; i++)
		if (!add_segment(opt, argv[i], ""))
			return 1;
	for (unsigned int i = 0; i < n_configs; i++)
		if (!read_files(opt, configs[i]))
			return 1;
	if (!opt->n_segments && !opt->n_ports) {
		fprintf(stderr, FME_APP ": no segment and no --ports given (arguments, or "
			"segment and ports lines of -c files)\n");
		return 1;
	}
	return -1;
}

void
fme_options_free(struct fme_options *opt)
{
	for (unsigned int i = 0; i < opt->n_segments; i++)
		free(opt->segments[i]);
	opt->n_segments = 0;
	for (unsigned int i = 0; i < opt->n_ports; i++)
		free(opt->ports[i]);
	opt->n_ports = 0;
}
