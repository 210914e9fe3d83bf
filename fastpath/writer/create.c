/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fastmib_create(): build a new segment file under a temporary name and
 * rename it over `path`, so readers never see a half-built file and keep
 * the old inode until they notice it was retired. A re-created segment
 * needs no more room than one: the new file allocates only its fixed part
 * (its lcores' counters come when they claim their slots), and the old
 * one, once retired and its writer gone, gives its counters back at once
 * when the room is needed (release_old()), however long readers keep it
 * mapped.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_lcore.h>

#include "writers.h"

#define DEFAULT_MODE 0640
#define DEFAULT_EXTRA 4
#define DEFAULT_HINT_LIMIT 32

/* Page size for the reset area: the huge page size on hugetlbfs. */
static uint64_t
pick_page_size(const char *path, bool hugepages)
{
	uint64_t ps = (uint64_t)sysconf(_SC_PAGESIZE);
	char *dup = strdup(path);
	struct statfs sf;
	int on_huge;

	if (dup == NULL)
		return ps;
	on_huge = statfs(dirname(dup), &sf) == 0 && (uint64_t)sf.f_type == FMS_HUGETLBFS_MAGIC;
	free(dup);
	if (on_huge)
		return (uint64_t)sf.f_bsize;
	if (hugepages)
		FMS_LOG(NOTICE, "%s is not on a hugetlbfs mount; using normal pages", path);
	return ps;
}

/*
 * Generation of the segment currently at `path` (0 if none). Sets *old_fd
 * to a read-write descriptor of it, to retire it once replaced.
 */
static int
old_generation(const char *path, uint64_t *gen, int *old_fd)
{
	struct fms_header h;
	struct stat st;
	int fd, rc;

	*gen = 0;
	*old_fd = -1;
	/* The same checks as a reader's: a link, a FIFO or a file of another
	 * user at the path is refused, never followed, opened or retired. */
	rc = fms_open_segment(path, O_RDWR, &fd);
	if (rc == -EACCES)
		rc = fms_open_segment(path, O_RDONLY, &fd);
	if (rc == -ENOENT)
		return 0;
	if (rc) {
		char why[512];

		snprintf(why, sizeof(why), "%s", fastmib_last_error());
		return fms_error(-EEXIST, "%s; remove it first (re-creating: %s)", why, path);
	}
	if (fstat(fd, &st) == 0 && st.st_size == 0) {
		close(fd);
		return 0;
	}
	if (pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    memcmp(h.magic, FMS_MAGIC, sizeof(h.magic)) != 0) {
		close(fd);
		return fms_error(-EEXIST, "%s exists and is not a fastmib segment; remove it first",
				 path);
	}
	if (h.format == FMS_FORMAT)
		*gen = h.generation;
	*old_fd = fd;
	return 0;
}

static void
retire(int fd)
{
	struct fms_header *h;

	h = mmap(NULL, sizeof(*h), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED)
		return; /* readers still notice the new inode */
	__atomic_store_n(&h->retired, 1, __ATOMIC_RELEASE);
	munmap(h, sizeof(*h));
}

/* Is the writer of the segment open as `fd` gone (no liveness lock held)? */
static bool
writer_gone(int fd)
{
	struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };

	return fcntl(fd, F_OFD_GETLK, &fl) == 0 && fl.l_type == F_UNLCK;
}

/* Bytes of the file open as `fd` that are allocated. */
static uint64_t
allocated_bytes(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (uint64_t)st.st_blocks * 512 : 0;
}

/*
 * Give back the memory of a retired segment whose writer is gone: its
 * counters, events and reset records are dead (a new segment is at the
 * path), though readers may map it until they notice. First every slot is
 * marked not ready and every stored-baseline bit cleared, so readers stop
 * loading from what follows (they read zeros meanwhile, which the new
 * segment's discontinuity time explains); then the pages are punched out.
 * A reader that loaded a ready flag just before may still touch a hole:
 * on tmpfs that allocates one zero page, or, on a full one, raises SIGBUS,
 * which every reader's fault guard turns into an error answer.
 */
