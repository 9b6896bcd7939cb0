/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mlx5e: the Ethernet netdev of mlx5_core.
 *
 * A netdev owns channels; a channel is one NAPI context on one completion
 * vector with one send queue (SQ) and one receive queue (RQ), each with its
 * own completion queue (CQ). Received frames reach an RQ through the NIC RX
 * flow tables (en/fs.c) and RSS (en/rss.c); sent frames leave through the
 * SQ of the channel the stack picked.
 *
 * Hot structures group their fields by the context that writes them: NAPI
 * (completions), ndo_start_xmit (xmit), nobody after open (read only), and
 * the control path.
 */
#ifndef __MLX5_EN_H__
#define __MLX5_EN_H__

#include <linux/bits.h>
#include <linux/dim.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/net_tstamp.h>
#include <linux/netdevice.h>
#include <linux/u64_stats_sync.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <net/page_pool/types.h>
#include <net/udp_tunnel.h>
#include <net/xdp.h>

#include "mlx5_core.h"
#include "en/params_rx.h"
#include "lib/wq.h"
#include "lib/vxlan.h"

struct xsk_buff_pool;

#define MLX5E_MAX_NUM_CHANNELS		64
#define MLX5E_NUM_TC			1

/* Ring sizes (log2 of entries): the device's limit caps the maximum. */
#define MLX5E_LOG_SQ_SIZE_MIN		6
#define MLX5E_LOG_SQ_SIZE_DEFAULT	10
#define MLX5E_LOG_SQ_SIZE_MAX		13
#define MLX5E_LOG_RQ_SIZE_MIN		6
#define MLX5E_LOG_RQ_SIZE_DEFAULT	10
#define MLX5E_LOG_RQ_SIZE_MAX		13

/* The largest send WQE, in 64-byte basic blocks (control + Ethernet with
 * inline headers + one data segment per fragment and the head).
 */
#define MLX5E_SQ_MAX_WQEBBS		16
/* Inline header bytes an LSO WQE may carry. */
#define MLX5E_MAX_INLINE_HDR		256
/* Besides the completion on every doorbell, one at least every this
 * fraction of the ring (log2), so that a long batch frees room early.
 */
#define MLX5E_TX_CQE_MOD_RING_SHIFT	2

/* RSS: indirection table entries, key bytes. */
#define MLX5E_INDIR_RQT_SIZE		256
#define MLX5E_RSS_KEY_SIZE		40
#define MLX5E_RSS_MAX_CTX		32	/* context ids 1 .. 31 */

/**
 * enum mlx5e_traffic_type - what the traffic-type classifier tells apart
 * @MLX5E_TT_IPV4_TCP: IPv4 TCP
 * @MLX5E_TT_IPV6_TCP: IPv6 TCP
 * @MLX5E_TT_IPV4_UDP: IPv4 UDP
 * @MLX5E_TT_IPV6_UDP: IPv6 UDP
 * @MLX5E_TT_IPV4: other IPv4
 * @MLX5E_TT_IPV6: other IPv6
 * @MLX5E_TT_ANY: everything else (ARP, ...)
 * @MLX5E_NUM_TT: number of traffic types
 */
enum mlx5e_traffic_type {
	MLX5E_TT_IPV4_TCP,
	MLX5E_TT_IPV6_TCP,
	MLX5E_TT_IPV4_UDP,
	MLX5E_TT_IPV6_UDP,
	MLX5E_TT_IPV4,
	MLX5E_TT_IPV6,
	MLX5E_TT_ANY,
	MLX5E_NUM_TT,
};

/**
 * enum mlx5e_priv_flag - private flags (ethtool --show-priv-flags)
 * @MLX5E_PFLAG_RX_CQE_BASED_MODER: rx_cqe_moder, the RX CQs' moderation
 *	period starts at the first CQE after an arm rather than at the CQ's
 *	last event (needs cq_period_start_from_cqe)
 * @MLX5E_PFLAG_TX_CQE_BASED_MODER: tx_cqe_moder, the same for the SQs' CQs
 *	(not the control SQs', whose UMR completions refill the RQs)
 * @MLX5E_PFLAG_SKB_TX_MPWQE: pack small SKBs into Enhanced Multi-Packet
 *	send WQEs (needs enhanced_multi_pkt_send_wqe)
 * @MLX5E_PFLAG_RX_STRIDING_RQ: receive into a striding RQ (needs
 *	striding_rq, UMR)
 * @MLX5E_PFLAG_XDP_TX_MPWQE: pack XDP_TX and ndo_xdp_xmit frames into
 *	Enhanced Multi-Packet send WQEs on the XDP SQ (switched in place)
 * @MLX5E_PFLAG_RX_CQE_COMPRESS: rx_cqe_compress, RX CQs with CQE
 *	compression (needs cqe_compression; a striding RQ also
 *	mini_cqe_resp_stride_index)
 * @MLX5E_NUM_PFLAGS: number of flags
 */
enum mlx5e_priv_flag {
	MLX5E_PFLAG_RX_CQE_BASED_MODER,
	MLX5E_PFLAG_TX_CQE_BASED_MODER,
	MLX5E_PFLAG_SKB_TX_MPWQE,
	MLX5E_PFLAG_RX_STRIDING_RQ,
	MLX5E_PFLAG_XDP_TX_MPWQE,
	MLX5E_PFLAG_RX_CQE_COMPRESS,
	MLX5E_NUM_PFLAGS,
};

/**
 * struct mlx5e_params - what a set of channels is built from
 * @num_channels: channels
 * @log_sq_size: log2 of WQEBBs per SQ
 * @log_rq_size: log2 of WQEs per RQ
 * @sw_mtu: the netdev MTU
 * @tx_min_inline_mode: MLX5_INLINE_MODE_* the SQs must honour
 * @rx_cq_usecs: RX CQ moderation period
 * @rx_cq_frames: RX CQ moderation count
 * @tx_cq_usecs: TX CQ moderation period
 * @tx_cq_frames: TX CQ moderation count
 * @rx_dim_enabled: RX moderation adaptive (net_dim), overriding @rx_cq_*
 * @tx_dim_enabled: TX moderation adaptive (net_dim), overriding @tx_cq_*
 * @pflags: private flags, BIT(enum mlx5e_priv_flag)
 * @features: netdev features the queues honour (checksum, VLAN stripping)
 * @xdp_prog: the XDP program of the RQs, or NULL (the netdev holds the
 *	reference; the channels borrow it)
 *
 * Copied, changed and validated as a whole: the new channels are built
 * from a new copy while the old ones keep running.
 */
struct mlx5e_params {
	u16 num_channels;
	u8 log_sq_size;
	u8 log_rq_size;
	u16 sw_mtu;
	u8 tx_min_inline_mode;
	u16 rx_cq_usecs;
	u16 rx_cq_frames;
	u16 tx_cq_usecs;
	u16 tx_cq_frames;
	bool rx_dim_enabled;
	bool tx_dim_enabled;
	u32 pflags;
	netdev_features_t features;
	struct bpf_prog *xdp_prog;
};

