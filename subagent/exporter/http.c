/* SPDX-License-Identifier: BSD-3-Clause */
/* fastmib-exporter's HTTP servers (http.h). */
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "expo.h"
#include "http.h"
#include "log.h"

/* Bytes libmicrohttpd asks the scrape for at a time. */
#define FME_HTTP_BLOCK (64 * 1024)

struct fme_http {
	struct fme_webcfg *web;
	struct fme_set *set;
	struct fme_ports *ports;
	const struct fme_families *more;
	const char *path;
	char page[1024 + PATH_MAX]; /* the landing page */
	struct MHD_Daemon *d[FME_MAX_LISTEN];
	unsigned int n;
};

static enum MHD_Result
reply(struct MHD_Connection *c, unsigned int status, const char *type, const char *body)
{
	struct MHD_Response *r =
		MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result rc;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

static ssize_t
scrape_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct fme_scrape *s = cls;
	size_t n;

	(void)pos;
	n = fme_scrape_read(s, buf, max);
	if (n)
		return (ssize_t)n;
	/* a scrape cut short must not look complete: the connection is
	 * closed without the final chunk */
	return fme_scrape_failed(s) ? MHD_CONTENT_READER_END_WITH_ERROR
				    : MHD_CONTENT_READER_END_OF_STREAM;
}

static void
scrape_free(void *cls)
{
	fme_scrape_free(cls);
}

static enum MHD_Result
scrape(struct fme_http *h, struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);
	enum fme_format f = fme_negotiate(accept);
	struct fme_scrape *s = fme_scrape_new(h->set, h->ports, h->more, f);
	struct MHD_Response *r;
	enum MHD_Result rc;

	if (!s)
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain", "out of memory\n");
	r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, FME_HTTP_BLOCK, scrape_read, s,
					      scrape_free);
	if (!r) {
		fme_scrape_free(s);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, fme_content_type(f));
	rc = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return rc;
}

static bool
authorised(struct fme_http *h, struct MHD_Connection *c)
{
	char *user, *pass = NULL;
	bool ok;

	if (!h->web || !h->web->n_users)
		return true;
	user = MHD_basic_auth_get_username_password(c, &pass);
	ok = user && pass && fme_webcfg_check(h->web, user, pass);
	if (user)
		MHD_free(user);
	if (pass)
		MHD_free(pass);
	return ok;
}

static enum MHD_Result
answer(void *cls, struct MHD_Connection *c, const char *url, const char *method,
       const char *version, const char *upload_data, size_t *upload_size, void **con_cls)
{
	struct fme_http *h = cls;
	static int seen;

	(void)version, (void)upload_data;
	if (*con_cls == NULL) { /* the headers are in: answer at the next call */
		*con_cls = &seen;
		return MHD_YES;
	}
	if (*upload_size) { /* a body is not wanted: discard it */
		*upload_size = 0;
		return MHD_YES;
	}
	if (!authorised(h, c)) {
		struct MHD_Response *r = MHD_create_response_from_buffer(
			13, (void *)"Unauthorized\n", MHD_RESPMEM_PERSISTENT);
		enum MHD_Result rc;

		if (!r)
			return MHD_NO;
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain");
		rc = MHD_queue_basic_auth_fail_response(c, FME_APP, r);
		MHD_destroy_response(r);
		return rc;
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", "Method Not Allowed\n");
	if (!strcmp(url, h->path))
		return scrape(h, c);
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", h->page);
	return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", "Not Found\n");
}

static void
mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[512];
	size_t n;

	(void)cls;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = strlen(msg);
	while (n && msg[n - 1] == '\n')
		msg[--n] = '\0';
	fme_log(FME_DEBUG, "http: %s", msg); /* a client's fault, not the exporter's */
}

/* A socket listening on the first address of `host` (NULL: every address
 * of `family`) and `port` that takes one; -errno when none does. */
static int
bind_first(const char *host, const char *port, int family)
{
	struct addrinfo hints = { 0 }, *res = NULL, *ai;
	int fd = -1, err = EADDRNOTAVAIL, one = 1, zero = 0, rc;

	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	hints.ai_family = family;
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc)
		return rc == EAI_SYSTEM ? -errno : -EADDRNOTAVAIL;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		/* every address: IPv4 too, through the IPv6 socket */
		if (ai->ai_family == AF_INET6 && !host)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 128) == 0)
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd >= 0 ? fd : -err;
}

