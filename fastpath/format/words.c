/* SPDX-License-Identifier: BSD-3-Clause */
/* The model file's words for counter types, storage kinds and event
 * argument types (<fastmib/schema.h>). */
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
