// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * ethtool ntuple steering (ethtool -N/-U, -n): rules by location (at most
 * MLX5E_ETHTOOL_MAX_RULES, as upstream), each matching outer L2-L4 fields
 * of one flow type (tcp4, udp4, ip4, tcp6, udp6, ip6, ether) and steering
 * to one channel's direct TIR (en/rss.c), to the TIR of an extra RSS
 * context for the rule's flow type ("context N", the queue offset 0: the
 * core refuses others, the device does not add one), or dropping
 * (action -1). A context a rule steers to cannot be deleted.
 *
 * The rules live in priv->fs.ethtool.rules, by location, whether the
 * netdev is up or not; while the flow tables exist (the netdev is up) each
 * is an entry of the ethtool table, which exists only while it holds one.
 * That table is then the NIC RX root, ahead of the L2 table (en/fs.c) to
 * which a frame no rule matches goes on. The table is cut in slices of
 * MLX5E_ETHTOOL_GROUP_SIZE entries; each slice in use is one flow group,
 * and the rules sharing a match mask share groups. Rules of different
 * masks matching one frame: which wins is not defined (upstream puts the
 * rules matching more fields first).
 */
#include <linux/ipv6.h>
#include "fs.h"
#include "rss.h"

/**
 * struct mlx5e_ethtool_rule - one ethtool steering rule
 * @list: in mlx5e_ethtool_steering.rules, by location
 * @spec: the rule as ethtool gave it
 * @rss_context: with FLOW_RSS in @spec, the RSS context it steers to
 * @group: the group of its entry, -1 while not in the table
 * @index: its entry's flow index
 */
struct mlx5e_ethtool_rule {
	struct list_head list;
	struct ethtool_rx_flow_spec spec;
	u32 rss_context;
	int group;
	u32 index;
};

/* A rule's outer-header match: the mask (criteria) and the value. */
struct mlx5e_ethtool_match {
	u32 c[MLX5_ST_SZ_DW(fte_match_set_lyr_2_4)];
	u32 v[MLX5_ST_SZ_DW(fte_match_set_lyr_2_4)];
};

#define MLX5E_HDR_ADDR(h, fld) MLX5_ADDR_OF(fte_match_set_lyr_2_4, h, fld)

static void mlx5e_match_bytes(void *c, void *v, const void *mask,
			      const void *val, size_t len)
{
	const u8 *m = mask, *x = val;
	u8 *cb = c, *vb = v;
	size_t i;

	for (i = 0; i < len; i++) {
		cb[i] = m[i];
		vb[i] = m[i] & x[i];
	}
}

static void mlx5e_match_ethertype(struct mlx5e_ethtool_match *m, u16 type)
{
	MLX5_SET(fte_match_set_lyr_2_4, m->c, ethertype, 0xffff);
	MLX5_SET(fte_match_set_lyr_2_4, m->v, ethertype, type);
}

static void mlx5e_match_proto(struct mlx5e_ethtool_match *m, u8 mask, u8 val)
{
	MLX5_SET(fte_match_set_lyr_2_4, m->c, ip_protocol, mask);
	MLX5_SET(fte_match_set_lyr_2_4, m->v, ip_protocol, val & mask);
}

static void mlx5e_match_ip4(struct mlx5e_ethtool_match *m,
			    const __be32 *src_m, const __be32 *src,
			    const __be32 *dst_m, const __be32 *dst)
{
	mlx5e_match_bytes(MLX5E_HDR_ADDR(m->c, src_ipv4_src_ipv6.ipv4_layout.ipv4),
			  MLX5E_HDR_ADDR(m->v, src_ipv4_src_ipv6.ipv4_layout.ipv4),
			  src_m, src, 4);
	mlx5e_match_bytes(MLX5E_HDR_ADDR(m->c, dst_ipv4_dst_ipv6.ipv4_layout.ipv4),
			  MLX5E_HDR_ADDR(m->v, dst_ipv4_dst_ipv6.ipv4_layout.ipv4),
			  dst_m, dst, 4);
	mlx5e_match_ethertype(m, ETH_P_IP);
}

static void mlx5e_match_ip6(struct mlx5e_ethtool_match *m,
			    const __be32 *src_m, const __be32 *src,
			    const __be32 *dst_m, const __be32 *dst)
{
	mlx5e_match_bytes(MLX5E_HDR_ADDR(m->c, src_ipv4_src_ipv6.ipv6_layout.ipv6),
			  MLX5E_HDR_ADDR(m->v, src_ipv4_src_ipv6.ipv6_layout.ipv6),
			  src_m, src, 16);
	mlx5e_match_bytes(MLX5E_HDR_ADDR(m->c, dst_ipv4_dst_ipv6.ipv6_layout.ipv6),
			  MLX5E_HDR_ADDR(m->v, dst_ipv4_dst_ipv6.ipv6_layout.ipv6),
			  dst_m, dst, 16);
	mlx5e_match_ethertype(m, ETH_P_IPV6);
}

