// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Counters. Each channel index has its counters in the netdev's private
 * area (struct mlx5e_channel_stats), written by one context each under
 * u64_stats_sync, kept when channels close so totals survive
 * reconfiguration. ethtool -S names follow upstream mlx5e: totals
 * (rx_packets, tx_packets, ...), then per channel chN_*, per RQ rxN_*, per
 * SQ txN_*; every name comes from the tables below. With
 * CONFIG_PAGE_POOL_STATS, rx_pp_* after the device totals: the page_pool
 * counters of the open RQs.
 *
 * The standard ethtool groups (eth-mac, eth-ctrl, eth-phy, rmon) come
 * from the port's PPCNT counter groups, read on each request.
 */
#include <linux/ethtool.h>
#include <net/page_pool/helpers.h>

#include "stats.h"
#include "common.h"

/**
 * struct mlx5e_counter_desc - one counter of a group
 * @name: its name after the group's prefix
 * @offset: where it is in the group's struct
 */
struct mlx5e_counter_desc {
	const char *name;
	size_t offset;
};

#define MLX5E_DESC(type, field) { #field, offsetof(type, field) }

static const struct mlx5e_counter_desc mlx5e_rq_desc[] = {
	MLX5E_DESC(struct mlx5e_rq_stats, packets),
	MLX5E_DESC(struct mlx5e_rq_stats, bytes),
	MLX5E_DESC(struct mlx5e_rq_stats, csum_complete),
	MLX5E_DESC(struct mlx5e_rq_stats, csum_unnecessary),
	MLX5E_DESC(struct mlx5e_rq_stats, csum_unnecessary_inner),
	MLX5E_DESC(struct mlx5e_rq_stats, csum_none),
	MLX5E_DESC(struct mlx5e_rq_stats, wqe_err),
	MLX5E_DESC(struct mlx5e_rq_stats, buff_alloc_err),
	MLX5E_DESC(struct mlx5e_rq_stats, gro_packets),
	MLX5E_DESC(struct mlx5e_rq_stats, lro_packets),
	MLX5E_DESC(struct mlx5e_rq_stats, lro_bytes),
	MLX5E_DESC(struct mlx5e_rq_stats, recover),
	MLX5E_DESC(struct mlx5e_rq_stats, pages),
	MLX5E_DESC(struct mlx5e_rq_stats, xdp_drop),
	MLX5E_DESC(struct mlx5e_rq_stats, xdp_redirect),
	MLX5E_DESC(struct mlx5e_rq_stats, xdp_tx_xmit),
	MLX5E_DESC(struct mlx5e_rq_stats, xdp_tx_full),
	MLX5E_DESC(struct mlx5e_rq_stats, xdp_tx_err),
	MLX5E_DESC(struct mlx5e_rq_stats, xdp_tx_mpwqe),
	MLX5E_DESC(struct mlx5e_rq_stats, xdp_tx_inlnw),
	MLX5E_DESC(struct mlx5e_rq_stats, xdp_tx_recover),
	MLX5E_DESC(struct mlx5e_rq_stats, mpwqe_filler_cqes),
	MLX5E_DESC(struct mlx5e_rq_stats, mpwqe_filler_strides),
	MLX5E_DESC(struct mlx5e_rq_stats, oversize_pkts_sw_drop),
	MLX5E_DESC(struct mlx5e_rq_stats, umr_cqe_err),
	MLX5E_DESC(struct mlx5e_rq_stats, cqe_compress_blks),
	MLX5E_DESC(struct mlx5e_rq_stats, cqe_compress_pkts),
	MLX5E_DESC(struct mlx5e_rq_stats, cqe_compress_err),
};

