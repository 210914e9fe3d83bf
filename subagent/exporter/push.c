/* SPDX-License-Identifier: BSD-3-Clause */
/* --push.url: remote write 1.0, a reader and a sender thread (push.h). */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "expo.h"
#include "log.h"
#include "options.h"
#include "push.h"
#include "rwrite.h"

#ifndef FASTMIB_VERSION
#define FASTMIB_VERSION "0.0.0"
#endif

const char *const fme_push_drop_reason[FME_PUSH_DROP_N] = {
	[FME_PUSH_DROP_MAX_AGE] = "max_age",
	[FME_PUSH_DROP_QUEUE_FULL] = "queue_full",
	[FME_PUSH_DROP_REJECTED] = "rejected",
};

/* One request of a read: a compressed WriteRequest of at most
 * FME_RW_MAX_SAMPLES samples. */
struct batch {
	struct batch *next;
	uint8_t *data;
	size_t len;
	uint64_t samples;
	int64_t read_ms; /* when the read began: its oldest sample */
};

struct fme_push {
	struct fme_push_config cfg;
	char shown[512]; /* the URL as logged: without a user and password */
	struct fme_set *set;
	struct fme_ports *ports;
	pthread_t reader, sender;
	bool reader_started, sender_started;

	/* the queue, the counters and `stop`: held only to change or copy
	 * them, never across a read or a request */
	pthread_mutex_t lock;
	pthread_cond_t cond; /* a batch queued, or stop */
	bool stop;           /* also read by curl's progress callback */
	struct batch *head, *tail; /* waiting; the one being sent is out of it */
	struct fme_push_stats st;

	/* the sender's own */
	CURL *curl;
	struct curl_slist *headers;
	char answer[256];  /* the first bytes of the receiver's answer */
	size_t answer_len;
	char error[CURL_ERROR_SIZE];
	bool outage;       /* requests failing since outage_ms */
	int64_t outage_ms;
	uint64_t outage_batches, outage_samples; /* dropped when it began */
	bool rejecting;    /* the last answer was a refusal (logged once) */

	/* the reader's own */
	bool too_big;      /* the last batch was larger than the queue (logged once) */
};

void
fme_push_shown_url(const char *url, char *out, size_t size)
{
	const char *host = strstr(url, "://"), *at, *end;

	host = host ? host + 3 : url;
	end = host + strcspn(host, "/?#");
	at = memchr(host, '@', (size_t)(end - host));
	while (at && memchr(at + 1, '@', (size_t)(end - at - 1)))
		at = memchr(at + 1, '@', (size_t)(end - at - 1));
	if (!at) {
		snprintf(out, size, "%s", url);
		return;
	}
	snprintf(out, size, "%.*s%s", (int)(host - url), url, at + 1);
}

static bool
stopping(struct fme_push *p)
{
	bool stop;

	pthread_mutex_lock(&p->lock);
	stop = p->stop;
	pthread_mutex_unlock(&p->lock);
	return stop;
}

static int64_t
mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int64_t
real_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Wait on the condition until monotonic `deadline_ms` or stop: stop. */
static bool
wait_until(struct fme_push *p, int64_t deadline_ms)
{
	struct timespec t;

	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		int64_t now = mono_ms();

		if (now >= deadline_ms)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t);
		t.tv_sec += (deadline_ms - now) / 1000;
		t.tv_nsec += (long)((deadline_ms - now) % 1000) * 1000000;
		if (t.tv_nsec >= 1000000000) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&p->cond, &p->lock, &t);
	}
	bool stop = p->stop;

	pthread_mutex_unlock(&p->lock);
	return stop;
}

/* Count a batch dropped (the lock held) and free it. */
static void
drop_locked(struct fme_push *p, struct batch *b, enum fme_push_drop why)
{
	p->st.samples_dropped[why] += b->samples;
	p->st.batches_dropped[why]++;
	p->st.queue_bytes -= b->len;
	p->st.queue_samples -= b->samples;
	free(b->data);
	free(b);
}