/* TCP or UDP ports, and the IP protocol. */
static void mlx5e_match_ports(struct mlx5e_ethtool_match *m, bool tcp,
			      __be16 src_m, __be16 src, __be16 dst_m,
			      __be16 dst)
{
	u16 sm = ntohs(src_m), s = ntohs(src) & sm;
	u16 dm = ntohs(dst_m), d = ntohs(dst) & dm;

	if (tcp) {
		MLX5_SET(fte_match_set_lyr_2_4, m->c, tcp_sport, sm);
		MLX5_SET(fte_match_set_lyr_2_4, m->v, tcp_sport, s);
		MLX5_SET(fte_match_set_lyr_2_4, m->c, tcp_dport, dm);
		MLX5_SET(fte_match_set_lyr_2_4, m->v, tcp_dport, d);
	} else {
		MLX5_SET(fte_match_set_lyr_2_4, m->c, udp_sport, sm);
		MLX5_SET(fte_match_set_lyr_2_4, m->v, udp_sport, s);
		MLX5_SET(fte_match_set_lyr_2_4, m->c, udp_dport, dm);
		MLX5_SET(fte_match_set_lyr_2_4, m->v, udp_dport, d);
	}
	mlx5e_match_proto(m, 0xff, tcp ? IPPROTO_TCP : IPPROTO_UDP);
}

static void mlx5e_match_dmac(struct mlx5e_ethtool_match *m, const u8 *mask,
			     const u8 *val)
{
	mlx5e_match_bytes(MLX5E_HDR_ADDR(m->c, dmac_47_16),
			  MLX5E_HDR_ADDR(m->v, dmac_47_16), mask, val, ETH_ALEN);
}

/* The match of a validated rule. */
static void mlx5e_ethtool_match_build(const struct ethtool_rx_flow_spec *fs,
				      struct mlx5e_ethtool_match *m)
{
	u32 type = fs->flow_type & ~(FLOW_EXT | FLOW_MAC_EXT | FLOW_RSS);
	const struct ethtool_tcpip4_spec *l4m = &fs->m_u.tcp_ip4_spec;
	const struct ethtool_tcpip4_spec *l4v = &fs->h_u.tcp_ip4_spec;
	const struct ethtool_usrip4_spec *ipm = &fs->m_u.usr_ip4_spec;
	const struct ethtool_usrip4_spec *ipv = &fs->h_u.usr_ip4_spec;
	const struct ethtool_tcpip6_spec *l6m = &fs->m_u.tcp_ip6_spec;
	const struct ethtool_tcpip6_spec *l6v = &fs->h_u.tcp_ip6_spec;
	const struct ethtool_usrip6_spec *ip6m = &fs->m_u.usr_ip6_spec;
	const struct ethtool_usrip6_spec *ip6v = &fs->h_u.usr_ip6_spec;
	const struct ethhdr *ethm = &fs->m_u.ether_spec;
	const struct ethhdr *ethv = &fs->h_u.ether_spec;

	memset(m, 0, sizeof(*m));
	switch (type) {
	case TCP_V4_FLOW:
	case UDP_V4_FLOW:
		mlx5e_match_ip4(m, &l4m->ip4src, &l4v->ip4src, &l4m->ip4dst,
				&l4v->ip4dst);
		mlx5e_match_ports(m, type == TCP_V4_FLOW, l4m->psrc, l4v->psrc,
				  l4m->pdst, l4v->pdst);
		break;
	case IP_USER_FLOW:
		mlx5e_match_ip4(m, &ipm->ip4src, &ipv->ip4src, &ipm->ip4dst,
				&ipv->ip4dst);
		if (ipm->proto)
			mlx5e_match_proto(m, ipm->proto, ipv->proto);
		break;
	case TCP_V6_FLOW:
	case UDP_V6_FLOW:
		mlx5e_match_ip6(m, l6m->ip6src, l6v->ip6src, l6m->ip6dst,
				l6v->ip6dst);
		mlx5e_match_ports(m, type == TCP_V6_FLOW, l6m->psrc, l6v->psrc,
				  l6m->pdst, l6v->pdst);
		break;
	case IPV6_USER_FLOW:
		mlx5e_match_ip6(m, ip6m->ip6src, ip6v->ip6src, ip6m->ip6dst,
				ip6v->ip6dst);
		if (ip6m->l4_proto)
			mlx5e_match_proto(m, ip6m->l4_proto, ip6v->l4_proto);
		break;
	case ETHER_FLOW:
		mlx5e_match_dmac(m, ethm->h_dest, ethv->h_dest);
		mlx5e_match_bytes(MLX5E_HDR_ADDR(m->c, smac_47_16),
				  MLX5E_HDR_ADDR(m->v, smac_47_16),
				  ethm->h_source, ethv->h_source, ETH_ALEN);
		MLX5_SET(fte_match_set_lyr_2_4, m->c, ethertype,
			 ntohs(ethm->h_proto));
		MLX5_SET(fte_match_set_lyr_2_4, m->v, ethertype,
			 ntohs(ethm->h_proto & ethv->h_proto));
		break;
	}
	if (fs->flow_type & FLOW_MAC_EXT)
		mlx5e_match_dmac(m, fs->m_ext.h_dest, fs->h_ext.h_dest);
}

