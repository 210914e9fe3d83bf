/* SPDX-License-Identifier: BSD-3-Clause */
/* fastmib-exporter's segments (segset.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "said.h"
#include "segset.h"

struct fme_path {
	char *path;
	struct fme_att *att;   /* NULL while nothing valid is there */
	struct fma_said said;  /* the last failure logged */
};

struct fme_set {
	pthread_mutex_t lock;  /* the paths' attachments */
	struct fme_path paths[FME_MAX_SEGMENTS];
	unsigned int n;
	pthread_t checker;
	bool started;
	bool stop;
	pthread_cond_t wake;
};

static void
att_unref(struct fme_att *a)
{
	if (!a || __atomic_sub_fetch(&a->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	fastmib_close(a->seg);
	pthread_mutex_destroy(&a->health_lock);
	free(a);
}

static void
try_attach(struct fme_path *p)
{
	struct fastmib_segment *seg;
	struct fastmib_info info;
	struct fme_att *a;
	int rc;

	/* read-only: the exporter never resets, and needs no write access */
	rc = fastmib_attach(p->path, FASTMIB_ATTACH_RDONLY, &seg);
	if (rc < 0) {
		if (fma_said_news(&p->said, rc, fastmib_last_error())) {
			if (rc == -ENOENT)
				fme_log(FME_WARN, "%s: segment absent, waiting for it", p->path);
			else
				fme_log(FME_ERROR, "%s: segment refused (%s), retrying", p->path,
					fastmib_last_error());
		}
		return;
	}
	a = calloc(1, sizeof(*a));
	if (!a) {
		fastmib_close(seg);
		return;
	}
	a->refs = 1; /* the set's */
	a->seg = seg;
	a->schema = fastmib_schema(seg);
	pthread_mutex_init(&a->health_lock, NULL);
	fma_said_forget(&p->said);
	fastmib_info(seg, &info);
	fme_log(FME_INFO, "%s: exporting %s (generation %" PRIu64 ")", p->path,
		a->schema->module, info.generation);
	p->att = a;
}

/* Let go of what was replaced or removed, attach what is there. */
static void
check(struct fme_set *set)
{
	pthread_mutex_lock(&set->lock);
	for (unsigned int i = 0; i < set->n; i++) {
		struct fme_path *p = &set->paths[i];

		if (p->att && fastmib_stale(p->att->seg)) {
			fme_log(FME_INFO, "%s: segment replaced, removed or truncated", p->path);
			att_unref(p->att);
			p->att = NULL;
		}
		if (!p->att)
			try_attach(p);
	}
	pthread_mutex_unlock(&set->lock);
}

static void *
checker(void *arg)
{
	struct fme_set *set = arg;
	struct timespec until;

	pthread_mutex_lock(&set->lock);
	while (!set->stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += FME_CHECK_PERIOD_S;
		pthread_cond_timedwait(&set->wake, &set->lock, &until);
		if (set->stop)
			break;
		pthread_mutex_unlock(&set->lock);
		check(set);
		pthread_mutex_lock(&set->lock);
	}
	pthread_mutex_unlock(&set->lock);
	return NULL;
}

int
fme_set_create(struct fme_set **setp)
{
	struct fme_set *set = calloc(1, sizeof(*set));

	*setp = set;
	if (!set)
		return -ENOMEM;
	pthread_mutex_init(&set->lock, NULL);
	pthread_cond_init(&set->wake, NULL);
	return 0;
}

int
fme_set_add(struct fme_set *set, const char *path)
{
	for (unsigned int i = 0; i < set->n; i++)
		if (!strcmp(set->paths[i].path, path))
			return -EEXIST;
	if (set->n == FME_MAX_SEGMENTS)
		return -ENOSPC;
	set->paths[set->n].path = strdup(path);
	if (!set->paths[set->n].path)
		return -ENOMEM;
	set->n++;
	return 0;
}

unsigned int
fme_set_count(const struct fme_set *set)
{
	return set->n;
}

int
fme_set_start(struct fme_set *set)
{
	int rc;

	check(set);
	rc = pthread_create(&set->checker, NULL, checker, set);
	if (rc)
		return -rc;
	set->started = true;
	return 0;
}

void
fme_set_destroy(struct fme_set *set)
{
	if (!set)
		return;
	if (set->started) {
		pthread_mutex_lock(&set->lock);
		set->stop = true;
		pthread_cond_signal(&set->wake);
		pthread_mutex_unlock(&set->lock);
		pthread_join(set->checker, NULL);
	}
	for (unsigned int i = 0; i < set->n; i++) {
		att_unref(set->paths[i].att);
		free(set->paths[i].path);
	}
	pthread_cond_destroy(&set->wake);
	pthread_mutex_destroy(&set->lock);
	free(set);
}

void
fme_set_view(struct fme_set *set, struct fme_view *view)
{
	pthread_mutex_lock(&set->lock);
	view->n = set->n;
	for (unsigned int i = 0; i < set->n; i++) {
		struct fme_att *a = set->paths[i].att;

		if (a)
			__atomic_add_fetch(&a->refs, 1, __ATOMIC_RELAXED);
		view->paths[i] = set->paths[i].path; /* paths live as long as the set */
		view->atts[i] = a;
	}
	pthread_mutex_unlock(&set->lock);
}

void
fme_view_release(struct fme_view *view)
{
	for (unsigned int i = 0; i < view->n; i++)
		att_unref(view->atts[i]);
	view->n = 0;
}