/* Queue a read; the oldest waiting batches go while it does not fit. */
static void
enqueue(struct fme_push *p, struct batch *b)
{
	size_t len = b->len;
	bool too_big = len > p->cfg.queue_bytes;

	/* a queue smaller than one batch would drop every read unsent: said
	 * once, as it starts, not only counted */
	if (too_big && !p->too_big)
		fme_log(FME_WARN, "push: a batch of %zu bytes is larger than --push.queue-size "
			"(%" PRIu64 " bytes): every batch this large is dropped unsent", len,
			p->cfg.queue_bytes);
	p->too_big = too_big;
	pthread_mutex_lock(&p->lock);
	p->st.samples_read += b->samples;
	p->st.queue_bytes += b->len;
	p->st.queue_samples += b->samples;
	while (p->st.queue_bytes > p->cfg.queue_bytes && p->head) {
		struct batch *old = p->head;

		p->head = old->next;
		if (!p->head)
			p->tail = NULL;
		drop_locked(p, old, FME_PUSH_DROP_QUEUE_FULL);
	}
	if (p->st.queue_bytes > p->cfg.queue_bytes) {
		/* larger than the queue with only the batch being sent in it */
		drop_locked(p, b, FME_PUSH_DROP_QUEUE_FULL);
	} else {
		if (p->tail)
			p->tail->next = b;
		else
			p->head = b;
		p->tail = b;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
}

/* ---- its own series ---- */

/* One family of the push's own, without labels or by reason. */
static void
push_family(struct fme_sink *k, const char *name, enum fme_kind kind, const char *help,
	    const uint64_t *v, bool by_reason)
{
	struct fme_family f;
	struct fme_label x;

	fme_family_names(&f, name, kind, false);
	k->family(k, &f, help, NULL);
	k->labels(k, NULL, 0);
	if (!by_reason) {
		k->sample(k, f.sample, NULL, fme_u64(v[0]));
		return;
	}
	for (unsigned int r = 0; r < FME_PUSH_DROP_N; r++)
		k->sample(k, f.sample, fme_label_str(&x, "reason", fme_push_drop_reason[r]), fme_u64(v[r]));
}

void
fme_push_give(void *push, struct fme_sink *k)
{
	struct fme_push_stats st;

	fme_push_stats(push, &st);
	push_family(k, "fastmib_exporter_push_samples_read_total", FME_K_COUNTER,
		    "Samples read for the remote write (a read is one batch or more).",
		    &st.samples_read, false);
	push_family(k, "fastmib_exporter_push_samples_sent_total", FME_K_COUNTER,
		    "Samples the remote write receiver accepted.", &st.samples_sent, false);
	push_family(k, "fastmib_exporter_push_batches_sent_total", FME_K_COUNTER,
		    "Batches (requests) the remote write receiver accepted.", &st.batches_sent,
		    false);
	push_family(k, "fastmib_exporter_push_samples_dropped_total", FME_K_COUNTER,
		    "Samples never sent: older than --push.max-age (max_age), pushed out of a "
		    "full queue (queue_full), or refused by the receiver with a 4xx other "
		    "than 429 (rejected).", st.samples_dropped, true);
	push_family(k, "fastmib_exporter_push_batches_dropped_total", FME_K_COUNTER,
		    "Batches never sent, by the reason their samples were dropped.",
		    st.batches_dropped, true);
	push_family(k, "fastmib_exporter_push_failures_total", FME_K_COUNTER,
		    "Requests that failed and are tried again: no connection, a timeout, "
		    "a 5xx or 429 answer.", &st.failures, false);
	push_family(k, "fastmib_exporter_push_queue_bytes", FME_K_GAUGE,
		    "Bytes of compressed batches waiting to be sent (the one being sent "
		    "included).", &st.queue_bytes, false);
	push_family(k, "fastmib_exporter_push_queue_samples", FME_K_GAUGE,
		    "Samples of the batches waiting to be sent (the one being sent included).",
		    &st.queue_samples, false);
}

/* ---- the reader ---- */

/* A read being cut into batches: the push, and when the read began. */
struct reading {
	struct fme_push *p;
	int64_t read_ms;
};

/* The request the walk filled so far, compressed and queued as a batch:
 * false when out of memory. */
static bool
queue_request(struct fme_rw *rw, void *ctx)
{
	struct reading *r = ctx;
	struct batch *b = calloc(1, sizeof(*b));

	if (b)
		b->data = fme_rw_compress(rw, &b->len);
	if (!b || !b->data) {
		free(b);
		return false;
	}
	b->read_ms = r->read_ms;
	b->samples = rw->samples;
	enqueue(r->p, b);
	fme_rw_restart(rw);
	return true;
}

/* One read of everything served, queued as batches of at most
 * FME_RW_MAX_SAMPLES samples each as they fill. */
static void
read_batches(struct fme_push *p)
{
	struct fme_families own = { fme_push_give, p };
	struct reading r = { p, real_ms() };
	struct fme_rw rw;

	fme_rw_init(&rw);
	rw.full = queue_request;
	rw.ctx = &r;
	if (fme_walk(p->set, p->ports, &own, &rw.k) < 0 ||
	    (rw.samples && !queue_request(&rw, &r)))
		fme_log(FME_ERROR, "push: out of memory reading a batch");
	fme_rw_free(&rw);
}

static void *
reader_main(void *arg)
{
	struct fme_push *p = arg;
	int64_t next = mono_ms();

	for (;;) {
		int64_t now;

		read_batches(p);
		/* the next read a whole interval on; reads missed while this
		 * one took longer are skipped, not made up */
		next += (int64_t)p->cfg.interval_ms;
		now = mono_ms();
		if (next < now)
			next = now;
		if (wait_until(p, next))
			break;
	}
	return NULL;
}

static size_t
on_answer(char *data, size_t size, size_t n, void *arg)
{
	struct fme_push *p = arg;
	size_t len = size * n, room = sizeof(p->answer) - 1 - p->answer_len;

	memcpy(p->answer + p->answer_len, data, len < room ? len : room);
	p->answer_len += len < room ? len : room;
	p->answer[p->answer_len] = '\0';
	return len;
}

/* A request under way is cut at stop. */
static int
on_progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	(void)dt, (void)dn, (void)ut, (void)un;
	return stopping(arg);
}