static const struct mlx5e_counter_desc mlx5e_xdp_xmit_desc[] = {
	MLX5E_DESC(struct mlx5e_xdp_xmit_stats, xdp_xmit),
	MLX5E_DESC(struct mlx5e_xdp_xmit_stats, xdp_full),
	MLX5E_DESC(struct mlx5e_xdp_xmit_stats, xdp_err),
	MLX5E_DESC(struct mlx5e_xdp_xmit_stats, xdp_mpwqe),
	MLX5E_DESC(struct mlx5e_xdp_xmit_stats, xdp_inlnw),
	MLX5E_DESC(struct mlx5e_xdp_xmit_stats, xdp_recover),
};

/* The XSK RQ's counters of its struct mlx5e_rq_stats (the rest stay 0). */
static const struct mlx5e_counter_desc mlx5e_xskrq_desc[] = {
	{ "xsk_packets", offsetof(struct mlx5e_rq_stats, packets) },
	{ "xsk_bytes", offsetof(struct mlx5e_rq_stats, bytes) },
	{ "xsk_csum_complete", offsetof(struct mlx5e_rq_stats, csum_complete) },
	{ "xsk_csum_unnecessary", offsetof(struct mlx5e_rq_stats, csum_unnecessary) },
	{ "xsk_csum_unnecessary_inner", offsetof(struct mlx5e_rq_stats, csum_unnecessary_inner) },
	{ "xsk_csum_none", offsetof(struct mlx5e_rq_stats, csum_none) },
	{ "xsk_wqe_err", offsetof(struct mlx5e_rq_stats, wqe_err) },
	{ "xsk_buff_alloc_err", offsetof(struct mlx5e_rq_stats, buff_alloc_err) },
	{ "xsk_xdp_drop", offsetof(struct mlx5e_rq_stats, xdp_drop) },
	{ "xsk_xdp_redirect", offsetof(struct mlx5e_rq_stats, xdp_redirect) },
	{ "xsk_xdp_tx_xmit", offsetof(struct mlx5e_rq_stats, xdp_tx_xmit) },
	{ "xsk_xdp_tx_full", offsetof(struct mlx5e_rq_stats, xdp_tx_full) },
	{ "xsk_xdp_tx_err", offsetof(struct mlx5e_rq_stats, xdp_tx_err) },
	{ "xsk_oversize_pkts_sw_drop", offsetof(struct mlx5e_rq_stats, oversize_pkts_sw_drop) },
	{ "xsk_umr_frames", offsetof(struct mlx5e_rq_stats, pages) },
	{ "xsk_umr_cqe_err", offsetof(struct mlx5e_rq_stats, umr_cqe_err) },
};

static const struct mlx5e_counter_desc mlx5e_xsktx_desc[] = {
	{ "xsk_xmit", offsetof(struct mlx5e_xsk_tx_stats, packets) },
	{ "xsk_bytes", offsetof(struct mlx5e_xsk_tx_stats, bytes) },
	{ "xsk_mpwqe", offsetof(struct mlx5e_xsk_tx_stats, mpwqe) },
	{ "xsk_inlnw", offsetof(struct mlx5e_xsk_tx_stats, inlnw) },
	{ "xsk_full", offsetof(struct mlx5e_xsk_tx_stats, full) },
	{ "xsk_err", offsetof(struct mlx5e_xsk_tx_stats, err) },
	{ "xsk_cqes", offsetof(struct mlx5e_xsk_tx_stats, cqes) },
	{ "xsk_recover", offsetof(struct mlx5e_xsk_tx_stats, recover) },
};

