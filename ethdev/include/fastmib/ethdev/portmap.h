/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * Which ifIndex, ifName, ifAlias and ifLinkUpDownTrapEnable a DPDK port
 * has: the one rule the agent, the snmpd module and fastmib-stat share.
 *
 * A port is known by its application and its device, not by its DPDK port
 * id (ids follow probe order): the application is the source path as
 * configured (a runtime directory or a telemetry socket), the device its
 * ethdev name, which for a PCI device is its PCI address. The port map
 * holds one entry per device ever served: its ifIndex, its alias and its
 * notification setting. A device seen for the first time takes the first
 * ifIndex at or above its source's base that no entry holds (and that is
 * not a kernel interface's, where the caller says so); a device that comes
 * back takes its entry again. A device under a new name whose MAC address
 * is a recorded one (universally administered, the entry not in use now)
 * is that device renamed, e.g. a NIC moved to another slot.
 *
 * The map is kept in the state directory, in the text file
 * FME_PORTMAP_FILE, one line per device; an operator pins an ifIndex
 * by writing a line, forgets one by deleting it (docs/if-mib.md). The file
 * is replaced whole (a new file renamed over it), so a reader never sees
 * half of it.
 */
#ifndef FME_ETHDEV_PORTMAP_H
#define FME_ETHDEV_PORTMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastmib/ethdev/reading.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Default base of new ifIndex values. */
#define FME_IFINDEX_BASE 1000u
/** Largest ifIndex (InterfaceIndex is 1..2147483647). */
#define FME_IFINDEX_MAX  2147483647u
/** ifAlias is at most 64 octets (RFC 2863). */
#define FME_IFALIAS_MAX  64u
/** The map's file in the state directory. */
#define FME_PORTMAP_FILE "fastmib-ports.state"
/** Longest ifName: a source label, '/', the ethdev name. */
#define FME_IFNAME_MAX   (FME_PORT_LABEL_MAX + FME_PORT_NAME_MAX + 1)
#define FME_PORT_LABEL_MAX 40u

/** ifLinkUpDownTrapEnable (RFC 2863). */
#define FME_LINK_TRAPS_ENABLED  1
#define FME_LINK_TRAPS_DISABLED 2

/**
 * Split a source "PATH[,BASE]" into the path and its own ifIndex base (0:
 * none given: the default base applies). Returns 0, or -EINVAL (empty
 * path, BASE not a number in 1..FME_IFINDEX_MAX), -ENAMETOOLONG.
 */
int fme_port_source_parse(const char *spec, char *path, size_t len, uint32_t *own_base);

/**
 * The labels of `n` sources (configured paths), for ifName: the last
 * component of a runtime directory (its DPDK file prefix, e.g. "rte"), or
 * of the directory of a socket; where two would be equal, the later ones
 * get "-2", "-3", ... in order. labels[i] has FME_PORT_LABEL_MAX
 * octets.
 */
void fme_port_labels(const char *const *paths, unsigned int n,
			 char (*labels)[FME_PORT_LABEL_MAX]);

/**
 * ifName (and ifDescr) of device `name`: the name alone when one source
 * is configured (`label` NULL), else "LABEL/NAME", so that two
 * applications with the same device names give distinct names.
 */
void fme_port_ifname(const char *label, const char *name, char *out, size_t size);

/** One device of the map. */
struct fme_portmap_entry {
	char *source;                   /**< configured path */
	char name[FME_PORT_NAME_MAX];
	bool mac_ok;
	uint8_t mac[6];
	uint32_t ifindex;
	uint8_t alias[FME_IFALIAS_MAX];
	size_t alias_len;
	int link_traps;                 /**< FASTMIB_LINK_TRAPS_* */
	bool in_use;                    /**< bound to a port now (the caller's) */
	unsigned int line;              /**< of the file it came from, 0: new */
};

struct fme_portmap;

/** An empty map, not tied to a file yet. 0 or -ENOMEM. */
int fme_portmap_new(struct fme_portmap **mapp);
void fme_portmap_free(struct fme_portmap *map);

/**
 * Read DIR/FME_PORTMAP_FILE into the (empty) map, and save there from
 * now on. A missing file is an empty map. Returns 0, or -EINVAL when some
 * lines are wrong (each reported in fme_portmap_errors(), "FILE:LINE:
 * FIELD: what"; the others are taken, and the map will not overwrite the
 * file, so that an operator's edit is never lost), or another negative
 * errno when the file cannot be read (errors() says why).
 * `dir` NULL: a map kept in memory only.
 */
int fme_portmap_load(struct fme_portmap *map, const char *dir);

/** The load's error messages, one per line ("" when none). */
const char *fme_portmap_errors(const struct fme_portmap *map);

/** The file the map is kept in, or NULL. */
const char *fme_portmap_path(const struct fme_portmap *map);

/**
 * Write the map to its file (a new file, synced, renamed over the old
 * one). 0; -ENOENT when the map has no file; -EINVAL when the file had
 * errors at load; or the errno of the write (errors() says which file).
 */
int fme_portmap_save(struct fme_portmap *map);

/** Entries, in file order then creation order. */
unsigned int fme_portmap_count(const struct fme_portmap *map);
struct fme_portmap_entry *fme_portmap_at(struct fme_portmap *map, unsigned int i);

/** The entry serving `ifindex`, or NULL (for tests: the agent finds a
 * port's entry through the port itself). */
struct fme_portmap_entry *fme_portmap_by_ifindex(struct fme_portmap *map,
							 uint32_t ifindex);

/**
 * Is `ifindex` a kernel network interface's on this host? Where the ports'
 * rows sit beside the kernel's (the agent over AgentX and in snmpd, and
 * fastmib-stat, which shows what they serve), it is the `taken` rule of
 * fme_port_ifindex() (`arg` NULL); `arg` non-NULL receives the
 * interface's name (IF_NAMESIZE octets), for messages.
 */
bool fme_port_kernel_ifindex(uint32_t ifindex, void *arg);

/**
 * The one ifIndex rule: the entry of device `name` (MAC `mac`, NULL when
 * unknown) of source `source`, recorded or new. A new one takes the first
 * ifIndex >= `base` that no entry holds and for which `taken` (may be
 * NULL) says false. *created tells whether it is new (the map then needs
 * saving). NULL when no ifIndex is left (-ENOSPC) or out of memory
 * (-ENOMEM), in *err.
 */
struct fme_portmap_entry *fme_port_ifindex(struct fme_portmap *map,
						   const char *source, uint32_t base,
						   const char *name, const uint8_t *mac,
						   bool (*taken)(uint32_t ifindex, void *arg),
						   void *arg, bool *created, int *err);

#ifdef __cplusplus
}
#endif

#endif /* FME_ETHDEV_PORTMAP_H */
