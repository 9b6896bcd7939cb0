/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim data path: pure helpers for send WQEs, segmentation, checksums,
 * RSS, CQEs and striding RQ placement.  No state of the core, no QEMU:
 * everything the guest controls is passed in and bounds-checked here.
 *
 *   cx_wqe.c    send WQE decoder (SEND, LSO, ENHANCED_MPSW, NOP)
 *   cx_lso.c    TCP/UDP segmentation of an LSO super-packet
 *   cx_csum.c   Internet checksum, TX checksum offload, RX classification
 *   cx_rss.c    frame parser and Toeplitz hash as a TIR selects it
 *   cx_cqe.c    CQE images (TX, TX error, RX, striding RX), owner bits and
 *               compressed blocks
 *   cx_mpwrq.c  striding RQ placement (strides, filler CQEs)
 *   cx_lro.c    LRO sessions: which TCP segments join one, its CQE fields
 *
 * Byte order: frames and WQE/CQE images are in wire/device order (big
 * endian); every integer in these structs is in host order.
 */
#ifndef CX_DATAPATH_H
#define CX_DATAPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Guest memory read: 0 on success, negative on failure. */
typedef int (*cx_dp_read_fn)(void *ctx, uint64_t addr, void *buf, size_t len);

/* ------------------------------------------------------------------ */
/* Frame parser (cx_rss.c)                                             */

enum cx_l3 { CX_L3_NONE, CX_L3_IPV4, CX_L3_IPV6 };
enum cx_l4 { CX_L4_NONE, CX_L4_TCP, CX_L4_UDP, CX_L4_OTHER };

#define CX_ETH_HLEN		14
#define CX_VLAN_HLEN		4
#define CX_ETH_ZLEN		60
#define CX_PKT_MAX_VLANS	2

struct cx_pkt {
	uint16_t ethertype;	/* innermost, after the VLAN tags */
	uint8_t nvlans;		/* 802.1Q/802.1ad tags seen (<= 2) */
	uint16_t vlan_tpid;	/* outermost tag */
	uint16_t vlan_tci;
	uint16_t l3_off;	/* 14 + 4 * nvlans */
	enum cx_l3 l3;
	uint16_t l3_hlen;	/* IPv4 IHL * 4, IPv6 40 + extension headers */
	uint32_t ip_end;	/* l3_off + IP total length (<= frame length) */
	bool ip_trunc;		/* IP length field larger than the frame */
	bool frag;		/* IPv4 MF/offset or IPv6 fragment header */
	bool first_frag;	/* no fragment, or offset 0 (L4 header present) */
	uint8_t l4_proto;	/* IPPROTO_* */
	enum cx_l4 l4;		/* TCP/UDP only when the header is complete */
	uint16_t l4_off;
	uint16_t l4_hlen;	/* TCP data offset * 4, 8 for UDP */
};

/* Parse L2 (up to two VLAN tags), IPv4/IPv6 (with extension headers), L4.
 * Never reads past @len.  Returns 0 (even for non-IP frames; see ->l3). */
int cx_pkt_parse(const uint8_t *frame, size_t len, struct cx_pkt *pkt);

/*
 * Parse an IP packet of @ethertype (0x0800, 0x86dd) at @l3_off, with no
 * Ethernet header before it (the inner packet of GRE or IP-in-IP), as
 * cx_pkt_parse() parses what follows the Ethernet header.  Returns -1
 * when there is no such IP header there.
 */
int cx_pkt_parse_l3(const uint8_t *frame, size_t len, uint16_t l3_off,
		    uint16_t ethertype, struct cx_pkt *pkt);

/*
 * Parse an IPv4 (or, with @ipv6, IPv6) header at @l3_off and, when
 * @l4_off is not 0, a TCP (or, with @udp, UDP) header at @l4_off, as
 * told rather than as found: the software parser's offsets.  Returns -1
 * when the IP header is not there or @l4_off is not inside its packet.
 */
int cx_pkt_parse_at(const uint8_t *frame, size_t len, uint16_t l3_off,
		    bool ipv6, uint16_t l4_off, bool udp, struct cx_pkt *pkt);

/* ------------------------------------------------------------------ */
/* Checksums (cx_csum.c)                                               */

/* Add @len bytes as big-endian 16-bit words (from an even offset). */
uint32_t cx_csum_add(uint32_t sum, const void *buf, size_t len);
/* Fold a partial sum to 16 bits (not complemented). */
uint16_t cx_csum_fold(uint32_t sum);
/* Pseudo-header sum of @pkt's L3 for an L4 segment of @l4_len bytes. */
uint32_t cx_csum_pseudo(const uint8_t *frame, const struct cx_pkt *pkt,
			uint32_t l4_len);