static void
release_old(int fd)
{
	struct fms_header h;
	uint64_t keep;
	uint8_t *base;

	if (pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) || h.format != FMS_FORMAT ||
	    h.fixed_size > h.file_size || h.slots.off + h.slots.len > h.fixed_size ||
	    h.reset.off + sizeof(struct fms_reset) > h.fixed_size || h.page_size == 0)
		return;
	base = mmap(NULL, h.fixed_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return;
	for (uint64_t i = 0; i < h.slots.len / sizeof(struct fms_slot); i++)
		__atomic_store_n(&((struct fms_slot *)(void *)(base + h.slots.off))[i].ready, 0,
				 __ATOMIC_RELEASE);
	/* observations, group times, stored-baseline bits: all that follows
	 * the reset head in the fixed part */
	memset(base + h.reset.off + sizeof(struct fms_reset), 0,
	       h.fixed_size - h.reset.off - sizeof(struct fms_reset));
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	munmap(base, h.fixed_size);
	keep = (h.fixed_size + h.page_size - 1) / h.page_size * h.page_size;
	if (keep < h.file_size &&
	    fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)keep,
		      (off_t)(h.file_size - keep)) < 0)
		FMS_LOG(NOTICE, "the replaced segment keeps its memory until its readers "
			"let go: %s", strerror(errno));
}

/*
 * Room for the new segment on its file system: its fixed part, and every
 * EAL lcore's counters (each lcore claims its slot). When that fits only
 * with what a retired old segment whose writer is gone would give back,
 * *release says it must (with room for both, the old one keeps its values
 * for readers that have not re-attached yet). A tmpfs too small even then
 * is said now, with the size it needs, rather than at a lcore's claim.
 */
static int
check_room(const char *path, const struct fms_layout *lay, uint32_t n_eal_slots,
	   uint64_t reclaimable, bool *release)
{
	char *dup = strdup(path);
	struct statvfs sv;
	uint64_t need = lay->allocated + (uint64_t)n_eal_slots * lay->slot_stride, avail;
	int rc = 0;

	if (dup == NULL)
		return 0;
	*release = false;
	if (statvfs(dirname(dup), &sv) == 0 && sv.f_blocks > 0) {
		avail = (uint64_t)sv.f_bavail * sv.f_frsize;
		if (need > avail && reclaimable) {
			avail += reclaimable;
			*release = true;
		}
		if (need > avail)
			rc = fms_error(-ENOSPC,
				       "%s: %.1f MiB free on its file system%s, but the segment needs "
				       "%.1f MiB (%.1f MiB for each of its %u lcores, %.1f MiB more); "
				       "make it at least %.0f MiB larger (a container's /dev/shm: "
				       "--shm-size, a Kubernetes emptyDir of medium Memory: sizeLimit)",
				       path, (double)avail / 1048576,
				       reclaimable ? ", counting the replaced segment's" : "",
				       (double)need / 1048576, (double)lay->slot_stride / 1048576,
				       n_eal_slots, (double)lay->allocated / 1048576,
				       (double)(need - avail) / 1048576 + 1);
	}
	free(dup);
	return rc;
}

/*
 * TSC rate and one (TSC, CLOCK_REALTIME) pair for converting event
 * timestamps. The pair is the closest of a few tries, so the reading
 * bracket (and the error it adds to every converted time) stays small.
 */
static void
clock_ref(struct fms_clock *c)
{
	uint64_t best = UINT64_MAX;

	c->tsc_hz = rte_get_tsc_hz();
	for (int i = 0; i < 5; i++) {
		uint64_t t0 = rte_rdtsc();
		uint64_t ns = fms_now_ns();
		uint64_t t1 = rte_rdtsc();

		if (t1 - t0 < best) {
			best = t1 - t0;
			c->ref_tsc = t0 + (t1 - t0) / 2;
			c->ref_ns = ns;
		}
	}
}

/*
 * The writer's liveness, as readers see it (fastmib_writer_running()): an
 * open-file-description lock on the first byte of the file, held through
 * the handle's descriptor. The kernel drops it when the process dies
 * (however it dies) or closes the segment, with no heartbeat to miss, no
 * pid that could be reused and nothing that depends on PID namespaces.
 */
static int
hold_liveness_lock(struct fastmib_segment *seg)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };

	if (fcntl(seg->fd, F_OFD_SETLK, &fl) < 0)
		return fms_error(-errno, "%s: cannot take the liveness lock: %s", seg->path,
				 strerror(errno));
	return 0;
}

/*
 * fastmib_opts.group as a gid: a group name, or a number. (gid_t)-1 for
 * none; -EINVAL with a message for a group that does not exist.
 */