static const struct mlx5e_counter_desc mlx5e_sq_desc[] = {
	MLX5E_DESC(struct mlx5e_sq_stats, packets),
	MLX5E_DESC(struct mlx5e_sq_stats, bytes),
	MLX5E_DESC(struct mlx5e_sq_stats, tso_packets),
	MLX5E_DESC(struct mlx5e_sq_stats, tso_bytes),
	MLX5E_DESC(struct mlx5e_sq_stats, tso_inner_packets),
	MLX5E_DESC(struct mlx5e_sq_stats, tso_inner_bytes),
	MLX5E_DESC(struct mlx5e_sq_stats, csum_partial),
	MLX5E_DESC(struct mlx5e_sq_stats, csum_partial_inner),
	MLX5E_DESC(struct mlx5e_sq_stats, csum_none),
	MLX5E_DESC(struct mlx5e_sq_stats, xmit_more),
	{ "queue_stopped", offsetof(struct mlx5e_sq_stats, stopped) },
	{ "queue_dropped", offsetof(struct mlx5e_sq_stats, dropped) },
	MLX5E_DESC(struct mlx5e_sq_stats, nop),
	MLX5E_DESC(struct mlx5e_sq_stats, doorbells),
	MLX5E_DESC(struct mlx5e_sq_stats, mpwqe_blks),
	MLX5E_DESC(struct mlx5e_sq_stats, mpwqe_pkts),
	MLX5E_DESC(struct mlx5e_sq_stats, xmit_disabled),
};

static const struct mlx5e_counter_desc mlx5e_sq_cq_desc[] = {
	MLX5E_DESC(struct mlx5e_sq_cq_stats, cqes),
	MLX5E_DESC(struct mlx5e_sq_cq_stats, cqe_err),
	MLX5E_DESC(struct mlx5e_sq_cq_stats, cqe_stale),
	{ "queue_wake", offsetof(struct mlx5e_sq_cq_stats, wake) },
	MLX5E_DESC(struct mlx5e_sq_cq_stats, recover),
	MLX5E_DESC(struct mlx5e_sq_cq_stats, timeout),
};

static const struct mlx5e_counter_desc mlx5e_ch_desc[] = {
	MLX5E_DESC(struct mlx5e_ch_stats, events),
	MLX5E_DESC(struct mlx5e_ch_stats, poll),
	MLX5E_DESC(struct mlx5e_ch_stats, arm),
};

/**
 * struct mlx5e_counter_group - a struct of counters within a channel's
 * @prefix: "rx", "tx" or "ch"
 * @desc: its counters
 * @n: how many
 * @offset: where the struct is in struct mlx5e_channel_stats
 */
struct mlx5e_counter_group {
	const char *prefix;
	const struct mlx5e_counter_desc *desc;
	unsigned int n;
	size_t offset;
};

#define MLX5E_GROUP(p, desc, f) \
	{ p, mlx5e_##desc, ARRAY_SIZE(mlx5e_##desc), \
	  offsetof(struct mlx5e_channel_stats, f) }

static const struct mlx5e_counter_group mlx5e_groups[] = {
	MLX5E_GROUP("rx", rq_desc, rq),
	MLX5E_GROUP("tx", sq_desc, sq),
	MLX5E_GROUP("tx", sq_cq_desc, sq_cq),
	MLX5E_GROUP("tx", xdp_xmit_desc, xdp_xmit),
	MLX5E_GROUP("rx", xskrq_desc, xskrq),
	MLX5E_GROUP("tx", xsktx_desc, xsktx),
	MLX5E_GROUP("ch", ch_desc, ch),
};

/* Totals that are not per channel: from the device. */
static const char * const mlx5e_hw_names[] = {
	"rx_out_of_buffer",
};

#ifdef CONFIG_PAGE_POOL_STATS
#define MLX5E_PP_DESC(name, field) \
	{ name, offsetof(struct page_pool_stats, field) }

/* Upstream mlx5e's names for the page_pool counters. */
static const struct mlx5e_counter_desc mlx5e_pp_desc[] = {
	MLX5E_PP_DESC("rx_pp_alloc_fast", alloc_stats.fast),
	MLX5E_PP_DESC("rx_pp_alloc_slow", alloc_stats.slow),
	MLX5E_PP_DESC("rx_pp_alloc_slow_high_order", alloc_stats.slow_high_order),
	MLX5E_PP_DESC("rx_pp_alloc_empty", alloc_stats.empty),
	MLX5E_PP_DESC("rx_pp_alloc_refill", alloc_stats.refill),
	MLX5E_PP_DESC("rx_pp_alloc_waive", alloc_stats.waive),
	MLX5E_PP_DESC("rx_pp_recycle_cached", recycle_stats.cached),
	MLX5E_PP_DESC("rx_pp_recycle_cache_full", recycle_stats.cache_full),
	MLX5E_PP_DESC("rx_pp_recycle_ring", recycle_stats.ring),
	MLX5E_PP_DESC("rx_pp_recycle_ring_full", recycle_stats.ring_full),
	MLX5E_PP_DESC("rx_pp_recycle_released_ref", recycle_stats.released_refcnt),
};

