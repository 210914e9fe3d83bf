/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Responses too big for the master. A GET of many varbinds can make the
 * subagent's AgentX response bigger than snmpd accepts (64 KiB): snmpd
 * drops it, the manager times out or gets genErr, and for a while snmpd
 * answers noSuchObject for the whole subtree. SNMP's answer is tooBig,
 * which tells the manager to ask for less. Net-SNMP's subagent code
 * builds the response after every handler has run, so no handler can know
 * its final size; the one place that sees it is the transport's send. So
 * the send function of each AgentX session to the master is wrapped: a
 * Response packet over MAX_PACKET leaves as an error
 * response tooBig with no varbinds (error index 1: snmpd turns index 0
 * into genErr), and the session stays up. Nothing else is touched.
 */
#include <stdint.h>
#include <string.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>
#include <net-snmp/agent/agent_callbacks.h>

#include "size.h"

/* Largest AgentX packet the subagent sends; a bigger response becomes an
 * error response tooBig without varbinds. snmpd 5.9 drops an AgentX
 * response over 64 KiB. */
#define MAX_PACKET 65000

/* RFC 2741 section 6.1: header, then the Response PDU payload. */
#define AX_HEADER 20
#define AX_TYPE_RESPONSE 18
#define AX_FLAG_NETWORK_BYTE_ORDER 0x10
#define AX_ERR_TOOBIG 1

static int (*master_send)(netsnmp_transport *, const void *, int, void **, int *);

static void
put16(unsigned char *p, uint16_t v, int network_order)
{
	if (network_order) {
		p[0] = (unsigned char)(v >> 8);
		p[1] = (unsigned char)v;
	} else {
		p[0] = (unsigned char)v;
		p[1] = (unsigned char)(v >> 8);
	}
}

static void
put32(unsigned char *p, uint32_t v, int network_order)
{
	for (int i = 0; i < 4; i++)
		p[network_order ? 3 - i : i] = (unsigned char)(v >> (8 * i));
}

/*
 * The packet that replaces an oversized AgentX Response in `in` (len
 * bytes): the same header fields, error tooBig, index 1, no varbinds.
 * Writes 28 bytes to `out` and returns 28, or 0 when `in` is not a
 * Response (then nothing replaces it). Called by limited_send() only.
 */
static int
toobig(const unsigned char *in, int len, unsigned char *out)
{
	int nbo;

	if (len < AX_HEADER + 4 || in[0] != 1 || in[1] != AX_TYPE_RESPONSE)
		return 0;
	nbo = (in[2] & AX_FLAG_NETWORK_BYTE_ORDER) != 0;
	/* version, type, flags, reserved, sessionID, transactionID, packetID */
	memcpy(out, in, 16);
	put32(out + 16, 8, nbo);                    /* payload length */
	memcpy(out + AX_HEADER, in + AX_HEADER, 4); /* res.sysUpTime */
	put16(out + AX_HEADER + 4, AX_ERR_TOOBIG, nbo);
	put16(out + AX_HEADER + 6, 1, nbo);         /* res.index */
	return AX_HEADER + 8;
}

static int
limited_send(netsnmp_transport *t, const void *buf, int size, void **opaque,
	     int *olength)
{
	unsigned char small[AX_HEADER + 8];
	int n;

	if (size > MAX_PACKET && (n = toobig(buf, size, small)) > 0) {
		snmp_log(LOG_WARNING, "fastmib-agentx: a response of %d bytes is more than "
			 "the master accepts; answered tooBig\n", size);
		/* the caller's count is what it asked to send */
		return master_send(t, small, n, opaque, olength) == n ? size : -1;
	}
	return master_send(t, buf, size, opaque, olength);
}

/* SNMPD_CALLBACK_INDEX_START: an AgentX session to the master is open. */
static int
on_session(int major, int minor, void *serverarg, void *clientarg)
{
	netsnmp_session *ss = serverarg;
	void *sp = ss ? snmp_sess_pointer(ss) : NULL;
	netsnmp_transport *t = sp ? snmp_sess_transport(sp) : NULL;

	(void)major;
	(void)minor;
	(void)clientarg;
	if (t == NULL || t->f_send == limited_send)
		return SNMPERR_SUCCESS;
	master_send = t->f_send;
	t->f_send = limited_send;
	return SNMPERR_SUCCESS;
}

void
fmx_limit_responses(void)
{
	snmp_register_callback(SNMP_CALLBACK_APPLICATION, SNMPD_CALLBACK_INDEX_START,
			       on_session, NULL);
}