static int
group_id(const char *group, gid_t *gid)
{
	struct group gr, *found = NULL;
	char buf[4096], *end;
	unsigned long n;

	*gid = (gid_t)-1;
	if (group == NULL)
		return 0;
	errno = 0;
	n = strtoul(group, &end, 10);
	if (group[0] >= '0' && group[0] <= '9' && *end == '\0' && errno == 0 &&
	    n < (gid_t)-1) {
		*gid = (gid_t)n;
		return 0;
	}
	if (getgrnam_r(group, &gr, buf, sizeof(buf), &found) != 0 || found == NULL)
		return fms_error(-EINVAL, "fastmib_create: group '%s': no such group", group);
	*gid = gr.gr_gid;
	return 0;
}

static int
build_file(struct fastmib_segment *seg, const struct fastmib_schema *schema,
	   const char *path, unsigned mode, gid_t gid, uint64_t page_size,
	   uint64_t generation, uint32_t event_ring, uint64_t reclaimable, bool *release)
{
	struct fms_clock clock;
	int16_t slot_of_lcore[RTE_MAX_LCORE];
	struct fms_layout lay;
	char tmp[4096];
	uint8_t *base;
	unsigned i = 0, lcore;
	int fd, rc;

	if ((rc = fms_layout_compute(schema, seg->n_slots, page_size, event_ring, &lay)))
		return rc;
	if ((rc = check_room(path, &lay, seg->n_eal_slots, reclaimable, release))) {
		free(lay.groups);
		return rc;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid()) >= (int)sizeof(tmp)) {
		free(lay.groups);
		return fms_error(-ENAMETOOLONG, "%s: path too long", path);
	}
	fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0) {
		rc = fms_error(-errno, "%s: cannot create: %s", tmp, strerror(errno));
		free(lay.groups);
		return rc;
	}
	/* the group before the mode: chown() may clear set-id bits */
	if (gid != (gid_t)-1 && fchown(fd, (uid_t)-1, gid) < 0) {
		rc = fms_error(-errno, "%s: cannot give the segment to group %u: %s", path,
			       (unsigned)gid, strerror(errno));
		goto fail;
	}
	if (fchmod(fd, mode) < 0) {
		rc = fms_error(-errno, "%s: chmod: %s", tmp, strerror(errno));
		goto fail;
	}
	/*
	 * The file gets its full size, sparse, and its fixed part (header to
	 * the stored-baseline bitmaps) is allocated now; slot regions and reset records
	 * are allocated when first used (fms_alloc_range()), so memory follows
	 * what is written. Allocating before storing matters: a store to a hole
	 * of a full tmpfs raises SIGBUS in the application, while
	 * posix_fallocate() turns that into this error. (A file system
	 * without fallocate stays sparse.)
	 */
	if (ftruncate(fd, (off_t)lay.file_size) < 0)
		rc = errno;
	else
		rc = posix_fallocate(fd, 0, (off_t)lay.allocated);
	if (rc == EOPNOTSUPP || rc == ENOSYS || rc == EINVAL)
		rc = 0;
	if (rc) {
		rc = fms_error(-rc, "%s: cannot allocate the segment (%llu bytes): %s", path,
			       (unsigned long long)lay.allocated, strerror(rc));
		goto fail;
	}
	base = mmap(NULL, lay.file_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		rc = fms_error(-errno, "%s: mmap: %s", tmp, strerror(errno));
		goto fail;
	}
	clock_ref(&clock);
	fms_image_init(base, &lay, schema, seg->n_slots, seg->n_eal_slots, generation, &clock);
	for (unsigned k = 0; k < RTE_MAX_LCORE; k++)
		slot_of_lcore[k] = -1;
	RTE_LCORE_FOREACH(lcore) {
		struct fms_slot *sl = (struct fms_slot *)(void *)(base + lay.slots.off) + i;

		sl->owner = lcore + 1;
		sl->owner_pid = (uint32_t)getpid();
		slot_of_lcore[lcore] = (int16_t)i++;
	}
	munmap(base, lay.file_size);
	free(lay.groups);
	if (rename(tmp, path) < 0) {
		rc = fms_error(-errno, "%s: cannot rename into place: %s", path, strerror(errno));
		unlink(tmp);
		close(fd);
		return rc;
	}
	/* Map through the validating path: the creator reads what readers read. */
	rc = fms_map_handle(seg, fd, path, 1, 1);
	if (rc) {
		close(fd);
		return rc;
	}
	memcpy(seg->writers->slot_of_lcore, slot_of_lcore, sizeof(slot_of_lcore));
	return hold_liveness_lock(seg);
