/* SPDX-License-Identifier: BSD-3-Clause */
/* The model file's words for counter types, storage kinds, event
 * argument types and index types, and RFC 4001's names of the address
 * types a keyed table holds (<fastmib/schema.h>). */
#include "fastmib/schema.h"

const char *
fastmib_type_word(uint32_t type)
{
	switch (type) {
	case FASTMIB_COUNTER64:
		return "counter64";
	case FASTMIB_COUNTER32:
		return "counter32";
	case FASTMIB_GAUGE32:
		return "gauge32";
	case FASTMIB_HISTOGRAM:
		return "histogram";
	case FASTMIB_PEAK:
		return "peak";
	}
	return NULL;
}

const char *
fastmib_storage_word(uint32_t storage)
{
	switch (storage) {
	case FASTMIB_STORAGE_PER_CORE:
		return "per-core";
	case FASTMIB_STORAGE_SHARED_BUFFERED:
		return "shared-buffered";
	case FASTMIB_STORAGE_SHARED_ATOMIC:
		return "shared-atomic";
	}
	return NULL;
}

const char *
fastmib_arg_type_word(uint32_t type)
{
	switch (type) {
	case FASTMIB_ARG_UINT32:
		return "uint32";
	case FASTMIB_ARG_INT32:
		return "int32";
	case FASTMIB_ARG_UINT64:
		return "uint64";
	}
	return NULL;
}

const char *
fastmib_index_type_word(uint32_t type)
{
	switch (type) {
	case FASTMIB_INDEX_UINT32:
		return "uint32";
	case FASTMIB_INDEX_IPV4:
		return "ipv4";
	case FASTMIB_INDEX_INET_ADDRESS:
		return "inet-address";
	case FASTMIB_INDEX_MAC:
		return "mac";
	case FASTMIB_INDEX_STRING:
		return "string";
	}
	return NULL; /* FASTMIB_INDEX_INTEGER is written `{ name, max }` */
}

const char *
fastmib_inet_type_word(uint32_t type)
{
	switch (type) {
	case 1:
		return "ipv4";
	case 2:
		return "ipv6";
	}
	return NULL;
}
