/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --ports: the ports of DPDK applications under snmp_exporter's if_mib names
 * (ports_metrics.h). The telemetry client, the port map with its ifIndex and
 * ifName rules (<fastmib/ethdev/...>) and the IF-MIB value of each column
 * (fmp_ifmib, subagent/ports/ifmib.h) are the agent's own: the exporter and
 * the agent give a port the same ifIndex, names, alias and values. The map
 * is read, never written: the agent owns it.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fastmib/ethdev/client.h"
#include "fastmib/ethdev/portmap.h"
#include "fastmib/ethdev/reading.h"
#include "ifmib.h"
#include "log.h"
#include "ports_metrics.h"

/* A scrape waits this long at most for each telemetry answer. */
#define PORTS_TIMEOUT_MS 200u

struct track {
	uint32_t ifindex;
	long pid;                       /* application instance it belongs to */
	struct fmp_ifmib_track t;
};

struct source {
	char path[4096];
	uint32_t base;
	struct fme_tel *tel;
};

struct fme_ports {
	pthread_mutex_t lock;           /* one scrape reads at a time */
	struct source *src;
	unsigned int n_src;
	char (*labels)[FME_PORT_LABEL_MAX];
	struct fme_portmap *map;
	char *state_dir;                /* NULL: no map file */
	struct stat map_st;             /* the file as last loaded */
	/* each allocated on its own: a row holds a pointer to its track while
	 * later ports of the same walk add theirs (an array of tracks grown
	 * by realloc() would move the ones already pointed to) */
	struct track **tracks;
	unsigned int n_tracks;
	struct timespec start;
};

struct row {
	struct fme_port_reading r;
	struct fmp_ifmib_port p;
	char ifname[FME_IFNAME_MAX];
};

/* The IF-MIB name of each column; NULL where snmp_exporter's if_mib gives
 * no metric of its own (the lookups ifDescr, ifName, ifAlias; ifType and
 * ifPhysAddress, written apart; ifSpecific, an OID). */
static const char *const if_names[FMP_IF_LAST + 1] = {
	[FMP_IF_INDEX] = "ifIndex", [FMP_IF_MTU] = "ifMtu", [FMP_IF_SPEED] = "ifSpeed",
	[FMP_IF_ADMIN_STATUS] = "ifAdminStatus", [FMP_IF_OPER_STATUS] = "ifOperStatus",
	[FMP_IF_LAST_CHANGE] = "ifLastChange", [FMP_IF_IN_OCTETS] = "ifInOctets",
	[FMP_IF_IN_UCAST_PKTS] = "ifInUcastPkts", [FMP_IF_IN_NUCAST_PKTS] = "ifInNUcastPkts",
	[FMP_IF_IN_DISCARDS] = "ifInDiscards", [FMP_IF_IN_ERRORS] = "ifInErrors",
	[FMP_IF_IN_UNKNOWN_PROTOS] = "ifInUnknownProtos", [FMP_IF_OUT_OCTETS] = "ifOutOctets",
	[FMP_IF_OUT_UCAST_PKTS] = "ifOutUcastPkts",
	[FMP_IF_OUT_NUCAST_PKTS] = "ifOutNUcastPkts", [FMP_IF_OUT_DISCARDS] = "ifOutDiscards",
	[FMP_IF_OUT_ERRORS] = "ifOutErrors", [FMP_IF_OUT_QLEN] = "ifOutQLen",
};
static const char *const ifx_names[FMP_IFX_LAST + 1] = {
	[FMP_IFX_IN_MULTICAST_PKTS] = "ifInMulticastPkts",
	[FMP_IFX_IN_BROADCAST_PKTS] = "ifInBroadcastPkts",
	[FMP_IFX_OUT_MULTICAST_PKTS] = "ifOutMulticastPkts",
	[FMP_IFX_OUT_BROADCAST_PKTS] = "ifOutBroadcastPkts",
	[FMP_IFX_HC_IN_OCTETS] = "ifHCInOctets", [FMP_IFX_HC_IN_UCAST_PKTS] = "ifHCInUcastPkts",
	[FMP_IFX_HC_IN_MULTICAST_PKTS] = "ifHCInMulticastPkts",
	[FMP_IFX_HC_IN_BROADCAST_PKTS] = "ifHCInBroadcastPkts",
	[FMP_IFX_HC_OUT_OCTETS] = "ifHCOutOctets",
	[FMP_IFX_HC_OUT_UCAST_PKTS] = "ifHCOutUcastPkts",
	[FMP_IFX_HC_OUT_MULTICAST_PKTS] = "ifHCOutMulticastPkts",
	[FMP_IFX_HC_OUT_BROADCAST_PKTS] = "ifHCOutBroadcastPkts",
	[FMP_IFX_LINK_UP_DOWN_TRAP_ENABLE] = "ifLinkUpDownTrapEnable",
	[FMP_IFX_HIGH_SPEED] = "ifHighSpeed", [FMP_IFX_PROMISCUOUS_MODE] = "ifPromiscuousMode",
	[FMP_IFX_CONNECTOR_PRESENT] = "ifConnectorPresent",
	[FMP_IFX_COUNTER_DISCONTINUITY_TIME] = "ifCounterDiscontinuityTime",
};