/* Why a rule cannot be installed, said in the log; 0 if it can. */
static int mlx5e_ethtool_validate(struct mlx5e_priv *priv,
				  const struct ethtool_rx_flow_spec *fs,
				  u32 rss_context)
{
	u32 type = fs->flow_type & ~(FLOW_EXT | FLOW_MAC_EXT | FLOW_RSS);
	struct net_device *netdev = priv->netdev;
	const struct ethhdr *ethm = &fs->m_u.ether_spec;

	if (fs->location >= MLX5E_ETHTOOL_MAX_RULES) {
		netdev_err(netdev, "ethtool rule: location %u, the table has %u\n",
			   fs->location, MLX5E_ETHTOOL_MAX_RULES);
		return -ENOSPC;
	}
	if (fs->flow_type & FLOW_RSS) {
		if (rss_context >= MLX5E_RSS_MAX_CTX ||
		    !priv->rss.ctx[rss_context]) {
			netdev_err(netdev, "ethtool rule %u: no RSS context %u\n",
				   fs->location, rss_context);
			return -ENOENT;
		}
		if (fs->ring_cookie) {
			netdev_err(netdev, "ethtool rule %u: with an RSS context, only queue offset 0\n",
				   fs->location);
			return -EINVAL;
		}
	}
	if (fs->flow_type & FLOW_EXT) {
		netdev_err(netdev, "ethtool rule %u: VLAN and user-defined fields are not supported\n",
			   fs->location);
		return -EOPNOTSUPP;
	}
	if (fs->ring_cookie != RX_CLS_FLOW_DISC) {
		u64 ring = ethtool_get_flow_spec_ring(fs->ring_cookie);

		if (ethtool_get_flow_spec_ring_vf(fs->ring_cookie)) {
			netdev_err(netdev, "ethtool rule %u: only the function's own queues, no VF or wake-up action\n",
				   fs->location);
			return -EINVAL;
		}
		if (ring >= priv->params.num_channels) {
			netdev_err(netdev, "ethtool rule %u: queue %llu, there are %u\n",
				   fs->location, ring, priv->params.num_channels);
			return -EINVAL;
		}
	}
	switch (type) {
	case TCP_V4_FLOW:
	case UDP_V4_FLOW:
		if (fs->m_u.tcp_ip4_spec.tos)
			goto bad_field;
		return 0;
	case IP_USER_FLOW:
		if (fs->m_u.usr_ip4_spec.l4_4_bytes ||
		    fs->m_u.usr_ip4_spec.tos ||
		    fs->h_u.usr_ip4_spec.ip_ver != ETH_RX_NFC_IP4)
			goto bad_field;
		return 0;
	case TCP_V6_FLOW:
	case UDP_V6_FLOW:
		if (fs->m_u.tcp_ip6_spec.tclass)
			goto bad_field;
		return 0;
	case IPV6_USER_FLOW:
		if (fs->m_u.usr_ip6_spec.l4_4_bytes ||
		    fs->m_u.usr_ip6_spec.tclass)
			goto bad_field;
		return 0;
	case ETHER_FLOW:
		if (is_zero_ether_addr(ethm->h_dest) &&
		    is_zero_ether_addr(ethm->h_source) && !ethm->h_proto &&
		    !((fs->flow_type & FLOW_MAC_EXT) &&
		      !is_zero_ether_addr(fs->m_ext.h_dest))) {
			netdev_err(netdev, "ethtool rule %u: an ether rule must match a field\n",
				   fs->location);
			return -EINVAL;
		}
		return 0;
	default:
		netdev_err(netdev, "ethtool rule %u: flow type 0x%x is not supported\n",
			   fs->location, type);
		return -EOPNOTSUPP;
	}

bad_field:
	netdev_err(netdev, "ethtool rule %u: TOS/traffic class, L4 bytes and IP versions other than 4 cannot be matched\n",
		   fs->location);
	return -EINVAL;
}

