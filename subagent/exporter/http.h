/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib-exporter's HTTP servers (libmicrohttpd), one per listen address:
 * GET of the telemetry path is a scrape (expo.h), GET / a landing page,
 * any other path 404, any other method 405; with basic_auth_users, every
 * request without a matching user and password 401; with a TLS
 * configuration, TLS only.
 *
 * A connection has a thread of its own, with an idle timeout
 * (FME_HTTP_TIMEOUT_S) and a bound on connections at once
 * (FME_HTTP_MAX_CONNECTIONS): a client that sends slowly, reads slowly
 * or not at all holds its own thread, never another client's scrape.
 */
#ifndef FME_HTTP_H
#define FME_HTTP_H

#include "options.h"
#include "segset.h"
#include "webcfg.h"

#define FME_HTTP_TIMEOUT_S 10
#define FME_HTTP_MAX_CONNECTIONS 512
/* Bytes of a request's headers at most (libmicrohttpd answers 431 above) */
#define FME_HTTP_REQUEST_MEMORY (32 * 1024)

struct fme_http;
struct fme_ports;
struct fme_families;

/** Listen on every address of `opt` and serve the segments of `set`, the
 * ports of `ports` and the families of `more` (NULL: none; the push's own
 * series): 0, or -1 after a log message. */
int fme_http_start(const struct fme_options *opt, struct fme_webcfg *web,
		   struct fme_set *set, struct fme_ports *ports,
	       const struct fme_families *more,
		   struct fme_http **httpp);
/** Stop listening and wait for the connections' threads. */
void fme_http_stop(struct fme_http *http);

#endif