enum outcome { SENT, REJECTED, RETRY };

/* Post batch b: SENT (2xx), REJECTED (another answer than 2xx, 429 or
 * 5xx: sending it again cannot help), or RETRY, with the cause in `why`. */
static enum outcome
post(struct fme_push *p, const struct batch *b, char *why, size_t size)
{
	CURLcode rc;
	long code = 0;

	p->answer_len = 0;
	p->answer[0] = '\0';
	p->error[0] = '\0';
	curl_easy_setopt(p->curl, CURLOPT_POSTFIELDS, (const char *)b->data);
	curl_easy_setopt(p->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)b->len);
	rc = curl_easy_perform(p->curl);
	if (rc != CURLE_OK) {
		snprintf(why, size, "%s%s%s", curl_easy_strerror(rc), p->error[0] ? ": " : "",
			 p->error);
		return RETRY;
	}
	curl_easy_getinfo(p->curl, CURLINFO_RESPONSE_CODE, &code);
	if (code >= 200 && code < 300)
		return SENT;
	p->answer[strcspn(p->answer, "\r\n")] = '\0';
	snprintf(why, size, "HTTP %ld%s%s", code, p->answer[0] ? ": " : "", p->answer);
	return code == 429 || code >= 500 ? RETRY : REJECTED;
}

/* The end of an outage: its length and what it dropped, in one line;
 * `back`: the receiver answers again, or else the push stops meanwhile
 * (so that every outage logged as it starts is logged as it ends). */