/**
 * mlx5e_stats_add() - add to one of our counters
 * @syncp: the counter's sync (the caller is its one writer)
 * @c: the counter
 * @v: what to add
 */
static inline void mlx5e_stats_add(struct u64_stats_sync *syncp,
				   u64_stats_t *c, u64 v)
{
	u64_stats_update_begin(syncp);
	u64_stats_add(c, v);
	u64_stats_update_end(syncp);
}

/**
 * struct mlx5e_sq_stats - SQ counters written by ndo_start_xmit
 * @syncp: for 64-bit readers on 32-bit hosts
 * @packets: packets posted (TSO segments counted by their GSO segments)
 * @bytes: bytes posted (headers of each segment counted)
 * @tso_packets: TSO SKBs
 * @tso_bytes: their payload bytes
 * @tso_inner_packets: TSO SKBs of a tunnel (VXLAN, GENEVE, GRE,
 *	IP-in-IP), segmented on the inner TCP header (not counted in
 *	@tso_packets)
 * @tso_inner_bytes: their payload bytes
 * @csum_partial: SKBs with a checksum offload request
 * @csum_partial_inner: SKBs of a tunnel with one, of the inner headers
 *	(not counted in @csum_partial)
 * @csum_none: SKBs without one
 * @xmit_more: SKBs sent with more to follow (doorbell deferred)
 * @stopped: times the queue was stopped for room
 * @dropped: SKBs dropped (DMA mapping failure, malformed, no SQ in
 *	service behind the queue)
 * @nop: NOP WQEs posted, each one (ring end padding, flushes after a drop)
 * @doorbells: doorbells rung
 * @mpwqe_blks: Enhanced Multi-Packet WQEs (MPWQE sessions) posted
 * @mpwqe_pkts: packets sent in them
 * @xmit_disabled: SKBs the stack handed to xmit while the driver had its
 *	TX queues disabled (a channel switch, a close): never expected
 */
struct mlx5e_sq_stats {
	struct u64_stats_sync syncp;
	u64_stats_t packets;
	u64_stats_t bytes;
	u64_stats_t tso_packets;
	u64_stats_t tso_bytes;
	u64_stats_t tso_inner_packets;
	u64_stats_t tso_inner_bytes;
	u64_stats_t csum_partial;
	u64_stats_t csum_partial_inner;
	u64_stats_t csum_none;
	u64_stats_t xmit_more;
	u64_stats_t stopped;
	u64_stats_t dropped;
	u64_stats_t nop;
	u64_stats_t doorbells;
	u64_stats_t mpwqe_blks;
	u64_stats_t mpwqe_pkts;
	u64_stats_t xmit_disabled;
};

/**
 * struct mlx5e_sq_cq_stats - SQ counters written by TX completion (NAPI)
 * @syncp: for 64-bit readers on 32-bit hosts
 * @cqes: CQEs polled
 * @cqe_err: error CQEs
 * @cqe_stale: CQEs naming no posted WQE, ignored (never expected)
 * @wake: times the queue was woken
 * @recover: SQ recoveries after an error CQE
 * @timeout: times the TX watchdog found the queue stalled (and it was
 *	recovered)
 */
struct mlx5e_sq_cq_stats {
	struct u64_stats_sync syncp;
	u64_stats_t cqes;
	u64_stats_t cqe_err;
	u64_stats_t cqe_stale;
	u64_stats_t wake;
	u64_stats_t recover;
	u64_stats_t timeout;
};

/**
 * struct mlx5e_rq_stats - RQ counters, written by NAPI
 * @syncp: for 64-bit readers on 32-bit hosts
 * @packets: packets received
 * @bytes: bytes received
 * @csum_complete: SKBs given CHECKSUM_COMPLETE from the CQE's checksum
 * @csum_unnecessary: CHECKSUM_UNNECESSARY from the CQE
 * @csum_unnecessary_inner: CHECKSUM_UNNECESSARY of a tunneled frame
 *	(the CQE's tunneled bit), csum_level 1: the inner checksums too
 * @csum_none: no checksum information
 * @wqe_err: error CQEs
 * @buff_alloc_err: buffer allocations that failed (refill retried later)
 * @gro_packets: packets the device aggregated by hardware GRO (upstream's
 *	SHAMPO); this driver does none, so it stays 0 (software GRO is the
 *	stack's, counted there)
 * @lro_packets: SKBs the device aggregated by LRO (more than one segment)
 * @lro_bytes: their bytes
 * @pages: pages taken from the page pool (a new page started by a buffer)
 * @xdp_drop: frames XDP dropped (XDP_DROP, XDP_ABORTED, failed actions)
 * @xdp_redirect: frames XDP redirected
 * @xdp_tx_xmit: frames XDP_TX posted on the XDP_TX SQ
 * @xdp_tx_full: XDP_TX frames dropped, the XDP_TX SQ full
 * @xdp_tx_err: error completions of the XDP_TX SQ, and XDP_TX frames it
 *	cannot take (more buffers than its largest WQE, too short to inline)
 * @xdp_tx_mpwqe: MPWQE sessions XDP_TX opened on the XDP_TX SQ
 * @xdp_tx_inlnw: XDP_TX frames copied into their MPWQE (the device
 *	behind: struct mlx5e_xdpsq @mpwqe_inline)
 * @xdp_tx_recover: XDP_TX SQ recoveries after an error CQE
 * @recover: RQ recoveries after an error CQE
 * @mpwqe_filler_cqes: striding RQ: filler CQEs (the rest of a WQE skipped)
 * @mpwqe_filler_strides: strides they skipped
 * @oversize_pkts_sw_drop: completions counting no byte or more than their
 *	buffer holds (legacy RQ: the WQE; striding RQ: a linear stride, or
 *	the strides consumed), their frames dropped
 * @umr_cqe_err: striding RQ: error completions of UMR WQEs
 * @cqe_compress_blks: compressed CQE blocks received
 * @cqe_compress_pkts: CQEs decompressed from them
 * @cqe_compress_err: compressed blocks whose title counts fewer than two
 *	CQEs or more than the CQ holds: the channels are reopened
 */
struct mlx5e_rq_stats {
	struct u64_stats_sync syncp;
	u64_stats_t packets;
	u64_stats_t bytes;
	u64_stats_t csum_complete;
	u64_stats_t csum_unnecessary;
	u64_stats_t csum_unnecessary_inner;
	u64_stats_t csum_none;
	u64_stats_t wqe_err;
	u64_stats_t buff_alloc_err;
	u64_stats_t gro_packets;
	u64_stats_t lro_packets;
	u64_stats_t lro_bytes;
	u64_stats_t recover;
	u64_stats_t pages;
	u64_stats_t xdp_drop;
	u64_stats_t xdp_redirect;
	u64_stats_t xdp_tx_xmit;
	u64_stats_t xdp_tx_full;
	u64_stats_t xdp_tx_err;
	u64_stats_t xdp_tx_mpwqe;
	u64_stats_t xdp_tx_inlnw;
	u64_stats_t xdp_tx_recover;
	u64_stats_t mpwqe_filler_cqes;
	u64_stats_t mpwqe_filler_strides;
	u64_stats_t oversize_pkts_sw_drop;
	u64_stats_t umr_cqe_err;
	u64_stats_t cqe_compress_blks;
	u64_stats_t cqe_compress_pkts;
	u64_stats_t cqe_compress_err;
};

