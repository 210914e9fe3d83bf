/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Attach: validate a segment file as untrusted input and map it; close,
 * info and staleness. No EAL calls here: readers link this without
 * starting EAL.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guard.h"
#include "handle.h"

static int
area_ok(const char *path, const char *name, struct fms_area a, uint64_t lo,
	uint64_t file_size)
{
	if (a.off < lo || a.off > file_size || a.len > file_size - a.off)
		return fms_error(-EINVAL,
				 "%s: %s area [%llu, +%llu) is outside the file (%llu bytes) or overlaps the previous area",
				 path, name, (unsigned long long)a.off,
				 (unsigned long long)a.len, (unsigned long long)file_size);
	return 0;
}

static int
header_check(const char *path, const struct fms_header *h, uint64_t st_size)
{
	uint64_t ps = (uint64_t)sysconf(_SC_PAGESIZE);
	int rc;

	if (memcmp(h->magic, FMS_MAGIC, sizeof(h->magic)) != 0)
		return fms_error(-EINVAL, "%s: bad magic, not a fastmib segment", path);
	if (h->format != FMS_FORMAT)
		return fms_error(-EPROTONOSUPPORT,
				 "%s: segment format version %u, this library reads version %u",
				 path, h->format, FMS_FORMAT);
	if (h->header_size != FMS_HEADER_SIZE)
		return fms_error(-EINVAL, "%s: header size %u, expected %u", path,
				 h->header_size, FMS_HEADER_SIZE);
	if (h->file_size != st_size)
		return fms_error(-EINVAL, "%s: file size %llu, header says %llu (truncated?)",
				 path, (unsigned long long)st_size,
				 (unsigned long long)h->file_size);
	if (h->n_slots == 0 || h->n_slots > FMS_MAX_SLOTS || h->n_eal_slots > h->n_slots)
		return fms_error(-EINVAL, "%s: %u writer slots (%u EAL) out of range", path,
				 h->n_slots, h->n_eal_slots);
	if (h->page_size < ps || h->page_size > (1ull << 30) ||
	    (h->page_size & (h->page_size - 1)))
		return fms_error(-EINVAL, "%s: bad page size %llu", path,
				 (unsigned long long)h->page_size);
	if (h->schema.off != FMS_HEADER_SIZE)
		return fms_error(-EINVAL, "%s: schema area at %llu, expected %u", path,
				 (unsigned long long)h->schema.off, FMS_HEADER_SIZE);
	if ((rc = area_ok(path, "schema", h->schema, FMS_HEADER_SIZE, st_size)) ||
	    (rc = area_ok(path, "slot", h->slots, h->schema.off + h->schema.len, st_size)) ||
	    (rc = area_ok(path, "shared", h->shared, h->slots.off + h->slots.len, st_size)) ||
	    (rc = area_ok(path, "presence", h->presence, h->shared.off + h->shared.len,
			  st_size)) ||
	    (rc = area_ok(path, "fixed state", h->state_fixed, h->presence.off + h->presence.len,
			  st_size)) ||
	    (rc = area_ok(path, "reset", h->reset, h->state_fixed.off + h->state_fixed.len,
			  st_size)) ||
	    (rc = area_ok(path, "keys", h->keys, h->reset.off + h->reset.len, st_size)) ||
	    (rc = area_ok(path, "state", h->states, h->keys.off + h->keys.len, st_size)) ||
	    (rc = area_ok(path, "data", h->data, h->states.off + h->states.len, st_size)))
		return rc;
	if (h->reset.off % h->page_size || h->reset.len % h->page_size ||
	    h->data.off % h->page_size)
		return fms_error(-EINVAL, "%s: reset or data area not page aligned", path);
	if (h->event_ring && (h->event_ring < FMS_EVENT_RING_MIN ||
			      h->event_ring > FMS_EVENT_RING_MAX ||
			      (h->event_ring & (h->event_ring - 1))))
		return fms_error(-EINVAL, "%s: event ring of %u records is not a power of two in %u..%u",
				 path, h->event_ring, FMS_EVENT_RING_MIN, FMS_EVENT_RING_MAX);
	if (h->event_ring && h->tsc_hz == 0)
		return fms_error(-EINVAL, "%s: event area without a TSC rate", path);
	if (h->schema.len > (64u << 20))
		return fms_error(-EINVAL, "%s: schema area of %llu bytes is implausible", path,
				 (unsigned long long)h->schema.len);
	return 0;
}

static int
area_eq(const char *path, const char *name, struct fms_area h, struct fms_area want)
{
	if (h.off != want.off || h.len != want.len)
		return fms_error(-EINVAL,
				 "%s: %s area [%llu, +%llu) disagrees with the schema's layout [%llu, +%llu)",
				 path, name, (unsigned long long)h.off, (unsigned long long)h.len,
				 (unsigned long long)want.off, (unsigned long long)want.len);
	return 0;
}

