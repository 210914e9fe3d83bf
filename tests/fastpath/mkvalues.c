/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Create a segment of the test model (ts_schema) holding exactly the
 * values given, for the fastmib-stat output tests:
 *
 *   mkvalues PATH [GROUP.COUNTER[.ROW]=VALUE]...
 *
 * ROW is the 0-based row number (0 for a scalar group); a row of a
 * `rows: present` table is enabled when first named, and only then.
 * VALUE is added once, in its own transaction, from the main lcore:
 * a decimal uint64, or a negative number for a gauge (added as its two's
 * complement, as a _sub would). Nothing else is written, so every other
 * counter reads 0. The writer exits: the segment keeps the values.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastmib/fastmib.h"
#include "test_schema.h"
#include "tutil.h"

static int
find(const struct fastmib_schema *sc, const char *spec, unsigned *g, unsigned *c,
     uint32_t *row, uint64_t *v)
{
	char name[2 * FASTMIB_MAX_NAME + 2], *cname, *rest, *eq, *end;

	if (!(eq = strchr(spec, '=')) || (size_t)(eq - spec) >= sizeof(name))
		return -EINVAL;
	memcpy(name, spec, (size_t)(eq - spec));
	name[eq - spec] = '\0';
	if (!(cname = strchr(name, '.')))
		return -EINVAL;
	*cname++ = '\0';
	*row = 0;
	if ((rest = strchr(cname, '.'))) {
		*rest++ = '\0';
		errno = 0;
		*row = (uint32_t)strtoul(rest, &end, 10);
		if (errno || end == rest || *end)
			return -EINVAL;
	}
	errno = 0;
	*v = eq[1] == '-' ? (uint64_t)strtoll(eq + 1, &end, 10) : strtoull(eq + 1, &end, 10);
	if (errno || end == eq + 1 || *end)
		return -EINVAL;
	for (*g = 0; *g < sc->n_groups; (*g)++) {
		const struct fastmib_group_schema *gs = &sc->groups[*g];

		if (strcmp(gs->name, name) != 0)
			continue;
		for (*c = 0; *c < gs->n_counters; (*c)++)
			if (strcmp(gs->counters[*c].name, cname) == 0)
				return *row < gs->n_rows ? 0 : -EINVAL;
	}
	return -EINVAL;
}

int
main(int argc, char **argv)
{
	const struct fastmib_schema *sc = &ts_schema;
	struct fastmib_segment *seg;
	struct fastmib_writer *w;

	if (argc < 2) {
		fprintf(stderr, "usage: mkvalues PATH [GROUP.COUNTER[.ROW]=VALUE]...\n");
		return 2;
	}
	tu_eal_init(argv[0], "0");
	unlink(argv[1]);
	if (fastmib_create(sc, argv[1], NULL, &seg) != 0 || !(w = fastmib_writer(seg))) {
		fprintf(stderr, "mkvalues: %s\n", fastmib_last_error());
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		const struct fastmib_group_schema *gs;
		unsigned g, c;
		uint32_t row;
		uint64_t v;
		size_t off;

		if (find(sc, argv[i], &g, &c, &row, &v) < 0) {
			fprintf(stderr, "mkvalues: '%s': not GROUP.COUNTER[.ROW]=VALUE "
				"of the test model\n", argv[i]);
			return 2;
		}
		gs = &sc->groups[g];
		/* enabling takes the row's value as its zero: before any add */
		if (gs->n_indexes > 0 && !gs->all_rows &&
		    !fastmib_row_present(seg, g, row) && fastmib_row_enable(seg, g, row) != 0) {
			fprintf(stderr, "mkvalues: %s\n", fastmib_last_error());
			return 1;
		}
		off = gs->offset + (size_t)row * gs->row_size + gs->counters[c].offset;
		fastmib_begin(w);
		switch (gs->storage) {
		case FASTMIB_STORAGE_PER_CORE:
			fastmib_pc_add(w, off, v);
			break;
		case FASTMIB_STORAGE_SHARED_BUFFERED:
			fastmib_wb_add(w, off, v);
			break;
		default:
			fastmib_atomic_add(w, off, v);
			break;
		}
		fastmib_end(w);
	}
	fastmib_flush(w);
	fastmib_close(seg);
	rte_eal_cleanup();
	return 0;
}
