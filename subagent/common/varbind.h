/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Values into Net-SNMP varbinds the way every part of the agent encodes
 * them: one owner for what Net-SNMP's encoder needs of a value.
 */
#ifndef FMA_VARBIND_H
#define FMA_VARBIND_H

#include <stdint.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

/**
 * `vb` becomes the Counter64 `v`. Net-SNMP's struct counter64 holds two
 * halves in unsigned longs and encodes each as 32 bits: each half must be
 * below 2^32, or the encoder truncates it.
 */
static inline void
fma_varbind_counter64(netsnmp_variable_list *vb, uint64_t v)
{
	struct counter64 c64 = { .high = v >> 32, .low = v & 0xffffffffu };

	snmp_set_var_typed_value(vb, ASN_COUNTER64, &c64, sizeof(c64));
}

#endif /* FMA_VARBIND_H */