static uint32_t
now_cs(const struct fme_ports *ps)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint32_t)((t.tv_sec - ps->start.tv_sec) * 100 +
			  (t.tv_nsec - ps->start.tv_nsec) / 10000000);
}

const char *
fme_ports_default_state_dir(void)
{
	struct stat st;

	return stat(FASTMIB_AGENT_STATE_DIR, &st) == 0 ? FASTMIB_AGENT_STATE_DIR : NULL;
}

int
fme_ports_create(char *const *specs, unsigned int n, const char *state_dir,
		 struct fme_ports **portsp)
{
	struct fme_ports *ps = calloc(1, sizeof(*ps));
	const char **paths = calloc(n ? n : 1, sizeof(*paths));
	int rc = -ENOMEM;

	*portsp = NULL;
	if (!ps || !paths)
		goto fail;
	pthread_mutex_init(&ps->lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &ps->start);
	ps->src = calloc(n ? n : 1, sizeof(*ps->src));
	ps->labels = calloc(n ? n : 1, sizeof(*ps->labels));
	if (!ps->src || !ps->labels || fme_portmap_new(&ps->map) < 0)
		goto fail;
	for (unsigned int i = 0; i < n; i++) {
		struct source *s = &ps->src[i];
		uint32_t own = 0;

		rc = fme_port_source_parse(specs[i], s->path, sizeof(s->path), &own);
		if (rc < 0) {
			fme_log(FME_ERROR, "--ports %s: %s", specs[i], rc == -EINVAL
				? "PATH[,BASE] with BASE in 1..2147483647" : strerror(-rc));
			goto fail;
		}
		s->base = own ? own : FME_IFINDEX_BASE;
		rc = fme_tel_new(s->path, &s->tel);
		if (rc < 0)
			goto fail;
		paths[i] = s->path;
		ps->n_src++;
	}
	fme_port_labels(paths, n, ps->labels);
	if (state_dir && !(ps->state_dir = strdup(state_dir)))
		goto fail;
	free(paths);
	*portsp = ps;
	return 0;
fail:
	free(paths);
	fme_ports_destroy(ps);
	return rc;
}

void
fme_ports_destroy(struct fme_ports *ps)
{
	if (!ps)
		return;
	for (unsigned int i = 0; i < ps->n_src; i++)
		fme_tel_free(ps->src[i].tel);
	free(ps->src);
	free(ps->labels);
	for (unsigned int i = 0; i < ps->n_tracks; i++)
		free(ps->tracks[i]);
	free(ps->tracks);
	free(ps->state_dir);
	fme_portmap_free(ps->map);
	pthread_mutex_destroy(&ps->lock);
	free(ps);
}