/* ---- the table --------------------------------------------------------- */

static int mlx5e_ethtool_ft_create(struct mlx5e_priv *priv)
{
	struct mlx5e_ethtool_steering *et = &priv->fs.ethtool;
	u32 out[MLX5_ST_SZ_DW(create_flow_table_out)] = {};
	u32 in[MLX5_ST_SZ_DW(create_flow_table_in)] = {};
	void *ftc = MLX5_ADDR_OF(create_flow_table_in, in, flow_table_context);
	int err;

	MLX5_SET(create_flow_table_in, in, opcode, MLX5_CMD_OP_CREATE_FLOW_TABLE);
	MLX5_SET(create_flow_table_in, in, table_type, MLX5_FLOW_TABLE_TYPE_NIC_RX);
	MLX5_SET(flow_table_context, ftc, level, MLX5E_ETHTOOL_LEVEL);
	MLX5_SET(flow_table_context, ftc, log_size, MLX5E_ETHTOOL_LOG_SIZE);
	MLX5_SET(flow_table_context, ftc, table_miss_action,
		 MLX5_FLOW_TABLE_MISS_ACTION_FWD);
	MLX5_SET(flow_table_context, ftc, table_miss_id, priv->fs.l2.id);
	err = mlx5_cmd_exec_inout(priv->mdev, create_flow_table, in, out);
	if (err)
		return err;
	et->ft_id = MLX5_GET(create_flow_table_out, out, table_id);
	et->ft_created = true;
	return 0;
}

static void mlx5e_ethtool_ft_destroy(struct mlx5e_priv *priv)
{
	u32 in[MLX5_ST_SZ_DW(destroy_flow_table_in)] = {};

	MLX5_SET(destroy_flow_table_in, in, opcode, MLX5_CMD_OP_DESTROY_FLOW_TABLE);
	MLX5_SET(destroy_flow_table_in, in, table_type, MLX5_FLOW_TABLE_TYPE_NIC_RX);
	MLX5_SET(destroy_flow_table_in, in, table_id, priv->fs.ethtool.ft_id);
	mlx5_cmd_exec_in(priv->mdev, destroy_flow_table, in);
	priv->fs.ethtool.ft_created = false;
}

static int mlx5e_ethtool_fg_create(struct mlx5e_priv *priv, unsigned int g,
				   const u32 *criteria)
{
	struct mlx5e_ethtool_group *grp = &priv->fs.ethtool.groups[g];
	int err;

	err = mlx5e_fs_fg_create(priv, priv->fs.ethtool.ft_id,
				 g * MLX5E_ETHTOOL_GROUP_SIZE,
				 (g + 1) * MLX5E_ETHTOOL_GROUP_SIZE - 1,
				 criteria, &grp->id);
	if (!err)
		memcpy(grp->criteria, criteria, sizeof(grp->criteria));
	return err;
}

static void mlx5e_ethtool_fg_destroy(struct mlx5e_priv *priv, unsigned int g)
{
	mlx5e_fs_fg_destroy(priv, priv->fs.ethtool.ft_id,
			    priv->fs.ethtool.groups[g].id);
}

/* The traffic type of a rule's flow type: which TIR of a context it takes. */
static enum mlx5e_traffic_type mlx5e_ethtool_tt(u32 flow_type)
{
	switch (flow_type & ~(FLOW_EXT | FLOW_MAC_EXT | FLOW_RSS)) {
	case TCP_V4_FLOW:
		return MLX5E_TT_IPV4_TCP;
	case UDP_V4_FLOW:
		return MLX5E_TT_IPV4_UDP;
	case IP_USER_FLOW:
		return MLX5E_TT_IPV4;
	case TCP_V6_FLOW:
		return MLX5E_TT_IPV6_TCP;
	case UDP_V6_FLOW:
		return MLX5E_TT_IPV6_UDP;
	case IPV6_USER_FLOW:
		return MLX5E_TT_IPV6;
	default:
		return MLX5E_TT_ANY;
	}
}