/**
 * struct mlx5e_xdp_xmit_stats - ndo_xdp_xmit counters, written under the
 *	XDP SQ's lock
 * @syncp: for 64-bit readers on 32-bit hosts
 * @xdp_xmit: frames posted
 * @xdp_full: frames refused, the XDP SQ full
 * @xdp_err: frames refused (DMA mapping failed, more buffers than a
 *	send WQE takes, or too short to inline), and error completions
 * @xdp_mpwqe: MPWQE sessions ndo_xdp_xmit opened on the XDP SQ
 * @xdp_inlnw: frames copied into their MPWQE (the device behind)
 * @xdp_recover: recoveries of the XDP SQ after an error completion (each
 *	also counted in @xdp_err)
 */
struct mlx5e_xdp_xmit_stats {
	struct u64_stats_sync syncp;
	u64_stats_t xdp_xmit;
	u64_stats_t xdp_full;
	u64_stats_t xdp_err;
	u64_stats_t xdp_mpwqe;
	u64_stats_t xdp_inlnw;
	u64_stats_t xdp_recover;
};

/**
 * struct mlx5e_xsk_tx_stats - the XSK SQ's counters (AF_XDP zero-copy
 *	TX), written by NAPI
 * @syncp: for 64-bit readers on 32-bit hosts
 * @packets: descriptors of the socket's TX ring posted (tx_xsk_xmit,
 *	upstream's name)
 * @bytes: their bytes
 * @mpwqe: MPWQE sessions opened for them
 * @inlnw: descriptors copied into their MPWQE (the device behind)
 * @full: NAPI polls that stopped with descriptors left, the SQ full
 * @err: descriptors the SQ could not take (too short to inline), and
 *	error completions
 * @cqes: completions polled
 * @recover: recoveries after an error CQE
 */
struct mlx5e_xsk_tx_stats {
	struct u64_stats_sync syncp;
	u64_stats_t packets;
	u64_stats_t bytes;
	u64_stats_t mpwqe;
	u64_stats_t inlnw;
	u64_stats_t full;
	u64_stats_t err;
	u64_stats_t cqes;
	u64_stats_t recover;
};

/**
 * struct mlx5e_ch_stats - channel counters, written by NAPI
 * @syncp: for 64-bit readers on 32-bit hosts
 * @events: completion interrupts
 * @poll: NAPI polls
 * @arm: CQ arms
 */
struct mlx5e_ch_stats {
	struct u64_stats_sync syncp;
	u64_stats_t events;
	u64_stats_t poll;
	u64_stats_t arm;
};

/**
 * struct mlx5e_channel_stats - one channel index's counters
 * @sq: SQ, xmit side
 * @ch: channel
 * @sq_cq: SQ, completion side
 * @rq: RQ
 * @xdp_xmit: the XDP SQ, ndo_xdp_xmit side
 * @xskrq: the XSK RQ (AF_XDP zero-copy receive), as an RQ
 * @xsktx: the XSK SQ (AF_XDP zero-copy send)
 *
 * Kept in the netdev's private area, not in the channel, so that totals
 * survive closing and reopening channels.
 *
 * Laid out by writer, each group on cache lines of its own: xmit runs on
 * whichever CPU sends, the channel's NAPI on the channel's CPU,
 * ndo_xdp_xmit on the CPU whose NAPI redirects; no writer's line is
 * another's. ethtool -S reads them through the tables of en/stats.c,
 * whose order is not this one.
 */
struct mlx5e_channel_stats {
	/* ndo_start_xmit: the SQ's producer */
	struct mlx5e_sq_stats sq ____cacheline_aligned_in_smp;
	/* NAPI: TX completions, receive, the channel's own */
	struct mlx5e_ch_stats ch ____cacheline_aligned_in_smp;
	struct mlx5e_sq_cq_stats sq_cq;
	struct mlx5e_rq_stats rq;
	struct mlx5e_rq_stats xskrq;
	struct mlx5e_xsk_tx_stats xsktx;
	/* ndo_xdp_xmit, under the XDP SQ's lock */
	struct mlx5e_xdp_xmit_stats xdp_xmit ____cacheline_aligned_in_smp;
} ____cacheline_aligned_in_smp;

/**
 * struct mlx5e_cq - a completion queue of a channel
 * @wq: the CQE ring
 * @napi: the channel's NAPI context
 * @mcq: what the completion EQ dispatches on
 * @arm_sn: arm sequence number (bumped by each completion event; also
 *	net_dim's event count)
 * @uar_page: UAR page where the CQ is armed
 * @stats: the channel's counters
 */
struct mlx5e_cq {
	/* dirtied @completion */
	struct mlx5_cqwq wq;
	u32 arm_sn;

	/* read only */
	struct napi_struct *napi;
	struct mlx5_cq mcq;
	void __iomem *uar_page;
	struct mlx5e_ch_stats *stats;
};

/**
 * struct mlx5e_cq_decomp - a compressed CQE block being read (RX CQ)
 * @title: the block's title CQE, rewritten with each mini CQE's fields:
 *	the CQE the RX handlers see
 * @mini: the mini CQE array in use
 * @left: CQEs of the block not yet handled (the block may span polls)
 * @mini_idx: next entry of @mini (MLX5_MINI_CQE_ARRAY_SIZE: read the
 *	next array from the slot at the consumer counter)
 * @wqe_counter: legacy RQ: the next CQE's WQE counter (the mini CQE has
 *	none; a striding RQ's has its stride index)
 */
struct mlx5e_cq_decomp {
	/* read every poll, with or without compression: beside the CQ */
	u32 left;
	u16 wqe_counter;
	u8 mini_idx;
	/* a block's only */
	struct mlx5_cqe64 title;
	struct mlx5_mini_cqe8 mini[MLX5_MINI_CQE_ARRAY_SIZE];
};

/**
 * struct mlx5e_sq_dma - one DMA mapping of a sent SKB, in fifo order
 * @addr: bus address
 * @size: bytes
 * @page: mapped with dma_map_page() (a fragment), else dma_map_single()
 */
struct mlx5e_sq_dma {
	dma_addr_t addr;
	u32 size;
	bool page;
};

/**
 * struct mlx5e_tx_wqe_info - what a posted WQE owns until it completes
 * @skb: the SKB (NULL for NOP padding)
 * @num_bytes: bytes for BQL
 * @num_wqebbs: basic blocks it spans
 * @num_dma: DMA fifo entries it owns
 * @num_fifo_pkts: SKBs it owns in the SKB fifo (an MPWQE session; @skb
 *	is then NULL)
 */
