/* SPDX-License-Identifier: BSD-3-Clause */
/* The EAL's runtime directory, removed at exit (rundir.c says what and why). */
#ifndef EXAMPLE_RUNDIR_H
#define EXAMPLE_RUNDIR_H

/* Before rte_eal_init(): remove this process's runtime files and the
 * directory when the process exits (once rundir_remember() was called). */
void rundir_remove_at_exit(void);

/* Right after a successful rte_eal_init(): which directory, and whether
 * this process is the one that owns it (the primary). */
void rundir_remember(void);

#endif /* EXAMPLE_RUNDIR_H */