/*
 * TX checksum offload in place, as the eseg's cs_flags ask
 * (MLX5_ETH_WQE_L3_CSUM: IPv4 header checksum; MLX5_ETH_WQE_L4_CSUM:
 * TCP/UDP checksum over the pseudo header and the whole L4 segment,
 * whatever the stack left in the field).  The inner flags are folded
 * onto the outer headers (no tunnel parsing).  Returns 0, or -1 when an
 * L4 checksum was asked for a frame that has no TCP/UDP header (the frame
 * then goes out unchanged, as hardware does).
 */
int cx_csum_tx(uint8_t *frame, size_t len, uint8_t cs_flags);

/*
 * UDP tunnels: the VXLAN destination ports the function programmed
 * (ADD_VXLAN_UDP_DPORT, at most max_vxlan_udp_ports of them).  The device
 * parses a frame as VXLAN only when its outer UDP destination port is in
 * this table: any other UDP frame is plain UDP, on TX and RX.
 */
#define CX_VXLAN_MAX_PORTS	4	/* max_vxlan_udp_ports */
#define CX_VXLAN_HLEN		8
#define CX_VXLAN_IANA_PORT	4789	/* in the table from reset */

#define CX_GENEVE_PORT		6081	/* the one GENEVE port parsed on RX */
#define CX_GENEVE_HLEN		8	/* + opt_len * 4 */
#define CX_GENEVE_PROTO_TEB	0x6558	/* an inner Ethernet frame */

/*
 * GRE (RFC 2784, with RFC 2890's key and sequence number): version 0, no
 * routing or strict source route bit; 4 bytes, and 4 more for each of
 * the checksum (C), key (K) and sequence number (S) flags.
 */
#define CX_GRE_HLEN		4
#define CX_GRE_F_CSUM		0x80	/* first byte: C */
#define CX_GRE_F_ROUTING	0x40	/* R: not parsed */
#define CX_GRE_F_KEY		0x20	/* K */
#define CX_GRE_F_SEQ		0x10	/* S */
#define CX_GRE_F_SSR		0x08	/* strict source route: not parsed */
#define CX_GRE_VERSION		0x07	/* second byte: version, 0 only */

#define CX_IPPROTO_IPIP		4	/* IPv4 inside */
#define CX_IPPROTO_GRE		47
#define CX_IPPROTO_IPV6		41	/* IPv6 inside */

struct cx_tun_ports {
	uint16_t vxlan[CX_VXLAN_MAX_PORTS];
	uint8_t nvxlan;
	/*
	 * tunnel_stateless_geneve_rx: GENEVE (Ethernet inside) to 6081 is
	 * parsed on receive; on send only through the software parser.
	 */
	bool geneve_rx;
	/*
	 * tunnel_stateless_gre: GRE carrying Ethernet (0x6558), IPv4 or
	 * IPv6 is parsed on send and receive.
	 */
	bool gre;
	/*
	 * tunnel_stateless_ip_over_ip: IPv4 or IPv6 carried by IPv4 or IPv6
	 * (protocols 4 and 41) is parsed on send and receive.
	 */
	bool ipip;
};

/*
 * The eseg's software parser (swp) fields: offsets in 2-byte words from
 * the start of the frame, and MLX5_ETH_WQE_SWP_* flags.  The device
 * takes the headers where they are said to be instead of parsing them,
 * on an SQ created with allow_swp.
 */
struct cx_swp {
	uint8_t outer_l3;
	uint8_t outer_l4;
	uint8_t inner_l3;
	uint8_t inner_l4;
	uint8_t flags;
};

/* True when @s says where any header is. */
bool cx_swp_used(const struct cx_swp *s);

/*
 * A tunneled frame: the outer headers and the inner ones, both with
 * offsets from the start of the (outer) frame.  The outer L4 is UDP
 * (VXLAN, GENEVE), GRE (outer.l4_proto 47, outer.l4_off its header) or
 * none (IP-in-IP, outer.l4_proto 4 or 41).
 */
struct cx_tun {
	struct cx_pkt outer;
	struct cx_pkt inner;
	/* the inner Ethernet header; 0 when the inner packet is IP */
	uint16_t inner_l2_off;
};

bool cx_tun_port_known(const struct cx_tun_ports *t, uint16_t port);

/*
 * The headers a swp eseg describes: the outer L3 (and L4) and the inner
 * L3 (and L4) at the given offsets and of the flagged types.  Returns
 * false when there is no inner L3 offset, or a header said to be there
 * is not (not an IP header of the flagged version, an L4 offset outside
 * its IP packet, inner before outer): the device then parses the frame
 * itself.
 */