struct mlx5e_tx_wqe_info {
	struct sk_buff *skb;
	u32 num_bytes;
	u8 num_wqebbs;
	u8 num_dma;
	u8 num_fifo_pkts;
};

/**
 * struct mlx5e_tx_mpwqe - the SQ's open MPWQE session
 * @wqe: the WQE being filled at the producer index (NULL: none open)
 * @bytes: bytes of its packets, for BQL
 * @ds_count: 16-byte segments so far (control, Ethernet, one per packet)
 * @max_ds: segments it may grow to (device limit, ring end)
 * @pkts: packets so far
 */
struct mlx5e_tx_mpwqe {
	struct mlx5e_tx_wqe *wqe;
	u32 bytes;
	u8 ds_count;
	u8 max_ds;
	u8 pkts;
};

/*
 * struct mlx5e_txqsq's state bits.  ENABLED: in service, xmit posts on it
 * and NAPI polls its completions; cleared, and every xmit and poll that
 * saw it over, before its TX queue is disabled (mlx5e_deactivate_priv()).
 * RECOVER_FAILED: a recovery failed,
 * the queue stays stopped (RECOVERING set) until devlink health recover
 * tries again (reporter_tx.c).
 */
enum {
	MLX5E_SQ_STATE_ENABLED,
	MLX5E_SQ_STATE_RECOVERING,
	MLX5E_SQ_STATE_MPWQE,
	MLX5E_SQ_STATE_RECOVER_FAILED,
};

/**
 * struct mlx5e_txqsq - a send queue serving one netdev TX queue
 * @cc: consumer counter (WQEBBs completed)
 * @dma_fifo_cc: DMA fifo consumer counter
 * @skb_fifo_cc: SKB fifo consumer counter
 * @cq: its completion queue (its ring's consumer side is NAPI's)
 * @pc: producer counter (WQEBBs posted)
 * @last_cqe_pc: @pc when a completion was last requested
 * @rung_pc: @pc when the doorbell was last rung
 * @dma_fifo_pc: DMA fifo producer counter
 * @skb_fifo_pc: SKB fifo producer counter
 * @mpwqe: the open MPWQE session
 * @wq: the WQEBB ring
 * @dma_fifo: DMA mappings, in posting order
 * @skb_fifo: SKBs of MPWQE sessions, in posting order
 * @wqe_info: per WQE index, what it owns
 * @uar_reg: the send doorbell register
 * @txq: the netdev TX queue
 * @pdev: the DMA device
 * @stats: xmit-side counters
 * @cq_stats: completion-side counters
 * @state: MLX5E_SQ_STATE_*
 * @qpn_be: SQ number in place for a control segment, big endian
 * @mkey_be: the memory key of data segments, big endian
 * @dma_fifo_mask: DMA fifo entries minus one
 * @skb_fifo_mask: SKB fifo entries minus one
 * @stop_room: WQEBBs that must be free for the queue to stay awake
 * @wake_room: WQEBBs that must be free for a stopped queue to wake: a
 *	quarter of the ring, so that a saturated queue does not stop and
 *	wake (and ring) on every packet
 * @cqe_mod: request a completion at least every this many WQEBBs
 * @max_mpw_ds: 16-byte segments of the largest MPWQE the device takes
 * @min_inline_mode: headers the eseg must inline
 * @vlan_insert: the eseg can insert a VLAN tag (else it is inlined)
 * @swp: created with allow_swp: GENEVE's headers told by the eseg's
 *	software parser offsets
 * @hwtstamp: the netdev's hardware timestamping (&mlx5e_priv.hwtstamp)
 * @sqn: SQ number
 * @ch: the channel
 * @txq_ix: index of @txq
 * @recover_work: recovery after an error CQE
 *
 * One cache line group per writer: NAPI (completions), ndo_start_xmit
 * (producer), nobody on the fast path (read only, set at open), then the
 * control path.
 */
struct mlx5e_txqsq {
	/* dirtied @completion */
	u16 cc;
	u32 dma_fifo_cc;
	u32 skb_fifo_cc;
	struct mlx5e_cq cq;

	/* dirtied @xmit */
	u16 pc ____cacheline_aligned_in_smp;
	u16 last_cqe_pc;
	u16 rung_pc;
	u32 dma_fifo_pc;
	u32 skb_fifo_pc;
	struct mlx5e_tx_mpwqe mpwqe;

	/* read only */
	struct mlx5_wq_cyc wq ____cacheline_aligned_in_smp;
	struct mlx5e_sq_dma *dma_fifo;
	struct sk_buff **skb_fifo;
	struct mlx5e_tx_wqe_info *wqe_info;
	void __iomem *uar_reg;
	struct netdev_queue *txq;
	struct device *pdev;
	struct mlx5e_sq_stats *stats;
	struct mlx5e_sq_cq_stats *cq_stats;
	unsigned long state;
	__be32 qpn_be;
	__be32 mkey_be;
	u32 dma_fifo_mask;
	u32 skb_fifo_mask;
	u16 stop_room;
	u16 wake_room;
	u16 cqe_mod;
	u8 max_mpw_ds;
	u8 min_inline_mode;
	bool vlan_insert;
	bool swp;
	const struct kernel_hwtstamp_config *hwtstamp;

	/* control path */
	u32 sqn ____cacheline_aligned_in_smp;
	struct mlx5e_channel *ch;
	u16 txq_ix;
	struct work_struct recover_work;
} ____cacheline_aligned_in_smp;

/**
 * struct mlx5e_rq_frag - one receive buffer of a WQE
 * @page: page_pool page holding it (one fragment reference)
 * @offset: where the buffer starts in @page
 */
struct mlx5e_rq_frag {
	struct page *page;
	u32 offset;
};

/* Striding RQ: pages per multi-packet WQE, log2: 256 KiB a WQE as
 * upstream (64 pages of 4 KiB), but at least 8 pages on larger pages, so
 * that the MTT entries fill whole 64-byte blocks. One UMR WQE maps them,
 * its 8-byte MTT entries inline after 128 bytes of control, UMR control
 * and mkey segments: 10 WQEBBs for 64 pages, within the 16 of a send
 * WQE (the device's max_wqe_sz_sq is checked: mlx5e_striding_rq_caps()).
 * The UMR never wraps the control SQ's ring: NOPs pad the ring's end.
 */
#define MLX5E_MPWQE_LOG_BYTES		18
#if MLX5E_MPWQE_LOG_BYTES - PAGE_SHIFT >= 3
#define MLX5E_MPWQE_LOG_PAGES		(MLX5E_MPWQE_LOG_BYTES - PAGE_SHIFT)
#else
#define MLX5E_MPWQE_LOG_PAGES		3
#endif
#define MLX5E_MPWQE_PAGES		BIT(MLX5E_MPWQE_LOG_PAGES)
#define MLX5E_UMR_WQEBBS		(2 + MLX5E_MPWQE_PAGES / 8)
/* Fragment references a striding RQ page starts with: more than the
 * strides a page holds (at least 64 bytes each), so that only the RQ's
 * drain returns it. A page's count, whatever the pages per WQE.
 */
