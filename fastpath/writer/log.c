/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libfastmib's own DPDK logtype, "lib.fastmib", so that an application
 * controls its messages as it does those of DPDK's libraries: the EAL's
 * global --log-level caps it, `--log-level lib.fastmib:debug` (or a
 * pattern such as `lib.*`) sets it. Registered when the library is loaded,
 * like DPDK's own logtypes: EAL options parsed later still apply, and
 * pick_level applies them to a library loaded after rte_eal_init().
 * Default level INFO, the default of DPDK's libraries.
 */
#include <rte_log.h>

#include "writers.h"

RTE_LOG_REGISTER(fms_logtype, lib.fastmib, INFO);