bool cx_tun_from_swp(const uint8_t *frame, size_t len,
		     const struct cx_swp *s, struct cx_tun *tun);

/*
 * Parse @frame as outer IPv4/IPv6 + UDP to a port of @t + VXLAN + inner
 * Ethernet + IPv4/IPv6 (+ TCP/UDP); with @t->gre, as outer IPv4/IPv6 +
 * GRE + inner Ethernet, IPv4 or IPv6; with @t->ipip, as outer IPv4/IPv6 +
 * inner IPv4/IPv6.  Returns true and fills @tun when it is one (the inner
 * L3 header complete, inside the outer IP packet); false for any other
 * frame (a GRE header of another version, with routing, of another
 * protocol or cut short: plain IP, as a UDP port not in the table), or
 * when @t is NULL.
 */
bool cx_tun_parse(const uint8_t *frame, size_t len,
		  const struct cx_tun_ports *t, struct cx_tun *tun);

/*
 * cx_csum_tx() knowing the tunnel ports: on a tunneled frame
 * (cx_tun_parse()) the inner flags fill the inner IPv4 header and TCP/UDP
 * checksums, the outer ones (L3_CSUM, L4_CSUM) the outer IPv4 header and
 * UDP or GRE checksum (L4_CSUM alone fills a GRE checksum too); the outer
 * UDP or GRE checksum is otherwise left as the WQE gives it.  Any other
 * frame as cx_csum_tx().
 */
int cx_csum_tx_tun(uint8_t *frame, size_t len, uint8_t cs_flags,
		   const struct cx_tun_ports *t);

/*
 * cx_csum_tx_tun() with the swp offsets @s: a frame they describe
 * (cx_tun_from_swp()) has its inner and outer checksums filled at those
 * offsets; otherwise as cx_csum_tx_tun().
 */
int cx_csum_tx_swp(uint8_t *frame, size_t len, uint8_t cs_flags,
		   const struct cx_tun_ports *t, const struct cx_swp *s);

/* What the RX CQE says about a frame's headers and checksums. */
struct cx_rx_class {
	struct cx_pkt pkt;
	uint8_t hds_ip_ext;	/* CQE_L2_OK | CQE_L3_OK | CQE_L4_OK */
	uint8_t l4_hdr_type;	/* CQE_L4_HDR_TYPE_* */
	uint8_t l3_hdr_type;	/* CX_CQE_L3_HDR_* */
	uint16_t check_sum;	/* host order: the 16-bit ones' sum, see below */
	/*
	 * A tunnel the device parses (VXLAN on a known port, GENEVE, GRE,
	 * IP-in-IP): the OK bits and header types are the inner headers'.
	 */
	bool tunneled;
};

/* l3_hdr_type values of the CQE's l4_l3_hdr_type bits 3:2. */
#define CX_CQE_L3_HDR_NONE	0
#define CX_CQE_L3_HDR_IPV6	1
#define CX_CQE_L3_HDR_IPV4	2

/*
 * Classify a received frame (after any VLAN stripping).  check_sum is the
 * uncomplemented ones' complement sum that mlx5e_handle_csum() turns into
 * CHECKSUM_COMPLETE: over the bytes from the IP header (past any VLAN
 * tags) to the end of the frame, padding included; with @csum_full
 * (cqe_checksum_full) from the end of the 14-byte Ethernet header.
 */
void cx_rx_classify(const uint8_t *frame, size_t len, bool csum_full,
		    struct cx_rx_class *rc);

/*
 * cx_rx_classify() knowing the tunnel ports: a VXLAN frame on a port of
 * @t (or GENEVE, GRE, IP-in-IP as @t parses them) is ->tunneled, its
 * L3_OK/L4_OK and header types those of the inner headers (both also
 * needing a good outer IPv4 header; L4_OK a good or absent outer UDP
 * checksum, or GRE checksum); check_sum stays the outer one.
 */
void cx_rx_classify_tun(const uint8_t *frame, size_t len, bool csum_full,
			const struct cx_tun_ports *t, struct cx_rx_class *rc);

/*
 * Strip the outer 802.1Q tag (not 802.1ad) in place; returns true and
 * sets *@tci and *@len when one was stripped.
 */
bool cx_rx_vlan_strip(uint8_t *frame, size_t *len, uint16_t *tci);

/* ------------------------------------------------------------------ */
/* RSS (cx_rss.c)                                                      */

#define CX_RSS_KEY_LEN		40