#define MLX5E_PAGECNT_BIAS		(PAGE_SIZE / 64)

/**
 * struct mlx5e_mpw_page - one page of a striding RQ WQE
 * @page: the page_pool page (MLX5E_PAGECNT_BIAS fragment references)
 * @frags: references handed to SKBs, XDP_TX or redirected frames
 */
struct mlx5e_mpw_page {
	struct page *page;
	u16 frags;
};

/**
 * struct mlx5e_icosq_cqe_info - a control SQ WQE that asks for a completion
 * @rq_pc: the RQ's WQE counter once it completed: the WQEs before it
 *	have their UMRs done (the control SQ completes in order)
 * @wqebbs: its WQEBBs; 0 at an index where no WQE asked for a completion
 */
struct mlx5e_icosq_cqe_info {
	u16 rq_pc;
	u16 wqebbs;
};

/**
 * struct mlx5e_icosq - the internal control SQ of a striding RQ's channel
 * @cc: WQEBBs completed
 * @pc: WQEBBs posted
 * @db_ctrl: control segment of the last WQE posted and not rung yet
 * @db_pc: the counter of that WQE
 * @cq: its completion queue (polled by the channel's NAPI)
 * @wq: the WQEBB ring: UMR WQEs of MLX5E_UMR_WQEBBS, one-WQEBB NOPs
 *	before one that would wrap the ring's end
 * @cqe_info: per ring index of a WQE that asks for a completion, what
 *	its CQE means (&struct mlx5e_icosq_cqe_info)
 * @uar_reg: the channel's send doorbell register
 * @sqn: SQ number
 * @error: an error completion: no more RX WQEs are published until RQ
 *	recovery resets the ICOSQ (mlx5e_reset_icosq())
 *
 * It carries the UMR WQEs that map a WQE's pages into the RQ's mkey; the
 * RQ hands a WQE to the device only once its UMR completed. Only the
 * last WQE of a doorbell asks for a completion (en_rx.c).
 */
struct mlx5e_icosq {
	u16 cc;
	u16 pc;
	struct mlx5e_wqe_ctrl_seg *db_ctrl;
	u16 db_pc;
	struct mlx5e_cq cq;
	struct mlx5_wq_cyc wq;
	struct mlx5e_icosq_cqe_info *cqe_info;
	void __iomem *uar_reg;
	u32 sqn;
	bool error;
};

/**
 * struct mlx5e_xdp_buff - the xdp_buff of a received frame, with its CQE
 * @xdp: the frame the program sees (first: the XDP metadata kfuncs find
 *	the rest from the xdp_md the program passes them)
 * @cqe: its completion: RSS hash, timestamp, stripped VLAN tag
 * @rq: the RQ that received it
 */
struct mlx5e_xdp_buff {
	struct xdp_buff xdp;
	struct mlx5_cqe64 *cqe;
	struct mlx5e_rq *rq;
};

/**
 * struct mlx5e_rq - a receive queue, legacy (cyclic) or striding
 * @cc: WQEs consumed (striding: every stride of it)
 * @pc: WQEs posted (striding: their UMR completed)
 * @umr_pc: striding: WQEs whose pages were taken and UMR posted
 * @xdp_flush: XDP redirected frames this poll: xdp_do_flush() at its end
 * @cq: its completion queue
 * @cqd: the compressed CQE block being read from @cq (rx_cqe_compress)
 * @wq: the WQE ring
 * @frags: per WQE index, @num_frags buffers
 * @page_pool: where buffers come from
 * @netdev: the netdev
 * @pdev: the DMA device
 * @napi: the channel's NAPI context
 * @stats: counters
 * @mkey_be: the memory key of data segments, big endian
 * @frag_size: bytes the device may write into each fragment
 * @first_frag_size: bytes the device may write into a WQE's first fragment
 *	(less than @frag_size for multi-buffer XDP: see params_rx.h)
 * @wqe_bytes: legacy RQ: bytes the device may write into a WQE (its
 *	fragments' sum); a CQE counting more is a device fault
 * @xdp_head_sz: striding, scattered, XDP: the buffer the headers are
 *	copied into, the linear part of the multi-buffer xdp_buff
 * @frag_stride: bytes each fragment takes from a page
 * @num_frags: fragments per WQE
 * @linear: one fragment holds the frame plus headroom and skb_shared_info
 * @headroom: bytes before the frame in a WQE's first fragment
 * @xdp_prog: the XDP program, or NULL (replaced under RCU)
 * @xdpsq: the channel's XDP_TX SQ, its NAPI's alone (with @xdp_prog;
 *	else NULL)
 * @striding: a striding RQ (else legacy)
 * @mpw_pages: striding: per WQE index, MLX5E_MPWQE_PAGES pages
 * @mpw_consumed: striding: per WQE index, strides consumed
 * @log_strides: striding: log2 of strides per WQE
 * @log_stride_sz: striding: log2 of the stride (@frag_stride)
 * @mpw_batch: striding: refill when this many WQEs are free
 * @icosq: striding: the channel's control SQ
 * @umr_mkey: striding: the MTT mkey the WQEs point into
 * @umr_mkey_be: the same, big endian
 * @rqn: RQ number
 * @ix: queue index
 * @ch: its channel
 * @xsk_pool: an XSK RQ: the AF_XDP buffer pool its frames come from
 *	(no page_pool then: @xsk_bufs, one frame per WQE or per stride)
 * @xsk_bufs: XSK RQ: per WQE index, the pool's buffer posted; striding:
 *	MLX5E_MPWQE_PAGES of them per WQE index, one per stride
 * @hwtstamp: the netdev's hardware timestamping (&mlx5e_priv.hwtstamp)
 * @state: MLX5E_RQ_STATE_*
 * @recover_work: recovery after an error CQE
 * @xdp_rxq: what XDP knows of the queue (page_pool memory model)
 * @mxbuf: the xdp_buff of a linear buffer's frame (mlx5e_xdp_rx()): its
 *	frame size, @xdp_rxq and @rq set when the RQ opens, the rest per frame
 */
struct mlx5e_rq {
	/* dirtied @completion */
	u16 cc;
	u16 pc;
	u16 umr_pc;
	bool xdp_flush;
	struct mlx5e_cq cq;
	struct mlx5e_cq_decomp cqd;