static void
outage_end(struct fme_push *p, bool back)
{
	uint64_t batches = 0, samples = 0;

	pthread_mutex_lock(&p->lock);
	for (unsigned int r = 0; r < FME_PUSH_DROP_N; r++) {
		batches += p->st.batches_dropped[r];
		samples += p->st.samples_dropped[r];
	}
	pthread_mutex_unlock(&p->lock);
	fme_log(FME_INFO, "push to %s: %s after %.3fs; %" PRIu64 " batches (%" PRIu64
		" samples) dropped meanwhile", p->shown,
		back ? "receiver back" : "stopping, the receiver still failing",
		(double)(mono_ms() - p->outage_ms) / 1000.0, batches - p->outage_batches,
		samples - p->outage_samples);
	p->outage = false;
}

static void
outage_start(struct fme_push *p, const char *why)
{
	p->outage = true;
	p->outage_ms = mono_ms();
	p->outage_batches = p->outage_samples = 0;
	pthread_mutex_lock(&p->lock);
	for (unsigned int r = 0; r < FME_PUSH_DROP_N; r++) {
		p->outage_batches += p->st.batches_dropped[r];
		p->outage_samples += p->st.samples_dropped[r];
	}
	pthread_mutex_unlock(&p->lock);
	fme_log(FME_WARN, "push to %s failing: %s; retrying with backoff up to %us", p->shown,
		why, FME_PUSH_BACKOFF_MAX_MS / 1000);
}

/* Send batch b until it is sent, refused or too old, or at stop. */
static void
send_batch(struct fme_push *p, struct batch *b)
{
	uint64_t backoff = FME_PUSH_BACKOFF_MIN_MS;
	enum fme_push_drop why_drop = FME_PUSH_DROP_N;
	char why[512];

	for (;;) {
		enum outcome o;

		if (real_ms() - b->read_ms > (int64_t)p->cfg.max_age_ms) {
			why_drop = FME_PUSH_DROP_MAX_AGE;
			break;
		}
		o = post(p, b, why, sizeof(why));
		if (o == RETRY && stopping(p))
			break; /* cut at stop: no failure of the receiver's */
		if (o != RETRY && p->outage)
			outage_end(p, true); /* the receiver answers again */
		if (o == SENT) {
			p->rejecting = false;
			break;
		}
		if (o == REJECTED) {
			/* once for a run of refusals, not for every batch */
			fme_log(p->rejecting ? FME_DEBUG : FME_WARN, "push to %s: batch of %" PRIu64
				" samples refused (%s), dropped", p->shown, b->samples, why);
			p->rejecting = true;
			why_drop = FME_PUSH_DROP_REJECTED;
			break;
		}
		pthread_mutex_lock(&p->lock);
		p->st.failures++;
		pthread_mutex_unlock(&p->lock);
		if (!p->outage)
			outage_start(p, why);
		else
			fme_log(FME_DEBUG, "push to %s: still failing: %s", p->shown, why);
		if (wait_until(p, mono_ms() + (int64_t)backoff))
			break;
		backoff = backoff * 2 < FME_PUSH_BACKOFF_MAX_MS ? backoff * 2
								  : FME_PUSH_BACKOFF_MAX_MS;
	}
	pthread_mutex_lock(&p->lock);
	if (why_drop != FME_PUSH_DROP_N) {
		drop_locked(p, b, why_drop);
	} else {
		if (!p->stop) {
			p->st.samples_sent += b->samples;
			p->st.batches_sent++;
		}
		p->st.queue_bytes -= b->len;
		p->st.queue_samples -= b->samples;
		free(b->data);
		free(b);
	}
	pthread_mutex_unlock(&p->lock);
}

static void *
sender_main(void *arg)
{
	struct fme_push *p = arg;

	for (;;) {
		struct batch *b;

		pthread_mutex_lock(&p->lock);
		while (!p->head && !p->stop)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->stop) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		b = p->head;
		p->head = b->next;
		if (!p->head)
			p->tail = NULL;
		b->next = NULL;
		pthread_mutex_unlock(&p->lock);
		send_batch(p, b);
	}
	if (p->outage)
		outage_end(p, false);
	return NULL;
}