/* The TIR a forwarding rule steers to, in @tirn (not for a dropping one). */
static int mlx5e_ethtool_dest(struct mlx5e_priv *priv,
			      const struct mlx5e_ethtool_rule *rule, u32 *tirn)
{
	const struct ethtool_rx_flow_spec *fs = &rule->spec;

	*tirn = 0;
	if (fs->flow_type & FLOW_RSS)
		return mlx5e_rss_ctx_tirn(priv, rule->rss_context,
					  mlx5e_ethtool_tt(fs->flow_type), tirn);
	if (fs->ring_cookie != RX_CLS_FLOW_DISC)
		*tirn = priv->rss.direct_tirn[ethtool_get_flow_spec_ring(fs->ring_cookie)];
	return 0;
}

static int mlx5e_ethtool_fte_set(struct mlx5e_priv *priv, u32 group_id,
				 u32 index, const struct mlx5e_ethtool_match *m,
				 bool drop, u32 tirn)
{
	int inlen = MLX5_ST_SZ_BYTES(set_fte_in) +
		    MLX5_ST_SZ_BYTES(dest_format_struct);
	u32 out[MLX5_ST_SZ_DW(set_fte_out)] = {};
	void *in, *fc, *dest;
	int err;

	in = kvzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	MLX5_SET(set_fte_in, in, opcode, MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY);
	MLX5_SET(set_fte_in, in, table_type, MLX5_FLOW_TABLE_TYPE_NIC_RX);
	MLX5_SET(set_fte_in, in, table_id, priv->fs.ethtool.ft_id);
	MLX5_SET(set_fte_in, in, flow_index, index);
	fc = MLX5_ADDR_OF(set_fte_in, in, flow_context);
	MLX5_SET(flow_context, fc, group_id, group_id);
	memcpy(MLX5_ADDR_OF(flow_context, fc, match_value.outer_headers),
	       m->v, sizeof(m->v));
	if (drop) {
		MLX5_SET(flow_context, fc, action, MLX5_FLOW_CONTEXT_ACTION_DROP);
	} else {
		MLX5_SET(flow_context, fc, action,
			 MLX5_FLOW_CONTEXT_ACTION_FWD_DEST);
		MLX5_SET(flow_context, fc, destination_list_size, 1);
		dest = MLX5_ADDR_OF(flow_context, fc, destination);
		MLX5_SET(dest_format_struct, dest, destination_type,
			 MLX5_IFC_FLOW_DESTINATION_TYPE_TIR);
		MLX5_SET(dest_format_struct, dest, destination_id, tirn);
	}
	err = mlx5_cmd_exec(priv->mdev, in, inlen, out, sizeof(out));
	kvfree(in);
	return err;
}

static void mlx5e_ethtool_fte_del(struct mlx5e_priv *priv, u32 index)
{
	u32 in[MLX5_ST_SZ_DW(delete_fte_in)] = {};

	MLX5_SET(delete_fte_in, in, opcode, MLX5_CMD_OP_DELETE_FLOW_TABLE_ENTRY);
	MLX5_SET(delete_fte_in, in, table_type, MLX5_FLOW_TABLE_TYPE_NIC_RX);
	MLX5_SET(delete_fte_in, in, table_id, priv->fs.ethtool.ft_id);
	MLX5_SET(delete_fte_in, in, flow_index, index);
	mlx5_cmd_exec_in(priv->mdev, delete_fte, in);
}

/*
 * The entry of @rule in the table, the table and a group made if needed.
 * The root is left alone: the caller moves it to a new table.
 */
static int mlx5e_ethtool_rule_install(struct mlx5e_priv *priv,
				      struct mlx5e_ethtool_rule *rule)
{
	struct mlx5e_ethtool_steering *et = &priv->fs.ethtool;
	bool new_ft = false, new_group = false;
	struct mlx5e_ethtool_group *grp;
	struct mlx5e_ethtool_match m;
	int g, free_g = -1, err;
	unsigned int slot;
	u32 index, tirn;