static int
layout_check(const char *path, const struct fms_header *h, const struct fms_layout *l)
{
	int rc;

	if ((rc = area_eq(path, "schema", h->schema, l->schema)) ||
	    (rc = area_eq(path, "slot", h->slots, l->slots)) ||
	    (rc = area_eq(path, "shared", h->shared, l->shared)) ||
	    (rc = area_eq(path, "presence", h->presence, l->presence)) ||
	    (rc = area_eq(path, "fixed state", h->state_fixed, l->state_fixed)) ||
	    (rc = area_eq(path, "reset", h->reset, l->reset)) ||
	    (rc = area_eq(path, "keys", h->keys, l->keys)) ||
	    (rc = area_eq(path, "state", h->states, l->states)) ||
	    (rc = area_eq(path, "data", h->data, l->data)))
		return rc;
	if (h->slot_stride != l->slot_stride || h->slot_events != l->slot_events)
		return fms_error(-EINVAL, "%s: slot region of %llu bytes (events at %llu) "
				 "disagrees with the schema's %llu (%llu)", path,
				 (unsigned long long)h->slot_stride,
				 (unsigned long long)h->slot_events,
				 (unsigned long long)l->slot_stride,
				 (unsigned long long)l->slot_events);
	if (h->event_stride != l->event_stride || h->event_ring != l->event_ring)
		return fms_error(-EINVAL, "%s: event area of %llu bytes per slot (%u records) "
				 "disagrees with the schema's %llu (%u)", path,
				 (unsigned long long)h->event_stride, h->event_ring,
				 (unsigned long long)l->event_stride, l->event_ring);
	if (h->fixed_size != l->allocated)
		return fms_error(-EINVAL, "%s: allocated part of %llu bytes disagrees with the "
				 "schema's %llu", path, (unsigned long long)h->fixed_size,
				 (unsigned long long)l->allocated);
	if (h->file_size != l->file_size)
		return fms_error(-EINVAL, "%s: file size %llu disagrees with the schema's %llu",
				 path, (unsigned long long)h->file_size,
				 (unsigned long long)l->file_size);
	return 0;
}

/* Pointers into the mapping; schema, layout, base and size are set. */
static void
handle_finish(struct fastmib_segment *seg)
{
	seg->hdr = (void *)seg->base;
	seg->slots = seg->base + seg->lay.slots.off;
	seg->shared_head = (void *)(seg->base + seg->lay.shared.off);
	seg->shared = seg->base + seg->lay.shared.off + FMS_CACHE_LINE;
	seg->reset_head = (void *)(seg->base + seg->lay.reset.off);
	seg->read_patience_ns = FASTMIB_READ_PATIENCE_NS;
}

void
fms_handle_free(struct fastmib_segment *seg)
{
	if (seg == NULL)
		return;
	if (seg->base)
		munmap(seg->base, seg->size);
	if (seg->fd >= 0)
		close(seg->fd);
	free(seg->lay.groups);
	free(seg->alloc_pages);
	fms_key_orders_free(seg);
	free(seg->obs_local);
	fms_schema_free(seg->schema);
	free(seg->path);
	free(seg);
}

static const char *
file_kind(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a device" :
	       S_ISBLK(m) ? "a device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

int
fms_check_trusted(const char *path, const struct stat *st, const char *what)
{
	uid_t me = geteuid(), dir_owner = (uid_t)-1;
	char *dup = strdup(path);
	struct stat dst;

	if (dup == NULL)
		return fms_error(-ENOMEM, "out of memory");
	/* The owner of the directory that holds the file, when nobody else
	 * can put files there: an application's own runtime directory. */
	if (stat(dirname(dup), &dst) == 0 && S_ISDIR(dst.st_mode) &&
	    !(dst.st_mode & (S_IWGRP | S_IWOTH)))
		dir_owner = dst.st_uid;
	free(dup);
	if (st->st_uid != 0 && st->st_uid != me && st->st_uid != dir_owner)
		return fms_error(-EPERM, "%s: %s owned by uid %u, neither root, this process "
				 "(uid %u) nor the owner of its directory; refused", path, what,
				 (unsigned)st->st_uid, (unsigned)me);
	if (st->st_mode & S_IWOTH)
		return fms_error(-EPERM, "%s: %s writable by every user (mode %03o); refused",
				 path, what, (unsigned)(st->st_mode & 0777));
	return 0;
}

int
fms_open_segment(const char *path, int oflags, int *fdp)
{
	struct stat st;
	int fd, rc;

	*fdp = -1;
	/* O_NONBLOCK: a FIFO at the path would block open() until a writer
	 * came; O_NOFOLLOW: a link could point the reader (or, for the
	 * creator, the retire flag) at another file. */
	fd = open(path, oflags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP)
			return fms_error(-ELOOP, "%s: is a symbolic link; segments are opened "
					 "by their own path only", path);
		return fms_error(-errno, "%s: cannot open: %s", path, strerror(errno));
	}
	if (fstat(fd, &st) < 0) {
		rc = fms_error(-errno, "%s: fstat: %s", path, strerror(errno));
		close(fd);
		return rc;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return fms_error(-EINVAL, "%s: %s, not a segment file; refused", path,
				 file_kind(st.st_mode));
	}
	if ((rc = fms_check_trusted(path, &st, "segment file"))) {
		close(fd);
		return rc;
	}
	*fdp = fd;
	return 0;
}