#define MLX5E_NUM_PP_STATS	ARRAY_SIZE(mlx5e_pp_desc)

static void mlx5e_pp_strings(u8 **data)
{
	unsigned int i;

	for (i = 0; i < MLX5E_NUM_PP_STATS; i++)
		ethtool_puts(data, mlx5e_pp_desc[i].name);
}

/* Sum over the open RQs' pools; the caller holds state_lock. */
static void mlx5e_pp_fill(struct mlx5e_priv *priv, u64 *data)
{
	struct page_pool_stats pps = {};
	unsigned int i;

	if (test_bit(MLX5E_STATE_OPENED, &priv->state))
		for (i = 0; i < priv->channels.num; i++)
			page_pool_get_stats(priv->channels.c[i]->rq.page_pool,
					    &pps);
	for (i = 0; i < MLX5E_NUM_PP_STATS; i++)
		data[i] = *(u64 *)((void *)&pps + mlx5e_pp_desc[i].offset);
}
#else
#define MLX5E_NUM_PP_STATS	0

static void mlx5e_pp_strings(u8 **data)
{
}

static void mlx5e_pp_fill(struct mlx5e_priv *priv, u64 *data)
{
}
#endif

void mlx5e_stats_init(struct mlx5e_priv *priv)
{
	unsigned int i;

	for (i = 0; i < priv->max_nch; i++) {
		struct mlx5e_channel_stats *s = &priv->channel_stats[i];

		u64_stats_init(&s->ch.syncp);
		u64_stats_init(&s->sq.syncp);
		u64_stats_init(&s->sq_cq.syncp);
		u64_stats_init(&s->rq.syncp);
		u64_stats_init(&s->xdp_xmit.syncp);
		u64_stats_init(&s->xskrq.syncp);
		u64_stats_init(&s->xsktx.syncp);
	}
}

/* Every counter struct starts with its syncp. */
static void mlx5e_group_read(const struct mlx5e_counter_group *g,
			     const struct mlx5e_channel_stats *cs, u64 *out)
{
	const void *base = (const void *)cs + g->offset;
	const struct u64_stats_sync *syncp = base;
	unsigned int start, i;

	do {
		start = u64_stats_fetch_begin(syncp);
		for (i = 0; i < g->n; i++)
			out[i] = u64_stats_read(base + g->desc[i].offset);
	} while (u64_stats_fetch_retry(syncp, start));
}

static unsigned int mlx5e_per_channel_count(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(mlx5e_groups); i++)
		n += mlx5e_groups[i].n;
	return n;
}

int mlx5e_stats_count(struct mlx5e_priv *priv)
{
	return ARRAY_SIZE(mlx5e_hw_names) + MLX5E_NUM_PP_STATS +
	       mlx5e_per_channel_count() * (1 + priv->stats_nch);
}

void mlx5e_stats_strings(struct mlx5e_priv *priv, u8 *data)
{
	unsigned int i, j, ch;

	for (i = 0; i < ARRAY_SIZE(mlx5e_groups); i++)
		for (j = 0; j < mlx5e_groups[i].n; j++)
			ethtool_sprintf(&data, "%s_%s", mlx5e_groups[i].prefix,
					mlx5e_groups[i].desc[j].name);
	for (i = 0; i < ARRAY_SIZE(mlx5e_hw_names); i++)
		ethtool_puts(&data, mlx5e_hw_names[i]);
	mlx5e_pp_strings(&data);
	for (ch = 0; ch < priv->stats_nch; ch++)
		for (i = 0; i < ARRAY_SIZE(mlx5e_groups); i++)
			for (j = 0; j < mlx5e_groups[i].n; j++)
				ethtool_sprintf(&data, "%s%u_%s",
						mlx5e_groups[i].prefix, ch,
						mlx5e_groups[i].desc[j].name);
}