/* A TIR's rx_hash_field_selector_outer and key. */
struct cx_rss_cfg {
	uint8_t key[CX_RSS_KEY_LEN];
	uint8_t l3_prot_type;		/* MLX5_L3_PROT_TYPE_IPV4/6 */
	uint8_t l4_prot_type;		/* MLX5_L4_PROT_TYPE_TCP/UDP */
	uint32_t selected_fields;	/* MLX5_HASH_FIELD_SEL_* */
	bool symmetric;			/* rx_hash_symmetric */
};

uint32_t cx_toeplitz(const uint8_t key[CX_RSS_KEY_LEN], const uint8_t *in,
		     size_t len);

/*
 * Hash a parsed frame as the TIR selects: IP addresses (src, dst) if the
 * frame's L3 is the selector's l3_prot_type, then L4 ports (src, dst) if
 * its L4 is l4_prot_type and it is not a non-first fragment.  Sets
 * *@hash_type to the CQE's rss_hash_type (CQE_RSS_HTYPE_IP/L4 fields);
 * returns 0 with type 0 when nothing was selected.  @symmetric orders
 * the addresses and the ports so both directions hash alike (not
 * bit-exact with hardware).
 */
uint32_t cx_rss_hash(const struct cx_rss_cfg *cfg, const uint8_t *frame,
		     const struct cx_pkt *pkt, uint8_t *hash_type);

/* ------------------------------------------------------------------ */
/* Segmentation (cx_lso.c)                                             */

/* Bounds of what the model's LSO accepts (headers inline or not). */
#define CX_LSO_MAX_HDR		256	/* L2 + L3 + L4 headers */
#define CX_LSO_MAX_SEGS		1024

enum cx_lso_err {
	CX_LSO_OK = 0,
	CX_LSO_E_PARSE = -1,	/* not IPv4/IPv6 + TCP/UDP, or truncated */
	CX_LSO_E_HDR = -2,	/* headers longer than CX_LSO_MAX_HDR */
	CX_LSO_E_MSS = -3,	/* mss 0, or headers + mss over 64 KiB */
	CX_LSO_E_SEGS = -4,	/* more than CX_LSO_MAX_SEGS segments */
	CX_LSO_E_FRAG = -5,	/* IP fragment */
	CX_LSO_E_SCRATCH = -6,	/* @scratch smaller than headers + mss */
};

/* Called once per segment, in order; @frame is valid during the call. */
typedef void (*cx_frame_fn)(void *ctx, const uint8_t *frame, size_t len);

/*
 * Segment the super-packet @sp (Ethernet[/VLAN] + IPv4/IPv6 + TCP or UDP)
 * into frames of at most @mss payload bytes, each with IPv4 total length
 * and id (+1 per segment) / IPv6 payload length, TCP sequence numbers and
 * flags (CWR on the first only, FIN/PSH on the last only); a UDP header
 * is replicated as it is, length included.  The checksums @cs_flags (the
 * eseg's) ask are computed per segment, the others left as in @sp.
 * @scratch must hold CX_LSO_MAX_HDR + @mss bytes.  Nothing is emitted on
 * error.  Returns the number of segments or a negative enum cx_lso_err.
 */
int cx_lso_segment(const uint8_t *sp, size_t len, uint16_t mss,
		   uint8_t cs_flags, uint8_t *scratch, size_t scratch_size,
		   cx_frame_fn emit, void *ctx);

/*
 * cx_lso_segment() knowing the tunnel ports: a tunneled super-packet
 * (cx_tun_parse(): VXLAN, GRE, IP-in-IP) is segmented on its inner TCP
 * (or UDP) header: per segment the outer IPv4 total length, id (+1) and,
 * with L3_CSUM, header checksum (IPv6: payload length), the outer UDP
 * length, the inner IP fields and TCP sequence/flags as cx_lso_segment()
 * does; the outer UDP checksum is computed only when L4_CSUM asks for
 * it, else left as given (0, or the value GSO_PARTIAL prepared for every
 * segment); a GRE header, its checksum included, is replicated as given
 * (GSO_PARTIAL prepared that checksum for a full-sized segment).
 */
int cx_lso_segment_tun(const uint8_t *sp, size_t len, uint16_t mss,
		       uint8_t cs_flags, const struct cx_tun_ports *t,
		       uint8_t *scratch, size_t scratch_size,
		       cx_frame_fn emit, void *ctx);

/*
 * cx_lso_segment_tun() with the swp offsets @s: a super-packet they
 * describe as tunneled (inner L4 offset given) is segmented on the inner
 * TCP/UDP header at those offsets, whatever its UDP port (GENEVE through
 * the software parser); otherwise as cx_lso_segment_tun().
 */