	/* read only: what a packet or a refill reads */
	struct mlx5_wq_cyc wq ____cacheline_aligned_in_smp;
	struct mlx5e_rq_frag *frags;
	struct page_pool *page_pool;
	struct net_device *netdev;
	struct device *pdev;
	struct napi_struct *napi;
	struct mlx5e_rq_stats *stats;
	__be32 mkey_be;
	u32 frag_size;
	u32 first_frag_size;
	u32 wqe_bytes;
	u32 xdp_head_sz;
	u32 frag_stride;
	u8 num_frags;
	bool linear;
	u16 headroom;
	bool striding;
	u8 log_strides;
	u8 log_stride_sz;
	u16 mpw_batch;
	u32 rqn;
	struct mlx5e_mpw_page *mpw_pages;
	u16 *mpw_consumed;
	struct mlx5e_icosq *icosq;
	u32 umr_mkey;
	__be32 umr_mkey_be;
	struct bpf_prog __rcu *xdp_prog;
	struct mlx5e_xdpsq *xdpsq;
	const struct kernel_hwtstamp_config *hwtstamp;
	unsigned long state;
	u16 ix;
	struct mlx5e_channel *ch;
	struct xsk_buff_pool *xsk_pool;
	struct xdp_buff **xsk_bufs;

	/* dirtied per XDP frame */
	struct mlx5e_xdp_buff mxbuf;

	/* control path */
	struct work_struct recover_work;
	struct xdp_rxq_info xdp_rxq;
} ____cacheline_aligned_in_smp;

/*
 * struct mlx5e_rq's state bits.  BAD_CQE: recovery was asked for by a
 * completion the driver could not account for, of the RQ or of its
 * ICOSQ (the RQ itself may still be ready): recovery first moves it to
 * the error state.  RECOVER_FAILED: a recovery failed, the RQ stays out
 * of service (RECOVERING set) until devlink health recover tries again
 * (reporter_rx.c).  CQ_BAD: its CQ holds a compressed block that cannot
 * be (en_rx.c): out of service (RECOVERING) until the channels are
 * reopened (mlx5e_priv.reopen_work).
 */
enum {
	MLX5E_RQ_STATE_RECOVERING,
	MLX5E_RQ_STATE_BAD_CQE,
	MLX5E_RQ_STATE_RECOVER_FAILED,
	MLX5E_RQ_STATE_CQ_BAD,
};

enum {
	MLX5E_CHANNEL_STATE_XSK,
};

/**
 * struct mlx5e_channel - one NAPI context with its queues
 * @napi: polls @sq's and @rq's CQs
 * @sq: the send queue (one traffic class)
 * @rq: the receive queue
 * @icosq: the control SQ of a striding @rq
 * @xskicosq: the control SQ of a striding @xskrq
 * @xdpsq: the XDP send queue of ndo_xdp_xmit, any CPU's (always there)
 * @rq_xdpsq: the XDP_TX SQ of @rq and @xskrq, posted by NAPI alone
 *	(while a program is attached, else NULL)
 * @xskrq: the XSK RQ, while an AF_XDP pool is attached to the channel's
 *	index and an XDP program runs (else NULL): the RQTs that name the
 *	channel name it instead of @rq
 * @xsksq: the XSK SQ beside it: the socket's TX ring, sent by NAPI
 * @state: MLX5E_CHANNEL_STATE_XSK: NAPI runs @xskrq and @xsksq (set once
 *	no other channel's NAPI uses their pool: mlx5e_start_xsk())
 * @priv: the netdev's private area
 * @mdev: the device
 * @netdev: the netdev
 * @stats: counters (in @priv, surviving the channel)
 * @db: doorbell page of this channel's queues
 * @ix: channel index
 * @vector: completion vector
 * @cpu: CPU of @vector
 * @rx_dim: adaptive moderation of @rq's CQ, when the parameters ask
 * @tx_dim: adaptive moderation of @sq's CQ, when the parameters ask
 * @rx_dim_on: @rx_dim runs
 * @tx_dim_on: @tx_dim runs
 * @irq_events: completion events of the channel's CQs, counted in the
 *	interrupt (one vector serves all of them: one writer at a time)
 * @irq_events_seen: @irq_events when NAPI last added them to @stats
 */
struct mlx5e_channel {
	struct napi_struct napi;
	struct mlx5e_txqsq sq;
	struct mlx5e_rq rq;
	struct mlx5e_icosq icosq;
	struct mlx5e_icosq xskicosq;
	struct mlx5e_xdpsq *xdpsq;
	struct mlx5e_xdpsq *rq_xdpsq;
	struct mlx5e_rq *xskrq;
	struct mlx5e_xdpsq *xsksq;
	unsigned long state;

	struct mlx5e_priv *priv;
	struct mlx5_core_dev *mdev;
	struct net_device *netdev;
	struct mlx5e_ch_stats *stats;
	struct mlx5_doorbell db;
	u16 ix;
	u16 vector;
	int cpu;
	struct dim rx_dim;
	struct dim tx_dim;
	bool rx_dim_on;
	bool tx_dim_on;
	u32 irq_events;
	u32 irq_events_seen;
};

/**
 * struct mlx5e_channels - the open channels and what they were built from
 * @c: the channels
 * @num: how many
 * @params: their parameters
 */
struct mlx5e_channels {
	struct mlx5e_channel **c;
	unsigned int num;
	struct mlx5e_params params;
};

/**
 * struct mlx5e_hw_res - objects every queue of the netdev refers to
 * @pdn: protection domain
 * @tdn: transport domain (TIRs and TISs)
 * @mkey: physical-address memory key of data segments
 * @q_counter: queue counter of the RQs (out_of_buffer)
 * @tisn: transport interface send of the SQs
 */
struct mlx5e_hw_res {
	u32 pdn;
	u32 tdn;
	u32 mkey;
	u16 q_counter;
	u32 tisn;
};

/**
 * struct mlx5e_rss - receive side scaling
 * @rqtn: RQ table
 * @tirn: one TIR per traffic type, hashing on its fields
 * @direct_rqtn: per channel index (max_nch of them), an RQT of one entry:
 *	that channel's RQ (beyond the open channels, that of index % open)
 * @direct_tirn: per channel index, a TIR over its direct RQT (ethtool
 *	rules steer to it)
 * @indir: indirection table: channel index per entry
 * @key: Toeplitz key
 * @rx_hash_fields: MLX5_HASH_FIELD_SEL_* hashed per traffic type
 * @ctx: the extra RSS contexts (ethtool -X context N) by id, NULL where
 *	none; the ethtool core owns them and keeps their indirection table
 *	and key
 */
struct mlx5e_rss {
	u32 rqtn;
	u32 tirn[MLX5E_NUM_TT];
	u32 *direct_rqtn;
	u32 *direct_tirn;
	u32 indir[MLX5E_INDIR_RQT_SIZE];
	u8 key[MLX5E_RSS_KEY_SIZE];
	u8 rx_hash_fields[MLX5E_NUM_TT];
	struct ethtool_rxfh_context *ctx[MLX5E_RSS_MAX_CTX];
};