static void mlx5e_update_q_counter(struct mlx5e_priv *priv)
{
	u32 oob;

	if (test_bit(MLX5E_STATE_HW_READY, &priv->state) &&
	    !mlx5e_query_out_of_buffer(priv->mdev, priv->res.q_counter, &oob))
		priv->q_out_of_buffer = oob;
}

void mlx5e_stats_fill(struct mlx5e_priv *priv, u64 *data)
{
	unsigned int n = mlx5e_per_channel_count();
	u64 *totals = data, *pp = data + n + ARRAY_SIZE(mlx5e_hw_names);
	u64 *per = pp + MLX5E_NUM_PP_STATS;
	unsigned int i, ch;

	memset(totals, 0, n * sizeof(*totals));
	for (ch = 0; ch < priv->stats_nch; ch++) {
		u64 *out = per + ch * n;

		for (i = 0; i < ARRAY_SIZE(mlx5e_groups); i++) {
			mlx5e_group_read(&mlx5e_groups[i],
					 &priv->channel_stats[ch], out);
			out += mlx5e_groups[i].n;
		}
		for (i = 0; i < n; i++)
			totals[i] += per[ch * n + i];
	}
	mutex_lock(&priv->state_lock);
	mlx5e_update_q_counter(priv);
	mlx5e_pp_fill(priv, pp);
	mutex_unlock(&priv->state_lock);
	data[n] = priv->q_out_of_buffer;
}