/* A listening socket for HOST:PORT, [HOST]:PORT or :PORT (every address:
 * IPv6 and IPv4, or IPv4 alone where the host has no IPv6). -1 after a
 * log message. */
static int
listen_on(const char *addr)
{
	char host[256];
	const char *colon = strrchr(addr, ':'), *h = addr;
	size_t hl;
	int fd;

	if (!colon || !colon[1]) {
		fme_log(FME_ERROR, "bad listen address '%s' (HOST:PORT or :PORT)", addr);
		return -1;
	}
	hl = (size_t)(colon - addr);
	if (hl >= 2 && addr[0] == '[' && addr[hl - 1] == ']') {
		h++;
		hl -= 2;
	}
	if (hl >= sizeof(host)) {
		fme_log(FME_ERROR, "bad listen address '%s'", addr);
		return -1;
	}
	memcpy(host, h, hl);
	host[hl] = '\0';
	if (hl)
		fd = bind_first(host, colon + 1, AF_UNSPEC);
	else if ((fd = bind_first(NULL, colon + 1, AF_INET6)) < 0 && fd != -EADDRINUSE)
		fd = bind_first(NULL, colon + 1, AF_INET);
	if (fd < 0)
		fme_log(FME_ERROR, "cannot listen on %s: %s", addr, strerror(-fd));
	return fd < 0 ? -1 : fd;
}

int
fme_http_start(const struct fme_options *opt, struct fme_webcfg *web,
	       struct fme_set *set, struct fme_ports *ports,
	       const struct fme_families *more,
	       struct fme_http **httpp)
{
	struct fme_http *h = calloc(1, sizeof(*h));
	bool tls = web && web->cert_pem;
	unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
			     MHD_USE_POLL | MHD_USE_ERROR_LOG | (tls ? MHD_USE_TLS : 0);

	*httpp = h;
	if (!h)
		return -1;
	h->web = web;
	h->set = set;
	h->ports = ports;
	h->more = more;
	h->path = opt->telemetry_path;
	snprintf(h->page, sizeof(h->page),
		 "<!DOCTYPE html>\n<html><head><title>fastmib exporter</title></head>\n"
		 "<body><h1>fastmib exporter</h1>\n"
		 "<p>The counters of fastmib segments, read at each scrape.</p>\n"
		 "<p><a href=\"%s\">Metrics</a></p>\n</body></html>\n", h->path);
	for (unsigned int i = 0; i < opt->n_listen; i++) {
		int fd = listen_on(opt->listen[i]);

		if (fd < 0)
			return -1;
		if (tls)
			h->d[h->n] = MHD_start_daemon(
				flags, 0, NULL, NULL, answer, h, MHD_OPTION_LISTEN_SOCKET, fd,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)FME_HTTP_MAX_CONNECTIONS,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)FME_HTTP_TIMEOUT_S,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)FME_HTTP_REQUEST_MEMORY,
				MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				MHD_OPTION_HTTPS_MEM_CERT, web->cert_pem,
				MHD_OPTION_HTTPS_MEM_KEY, web->key_pem, MHD_OPTION_END);
		else
			h->d[h->n] = MHD_start_daemon(
				flags, 0, NULL, NULL, answer, h, MHD_OPTION_LISTEN_SOCKET, fd,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)FME_HTTP_MAX_CONNECTIONS,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)FME_HTTP_TIMEOUT_S,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)FME_HTTP_REQUEST_MEMORY,
				MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL, MHD_OPTION_END);
		if (!h->d[h->n]) {
			close(fd);
			fme_log(FME_ERROR, "cannot serve HTTP%s on %s", tls ? "S" : "",
				opt->listen[i]);
			return -1;
		}
		h->n++;
		fme_log(FME_INFO, "listening on %s%s", opt->listen[i], tls ? " (TLS)" : "");
	}
	return 0;
}

void
fme_http_stop(struct fme_http *h)
{
	if (!h)
		return;
	for (unsigned int i = 0; i < h->n; i++)
		MHD_stop_daemon(h->d[i]);
	free(h);
}