int cx_lso_segment_swp(const uint8_t *sp, size_t len, uint16_t mss,
		       uint8_t cs_flags, const struct cx_tun_ports *t,
		       const struct cx_swp *s, uint8_t *scratch,
		       size_t scratch_size, cx_frame_fn emit, void *ctx);

/* ------------------------------------------------------------------ */
/* Send WQE decoder (cx_wqe.c)                                         */

#define CX_WQEBB		64
#define CX_WQE_DS		16
#define CX_WQE_MAX_WQEBBS	16	/* MLX5_SEND_WQE_MAX_WQEBBS */
#define CX_WQE_MAX_BYTES	(CX_WQE_MAX_WQEBBS * CX_WQEBB)
#define CX_WQE_MAX_PKTS		64	/* > 63 DS can describe */

/* Where an SQ's WQEBBs live. */
struct cx_sq_ring {
	cx_dp_read_fn rd;	/* WQE fetch and, without @gather, gathers */
	void *ctx;
	/*
	 * Optional: gather with an lkey (mkey translation).  Return 0, or
	 * negative for a bad key/address (-> LOCAL_PROT_ERR).
	 */
	int (*gather)(void *ctx, uint32_t lkey, uint64_t addr, void *buf,
		      size_t len);
	/* Either @map (WQEBB index -> guest address), or the page list. */
	int (*map)(void *ctx, uint32_t wqebb, uint64_t *addr);
	const uint64_t *pas;
	uint32_t npas;
	uint8_t log_page_sz;	/* bytes: 12 + log_wq_pg_sz */
	uint32_t page_offset;	/* bytes, from the wq's page_offset */
	uint8_t log_wq_sz;	/* WQEBBs in the ring (log2) */
	uint32_t sqn;
	uint8_t max_wqebbs;	/* one WQE's limit; 0: CX_WQE_MAX_WQEBBS */
	bool mpwqe;		/* ENHANCED_MPSW accepted */
	uint32_t max_pkt;	/* one packet's bound (SEND/MPW); 0: 16 KiB */
	uint32_t max_lso;	/* an LSO super-packet's bound; 0: 256 KiB */
	bool no_vlan_insert;	/* wqe_vlan_insert not announced */
	/*
	 * MLX5_INLINE_MODE_*: the headers a SEND WQE must inline (the
	 * vport's and the SQ's minimum inline mode, whichever is more).
	 */
	uint8_t min_inline;
};

struct cx_tx_pkt {
	uint32_t off;		/* in the caller's buffer */
	uint32_t len;
};

struct cx_wqe {
	/* control segment */
	uint8_t opcode;
	uint8_t opmod;
	uint16_t wqe_index;	/* the ctrl segment's wqe index */
	uint32_t qpn;		/* the ctrl segment's sqn */
	uint8_t ds_cnt;
	uint8_t fm_ce_se;
	bool cqe_req;		/* MLX5_WQE_CTRL_CQ_UPDATE */
	uint8_t wqebbs;		/* consumed: cc += wqebbs */
	/* Ethernet segment */
	uint8_t cs_flags;	/* MLX5_ETH_WQE_{L3,L4}[_INNER]_CSUM */
	uint8_t swp_flags;
	uint16_t mss;
	uint16_t inline_hdr_sz;
	uint16_t inline_needed;	/* bytes @min_inline asks of this packet */
	bool vlan_insert;	/* applied to the packets already */
	uint16_t vlan_tpid;
	uint16_t vlan_tci;
	/* the VXLAN ports the device parses (set by the caller), or NULL */
	const struct cx_tun_ports *tun;
	/* the eseg's swp fields; used only if the caller sets @swp_ok */
	struct cx_swp swp;
	bool swp_ok;		/* the SQ was created with allow_swp */
	/* packets, in the caller's buffer */
	uint32_t npkts;
	struct cx_tx_pkt pkt[CX_WQE_MAX_PKTS];
	/* bus accounting for this WQE */
	uint32_t desc_bytes;	/* WQE bytes fetched (inline data included) */
	uint32_t payload_bytes;	/* bytes gathered through data segments */
	/* on error */
	int err;		/* enum cx_wqe_status (< 0) */
	uint8_t syndrome;	/* MLX5_CQE_SYNDROME_* */
	/* the WQE as fetched, for opcodes the caller handles (UMR...) */
	uint32_t raw_len;
	uint8_t raw[CX_WQE_MAX_BYTES];
};