/*
 * Validate the open file and map it. `writable_all` (creator) maps the
 * whole file read-write; otherwise counter data stay read-only and only
 * the reset area is made writable when `writable_reset`. On success the
 * handle keeps `fd`; on failure the caller still owns it.
 */
int
fms_map_handle(struct fastmib_segment *seg, int fd, const char *path,
	       int writable_all, int writable_reset)
{
	struct fms_header h;
	struct stat st;
	uint8_t *sbuf;
	ssize_t n;
	int rc;

	if (fstat(fd, &st) < 0)
		return fms_error(-errno, "%s: fstat: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return fms_error(-EINVAL, "%s: not a regular file", path);
	if ((uint64_t)st.st_size < sizeof(h))
		return fms_error(-EINVAL, "%s: truncated: %lld bytes, smaller than the header",
				 path, (long long)st.st_size);
	n = pread(fd, &h, sizeof(h), 0);
	if (n != (ssize_t)sizeof(h))
		return fms_error(n < 0 ? -errno : -EIO, "%s: cannot read the header", path);
	if ((rc = header_check(path, &h, (uint64_t)st.st_size)))
		return rc;

	/* Hash and parse a private copy, so later writes cannot race checks. */
	sbuf = malloc(h.schema.len);
	if (sbuf == NULL)
		return fms_error(-ENOMEM, "%s: out of memory", path);
	n = pread(fd, sbuf, h.schema.len, (off_t)h.schema.off);
	if (n != (ssize_t)h.schema.len) {
		free(sbuf);
		return fms_error(-EIO, "%s: cannot read the schema", path);
	}
	if (fms_fnv1a(sbuf, h.schema.len) != h.schema_hash) {
		free(sbuf);
		return fms_error(-EINVAL, "%s: schema hash mismatch (corrupted schema area)", path);
	}
	rc = fms_schema_deserialize(sbuf, h.schema.len, &seg->schema);
	free(sbuf);
	if (rc) {
		char why[512];

		snprintf(why, sizeof(why), "%s", fastmib_last_error());
		return fms_error(rc, "%s: %s", path, why);
	}
	if ((seg->schema->n_events != 0) != (h.event_ring != 0))
		return fms_error(-EINVAL, "%s: %u events but an event ring of %u records",
				 path, seg->schema->n_events, h.event_ring);
	if ((rc = fms_layout_compute(seg->schema, h.n_slots, h.page_size, h.event_ring,
				     &seg->lay)))
		return rc;
	if ((rc = layout_check(path, &h, &seg->lay)))
		return rc;

	seg->size = st.st_size;
	seg->base = mmap(NULL, seg->size, PROT_READ | (writable_all ? PROT_WRITE : 0),
			 MAP_SHARED, fd, 0);
	if (seg->base == MAP_FAILED) {
		seg->base = NULL;
		return fms_error(-errno, "%s: mmap: %s", path, strerror(errno));
	}
	if (!writable_all && writable_reset &&
	    mprotect(seg->base + h.reset.off, h.reset.len, PROT_READ | PROT_WRITE) < 0)
		return fms_error(-errno, "%s: cannot map the reset area writable: %s", path,
				 strerror(errno));
	seg->reset_writable = writable_all || writable_reset;
	if ((rc = fms_guard_install()) < 0)
		return fms_error(rc, "%s: cannot install the SIGBUS handler: %s", path,
				 strerror(-rc));
	seg->fd = fd;
	seg->dev = st.st_dev;
	seg->ino = st.st_ino;
	seg->n_slots = h.n_slots;
	seg->n_eal_slots = h.n_eal_slots;
	seg->path = strdup(path);
	if (seg->path == NULL)
		return fms_error(-ENOMEM, "out of memory");
	handle_finish(seg);
	return 0;
}

int
fastmib_attach(const char *path, int flags, struct fastmib_segment **segp)
{
	int rdonly = flags & FASTMIB_ATTACH_RDONLY;
	struct fastmib_segment *seg;
	int fd, rc;

	if (path == NULL || segp == NULL || (flags & ~FASTMIB_ATTACH_RDONLY))
		return fms_error(-EINVAL, "fastmib_attach: bad arguments");
	rc = fms_open_segment(path, rdonly ? O_RDONLY : O_RDWR, &fd);
	if (rc == -EACCES && !rdonly)
		return fms_error(rc, "%s: cannot open for resets: %s (try FASTMIB_ATTACH_RDONLY)",
				 path, strerror(-rc));
	if (rc)
		return rc;
	seg = calloc(1, sizeof(*seg));
	if (seg == NULL) {
		close(fd);
		return fms_error(-ENOMEM, "out of memory");
	}
	seg->fd = -1;
	rc = fms_map_handle(seg, fd, path, 0, !rdonly);
	if (rc) {
		close(fd);
		fms_handle_free(seg);
		return rc;
	}
	*segp = seg;
	return 0;
}

int
fastmib_attach_checked(const char *path, int flags, uint64_t expected_hash,
		       const char *expected_module, struct fastmib_segment **segp)
{
	struct fastmib_segment *seg;
	int rc;

	if ((rc = fastmib_attach(path, flags, &seg)))
		return rc;
	/* The schema's private copy holds the hash the header had at attach:
	 * no access to the mapping. */
	if (expected_hash != 0 && seg->schema->hash != expected_hash) {
		rc = fms_error(-ESTALE,
			       "%s: schema 0x%016llx (%s) differs from the compiled schema "
			       "0x%016llx%s%s%s; regenerate the code or re-create the segment",
			       path, (unsigned long long)seg->schema->hash, seg->schema->module,
			       (unsigned long long)expected_hash, expected_module ? " (" : "",
			       expected_module ? expected_module : "", expected_module ? ")" : "");
		fastmib_close(seg);
		return rc;
	}
	*segp = seg;
	return 0;
}

void
fastmib_close(struct fastmib_segment *seg)
{
	if (seg == NULL)
		return;
	/* A creator's writers flush before the mapping goes; their threads
	 * must have stopped. */
	if (seg->close_writers)
		seg->close_writers(seg);
	fms_handle_free(seg);
}

const struct fastmib_schema *
fastmib_schema(const struct fastmib_segment *seg)
{
	return seg->schema;
}

static int
read_info(const struct fastmib_segment *seg, struct fastmib_info *info)
{
	const struct fms_header *h = seg->hdr;

	info->format = h->format;
	info->schema_hash = h->schema_hash;
	info->generation = h->generation;
	info->created_ns = h->created_ns;
	info->writer_pid = h->writer_pid;
	info->n_slots = seg->n_slots;
	info->file_size = seg->size;
	info->retired = __atomic_load_n(&h->retired, __ATOMIC_ACQUIRE) != 0;
	info->tsc_hz = h->tsc_hz;
	info->event_ring = h->event_ring;
	info->writer_running = fastmib_writer_running(seg);
	return 0;
}

void
fastmib_info(const struct fastmib_segment *seg, struct fastmib_info *info)
{
	int rc;

	memset(info, 0, sizeof(*info));
	if (fms_faulted(seg))
		return;
	FMS_GUARDED(seg, rc, read_info(seg, info), -EIO);
	(void)rc;
}

static int
retired(const struct fastmib_segment *seg)
{
	return __atomic_load_n(&seg->hdr->retired, __ATOMIC_ACQUIRE) != 0;
}

bool
fastmib_stale(const struct fastmib_segment *seg)
{
	struct stat st;
	int gone;

	if (fms_faulted(seg))
		return true;
	/* Shrunk in place: every access past the new end would fault. */
	if (fstat(seg->fd, &st) < 0 || (uint64_t)st.st_size < seg->size)
		return true;
	FMS_GUARDED(seg, gone, retired(seg), 1);
	if (gone)
		return true;
	/* Replaced or removed at the path (lstat: a link put there is a
	 * replacement too, which the next attach refuses). */
	if (lstat(seg->path, &st) < 0)
		return true;
	return st.st_dev != seg->dev || st.st_ino != seg->ino;
}

/* The creator holds a write lock on byte 0 while it lives (create.c);
 * asking whether a read lock would conflict tests it without taking it. */
bool
fastmib_writer_running(const struct fastmib_segment *seg)
{
	struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };

	if (seg->fd < 0 || fcntl(seg->fd, F_OFD_GETLK, &fl) < 0)
		return false;
	return fl.l_type != F_UNLCK;
}