/* A 64-bit counter of a PPCNT group's counter set @set. */
#define MLX5E_PPCNT(layout, set, name) \
	MLX5_GET64(layout, set, name##_high)
#define MLX5E_802_3(set, name) \
	MLX5E_PPCNT(eth_802_3_cntrs_grp_data_layout, set, name)
#define MLX5E_2819(set, name) \
	MLX5E_PPCNT(eth_2819_cntrs_grp_data_layout, set, name)

/*
 * The standard groups: a PPCNT group read into @out, its counter set
 * returned; NULL when the command fails (the group is then not reported).
 */
static void *mlx5e_ppcnt_set(struct mlx5e_priv *priv, u8 grp, u32 *out)
{
	if (mlx5e_port_ppcnt(priv->mdev, grp, out))
		return NULL;
	return MLX5_ADDR_OF(ppcnt_reg, out, counter_set);
}

void mlx5e_stats_eth_mac(struct mlx5e_priv *priv,
			 struct ethtool_eth_mac_stats *mac)
{
	u32 out[MLX5_ST_SZ_DW(ppcnt_reg)];
	void *set;

	set = mlx5e_ppcnt_set(priv, MLX5_IEEE_802_3_COUNTERS_GROUP, out);
	if (!set)
		return;
	mac->FramesTransmittedOK = MLX5E_802_3(set, a_frames_transmitted_ok);
	mac->FramesReceivedOK = MLX5E_802_3(set, a_frames_received_ok);
	mac->FrameCheckSequenceErrors =
		MLX5E_802_3(set, a_frame_check_sequence_errors);
	mac->AlignmentErrors = MLX5E_802_3(set, a_alignment_errors);
	mac->OctetsTransmittedOK = MLX5E_802_3(set, a_octets_transmitted_ok);
	mac->OctetsReceivedOK = MLX5E_802_3(set, a_octets_received_ok);
	mac->MulticastFramesXmittedOK =
		MLX5E_802_3(set, a_multicast_frames_xmitted_ok);
	mac->BroadcastFramesXmittedOK =
		MLX5E_802_3(set, a_broadcast_frames_xmitted_ok);
	mac->MulticastFramesReceivedOK =
		MLX5E_802_3(set, a_multicast_frames_received_ok);
	mac->BroadcastFramesReceivedOK =
		MLX5E_802_3(set, a_broadcast_frames_received_ok);
	mac->InRangeLengthErrors = MLX5E_802_3(set, a_in_range_length_errors);
	mac->OutOfRangeLengthField =
		MLX5E_802_3(set, a_out_of_range_length_field);
	mac->FrameTooLongErrors = MLX5E_802_3(set, a_frame_too_long_errors);
}

void mlx5e_stats_eth_ctrl(struct mlx5e_priv *priv,
			  struct ethtool_eth_ctrl_stats *ctrl)
{
	u32 out[MLX5_ST_SZ_DW(ppcnt_reg)];
	void *set;

	set = mlx5e_ppcnt_set(priv, MLX5_IEEE_802_3_COUNTERS_GROUP, out);
	if (!set)
		return;
	ctrl->MACControlFramesTransmitted =
		MLX5E_802_3(set, a_mac_control_frames_transmitted);
	ctrl->MACControlFramesReceived =
		MLX5E_802_3(set, a_mac_control_frames_received);
	ctrl->UnsupportedOpcodesReceived =
		MLX5E_802_3(set, a_unsupported_opcodes_received);
}

void mlx5e_stats_eth_phy(struct mlx5e_priv *priv,
			 struct ethtool_eth_phy_stats *phy)
{
	u32 out[MLX5_ST_SZ_DW(ppcnt_reg)];
	void *set;

	set = mlx5e_ppcnt_set(priv, MLX5_IEEE_802_3_COUNTERS_GROUP, out);
	if (set)
		phy->SymbolErrorDuringCarrier =
			MLX5E_802_3(set, a_symbol_error_during_carrier);
}

/* The RFC 2819 size classes, as upstream mlx5e reports them. */
static const struct ethtool_rmon_hist_range mlx5e_rmon_ranges[] = {
	{ 0, 64 },
	{ 65, 127 },
	{ 128, 255 },
	{ 256, 511 },
	{ 512, 1023 },
	{ 1024, 1518 },
	{ 1519, 2047 },
	{ 2048, 4095 },
	{ 4096, 8191 },
	{ 8192, 10239 },
	{}
};

void mlx5e_stats_rmon(struct mlx5e_priv *priv, struct ethtool_rmon_stats *rmon,
		      const struct ethtool_rmon_hist_range **ranges)
{
	u32 out[MLX5_ST_SZ_DW(ppcnt_reg)];
	u64 *h = rmon->hist;
	void *set;

	set = mlx5e_ppcnt_set(priv, MLX5_RFC_2819_COUNTERS_GROUP, out);
	if (!set)
		return;
	rmon->undersize_pkts = MLX5E_2819(set, ether_stats_undersize_pkts);
	rmon->fragments = MLX5E_2819(set, ether_stats_fragments);
	rmon->jabbers = MLX5E_2819(set, ether_stats_jabbers);
	h[0] = MLX5E_2819(set, ether_stats_pkts64octets);
	h[1] = MLX5E_2819(set, ether_stats_pkts65to127octets);
	h[2] = MLX5E_2819(set, ether_stats_pkts128to255octets);
	h[3] = MLX5E_2819(set, ether_stats_pkts256to511octets);
	h[4] = MLX5E_2819(set, ether_stats_pkts512to1023octets);
	h[5] = MLX5E_2819(set, ether_stats_pkts1024to1518octets);
	h[6] = MLX5E_2819(set, ether_stats_pkts1519to2047octets);
	h[7] = MLX5E_2819(set, ether_stats_pkts2048to4095octets);
	h[8] = MLX5E_2819(set, ether_stats_pkts4096to8191octets);
	h[9] = MLX5E_2819(set, ether_stats_pkts8192to10239octets);
	*ranges = mlx5e_rmon_ranges;
}

/* BASE-R FEC blocks, per lane of the module (PMLP width). */
static void mlx5e_stats_fec_baser(struct mlx5e_priv *priv, void *set,
				  struct ethtool_fec_stats *fec)
{
	const __be64 *corr, *uncorr;
	u8 lanes = 0;
	unsigned int i;

	if (mlx5e_port_lanes(priv->mdev, &lanes))
		return;
	corr = MLX5_ADDR_OF(phys_layer_cntrs, set,
			    fc_fec_corrected_blocks_lane0_high);
	uncorr = MLX5_ADDR_OF(phys_layer_cntrs, set,
			      fc_fec_uncorrectable_blocks_lane0_high);
	/* The PRM has four lanes' counters, lane 0 first. */
	for (i = 0; i < min_t(u8, lanes, 4); i++) {
		fec->corrected_blocks.lanes[i] = be64_to_cpu(corr[i]);
		fec->uncorrectable_blocks.lanes[i] = be64_to_cpu(uncorr[i]);
	}
}

/**
 * mlx5e_stats_fec() - FEC counters of the FEC the link runs
 * @priv: the netdev's private data
 * @fec: filled in where the port counts; the rest left as the core set it
 *
 * Blocks from PPCNT's physical layer group: BASE-R per lane, RS over the
 * port; the bits corrected from its statistical group, where PCAM
 * announces it.  Nothing with no FEC running or the link down.
 */
void mlx5e_stats_fec(struct mlx5e_priv *priv, struct ethtool_fec_stats *fec)
{
	u32 out[MLX5_ST_SZ_DW(ppcnt_reg)];
	u16 active = 0;
	void *set;

	if (mlx5e_port_fec(priv->mdev, NULL, NULL, &active) ||
	    !active || active == MLX5E_FEC_NONE)
		return;
	if (MLX5_CAP_PCAM_FEATURE(priv->mdev, ppcnt_statistical_group)) {
		set = mlx5e_ppcnt_set(priv, MLX5_PHYSICAL_LAYER_STATISTICAL_GROUP,
				      out);
		if (set)
			fec->corrected_bits.total =
				MLX5E_PPCNT(phys_layer_statistical_cntrs, set,
					    phy_corrected_bits);
	}
	set = mlx5e_ppcnt_set(priv, MLX5_PHYSICAL_LAYER_COUNTERS_GROUP, out);
	if (!set)
		return;
	if (active == MLX5E_FEC_BASER) {
		mlx5e_stats_fec_baser(priv, set, fec);
		return;
	}
	fec->corrected_blocks.total =
		MLX5E_PPCNT(phys_layer_cntrs, set, rs_fec_corrected_blocks);
	fec->uncorrectable_blocks.total =
		MLX5E_PPCNT(phys_layer_cntrs, set, rs_fec_uncorrectable_blocks);
}

static void mlx5e_read_rq(const struct mlx5e_rq_stats *s, u64 *packets,
			  u64 *bytes, u64 *alloc_fail, u64 *unnecessary,
			  u64 *none)
{
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&s->syncp);
		*packets = u64_stats_read(&s->packets);
		*bytes = u64_stats_read(&s->bytes);
		*alloc_fail = u64_stats_read(&s->buff_alloc_err);
		*unnecessary = u64_stats_read(&s->csum_unnecessary) +
			       u64_stats_read(&s->csum_unnecessary_inner);
		*none = u64_stats_read(&s->csum_none);
	} while (u64_stats_fetch_retry(&s->syncp, start));
}