enum cx_wqe_status {
	CX_WQE_OK = 0,		/* one WQE decoded */
	CX_WQE_EMPTY = 1,	/* cc == pc */
	CX_WQE_E_DMA = -1,	/* WQE fetch or gather failed: LOCAL_PROT_ERR */
	CX_WQE_E_DS = -2,	/* ds_cnt 0, too small for the opcode, or over
				 * the WQE size limit: LOCAL_QP_OP_ERR */
	CX_WQE_E_PAST_PC = -3,	/* WQE extends past the producer counter:
				 * LOCAL_QP_OP_ERR */
	CX_WQE_E_OPCODE = -4,	/* unknown/unsupported opcode: LOCAL_QP_OP_ERR
				 * (raw[] holds the WQE) */
	CX_WQE_E_INLINE = -5,	/* inline header/data past ds_cnt:
				 * LOCAL_LENGTH_ERR */
	CX_WQE_E_LEN = -6,	/* zero-length gather, packet or LSO over the
				 * bounds, buffer too small: LOCAL_LENGTH_ERR */
	CX_WQE_E_MSS = -7,	/* LSO with mss 0: LOCAL_QP_OP_ERR */
	CX_WQE_E_MPW = -8,	/* MPWQE with an inline header or no packet:
				 * LOCAL_QP_OP_ERR */
	CX_WQE_E_SQN = -9,	/* ctrl sqn is not this SQ's: LOCAL_QP_OP_ERR */
	/* SEND inlining fewer header bytes than the minimum inline mode
	 * asks: LOCAL_QP_OP_ERR
	 */
	CX_WQE_E_INLINE_MODE = -10,
	/* VLAN insertion not announced: LOCAL_QP_OP_ERR */
	CX_WQE_E_VLAN = -11,
	/*
	 * The control segment's WQE index is not the SQ's consumer position
	 * (a stale or misplaced WQE): LOCAL_QP_OP_ERR
	 */
	CX_WQE_E_INDEX = -12,
};

/*
 * Header bytes of the frame @p (@len bytes) that inline mode @mode
 * (MLX5_INLINE_MODE_*) asks a SEND WQE to inline: L2 the Ethernet header
 * and its VLAN tags, IP the IPv4/IPv6 header after it, TCP_UDP the TCP or
 * UDP header after that; a frame without the next layer needs what it
 * has; never more than @len.
 */
uint32_t cx_inline_needed(const uint8_t *p, uint32_t len, uint8_t mode);

/* The CQE error syndrome hardware reports for a decoder error. */
uint8_t cx_wqe_syndrome(int err);
const char *cx_wqe_strerror(int err);

/*
 * Decode the WQE at counter @cc (16-bit wrap like the driver's sq->cc)
 * given the producer counter @pc from the doorbell record.  Packets are
 * assembled into @buf (@buf_size bytes, one after the other) with any
 * VLAN insertion applied and short frames padded to 60 bytes; checksum
 * and LSO are left to cx_tx_emit().  On error, wqe_index (cc's low 16
 * bits if the control segment could not be read), opcode and syndrome
 * are set for the error CQE; the SQ should then go to the error state.
 */
int cx_wqe_decode(const struct cx_sq_ring *sq, uint16_t cc, uint16_t pc,
		  uint8_t *buf, size_t buf_size, struct cx_wqe *w);

/*
 * Send a decoded WQE's packets: LSO segmentation (opcode LSO, with
 * @scratch of at least CX_LSO_MAX_HDR + mss bytes) or checksum offload
 * in place in @buf, then @emit per frame.  Returns the number of frames,
 * or a negative enum cx_lso_err (nothing sent; LOCAL_QP_OP_ERR).
 */
int cx_tx_emit(const struct cx_wqe *w, uint8_t *buf, uint8_t *scratch,
	       size_t scratch_size, cx_frame_fn emit, void *ctx);

/* ------------------------------------------------------------------ */
/* CQEs (cx_cqe.c)                                                     */

#define CX_CQE_SIZE		64

/* Owner bit of the CQE written at producer counter @pi. */
static inline uint8_t cx_cqe_owner(uint32_t pi, uint8_t log_cq_sz)
{
	return (pi >> log_cq_sz) & 1;
}

/* Index in the CQ ring of producer counter @pi. */
static inline uint32_t cx_cqe_index(uint32_t pi, uint8_t log_cq_sz)
{
	return pi & ((1u << log_cq_sz) - 1);
}

/* TX completion (MLX5_CQE_REQ) of the WQE @wqe_counter with @wqe_opcode. */
void cx_cqe_tx(void *cqe, uint32_t pi, uint8_t log_cq_sz, uint8_t wqe_opcode,
	       uint16_t wqe_counter, uint32_t sqn, uint64_t timestamp);

