/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fault guards: a segment file truncated (or its pages otherwise gone)
 * while a reader has it mapped makes every access past the new end raise
 * SIGBUS, which would kill the reader: the agent, fastmib-stat, or snmpd
 * itself with the module loaded. Every reader entry point that touches a
 * mapping runs it under a guard: a SIGBUS raised by this thread inside the
 * guard, at an address of the guarded mapping, returns to the guard with
 * an error instead, marks the handle faulted (every later call fails at
 * once, fastmib_stale() says true) and leaves the process alone.
 *
 * The handler is installed at attach (again if something replaced it), with SA_NODEFER so that a
 * fault after a jump out of it is not blocked; any other SIGBUS (not ours,
 * or outside a guard) goes to the disposition the process had before, so
 * a host process such as snmpd keeps its own behaviour.
 *
 * Cost: one sigsetjmp without the signal mask (no system call) and two
 * thread-local stores per entry point. The writer's inline fast path is
 * not guarded (docs/operations.md says what that means).
 */
#ifndef FASTMIB_READER_GUARD_H
#define FASTMIB_READER_GUARD_H

#include <setjmp.h>

#include "handle.h"

struct fms_guard {
	sigjmp_buf jb;
	const struct fastmib_segment *seg;
	struct fms_guard *prev;      /* guards nest: the innermost catches */
};

/* Install the SIGBUS handler unless it is in place; 0 or -errno. */
int fms_guard_install(void);
void fms_guard_push(struct fms_guard *g, const struct fastmib_segment *seg);
void fms_guard_pop(struct fms_guard *g);
/* After a jump back to the guard: pop it, mark the handle faulted, set
 * this thread's error message; returns -EIO. */
int fms_guard_fault(struct fms_guard *g);

/*
 * var = expr, evaluated under a guard of seg's mapping; var = on_fault if
 * it faulted. A macro because sigsetjmp() must run in the frame that the
 * jump returns to. Nothing of the caller's that `expr` changes may be read
 * after a fault (it is not volatile).
 */
#define FMS_GUARDED(seg, var, expr, on_fault)                \
	do {                                                 \
		struct fms_guard fms_g_;                     \
		fms_guard_push(&fms_g_, (seg));              \
		if (sigsetjmp(fms_g_.jb, 0) == 0) {          \
			(var) = (expr);                      \
			fms_guard_pop(&fms_g_);              \
		} else {                                     \
			fms_guard_fault(&fms_g_);            \
			(var) = (on_fault);                  \
		}                                            \
	} while (0)

/* The error of a call on a handle that faulted before. */
int fms_faulted_error(const struct fastmib_segment *seg);

static inline bool
fms_faulted(const struct fastmib_segment *seg)
{
	return __atomic_load_n(&seg->faulted, __ATOMIC_RELAXED) != 0;
}

/*
 * Define the public entry point `ret name params` as name##_mapped args
 * (a function of the same file that does the work on the mapping) under a
 * guard of the mapping of `seg`, a parameter of every entry point: on a
 * handle that faulted before it returns `if_faulted` at once, and
 * `on_fault` when this call faults. For example
 *
 *	FMS_GUARDED_ENTRY(bool, fastmib_row_present,
 *			  (const struct fastmib_segment *seg, unsigned group, uint32_t row),
 *			  (seg, group, row), false, false)
 *
 * defines fastmib_row_present(), which calls fastmib_row_present_mapped().
 */
#define FMS_GUARDED_ENTRY(ret, name, params, args, if_faulted, on_fault) \
	ret name params                                                   \
	{                                                                 \
		ret r_;                                                   \
                                                                          \
		if (fms_faulted(seg))                                     \
			return (if_faulted);                              \
		FMS_GUARDED(seg, r_, name##_mapped args, (on_fault));     \
		return r_;                                                \
	}

#endif /* FASTMIB_READER_GUARD_H */