static int
curl_setup(struct fme_push *p)
{
	static const char *const headers[] = {
		"Content-Encoding: snappy",
		"Content-Type: application/x-protobuf",
		"X-Prometheus-Remote-Write-Version: 0.1.0",
		"Expect:", /* no 100-continue round trip before a large batch */
	};

	if (!(p->curl = curl_easy_init()))
		return -1;
	for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); i++) {
		struct curl_slist *l = curl_slist_append(p->headers, headers[i]);

		if (!l)
			return -1;
		p->headers = l;
	}
	curl_easy_setopt(p->curl, CURLOPT_URL, p->cfg.url);
	curl_easy_setopt(p->curl, CURLOPT_POST, 1L);
	curl_easy_setopt(p->curl, CURLOPT_HTTPHEADER, p->headers);
	curl_easy_setopt(p->curl, CURLOPT_USERAGENT, FME_APP "/" FASTMIB_VERSION);
	/* the whole request, connection included: a receiver that accepts
	 * and never answers is cut here */
	curl_easy_setopt(p->curl, CURLOPT_TIMEOUT_MS, (long)p->cfg.timeout_ms);
	curl_easy_setopt(p->curl, CURLOPT_NOSIGNAL, 1L); /* threads: no SIGALRM */
	curl_easy_setopt(p->curl, CURLOPT_ERRORBUFFER, p->error);
	curl_easy_setopt(p->curl, CURLOPT_WRITEFUNCTION, on_answer);
	curl_easy_setopt(p->curl, CURLOPT_WRITEDATA, p);
	curl_easy_setopt(p->curl, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(p->curl, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(p->curl, CURLOPT_XFERINFODATA, p);
	return 0;
}

int
fme_push_start(const struct fme_push_config *cfg, struct fme_set *set, struct fme_ports *ports,
	       struct fme_push **pushp)
{
	struct fme_push *p = calloc(1, sizeof(*p));
	int rc;

	*pushp = p;
	if (!p) {
		fme_log(FME_ERROR, "push: out of memory");
		return -1;
	}
	p->cfg = *cfg;
	fme_push_shown_url(cfg->url, p->shown, sizeof(p->shown));
	p->set = set;
	p->ports = ports;
	pthread_mutex_init(&p->lock, NULL);
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&p->cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || curl_setup(p) < 0) {
		fme_log(FME_ERROR, "push to %s: cannot set up libcurl", p->shown);
		return -1;
	}
	rc = pthread_create(&p->sender, NULL, sender_main, p);
	p->sender_started = rc == 0;
	if (!rc) {
		rc = pthread_create(&p->reader, NULL, reader_main, p);
		p->reader_started = rc == 0;
	}
	if (rc) {
		fme_log(FME_ERROR, "push: cannot start its threads: %s", strerror(rc));
		return -1;
	}
	fme_log(FME_INFO, "pushing to %s every %" PRIu64 "ms (timeout %" PRIu64 "ms, max age %"
		PRIu64 "ms, queue %" PRIu64 " bytes)", p->shown, cfg->interval_ms, cfg->timeout_ms,
		cfg->max_age_ms, cfg->queue_bytes);
	return 0;
}

void
fme_push_stats(struct fme_push *p, struct fme_push_stats *st)
{
	pthread_mutex_lock(&p->lock);
	*st = p->st;
	pthread_mutex_unlock(&p->lock);
}

void
fme_push_stop(struct fme_push *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	if (p->reader_started)
		pthread_join(p->reader, NULL);
	if (p->sender_started)
		pthread_join(p->sender, NULL);
	while (p->head) {
		struct batch *b = p->head;

		p->head = b->next;
		free(b->data);
		free(b);
	}
	if (p->curl)
		curl_easy_cleanup(p->curl);
	curl_slist_free_all(p->headers);
	if (p->curl || p->headers)
		curl_global_cleanup();
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