/* TX error completion (MLX5_CQE_REQ_ERR, struct mlx5_err_cqe). */
void cx_cqe_tx_err(void *cqe, uint32_t pi, uint8_t log_cq_sz,
		   uint8_t syndrome, uint8_t vendor_syndrome,
		   uint8_t wqe_opcode, uint16_t wqe_counter, uint32_t sqn);

struct cx_cqe_rx {
	uint32_t byte_cnt;	/* frame length as placed */
	uint16_t wqe_counter;	/* cyclic: WQE counter; striding: stride idx */
	uint16_t wqe_id;	/* striding: WQE index */
	bool striding;
	uint16_t consumed_strides;
	bool filler;
	uint32_t rqn;		/* flags_rqpn */
	uint32_t flow_tag;	/* sop_drop_qpn (skb->mark): 0 without one */
	uint32_t rss_hash;
	uint8_t rss_hash_type;
	const struct cx_rx_class *rc;	/* NULL for a filler */
	bool vlan_stripped;
	uint16_t vlan_tci;
	uint64_t timestamp;
	/* LRO (lro_num_seg 0: the frame was in no session) */
	uint8_t lro_num_seg;	/* srqn[31:24] */
	uint8_t lro_flags;	/* tcppsh_abort_dupack */
	uint8_t lro_min_ttl;
	uint16_t lro_tcp_win;
	uint32_t lro_ack_seq;
	uint16_t lro_csum;	/* replaces the class's check_sum */
};

/* RX completion (MLX5_CQE_RESP_SEND). */
void cx_cqe_rx(void *cqe, uint32_t pi, uint8_t log_cq_sz,
	       const struct cx_cqe_rx *rx);

/* RX error completion (MLX5_CQE_RESP_ERR). */
void cx_cqe_rx_err(void *cqe, uint32_t pi, uint8_t log_cq_sz,
		   uint8_t syndrome, uint16_t wqe_counter, uint32_t rqn);

/*
 * Basic CQE compression (cx_cqe.c).  A block of n >= 2 RX CQEs takes n
 * slots of the CQ from producer counter pi: slot pi holds the title, the
 * first CQE's image with format MLX5_COMPRESSED in op_own and n in
 * byte_cnt; slot pi + 1 holds mini CQE array 0 (mini CQEs 0-7), slot
 * pi + 8 * k array k (mini CQEs 8k..8k+7).  The other slots are not
 * written: the driver owns them until it moves on (upstream
 * mlx5e_decompress_cqes_start()/_cont()).  A mini CQE (struct
 * mlx5_mini_cqe8) carries what differs per packet: byte_cnt always; the
 * checksum (and with CSUM_STRIDX the stride index, wqe_counter) or, with
 * the hash format, the RSS hash.  The rest is the title's.
 */
#define CX_CQE_FORMAT_HASH	0
#define CX_CQE_FORMAT_CSUM	1	/* MLX5_CQE_FORMAT_CSUM */
#define CX_CQE_FORMAT_CSUM_STRIDX 3	/* MLX5_CQE_FORMAT_CSUM_STRIDX */
#define CX_MINI_PER_ARRAY	8	/* MLX5_MINI_CQE_ARRAY_SIZE */

/*
 * May RX CQE image @next follow @prev (the block's last) in a block whose
 * first CQE is @first, with mini CQE format @fmt?  Every field the
 * decoder takes from the title is equal (the timestamp aside: the
 * title's stands for the block, why drivers keep compression off with RX
 * timestamping), and the WQE counter follows on where the format leaves
 * it to the decoder: the next WQE (@striding false) or the stride after
 * @prev's strides.
 */
bool cx_cqe_comp_match(const void *first, const void *prev, const void *next,
		       uint8_t fmt, bool striding);

/* The slot of @n's block (from its title) mini CQE array @k goes in. */
static inline uint32_t cx_cqe_comp_arr_slot(uint32_t k)
{
	return k ? k * CX_MINI_PER_ARRAY : 1;
}

/*
 * Build a block from the @n (2..) RX CQE images @imgs: the title for
 * producer counter @pi into @title, the (n + 7) / 8 mini CQE arrays into
 * @arrs (64 bytes each).
 */
void cx_cqe_comp_block(void *title, uint8_t (*arrs)[64],
		       const uint8_t (*imgs)[64], uint32_t n, uint8_t fmt,
		       uint32_t pi, uint8_t log_cq_sz);

/* ------------------------------------------------------------------ */
/* Striding RQ placement (cx_mpwrq.c)                                  */

struct cx_mpwrq_geom {
	uint8_t log_num_strides;	/* 3..16 */
	uint8_t log_stride_sz;		/* 6..13 */
};