	/* A group's slots are the bits of its u32 used. */
	BUILD_BUG_ON(MLX5E_ETHTOOL_GROUP_SIZE != 32);
	err = mlx5e_ethtool_dest(priv, rule, &tirn);
	if (err)
		return err;
	mlx5e_ethtool_match_build(&rule->spec, &m);
	if (!et->ft_created) {
		err = mlx5e_ethtool_ft_create(priv);
		if (err)
			return err;
		new_ft = true;
	}
	for (g = 0; g < MLX5E_ETHTOOL_MAX_GROUPS; g++) {
		grp = &et->groups[g];
		if (!grp->used) {
			if (free_g < 0)
				free_g = g;
			continue;
		}
		if (grp->used != U32_MAX &&
		    !memcmp(grp->criteria, m.c, sizeof(m.c)))
			break;
	}
	if (g == MLX5E_ETHTOOL_MAX_GROUPS) {
		if (free_g < 0) {
			netdev_err(priv->netdev, "ethtool rule %u: all %u flow groups in use (too many distinct masks)\n",
				   rule->spec.location, MLX5E_ETHTOOL_MAX_GROUPS);
			err = -ENOSPC;
			goto err_ft;
		}
		g = free_g;
		grp = &et->groups[g];
		err = mlx5e_ethtool_fg_create(priv, g, m.c);
		if (err)
			goto err_ft;
		new_group = true;
	}
	slot = ffz(grp->used);
	index = g * MLX5E_ETHTOOL_GROUP_SIZE + slot;
	err = mlx5e_ethtool_fte_set(priv, grp->id, index, &m,
				    rule->spec.ring_cookie == RX_CLS_FLOW_DISC,
				    tirn);
	if (err)
		goto err_group;
	grp->used |= BIT(slot);
	rule->group = g;
	rule->index = index;
	return 0;

err_group:
	if (new_group)
		mlx5e_ethtool_fg_destroy(priv, g);
err_ft:
	if (new_ft)
		mlx5e_ethtool_ft_destroy(priv);
	return err;
}

/*
 * Remove the entry of @rule; its group goes with its last entry, the
 * table with its last group (the root first moved to the L2 table when
 * @rooted: the table is the root).
 */
static void mlx5e_ethtool_rule_uninstall(struct mlx5e_priv *priv,
					 struct mlx5e_ethtool_rule *rule,
					 bool rooted)
{
	struct mlx5e_ethtool_steering *et = &priv->fs.ethtool;
	struct mlx5e_ethtool_group *grp;
	unsigned int g;

	if (rule->group < 0)
		return;
	grp = &et->groups[rule->group];
	mlx5e_ethtool_fte_del(priv, rule->index);
	grp->used &= ~BIT(rule->index % MLX5E_ETHTOOL_GROUP_SIZE);
	if (!grp->used)
		mlx5e_ethtool_fg_destroy(priv, rule->group);
	rule->group = -1;
	for (g = 0; g < MLX5E_ETHTOOL_MAX_GROUPS; g++)
		if (et->groups[g].used)
			return;
	et->ft_created = false;
	if (rooted && mlx5e_fs_update_root(priv)) {
		/* Still the root: kept, empty (a miss goes on to L2), until
		 * the next rule or the flow tables' teardown.
		 */
		netdev_warn(priv->netdev, "moving the root to the L2 table failed: the empty ethtool table stays\n");
		et->ft_created = true;
		return;
	}
	et->ft_created = true;
	mlx5e_ethtool_ft_destroy(priv);
}

/* ---- rules ------------------------------------------------------------- */

static struct mlx5e_ethtool_rule *mlx5e_ethtool_find(struct mlx5e_priv *priv,
						     u32 location)
{
	struct mlx5e_ethtool_rule *rule;

	list_for_each_entry(rule, &priv->fs.ethtool.rules, list)
		if (rule->spec.location == location)
			return rule;
	return NULL;
}

static void mlx5e_ethtool_free(struct mlx5e_priv *priv,
			       struct mlx5e_ethtool_rule *rule)
{
	list_del(&rule->list);
	priv->fs.ethtool.num_rules--;
	kfree(rule);
}

/* The distinct masks of the rules and how many rules have each. */
struct mlx5e_ethtool_masks {
	unsigned int n;
	struct {
		u32 c[MLX5_ST_SZ_DW(fte_match_set_lyr_2_4)];
		unsigned int rules;
	} mask[MLX5E_ETHTOOL_MAX_GROUPS];
};

/* Count @spec's mask; false when there would be more masks than groups. */
static bool mlx5e_ethtool_mask_count(struct mlx5e_ethtool_masks *masks,
				     const struct ethtool_rx_flow_spec *spec)
{
	struct mlx5e_ethtool_match m;
	unsigned int i;

	mlx5e_ethtool_match_build(spec, &m);
	for (i = 0; i < masks->n; i++)
		if (!memcmp(masks->mask[i].c, m.c, sizeof(m.c)))
			break;
	if (i == masks->n) {
		if (i == MLX5E_ETHTOOL_MAX_GROUPS)
			return false;
		memcpy(masks->mask[i].c, m.c, sizeof(m.c));
		masks->n++;
	}
	masks->mask[i].rules++;
	return true;
}

/*
 * Whether the rules, with @fs in place of @old, fit the table's groups as
 * mlx5e_ethtool_fs_install() puts them at the next open: each distinct
 * mask takes ceil(rules / MLX5E_ETHTOOL_GROUP_SIZE) groups.
 */