/**
 * struct mlx5e_rss_ctx - the device objects of an extra RSS context (the
 *	driver's private area of its struct ethtool_rxfh_context)
 * @rqtn: its RQ table, over its indirection table
 * @tirn: one TIR per traffic type over @rqtn, hashing with its key the
 *	fields @rx_hash_fields names for its type
 * @rx_hash_fields: MLX5_HASH_FIELD_SEL_* hashed per traffic type (ethtool
 *	-N rx-flow-hash ... context N), the defaults at creation
 * @created: whether the objects exist (only while the netdev is up)
 */
struct mlx5e_rss_ctx {
	u32 rqtn;
	u32 tirn[MLX5E_NUM_TT];
	u8 rx_hash_fields[MLX5E_NUM_TT];
	bool created;
};

#define MLX5E_L2_MAX_ADDRS	256

/**
 * struct mlx5e_flow_table - a flow table with its groups
 * @id: table id
 * @level: level in the NIC RX namespace
 * @groups: flow group ids
 * @num_groups: how many of @groups exist
 */
struct mlx5e_flow_table {
	u32 id;
	u8 level;
	u32 groups[4];
	u8 num_groups;
};

#define MLX5E_ETHTOOL_MAX_RULES		1024	/* locations, as upstream */
#define MLX5E_ETHTOOL_LOG_SIZE		10
#define MLX5E_ETHTOOL_GROUP_SIZE	32
#define MLX5E_ETHTOOL_MAX_GROUPS	((1 << MLX5E_ETHTOOL_LOG_SIZE) / \
					 MLX5E_ETHTOOL_GROUP_SIZE)

/**
 * struct mlx5e_ethtool_group - one flow group of the ethtool table: a
 * slice of MLX5E_ETHTOOL_GROUP_SIZE entries sharing one match mask
 * @id: group id (valid while @used is not 0)
 * @used: the entries of the slice in use, bit per entry
 * @criteria: the outer-header match mask
 */
struct mlx5e_ethtool_group {
	u32 id;
	u32 used;
	u32 criteria[MLX5_ST_SZ_DW(fte_match_set_lyr_2_4)];
};

/**
 * struct mlx5e_ethtool_steering - ethtool -N rules (ntuple steering)
 * @rules: struct mlx5e_ethtool_rule, by location; kept while the netdev is
 *	down and installed with the flow tables
 * @num_rules: entries of @rules
 * @ft_id: the ethtool table, the root ahead of the L2 table, missing to it
 * @ft_created: the table exists (only while a rule is installed)
 * @groups: the table's groups, slice i at index i * GROUP_SIZE
 */
struct mlx5e_ethtool_steering {
	struct list_head rules;
	unsigned int num_rules;
	u32 ft_id;
	bool ft_created;
	struct mlx5e_ethtool_group groups[MLX5E_ETHTOOL_MAX_GROUPS];
};

/**
 * struct mlx5e_flow_steering - the NIC RX flow tables
 * @l2: root table: destination MAC (unicast/multicast/broadcast),
 *	allmulti and promiscuous entries, each to @ttc
 * @ttc: traffic-type classifier, each entry to a TIR
 * @l2_addrs: MAC addresses currently in @l2 (full match entries)
 * @num_l2_addrs: how many
 * @promisc: the promiscuous entry is in @l2
 * @allmulti: the allmulti entry is in @l2
 * @created: the tables exist
 * @ethtool: the ethtool rules and their table
 */
struct mlx5e_flow_steering {
	struct mlx5e_flow_table l2;
	struct mlx5e_flow_table ttc;
	u8 l2_addrs[MLX5E_L2_MAX_ADDRS][ETH_ALEN];
	unsigned int num_l2_addrs;
	bool promisc;
	bool allmulti;
	bool created;
	struct mlx5e_ethtool_steering ethtool;
};

enum {
	MLX5E_STATE_OPENED,
	MLX5E_STATE_DESTROYING,
	MLX5E_STATE_HW_READY,
	MLX5E_STATE_XDP_XMIT,	/* ndo_xdp_xmit may use the channels' XDP SQs */
	MLX5E_STATE_TX_DISABLED, /* every TX queue stopped by the driver */
};

/**
 * struct mlx5e_priv - the netdev's private area
 * @channels: the open channels
 * @txq2sq: SQ of each netdev TX queue (RCU: ndo_start_xmit reads it)
 * @params: wanted parameters (applied at the next open)
 * @netdev: the netdev
 * @mdev: the device
 * @state: MLX5E_STATE_*
 * @state_lock: serialises the control path
 * @res: shared hardware objects
 * @rss: RSS objects and configuration
 * @fs: flow steering
 * @channel_stats: counters per channel index ever opened
 * @stats_nch: channel indices with counters (the most ever opened)
 * @xps_nch: channel count the default XPS maps were set for (0: none yet)
 * @q_out_of_buffer: rx_out_of_buffer from the Q counter, last read
 * @wq: control-path work
 * @rx_mode_work: applies ndo_set_rx_mode
 * @carrier_work: follows the port's operational state
 * @tx_timeout_work: recovers the TX queues the watchdog found stalled
 * @reopen_work: rebuilds the channels with the parameters in force (an RX
 *	CQ the driver cannot read on); tried again each second while it fails
 * @events_nb: the core's async events
 * @max_nch: channels the device can give us
 * @max_mtu: port maximum, software MTU
 * @devlink: the Ethernet side's devlink instance, its port the netdev's
 * @tx_reporter: devlink health reporter of the SQs
 * @rx_reporter: devlink health reporter of the RQs
 * @hwtstamp: hardware timestamping (SIOCSHWTSTAMP): @hwtstamp.tx_type
 *	HWTSTAMP_TX_ON or OFF, @hwtstamp.rx_filter HWTSTAMP_FILTER_ALL or
 *	NONE; the data path reads it at every packet
 * @rx_cqe_compress_def: rx_cqe_compress as last asked (or the default):
 *	what RX timestamps off brings back (they turn it off)
 * @tx_failed: SQs and XDP SQs whose recovery failed (the reporter "tx"
 *	stays in error while there are any)
 * @rx_failed: RQs whose recovery failed (the reporter "rx")
 * @vxlan: the device's VXLAN port table (an ERR_PTR without
 *	tunnel_stateless_vxlan)
 * @nic_info: the udp_tunnel_nic table of its ports
 * @xsk_pools: per channel index, the AF_XDP zero-copy pool attached
 *	(XDP_SETUP_XSK_POOL), DMA mapped; kept across channel rebuilds
 */