/* The history of port `ifindex` of application instance `pid`, afresh when
 * the instance is new (NULL: out of memory). */
static struct fmp_ifmib_track *
track_of(struct fme_ports *ps, uint32_t ifindex, long pid)
{
	struct track *t, **grown;

	for (unsigned int i = 0; i < ps->n_tracks; i++) {
		t = ps->tracks[i];
		if (t->ifindex != ifindex)
			continue;
		if (t->pid != pid) {
			t->pid = pid;
			fmp_ifmib_track_reset(&t->t, now_cs(ps));
		}
		return &t->t;
	}
	grown = realloc(ps->tracks, (ps->n_tracks + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	ps->tracks = grown;
	if (!(t = calloc(1, sizeof(*t))))
		return NULL;
	ps->tracks[ps->n_tracks++] = t;
	t->ifindex = ifindex;
	t->pid = pid;
	fmp_ifmib_track_reset(&t->t, 0);
	return &t->t;
}

/* Read every port of source `s` into rows appended to *rows. An
 * application that does not answer has no rows (as in the agent, where its
 * rows are withdrawn), and is tried again at the next scrape. */
static int
read_source(struct fme_ports *ps, unsigned int k, struct row **rows, unsigned int *n)
{
	struct source *s = &ps->src[k];
	struct fme_port_reading *rd;
	struct row *grown;
	int np, rc;

	rc = fme_tel_connect(s->tel, PORTS_TIMEOUT_MS);
	np = rc < 0 ? rc : fme_tel_read_all_ports(s->tel, FME_PORT_ALL, &rd, PORTS_TIMEOUT_MS);
	if (np <= 0) {
		if (np < 0) {
			fme_log(FME_DEBUG, "ports %s: %s", s->path, fme_tel_error(s->tel)[0]
				? fme_tel_error(s->tel) : strerror(-np));
			/* late answers belong to nobody: start afresh next time */
			fme_tel_close(s->tel);
		}
		return np == -ENOMEM ? np : 0;
	}
	grown = realloc(*rows, (*n + (size_t)np) * sizeof(**rows));
	if (!grown) {
		free(rd);
		return -ENOMEM;
	}
	*rows = grown;
	for (int i = 0; i < np; i++) {
		struct row *row = &grown[*n];
		struct fme_portmap_entry *e;
		bool created;
		int err;

		/* a port detached between the list and its reading is left out */
		if (!(rd[i].parts & FME_PORT_INFO))
			continue;
		e = fme_port_ifindex(ps->map, s->path, s->base, rd[i].name,
				     rd[i].mac_ok ? rd[i].mac : NULL, fme_port_kernel_ifindex,
				     NULL, &created, &err);
		if (!e)
			continue;
		memset(row, 0, sizeof(*row));
		row->r = rd[i];
		fme_port_ifname(ps->n_src > 1 ? ps->labels[k] : NULL, rd[i].name, row->ifname,
				sizeof(row->ifname));
		row->p.ifindex = e->ifindex;
		row->p.ifname = row->ifname;
		row->p.device = row->r.name;
		row->p.alias = e->alias;
		row->p.alias_len = e->alias_len;
		row->p.link_traps = e->link_traps;
		row->p.track = track_of(ps, e->ifindex, fme_tel_pid(s->tel));
		if (!row->p.track)
			continue;
		fmp_ifmib_track(row->p.track, &row->r, now_cs(ps));
		(*n)++;
	}
	free(rd);
	return 0;
}

/* Is `s` well-formed UTF-8 (no overlong forms, no surrogates)? */
static bool
utf8_valid(const unsigned char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		unsigned int c = s[i], need = c < 0x80 ? 0 : c >= 0xc2 && c < 0xe0 ? 1
			: c >= 0xe0 && c < 0xf0 ? 2 : c >= 0xf0 && c < 0xf5 ? 3 : 4;

		if (need == 4 || i + need >= len)
			return false;
		for (unsigned int k = 1; k <= need; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
		if ((c == 0xe0 && s[i + 1] < 0xa0) || (c == 0xed && s[i + 1] >= 0xa0) ||
		    (c == 0xf0 && s[i + 1] < 0x90) || (c == 0xf4 && s[i + 1] >= 0x90))
			return false;
		i += need + 1;
	}
	return true;
}

/* A label value: UTF-8 as is, other octets as \xNN (fme_escape); the
 * sink escapes what its format requires. */
static struct fme_label
port_label(const char *name, const void *v, size_t len, char *esc, size_t size)
{
	if (memchr(v, '\0', len) || !utf8_valid(v, len)) {
		fme_escape(v, len, esc, size);
		return (struct fme_label){ name, esc, strlen(esc), false };
	}
	return (struct fme_label){ name, v, len, false };
}

/* The four labels every if_mib series has, in snmp_exporter's order. */
static void
put_labels(struct fme_sink *k, const struct row *row)
{
	char alias[4 * FME_IFALIAS_MAX + 1], descr[4 * FME_IFNAME_MAX + 1];
	char name[4 * FME_IFNAME_MAX + 1], ifindex[12];
	struct fme_label l[4];

	snprintf(ifindex, sizeof(ifindex), "%" PRIu32, row->p.ifindex);
	l[0] = port_label("ifAlias", row->p.alias, row->p.alias_len, alias, sizeof(alias));
	l[1] = port_label("ifDescr", row->ifname, strlen(row->ifname), descr, sizeof(descr));
	l[2] = (struct fme_label){ "ifIndex", ifindex, strlen(ifindex), false };
	l[3] = port_label("ifName", row->ifname, strlen(row->ifname), name, sizeof(name));
	k->labels(k, l, 4);
}

/* An if_mib family; a counter keeps its IF-MIB name (typed `unknown` in
 * OpenMetrics: Prometheus stores what snmp_exporter's text gives). */
static void
family(struct fme_sink *k, struct fme_family *f, const char *name, enum fme_kind kind,
       const char *oid)
{
	char help[128];

	fme_family_names(f, name, kind, kind == FME_K_COUNTER);
	snprintf(help, sizeof(help), "IF-MIB::%s - %s", name, oid);
	k->family(k, f, help, NULL);
}

static void
column(struct fme_sink *k, enum fmp_ifmib_table t, unsigned int col, const char *name,
       struct row *rows, unsigned int n)
{
	struct fme_family f;
	bool head = false;
	char oid[40];

	snprintf(oid, sizeof(oid), t == FMP_IFTABLE ? "1.3.6.1.2.1.2.2.1.%u"
		 : "1.3.6.1.2.1.31.1.1.1.%u", col);
	for (unsigned int i = 0; i < n; i++) {
		struct fmp_ifv v;

		fmp_ifmib_value(t, col, &rows[i].p, &rows[i].r, &v);
		if (v.type == FMP_IFV_NONE || v.type == FMP_IFV_OCTETS ||
		    v.type == FMP_IFV_OID_ZERO)
			continue;
		if (!head) {
			family(k, &f, name, v.type == FMP_IFV_COUNTER32 ||
			       v.type == FMP_IFV_COUNTER64 ? FME_K_COUNTER : FME_K_GAUGE, oid);
			head = true;
		}
		put_labels(k, &rows[i]);
		/* TimeTicks in seconds, as snmp_exporter gives them */
		k->sample(k, f.sample, NULL, (struct fme_value){
			.kind = v.type == FMP_IFV_TIMETICKS ? FME_V_CS : FME_V_U64, .u = v.num });
	}
}

/* ifType as snmp_exporter's EnumAsInfo, ifPhysAddress as its PhysAddress48
 * and ifSpecific (the OID 0.0 for every port) as its OBJECT IDENTIFIER: a
 * label and the value 1. */
static void
info_columns(struct fme_sink *k, struct row *rows, unsigned int n)
{
	const struct fme_value one = { FME_V_U64, 1 };
	struct fme_family f;
	struct fme_label x;
	char mac[18];

	family(k, &f, "ifType", FME_K_INFO, "1.3.6.1.2.1.2.2.1.3");
	x = (struct fme_label){ "ifType", "ethernetCsmacd", 14, false };
	for (unsigned int i = 0; i < n; i++) {
		put_labels(k, &rows[i]);
		k->sample(k, f.sample, &x, one);
	}
	family(k, &f, "ifPhysAddress", FME_K_GAUGE, "1.3.6.1.2.1.2.2.1.6");
	for (unsigned int i = 0; i < n; i++) {
		const uint8_t *m = rows[i].r.mac;

		if (!rows[i].r.mac_ok)
			continue;
		snprintf(mac, sizeof(mac), "%02X:%02X:%02X:%02X:%02X:%02X", m[0], m[1], m[2],
			 m[3], m[4], m[5]);
		x = (struct fme_label){ "ifPhysAddress", mac, 17, false };
		put_labels(k, &rows[i]);
		k->sample(k, f.sample, &x, one);
	}
	family(k, &f, "ifSpecific", FME_K_GAUGE, "1.3.6.1.2.1.2.2.1.22");
	x = (struct fme_label){ "ifSpecific", "0.0", 3, false };
	for (unsigned int i = 0; i < n; i++) {
		put_labels(k, &rows[i]);
		k->sample(k, f.sample, &x, one);
	}
}

/* The agent rewrites its map (a new file renamed over the old one) when it
 * gives a device an ifIndex or an operator sets ifAlias: read it again
 * whenever the file is another. */
static void
reload_map(struct fme_ports *ps)
{
	char path[PATH_MAX];
	struct fme_portmap *map;
	struct stat st;

	if (!ps->state_dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", ps->state_dir, FME_PORTMAP_FILE);
	if (stat(path, &st) != 0)
		memset(&st, 0, sizeof(st));
	if (st.st_ino == ps->map_st.st_ino && st.st_dev == ps->map_st.st_dev &&
	    st.st_size == ps->map_st.st_size &&
	    st.st_mtim.tv_sec == ps->map_st.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == ps->map_st.st_mtim.tv_nsec && ps->map_st.st_ino)
		return;
	if (fme_portmap_new(&map) < 0)
		return;
	if (fme_portmap_load(map, ps->state_dir) < 0 && fme_portmap_errors(map)[0])
		fme_log(FME_WARN, "%s", fme_portmap_errors(map));
	fme_portmap_free(ps->map);
	ps->map = map;
	ps->map_st = st;
}

static int
by_ifindex(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return (x->p.ifindex > y->p.ifindex) - (x->p.ifindex < y->p.ifindex);
}

int
fme_ports_walk(struct fme_ports *ps, struct fme_sink *k)
{
	struct row *rows = NULL;
	unsigned int n = 0;
	int rc = 0;

	pthread_mutex_lock(&ps->lock);
	reload_map(ps);
	for (unsigned int i = 0; i < ps->n_src && !rc; i++)
		rc = read_source(ps, i, &rows, &n);
	/* no port anywhere: rows is NULL, which qsort() must not be given */
	if (!rc && n) {
		qsort(rows, n, sizeof(*rows), by_ifindex);
		for (unsigned int c = 1; n && c <= FMP_IF_LAST; c++)
			if (if_names[c])
				column(k, FMP_IFTABLE, c, if_names[c], rows, n);
		if (n)
			info_columns(k, rows, n);
		for (unsigned int c = 1; n && c <= FMP_IFX_LAST; c++)
			if (ifx_names[c])
				column(k, FMP_IFXTABLE, c, ifx_names[c], rows, n);
	}
	pthread_mutex_unlock(&ps->lock);
	free(rows);
	return rc;
}
