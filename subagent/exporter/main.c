/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-exporter: fastmib segments to Prometheus and OpenMetrics, read
 * at each scrape as the SNMP agent reads them (docs/nms.md).
 *
 *   options.c  the command line and the -c files
 *   webcfg.c   --web.config.file: TLS, basic authentication
 *   segset.c   the segments: attach, re-attach, what a scrape holds
 *   sink.c     what a walk gives a sink: families' names, labels, values
 *   expo.c     the walk and the exposition: snapshots, formats
 *   ports_metrics.c  --ports: DPDK applications' ports as snmp_exporter's if_mib
 *   push.c     --push.url: the same samples to a remote write receiver
 *   rwrite.c   a remote write request (remote.proto) made from one walk
 *   http.c     the HTTP servers (libmicrohttpd)
 *   log.c      the log
 *
 * The main thread only waits for SIGINT or SIGTERM; the HTTP servers, the
 * segment check and the push run in threads of their own, which block every signal.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "http.h"
#include "log.h"
#include "options.h"
#include "ports_metrics.h"
#include "push.h"
#include "segset.h"
#include "sink.h"
#include "webcfg.h"

int
main(int argc, char **argv)
{
	struct fme_options opt;
	struct fme_webcfg web = { 0 };
	struct fme_set *set = NULL;
	struct fme_http *http = NULL;
	struct fme_ports *ports = NULL;
	struct fme_push *push = NULL;
	struct fme_families push_series = { fme_push_give, NULL };
	sigset_t stop;
	int rc = fme_parse_args(argc, argv, &opt), sig = 0;
	char msg[512];

	if (rc >= 0)
		return rc;
	rc = 1;
	if (opt.web_config && fme_webcfg_load(opt.web_config, &web, msg, sizeof(msg)) < 0) {
		fme_log(FME_ERROR, "%s", msg);
		goto out;
	}
	/* blocked before any thread starts: every thread inherits the mask,
	 * and the main thread takes them with sigwait() */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	sigdelset(&stop, SIGPIPE); /* a client gone is no reason to stop */
	if (fme_set_create(&set) < 0)
		goto out;
	for (unsigned int i = 0; i < opt.n_segments; i++)
		fme_set_add(set, opt.segments[i]);
	if (fme_set_start(set) < 0) {
		fme_log(FME_ERROR, "cannot start the segment check");
		goto out;
	}
	if (opt.n_ports && fme_ports_create(opt.ports, opt.n_ports, opt.ports_state_dir
					    ? opt.ports_state_dir : fme_ports_default_state_dir(),
					    &ports) < 0)
		goto out;
	if (opt.push.url && fme_push_start(&opt.push, set, ports, &push) < 0)
		goto out;
	push_series.ctx = push;
	if (fme_http_start(&opt, &web, set, ports, push ? &push_series : NULL, &http) < 0)
		goto out;
	fme_log(FME_INFO, "exporting %u segment(s) and %u ports source(s) at %s",
		fme_set_count(set), opt.n_ports, opt.telemetry_path);
	sigwait(&stop, &sig);
	fme_log(FME_INFO, "signal %d: stopping", sig);
	rc = 0;
out:
	fme_http_stop(http); /* every scrape ends before the segments go */
	fme_push_stop(push);  /* after the scrapes, which show its counters */
	fme_set_destroy(set);
	fme_ports_destroy(ports);
	fme_webcfg_free(&web);
	fme_options_free(&opt);
	return rc;
}