enum cx_mpwrq_result {
	CX_MPWRQ_PLACED,	/* frame at .offset, .strides consumed */
	CX_MPWRQ_FILLER,	/* post a filler CQE for .strides; when
				 * .wqe_done retire the WQE; place again */
	CX_MPWRQ_TOO_BIG,	/* larger than a whole WQE: drop */
	CX_MPWRQ_BAD,		/* bad geometry or stride index */
};

struct cx_mpwrq_place {
	uint32_t stride;	/* first stride (the CQE's wqe_counter) */
	uint32_t strides;	/* consumed (the CQE's consumed_strides) */
	uint32_t offset;	/* bytes from the WQE's buffer start */
	bool wqe_done;		/* every stride consumed: retire the WQE */
};

/*
 * Place a frame of @len bytes (0 < len) in the striding WQE whose first
 * @cur strides are used.  On PLACED and FILLER the caller sets cur +=
 * strides (a FILLER exhausts the WQE, in several CQEs only when more
 * than 0x7fff strides are left).
 */
enum cx_mpwrq_result cx_mpwrq_place(const struct cx_mpwrq_geom *g,
				    uint32_t cur, uint32_t len,
				    struct cx_mpwrq_place *p);

/* ------------------------------------------------------------------ */
/* LRO (cx_lro.c)                                                      */

/* The CQE's lro.tcppsh_abort_dupack bits (get_cqe_lro_tcppsh(): bit 6). */
#define CX_LRO_TCPPSH		0x40
#define CX_LRO_ABORT		0x20
#define CX_LRO_DUPACK		0x10

/* A received frame as LRO sees it. */
struct cx_lro_seg {
	bool ok;		/* may join or start a session */
	bool v6;
	uint8_t saddr[16];
	uint8_t daddr[16];
	uint16_t sport;
	uint16_t dport;
	uint32_t seq;
	uint32_t ack;
	uint16_t win;
	uint8_t ttl;		/* IPv4 TTL, IPv6 hop limit */
	bool psh;
	uint16_t hlen;		/* Ethernet to the end of the TCP header */
	uint32_t plen;		/* TCP payload bytes */
};

/*
 * A frame of @len bytes (after VLAN stripping), parsed and classified:
 * may it be aggregated on a TIR whose packet_merge_mask is @mask
 * (MLX5_TIRC_PACKET_MERGE_MASK_IPV4/6_LRO)?  TCP over IPv4 without
 * options or IPv6 without extension headers, not a fragment, no more
 * than the IP length says, both checksums good, payload, and no TCP
 * flag but ACK and PSH (PSH closes the session: lro_psh_flag).  No TCP
 * option but the timestamp as Linux lays it out (NOP, NOP, TS:
 * lro_time_stamp); the first segment's header is the session's.
 */
void cx_lro_parse(const uint8_t *frame, size_t len,
		  const struct cx_rx_class *rc, uint8_t mask,
		  struct cx_lro_seg *s);

/* A session of one RQ: one flow's in-order segments in one WQE. */
struct cx_lro_sess {
	bool active;
	struct cx_lro_seg first;	/* flow and headers */
	bool vlan_stripped;
	uint16_t vlan_tci;
	uint32_t next_seq;
	uint32_t ack;
	uint16_t win;
	uint8_t min_ttl;
	bool psh;
	uint32_t len;		/* bytes placed from the first stride */
	uint32_t payload;	/* TCP payload bytes */
	uint32_t max_payload;	/* of the TIR (lro_max_ip_payload_size) */
	uint32_t csum;		/* ones' sum of the payload, as one stream */
	uint16_t nseg;
	uint64_t deadline;	/* virtual clock, ns */
	uint16_t wqe_id;
	uint32_t stride;	/* first stride */
};

/* Open a session with @s, the frame @frame at @len bytes. */
void cx_lro_start(struct cx_lro_sess *x, const struct cx_lro_seg *s,
		  const uint8_t *frame, uint32_t max_payload);
/* May @s (on the same VLAN) join @x?  In order, one flow, room left. */
bool cx_lro_match(const struct cx_lro_sess *x, const struct cx_lro_seg *s,
		  bool vlan_stripped, uint16_t vlan_tci);
/* @s joins @x: its payload (at @frame + s->hlen) follows. */
void cx_lro_append(struct cx_lro_sess *x, const struct cx_lro_seg *s,
		   const uint8_t *frame);
/* The session's CQE fields into @rx (byte_cnt and the LRO fields). */
void cx_lro_cqe(const struct cx_lro_sess *x, struct cx_cqe_rx *rx);

#endif /* CX_DATAPATH_H */