struct mlx5e_priv {
	struct mlx5e_channels channels;
	struct mlx5e_txqsq **txq2sq;
	struct mlx5e_params params;
	struct net_device *netdev;
	struct mlx5_core_dev *mdev;
	unsigned long state;
	struct mutex state_lock; /* control path */
	struct mlx5e_hw_res res;
	struct mlx5e_rss rss;
	struct mlx5e_flow_steering fs;
	struct mlx5e_channel_stats *channel_stats;
	u16 stats_nch;
	u16 xps_nch;
	u64 q_out_of_buffer;
	struct workqueue_struct *wq;
	struct work_struct rx_mode_work;
	struct work_struct carrier_work;
	struct work_struct tx_timeout_work;
	struct delayed_work reopen_work;
	struct notifier_block events_nb;
	u16 max_nch;
	u16 max_mtu;
	struct devlink *devlink;
	struct devlink_health_reporter *tx_reporter;
	struct devlink_health_reporter *rx_reporter;
	struct kernel_hwtstamp_config hwtstamp;
	bool rx_cqe_compress_def;
	atomic_t tx_failed;
	atomic_t rx_failed;
	struct mlx5_vxlan *vxlan;
	struct udp_tunnel_nic_info nic_info;
	struct xsk_buff_pool *xsk_pools[MLX5E_MAX_NUM_CHANNELS];
};

/**
 * mlx5e_channel_rqn() - the RQ the RQTs name for a channel
 * @c: the channel
 *
 * Return: its XSK RQ's number while it has one, else its RQ's.
 */
static inline u32 mlx5e_channel_rqn(const struct mlx5e_channel *c)
{
	return c->xskrq ? c->xskrq->rqn : c->rq.rqn;
}

/* en_main.c */
int mlx5e_open_locked(struct net_device *netdev);
int mlx5e_close_locked(struct net_device *netdev);
int mlx5e_modify_cq_moderation(struct mlx5_core_dev *mdev,
			       struct mlx5e_cq *cq, u16 usecs, u16 frames);
int mlx5e_channels_set_moderation(struct mlx5e_priv *priv,
				  const struct mlx5e_params *params);
int mlx5e_rx_cqe_compress_follow_tstamp(struct mlx5e_priv *priv,
					struct netlink_ext_ack *extack);
int mlx5e_safe_switch_params(struct mlx5e_priv *priv,
			     const struct mlx5e_params *new,
			     struct netlink_ext_ack *extack);
int mlx5e_modify_sq_state(struct mlx5_core_dev *mdev, u32 sqn, int curr,
			  int next);
int mlx5e_create_sq_cmd(struct mlx5e_channel *c,
			const struct mlx5e_params *params,
			const struct mlx5_wq_cyc *wq, u32 cqn, bool reg_umr,
			u32 *sqn);
void mlx5e_destroy_sq_cmd(struct mlx5_core_dev *mdev, u32 sqn);
int mlx5e_reset_icosq(struct mlx5e_channel *c, struct mlx5e_icosq *sq);
int mlx5e_create_cq(struct mlx5e_channel *c, struct mlx5e_cq *cq,
		    const struct mlx5e_params *params, bool rx, u8 log_size);
void mlx5e_destroy_cq(struct mlx5_core_dev *mdev, struct mlx5e_cq *cq);

/* en_tx.c */
netdev_tx_t mlx5e_xmit(struct sk_buff *skb, struct net_device *netdev);
bool mlx5e_poll_tx_cq(struct mlx5e_txqsq *sq, int napi_budget);
void mlx5e_drain_tx_cq(struct mlx5e_txqsq *sq);
void mlx5e_tx_bql_detach(struct mlx5e_txqsq *sq);
#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
void mlx5e_fault_debugfs_init(struct dentry *root);
#else
static inline void mlx5e_fault_debugfs_init(struct dentry *root)
{
}
#endif
void mlx5e_free_txqsq_descs(struct mlx5e_txqsq *sq);
void mlx5e_tx_flush_pending(struct mlx5e_txqsq *sq);
void mlx5e_tx_err_cqe_work(struct work_struct *work);

/* en/devlink.c */
int mlx5e_devlink_create(struct mlx5e_priv *priv, struct device *dev);
void mlx5e_devlink_destroy(struct mlx5e_priv *priv);
struct devlink_port *mlx5e_devlink_port(struct mlx5e_priv *priv);

/* en/health.c */
struct devlink_health_reporter_ops;
struct devlink_health_reporter *
mlx5e_health_create(struct mlx5e_priv *priv,
		    const struct devlink_health_reporter_ops *ops);
void mlx5e_health_destroy(struct devlink_health_reporter **r);
void mlx5e_health_report(struct devlink_health_reporter *r,
			 struct mlx5e_channel *c, const char *msg,
			 u16 cc, u16 pc);
void mlx5e_health_fail(unsigned long *state, int bit, atomic_t *failed);
bool mlx5e_health_unfail(unsigned long *state, int bit, atomic_t *failed);
void mlx5e_health_recovered(struct devlink_health_reporter *r, int err,
			    atomic_t *failed);
void mlx5e_health_settle(struct mlx5e_priv *priv);
int mlx5e_health_retry_failed(struct mlx5e_priv *priv,
			      int (*retry)(struct mlx5e_channel *c),
			      const char *what, struct netlink_ext_ack *extack);

/* en/reporter_tx.c */
int mlx5e_query_sq_state(struct mlx5_core_dev *mdev, u32 sqn, u8 *state);
int mlx5e_sq_expect_err(struct mlx5e_channel *c, u32 sqn, const char *kind,
			bool stop_ready, u8 *state);

/**
 * mlx5e_channel_kick() - run the channel's NAPI from process context
 * @c: the channel
 *
 * For what NAPI does next: poll completions whose events were lost while
 * it was disabled, post a ring, arm the CQs.
 */
static inline void mlx5e_channel_kick(struct mlx5e_channel *c)
{
	local_bh_disable();
	napi_schedule(&c->napi);
	local_bh_enable();
}

int mlx5e_modify_rq_state(struct mlx5_core_dev *mdev, u32 rqn, int curr,
			  int next);
void mlx5e_rx_reporter_create(struct mlx5e_priv *priv);
void mlx5e_rx_reporter_destroy(struct mlx5e_priv *priv);
void mlx5e_rx_err_cqe_work(struct work_struct *work);
void mlx5e_tx_reporter_create(struct mlx5e_priv *priv);
void mlx5e_tx_reporter_destroy(struct mlx5e_priv *priv);

/* en_rx.c */
int mlx5e_poll_rx_cq(struct mlx5e_rq *rq, int budget);
bool mlx5e_xsk_post_rx_wqes(struct mlx5e_rq *rq);
bool mlx5e_xsk_rx_short(struct mlx5e_rq *rq, u32 need);
int mlx5e_rx_cq_drain(struct mlx5e_rq *rq);
bool mlx5e_post_rx_wqes(struct mlx5e_rq *rq);
void mlx5e_free_rx_descs(struct mlx5e_rq *rq);
bool mlx5e_poll_icosq_cq(struct mlx5e_icosq *sq, struct mlx5e_rq *rq);
void mlx5e_init_mpwqes(struct mlx5e_rq *rq);
int mlx5e_icosq_drain(struct mlx5e_icosq *sq, struct mlx5e_rq *rq);

/* en/ethtool.c */
extern const struct ethtool_ops mlx5e_ethtool_ops;

#endif /* __MLX5_EN_H__ */