/* A channel's RX queue: its RQ and, with AF_XDP zero copy, its XSK RQ. */
static void mlx5e_read_rxq(const struct mlx5e_channel_stats *cs,
			   struct netdev_queue_stats_rx *rx)
{
	u64 p, b, a, u, n;

	mlx5e_read_rq(&cs->rq, &rx->packets, &rx->bytes, &rx->alloc_fail,
		      &rx->csum_unnecessary, &rx->csum_none);
	mlx5e_read_rq(&cs->xskrq, &p, &b, &a, &u, &n);
	rx->packets += p;
	rx->bytes += b;
	rx->alloc_fail += a;
	rx->csum_unnecessary += u;
	rx->csum_none += n;
}

static void mlx5e_read_sq(const struct mlx5e_channel_stats *cs, u64 *packets,
			  u64 *bytes, u64 *dropped, u64 *stop, u64 *wake)
{
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&cs->sq.syncp);
		*packets = u64_stats_read(&cs->sq.packets);
		*bytes = u64_stats_read(&cs->sq.bytes);
		*dropped = u64_stats_read(&cs->sq.dropped);
		*stop = u64_stats_read(&cs->sq.stopped);
	} while (u64_stats_fetch_retry(&cs->sq.syncp, start));
	do {
		start = u64_stats_fetch_begin(&cs->sq_cq.syncp);
		*wake = u64_stats_read(&cs->sq_cq.wake);
	} while (u64_stats_fetch_retry(&cs->sq_cq.syncp, start));
}