static bool mlx5e_ethtool_fits(struct mlx5e_priv *priv,
			       const struct ethtool_rx_flow_spec *fs,
			       const struct mlx5e_ethtool_rule *old)
{
	struct mlx5e_ethtool_masks *masks;
	struct mlx5e_ethtool_rule *rule;
	unsigned int groups = 0, i;
	bool fits;

	masks = kzalloc(sizeof(*masks), GFP_KERNEL);
	if (!masks)
		return false;
	fits = mlx5e_ethtool_mask_count(masks, fs);
	list_for_each_entry(rule, &priv->fs.ethtool.rules, list) {
		if (!fits)
			break;
		if (rule != old)
			fits = mlx5e_ethtool_mask_count(masks, &rule->spec);
	}
	for (i = 0; fits && i < masks->n; i++)
		groups += DIV_ROUND_UP(masks->mask[i].rules,
				       MLX5E_ETHTOOL_GROUP_SIZE);
	kfree(masks);
	return fits && groups <= MLX5E_ETHTOOL_MAX_GROUPS;
}

/* Add or replace the rule at @fs->location. */
static int mlx5e_ethtool_rule_add(struct mlx5e_priv *priv,
				  const struct ethtool_rx_flow_spec *fs,
				  u32 rss_context)
{
	struct mlx5e_ethtool_steering *et = &priv->fs.ethtool;
	struct mlx5e_ethtool_rule *rule, *old, *iter;
	struct list_head *head = &et->rules;
	bool had_ft;
	int err;

	if (!(fs->flow_type & FLOW_RSS))
		rss_context = 0;
	err = mlx5e_ethtool_validate(priv, fs, rss_context);
	if (err)
		return err;
	old = mlx5e_ethtool_find(priv, fs->location);
	if (!priv->fs.created && !mlx5e_ethtool_fits(priv, fs, old)) {
		netdev_err(priv->netdev, "ethtool rule %u: all %u flow groups would be in use (too many distinct masks)\n",
			   fs->location, MLX5E_ETHTOOL_MAX_GROUPS);
		return -ENOSPC;
	}
	rule = kzalloc(sizeof(*rule), GFP_KERNEL);
	if (!rule)
		return -ENOMEM;
	rule->spec = *fs;
	rule->rss_context = rss_context;
	rule->group = -1;
	/* The old rule goes first, as upstream replaces one: the device never
	 * holds two entries of one match in one group.
	 */
	if (old) {
		mlx5e_ethtool_rule_uninstall(priv, old, priv->fs.created);
		mlx5e_ethtool_free(priv, old);
	}
	had_ft = et->ft_created;
	if (priv->fs.created) {
		err = mlx5e_ethtool_rule_install(priv, rule);
		if (!err && !had_ft) {
			err = mlx5e_fs_update_root(priv);
			if (err)
				mlx5e_ethtool_rule_uninstall(priv, rule, false);
		}
		if (err) {
			netdev_err(priv->netdev, "ethtool rule %u: installing it failed: %d\n",
				   fs->location, err);
			kfree(rule);
			return err;
		}
	}
	list_for_each_entry(iter, &et->rules, list) {
		if (iter->spec.location > fs->location)
			break;
		head = &iter->list;
	}
	list_add(&rule->list, head);
	et->num_rules++;
	return 0;
}

static int mlx5e_ethtool_rule_del(struct mlx5e_priv *priv, u32 location)
{
	struct mlx5e_ethtool_rule *rule;

	if (location >= MLX5E_ETHTOOL_MAX_RULES)
		return -ENOSPC;
	rule = mlx5e_ethtool_find(priv, location);
	if (!rule)
		return -ENOENT;
	mlx5e_ethtool_rule_uninstall(priv, rule, priv->fs.created);
	mlx5e_ethtool_free(priv, rule);
	return 0;
}

/**
 * mlx5e_ethtool_set_rule() - ETHTOOL_SRXCLSRLINS and ETHTOOL_SRXCLSRLDEL
 * @priv: the netdev's private area (state_lock held)
 * @nfc: the command
 *
 * Return: 0, -EOPNOTSUPP for other commands, or why the rule was refused.
 */
int mlx5e_ethtool_set_rule(struct mlx5e_priv *priv, struct ethtool_rxnfc *nfc)
{
	switch (nfc->cmd) {
	case ETHTOOL_SRXCLSRLINS:
		return mlx5e_ethtool_rule_add(priv, &nfc->fs, nfc->rss_context);
	case ETHTOOL_SRXCLSRLDEL:
		return mlx5e_ethtool_rule_del(priv, nfc->fs.location);
	default:
		return -EOPNOTSUPP;
	}
}