fail:
	unlink(tmp);
	close(fd);
	free(lay.groups);
	return rc;
}

int
fastmib_create(const struct fastmib_schema *schema, const char *path,
	       const struct fastmib_opts *opts, struct fastmib_segment **segp)
{
	return fastmib_create_checked(schema, 0, path, opts, segp);
}

int
fastmib_create_checked(const struct fastmib_schema *schema, uint64_t expected_hash,
		       const char *path, const struct fastmib_opts *opts,
		       struct fastmib_segment **segp)
{
	struct fastmib_opts o = opts ? *opts : (struct fastmib_opts){0};
	struct fastmib_segment *seg;
	uint64_t gen, hash;
	bool old_gone, release = false;
	int rc, old_fd;
	gid_t gid;

	if (schema == NULL || path == NULL || segp == NULL)
		return fms_error(-EINVAL, "fastmib_create: bad arguments");
	if ((rc = fms_schema_identity(schema, path, &hash)))
		return rc;
	if (expected_hash != 0 && hash != expected_hash)
		return fms_error(-ESTALE,
				 "%s: schema 0x%016llx (%s) differs from the compiled schema "
				 "0x%016llx: %s_schema.c and %s_stats.h come from different "
				 "models or versions; regenerate both and rebuild",
				 path, (unsigned long long)hash, schema->module,
				 (unsigned long long)expected_hash, schema->prefix,
				 schema->prefix);
	if (o.mode == 0)
		o.mode = DEFAULT_MODE;
	if (o.extra_threads == 0)
		o.extra_threads = DEFAULT_EXTRA;
	if (o.hint_limit == 0)
		o.hint_limit = DEFAULT_HINT_LIMIT;
	if (o.event_ring == 0)
		o.event_ring = FASTMIB_EVENT_RING;
	if (o.event_ring < FMS_EVENT_RING_MIN || o.event_ring > FMS_EVENT_RING_MAX ||
	    (o.event_ring & (o.event_ring - 1)))
		return fms_error(-EINVAL, "fastmib_create: event_ring %u must be a power of two in %u..%u",
				 o.event_ring, FMS_EVENT_RING_MIN, FMS_EVENT_RING_MAX);
	if (o.extra_threads > RTE_MAX_LCORE || o.hint_limit > (1u << 24))
		return fms_error(-EINVAL, "fastmib_create: extra_threads %u (max %u) or hint_limit %u out of range",
				 o.extra_threads, RTE_MAX_LCORE, o.hint_limit);
	if (rte_lcore_count() == 0)
		return fms_error(-EINVAL, "fastmib_create: call rte_eal_init() first");
	if ((rc = group_id(o.group, &gid)))
		return rc;

	seg = calloc(1, sizeof(*seg));
	if (seg == NULL)
		return fms_error(-ENOMEM, "out of memory");
	seg->fd = -1;
	seg->creator = 1;
	seg->writers = calloc(1, sizeof(*seg->writers));
	if (seg->writers == NULL) {
		free(seg);
		return fms_error(-ENOMEM, "out of memory");
	}
	seg->close_writers = fms_writers_close;
	rte_spinlock_init(&seg->writers->enable_lock);
	pthread_mutex_init(&seg->writers->key_lock, NULL);
	seg->writers->hint_limit = o.hint_limit;
	seg->n_eal_slots = rte_lcore_count();
	seg->n_slots = seg->n_eal_slots + o.extra_threads;
	if ((rc = old_generation(path, &gen, &old_fd)))
		goto fail;
	old_gone = old_fd >= 0 && writer_gone(old_fd);
	rc = build_file(seg, schema, path, o.mode, gid, pick_page_size(path, o.hugepages),
			gen + 1, o.event_ring, old_gone ? allocated_bytes(old_fd) : 0, &release);
	if (old_fd >= 0) {
		if (rc == 0) {
			retire(old_fd);
			/* only with its writer gone (old_gone): never from under one */
			if (release)
				release_old(old_fd);
		}
		close(old_fd);
	}
	if (rc)
		goto fail;
	FMS_LOG(DEBUG, "created %s: %s generation %llu, %u writer slots, %zu bytes", path,
		schema->module, (unsigned long long)(gen + 1), seg->n_slots, seg->size);
	fms_telemetry_add(seg);
	*segp = seg;
	return 0;
fail:
	fastmib_close(seg);
	return rc;
}
