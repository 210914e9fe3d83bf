/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the attach/validation path: any byte string written
 * to a file must either be refused with an error or yield a segment whose
 * every group and row can be read, reset and walked without a crash; and
 * a segment that then shrinks under the reader (truncated to a length the
 * input picks), or is replaced at its path, must still only give errors.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "fastmib/reader.h"

static char path[128];

static void
exercise(struct fastmib_segment *seg)
{
	const struct fastmib_schema *s = fastmib_schema(seg);
	struct fastmib_info info;
	uint64_t v[FASTMIB_MAX_COUNTERS];
	int n;

	fastmib_info(seg, &info);
	(void)fastmib_stale(seg);
	(void)fastmib_discontinuity(seg, -1, 0);
	for (unsigned g = 0; g < s->n_groups; g++) {
		n = 0;
		for (int64_t r = fastmib_next_row(seg, g, 0); r >= 0 && n < 64;
		     r = fastmib_next_row(seg, g, (uint32_t)r + 1), n++) {
			(void)fastmib_read(seg, g, (uint32_t)r, v);
			(void)fastmib_read_raw(seg, g, (uint32_t)r, v);
			(void)fastmib_discontinuity(seg, (int)g, (uint32_t)r);
			if ((uint64_t)r + 1 >= s->groups[g].n_rows)
				break;
		}
		(void)fastmib_read(seg, g, s->groups[g].n_rows - 1, v);
	}
	/* The event log: rings, counters and names of any record returned. */
	{
		struct fastmib_event_cursor *cur;
		struct fastmib_event_rec rec[8];

		if (fastmib_event_cursor_new(seg, &cur) == 0) {
			n = fastmib_events_poll(seg, cur, rec, 8);
			for (int i = 0; i < n; i++)
				if (rec[i].event >= s->n_events ||
				    s->events[rec[i].event].name[0] == '\1')
					abort();
			(void)fastmib_event_cursor_dropped(cur);
			fastmib_event_cursor_free(cur);
		}
		for (unsigned e = 0; e <= s->n_events; e++)
			(void)(fastmib_event_logged(seg, e) + fastmib_event_dropped(seg, e));
	}
	/* One reset: a stuck (odd) sequence makes every reset retry for long. */
	(void)fastmib_reset(seg, 0, 0);
}

static void
write_file(const char *p, const uint8_t *data, size_t size)
{
	int fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
}

static void
rewrite(const uint8_t *data, size_t size)
{
	write_file(path, data, size);
}

/* Another file renamed over the path, as a re-created segment is. */
static void
replace(const uint8_t *data, size_t size)
{
	char tmp[80];

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	write_file(tmp, data, size / 2);
	if (rename(tmp, path) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fastmib_segment *seg;

	if (path[0] == '\0') {
		/* the test run's tag (tests/fastpath/tutil.h says why) */
		const char *tag = getenv("FASTMIB_TEST_TAG");

		snprintf(path, sizeof(path), "/dev/shm/fastmib-fuzz-%s-%d",
			 tag != NULL ? tag : "fmt", (int)getpid());
	}
	rewrite(data, size);
	if (fastmib_attach(path, 0, &seg) == 0) {
		exercise(seg);
		/* Replaced at the path: the old mapping stays valid and stale. */
		replace(data, size);
		exercise(seg);
		if (!fastmib_stale(seg))
			abort();
		fastmib_close(seg);
	}
	rewrite(data, size);
	if (fastmib_attach(path, 0, &seg) == 0) {
		/* Truncated under the mapping: SIGBUS past the new end, caught. */
		if (truncate(path, (off_t)(size * (size ? data[size - 1] : 0) / 256)) != 0)
			abort();
		exercise(seg);
		fastmib_close(seg);
	}
	rewrite(data, size);
	if (fastmib_attach(path, FASTMIB_ATTACH_RDONLY, &seg) == 0) {
		exercise(seg);
		fastmib_close(seg);
	}
	unlink(path);
	return 0;
}