/**
 * mlx5e_ethtool_get_rules() - ETHTOOL_GRXCLSRLCNT, _GRXCLSRULE, _GRXCLSRLALL
 * @priv: the netdev's private area (state_lock held)
 * @nfc: the command
 * @rule_locs: for ETHTOOL_GRXCLSRLALL, room for @nfc->rule_cnt locations
 *
 * Return: 0, -EOPNOTSUPP for other commands, -ENOENT for no rule there.
 */
int mlx5e_ethtool_get_rules(struct mlx5e_priv *priv, struct ethtool_rxnfc *nfc,
			    u32 *rule_locs)
{
	struct mlx5e_ethtool_steering *et = &priv->fs.ethtool;
	struct mlx5e_ethtool_rule *rule;
	unsigned int n = 0;

	switch (nfc->cmd) {
	case ETHTOOL_GRXCLSRLCNT:
		nfc->rule_cnt = et->num_rules;
		nfc->data = MLX5E_ETHTOOL_MAX_RULES;
		return 0;
	case ETHTOOL_GRXCLSRULE:
		if (nfc->fs.location >= MLX5E_ETHTOOL_MAX_RULES)
			return -EINVAL;
		rule = mlx5e_ethtool_find(priv, nfc->fs.location);
		if (!rule)
			return -ENOENT;
		nfc->fs = rule->spec;
		nfc->rss_context = rule->rss_context;
		return 0;
	case ETHTOOL_GRXCLSRLALL:
		nfc->data = MLX5E_ETHTOOL_MAX_RULES;
		list_for_each_entry(rule, &et->rules, list) {
			if (n == nfc->rule_cnt)
				return -EMSGSIZE;
			rule_locs[n++] = rule->spec.location;
		}
		nfc->rule_cnt = n;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

/**
 * mlx5e_ethtool_fs_install() - the rules into the new flow tables
 * @priv: the netdev's private area, the L2 table made, the root not set
 *
 * A rule that cannot be installed any more is dropped, and said so.
 */
void mlx5e_ethtool_fs_install(struct mlx5e_priv *priv)
{
	struct mlx5e_ethtool_rule *rule, *tmp;
	int err;

	list_for_each_entry_safe(rule, tmp, &priv->fs.ethtool.rules, list) {
		err = mlx5e_ethtool_validate(priv, &rule->spec,
					     rule->rss_context);
		if (!err)
			err = mlx5e_ethtool_rule_install(priv, rule);
		if (err) {
			netdev_err(priv->netdev, "ethtool rule %u dropped: reinstalling it failed: %d\n",
				   rule->spec.location, err);
			mlx5e_ethtool_free(priv, rule);
		}
	}
}

/**
 * mlx5e_ethtool_fs_remove() - the rules out of the flow tables (kept)
 * @priv: the netdev's private area, the root disconnected
 */
void mlx5e_ethtool_fs_remove(struct mlx5e_priv *priv)
{
	struct mlx5e_ethtool_rule *rule;

	list_for_each_entry(rule, &priv->fs.ethtool.rules, list)
		mlx5e_ethtool_rule_uninstall(priv, rule, false);
	if (priv->fs.ethtool.ft_created)
		mlx5e_ethtool_ft_destroy(priv);
}

/**
 * mlx5e_ethtool_rss_ctx_rule() - the first rule steering to an RSS context
 * @priv: the netdev's private area (state_lock held)
 * @rss_context: the context's id
 *
 * Return: the rule's location, or -1 when no rule steers there.
 */
int mlx5e_ethtool_rss_ctx_rule(struct mlx5e_priv *priv, u32 rss_context)
{
	struct mlx5e_ethtool_rule *rule;

	list_for_each_entry(rule, &priv->fs.ethtool.rules, list)
		if ((rule->spec.flow_type & FLOW_RSS) &&
		    rule->rss_context == rss_context)
			return rule->spec.location;
	return -1;
}

void mlx5e_ethtool_fs_init(struct mlx5e_priv *priv)
{
	INIT_LIST_HEAD(&priv->fs.ethtool.rules);
	priv->fs.ethtool.num_rules = 0;
}

/**
 * mlx5e_ethtool_fs_cleanup() - forget the rules
 * @priv: the netdev's private area, the flow tables gone
 */
void mlx5e_ethtool_fs_cleanup(struct mlx5e_priv *priv)
{
	struct mlx5e_ethtool_rule *rule, *tmp;

	list_for_each_entry_safe(rule, tmp, &priv->fs.ethtool.rules, list)
		mlx5e_ethtool_free(priv, rule);
}