void mlx5e_get_stats64(struct net_device *netdev,
		       struct rtnl_link_stats64 *stats)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	unsigned int ch;

	for (ch = 0; ch < priv->stats_nch; ch++) {
		const struct mlx5e_channel_stats *cs = &priv->channel_stats[ch];
		struct netdev_queue_stats_rx rx;
		u64 p, b, d, x, y;

		mlx5e_read_rxq(cs, &rx);
		stats->rx_packets += rx.packets;
		stats->rx_bytes += rx.bytes;
		mlx5e_read_sq(cs, &p, &b, &d, &x, &y);
		stats->tx_packets += p;
		stats->tx_bytes += b;
		stats->tx_dropped += d;
	}
	stats->rx_missed_errors = priv->q_out_of_buffer;
}

static void mlx5e_get_queue_stats_rx(struct net_device *netdev, int ix,
				     struct netdev_queue_stats_rx *rx)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);

	mlx5e_read_rxq(&priv->channel_stats[ix], rx);
}

static void mlx5e_get_queue_stats_tx(struct net_device *netdev, int ix,
				     struct netdev_queue_stats_tx *tx)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	u64 dropped;

	mlx5e_read_sq(&priv->channel_stats[ix], &tx->packets, &tx->bytes,
		      &dropped, &tx->stop, &tx->wake);
}

/* Counters of channel indices not open now, so that the sum is total. */
static void mlx5e_get_base_stats(struct net_device *netdev,
				 struct netdev_queue_stats_rx *rx,
				 struct netdev_queue_stats_tx *tx)
{
	struct mlx5e_priv *priv = netdev_priv(netdev);
	unsigned int ch;

	memset(rx, 0, sizeof(*rx));
	memset(tx, 0, sizeof(*tx));
	rx->packets = 0;
	for (ch = netdev->real_num_rx_queues; ch < priv->stats_nch; ch++) {
		struct netdev_queue_stats_rx r;

		mlx5e_get_queue_stats_rx(netdev, ch, &r);
		rx->packets += r.packets;
		rx->bytes += r.bytes;
		rx->alloc_fail += r.alloc_fail;
		rx->csum_unnecessary += r.csum_unnecessary;
		rx->csum_none += r.csum_none;
	}
	for (ch = netdev->real_num_tx_queues; ch < priv->stats_nch; ch++) {
		struct netdev_queue_stats_tx t;

		mlx5e_get_queue_stats_tx(netdev, ch, &t);
		tx->packets += t.packets;
		tx->bytes += t.bytes;
		tx->stop += t.stop;
		tx->wake += t.wake;
	}
}

const struct netdev_stat_ops mlx5e_stat_ops = {
	.get_queue_stats_rx	= mlx5e_get_queue_stats_rx,
	.get_queue_stats_tx	= mlx5e_get_queue_stats_tx,
	.get_base_stats		= mlx5e_get_base_stats,
};
