// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * NIC RX steering, two flow tables, and a third ahead of them while
 * ethtool rules exist (en/fs_ethtool.c):
 *
 *   ethtool     (root while it exists, level 0) ethtool -N rules, each to
 *               a channel's direct TIR or dropping; a miss goes to L2
 *   L2 (root)   index 0       promiscuous: any frame          -> TTC
 *               index 1       allmulti: group bit of the DMAC -> TTC
 *               index 2..     one entry per accepted DMAC     -> TTC
 *                             (own, broadcast, unicast and multicast lists)
 *   TTC         traffic-type classifier: EtherType and IP protocol pick
 *               the traffic type, whose TIR hashes the frame to an RQ.
 *
 * A frame matching no L2 entry is dropped. ndo_set_rx_mode only queues
 * work; the work diffs the wanted L2 entries against the installed ones.
 */
#include "fs.h"

#define MLX5E_L2_PROMISC_IX	0
#define MLX5E_L2_ALLMULTI_IX	1
#define MLX5E_L2_ADDR_IX	2
#define MLX5E_L2_LOG_SIZE	8

#define MLX5E_TTC_LOG_SIZE	3

#define MLX5E_L2_LEVEL		(MLX5E_ETHTOOL_LEVEL + 1)
#define MLX5E_TTC_LEVEL		(MLX5E_L2_LEVEL + 1)

/* Traffic-type classifier entries: EtherType, IP protocol (0: any). */
static const struct {
	u16 ethertype;
	u8 ip_protocol;
} mlx5e_ttc_rules[MLX5E_NUM_TT] = {
	[MLX5E_TT_IPV4_TCP] = { ETH_P_IP, IPPROTO_TCP },
	[MLX5E_TT_IPV6_TCP] = { ETH_P_IPV6, IPPROTO_TCP },
	[MLX5E_TT_IPV4_UDP] = { ETH_P_IP, IPPROTO_UDP },
	[MLX5E_TT_IPV6_UDP] = { ETH_P_IPV6, IPPROTO_UDP },
	[MLX5E_TT_IPV4] = { ETH_P_IP, 0 },
	[MLX5E_TT_IPV6] = { ETH_P_IPV6, 0 },
	[MLX5E_TT_ANY] = { 0, 0 },
};

static int mlx5e_ft_create(struct mlx5e_priv *priv, struct mlx5e_flow_table *ft,
			   u8 level, u8 log_size)
{
	u32 out[MLX5_ST_SZ_DW(create_flow_table_out)] = {};
	u32 in[MLX5_ST_SZ_DW(create_flow_table_in)] = {};
	int err;

	MLX5_SET(create_flow_table_in, in, opcode, MLX5_CMD_OP_CREATE_FLOW_TABLE);
	MLX5_SET(create_flow_table_in, in, table_type, MLX5_FLOW_TABLE_TYPE_NIC_RX);
	MLX5_SET(create_flow_table_in, in, flow_table_context.level, level);
	MLX5_SET(create_flow_table_in, in, flow_table_context.log_size, log_size);
	err = mlx5_cmd_exec_inout(priv->mdev, create_flow_table, in, out);
	if (err)
		return err;
	ft->id = MLX5_GET(create_flow_table_out, out, table_id);
	ft->level = level;
	ft->num_groups = 0;
	return 0;
}

/**
 * mlx5e_fs_fg_create() - a flow group of a NIC RX flow table
 * @priv: the netdev's private area
 * @table_id: the table
 * @start: its first flow index
 * @end: its last flow index
 * @criteria: the outer headers it matches (fte_match_set_lyr_2_4; all
 *	zero: any frame)
 * @group_id: the new group's number
 *
 * Return: 0 or a command error.
 */
int mlx5e_fs_fg_create(struct mlx5e_priv *priv, u32 table_id, u32 start,
		       u32 end, const void *criteria, u32 *group_id)
{
	size_t len = MLX5_ST_SZ_BYTES(fte_match_set_lyr_2_4);
	int inlen = MLX5_ST_SZ_BYTES(create_flow_group_in);
	u32 out[MLX5_ST_SZ_DW(create_flow_group_out)] = {};
	void *in;
	int err;

	in = kvzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	MLX5_SET(create_flow_group_in, in, opcode, MLX5_CMD_OP_CREATE_FLOW_GROUP);
	MLX5_SET(create_flow_group_in, in, table_type, MLX5_FLOW_TABLE_TYPE_NIC_RX);
	MLX5_SET(create_flow_group_in, in, table_id, table_id);
	MLX5_SET(create_flow_group_in, in, start_flow_index, start);
	MLX5_SET(create_flow_group_in, in, end_flow_index, end);
	if (memchr_inv(criteria, 0, len))
		MLX5_SET(create_flow_group_in, in, match_criteria_enable,
			 MLX5_MATCH_OUTER_HEADERS);
	memcpy(MLX5_ADDR_OF(create_flow_group_in, in,
			    match_criteria.outer_headers), criteria, len);
	err = mlx5_cmd_exec(priv->mdev, in, inlen, out, sizeof(out));
	kvfree(in);
	if (!err)
		*group_id = MLX5_GET(create_flow_group_out, out, group_id);
	return err;
}

/**
 * mlx5e_fs_fg_destroy() - destroy a flow group of a NIC RX flow table
 * @priv: the netdev's private area
 * @table_id: the table
 * @group_id: the group
 */
void mlx5e_fs_fg_destroy(struct mlx5e_priv *priv, u32 table_id, u32 group_id)
{
	u32 in[MLX5_ST_SZ_DW(destroy_flow_group_in)] = {};

	MLX5_SET(destroy_flow_group_in, in, opcode, MLX5_CMD_OP_DESTROY_FLOW_GROUP);
	MLX5_SET(destroy_flow_group_in, in, table_type, MLX5_FLOW_TABLE_TYPE_NIC_RX);
	MLX5_SET(destroy_flow_group_in, in, table_id, table_id);
	MLX5_SET(destroy_flow_group_in, in, group_id, group_id);
	mlx5_cmd_exec_in(priv->mdev, destroy_flow_group, in);
}

static void mlx5e_ft_destroy(struct mlx5e_priv *priv,
			     struct mlx5e_flow_table *ft)
{
	u32 in[MLX5_ST_SZ_DW(destroy_flow_table_in)] = {};
	u8 i;

	for (i = 0; i < ft->num_groups; i++)
		mlx5e_fs_fg_destroy(priv, ft->id, ft->groups[i]);
	ft->num_groups = 0;
	MLX5_SET(destroy_flow_table_in, in, opcode, MLX5_CMD_OP_DESTROY_FLOW_TABLE);
	MLX5_SET(destroy_flow_table_in, in, table_type, MLX5_FLOW_TABLE_TYPE_NIC_RX);
	MLX5_SET(destroy_flow_table_in, in, table_id, ft->id);
	mlx5_cmd_exec_in(priv->mdev, destroy_flow_table, in);
}

/* What a group matches on (outer headers only). */
enum mlx5e_fg_match {
	MLX5E_FG_NONE,
	MLX5E_FG_DMAC_GROUP_BIT,
	MLX5E_FG_DMAC,
	MLX5E_FG_ETHERTYPE,
	MLX5E_FG_ETHERTYPE_IP_PROTO,
};

static void mlx5e_fg_set_criteria(void *hdrs, enum mlx5e_fg_match match)
{
	u8 *dmac = MLX5_ADDR_OF(fte_match_set_lyr_2_4, hdrs, dmac_47_16);

	switch (match) {
	case MLX5E_FG_NONE:
		break;
	case MLX5E_FG_DMAC_GROUP_BIT:
		dmac[0] = 0x01;
		break;
	case MLX5E_FG_DMAC:
		eth_broadcast_addr(dmac);
		break;
	case MLX5E_FG_ETHERTYPE_IP_PROTO:
		MLX5_SET_TO_ONES(fte_match_set_lyr_2_4, hdrs, ip_protocol);
		fallthrough;
	case MLX5E_FG_ETHERTYPE:
		MLX5_SET_TO_ONES(fte_match_set_lyr_2_4, hdrs, ethertype);
		break;
	}
}

static int mlx5e_fg_create(struct mlx5e_priv *priv, struct mlx5e_flow_table *ft,
			   u32 start, u32 end, enum mlx5e_fg_match match)
{
	u32 criteria[MLX5_ST_SZ_DW(fte_match_set_lyr_2_4)] = {};
	int err;

	mlx5e_fg_set_criteria(criteria, match);
	err = mlx5e_fs_fg_create(priv, ft->id, start, end, criteria,
				 &ft->groups[ft->num_groups]);
	if (!err)
		ft->num_groups++;
	return err;
}

/**
 * struct mlx5e_fte - one flow table entry to install
 * @ft: the table
 * @group: its group's index in @ft
 * @index: flow index
 * @dmac: destination MAC to match, or NULL
 * @ethertype: EtherType to match (0: none)
 * @ip_protocol: IP protocol to match (0: none)
 * @dest_type: MLX5_IFC_FLOW_DESTINATION_TYPE_*
 * @dest_id: the TIR or flow table
 */
struct mlx5e_fte {
	struct mlx5e_flow_table *ft;
	u8 group;
	u32 index;
	const u8 *dmac;
	u16 ethertype;
	u8 ip_protocol;
	u8 dest_type;
	u32 dest_id;
};

static int mlx5e_fte_set(struct mlx5e_priv *priv, const struct mlx5e_fte *e)
{
	int inlen = MLX5_ST_SZ_BYTES(set_fte_in) +
		    MLX5_ST_SZ_BYTES(dest_format_struct);
	u32 out[MLX5_ST_SZ_DW(set_fte_out)] = {};
	void *in, *fc, *hdrs, *dest;
	int err;

	in = kvzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	MLX5_SET(set_fte_in, in, opcode, MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY);
	MLX5_SET(set_fte_in, in, table_type, MLX5_FLOW_TABLE_TYPE_NIC_RX);
	MLX5_SET(set_fte_in, in, table_id, e->ft->id);
	MLX5_SET(set_fte_in, in, flow_index, e->index);
	fc = MLX5_ADDR_OF(set_fte_in, in, flow_context);
	MLX5_SET(flow_context, fc, group_id, e->ft->groups[e->group]);
	MLX5_SET(flow_context, fc, action, MLX5_FLOW_CONTEXT_ACTION_FWD_DEST);
	MLX5_SET(flow_context, fc, destination_list_size, 1);
	hdrs = MLX5_ADDR_OF(flow_context, fc, match_value.outer_headers);
	if (e->dmac)
		ether_addr_copy(MLX5_ADDR_OF(fte_match_set_lyr_2_4, hdrs,
					     dmac_47_16), e->dmac);
	if (e->ethertype)
		MLX5_SET(fte_match_set_lyr_2_4, hdrs, ethertype, e->ethertype);
	if (e->ip_protocol)
		MLX5_SET(fte_match_set_lyr_2_4, hdrs, ip_protocol,
			 e->ip_protocol);
	dest = MLX5_ADDR_OF(flow_context, fc, destination);
	MLX5_SET(dest_format_struct, dest, destination_type, e->dest_type);
	MLX5_SET(dest_format_struct, dest, destination_id, e->dest_id);
	err = mlx5_cmd_exec(priv->mdev, in, inlen, out, sizeof(out));
	kvfree(in);
	return err;
}

static void mlx5e_fte_del(struct mlx5e_priv *priv, struct mlx5e_flow_table *ft,
			  u32 index)
{
	u32 in[MLX5_ST_SZ_DW(delete_fte_in)] = {};

	MLX5_SET(delete_fte_in, in, opcode, MLX5_CMD_OP_DELETE_FLOW_TABLE_ENTRY);
	MLX5_SET(delete_fte_in, in, table_type, MLX5_FLOW_TABLE_TYPE_NIC_RX);
	MLX5_SET(delete_fte_in, in, table_id, ft->id);
	MLX5_SET(delete_fte_in, in, flow_index, index);
	mlx5_cmd_exec_in(priv->mdev, delete_fte, in);
}

/* Delete the first @n TTC entries, then the table. */
static void mlx5e_ttc_destroy(struct mlx5e_priv *priv, unsigned int n)
{
	while (n--)
		mlx5e_fte_del(priv, &priv->fs.ttc, n);
	mlx5e_ft_destroy(priv, &priv->fs.ttc);
}

static int mlx5e_ttc_create(struct mlx5e_priv *priv)
{
	struct mlx5e_flow_table *ft = &priv->fs.ttc;
	unsigned int tt, n = 0;
	int err;

	err = mlx5e_ft_create(priv, ft, MLX5E_TTC_LEVEL, MLX5E_TTC_LOG_SIZE);
	if (err)
		return err;
	err = mlx5e_fg_create(priv, ft, 0, 3, MLX5E_FG_ETHERTYPE_IP_PROTO);
	if (!err)
		err = mlx5e_fg_create(priv, ft, 4, 5, MLX5E_FG_ETHERTYPE);
	if (!err)
		err = mlx5e_fg_create(priv, ft, 6, 6, MLX5E_FG_NONE);
	for (tt = 0; !err && tt < MLX5E_NUM_TT; tt++) {
		struct mlx5e_fte e = {
			.ft = ft,
			.group = tt <= MLX5E_TT_IPV6_UDP ? 0 :
				 tt == MLX5E_TT_ANY ? 2 : 1,
			.index = tt,
			.ethertype = mlx5e_ttc_rules[tt].ethertype,
			.ip_protocol = mlx5e_ttc_rules[tt].ip_protocol,
			.dest_type = MLX5_IFC_FLOW_DESTINATION_TYPE_TIR,
			.dest_id = priv->rss.tirn[tt],
		};

		err = mlx5e_fte_set(priv, &e);
		if (!err)
			n++;
	}
	if (err)
		mlx5e_ttc_destroy(priv, n);
	return err;
}

static int mlx5e_l2_set(struct mlx5e_priv *priv, u8 group, u32 index,
			const u8 *dmac)
{
	struct mlx5e_fte e = {
		.ft = &priv->fs.l2,
		.group = group,
		.index = index,
		.dmac = dmac,
		.dest_type = MLX5_IFC_FLOW_DESTINATION_TYPE_FLOW_TABLE,
		.dest_id = priv->fs.ttc.id,
	};

	return mlx5e_fte_set(priv, &e);
}

static int mlx5e_set_root(struct mlx5e_priv *priv, u32 table_id, bool connect)
{
	u32 in[MLX5_ST_SZ_DW(set_flow_table_root_in)] = {};

	MLX5_SET(set_flow_table_root_in, in, opcode,
		 MLX5_CMD_OP_SET_FLOW_TABLE_ROOT);
	MLX5_SET(set_flow_table_root_in, in, op_mod, !connect);
	MLX5_SET(set_flow_table_root_in, in, table_type,
		 MLX5_FLOW_TABLE_TYPE_NIC_RX);
	if (connect)
		MLX5_SET(set_flow_table_root_in, in, table_id, table_id);
	return mlx5_cmd_exec_in(priv->mdev, set_flow_table_root, in);
}

/**
 * mlx5e_fs_update_root() - make the ethtool table the root while it
 * exists, the L2 table otherwise
 * @priv: the netdev's private area, the tables created
 *
 * Return: 0 or a command error.
 */
int mlx5e_fs_update_root(struct mlx5e_priv *priv)
{
	struct mlx5e_flow_steering *fs = &priv->fs;

	return mlx5e_set_root(priv, fs->ethtool.ft_created ?
				    fs->ethtool.ft_id : fs->l2.id, true);
}

static int mlx5e_l2_create(struct mlx5e_priv *priv)
{
	struct mlx5e_flow_table *ft = &priv->fs.l2;
	int err;

	err = mlx5e_ft_create(priv, ft, MLX5E_L2_LEVEL, MLX5E_L2_LOG_SIZE);
	if (err)
		return err;
	err = mlx5e_fg_create(priv, ft, MLX5E_L2_PROMISC_IX,
			      MLX5E_L2_PROMISC_IX, MLX5E_FG_NONE);
	if (!err)
		err = mlx5e_fg_create(priv, ft, MLX5E_L2_ALLMULTI_IX,
				      MLX5E_L2_ALLMULTI_IX,
				      MLX5E_FG_DMAC_GROUP_BIT);
	if (!err)
		err = mlx5e_fg_create(priv, ft, MLX5E_L2_ADDR_IX,
				      (1 << MLX5E_L2_LOG_SIZE) - 1,
				      MLX5E_FG_DMAC);
	if (err)
		mlx5e_ft_destroy(priv, ft);
	return err;
}

/* Delete the L2 entries (the table stays). */
static void mlx5e_l2_flush(struct mlx5e_priv *priv)
{
	struct mlx5e_flow_steering *fs = &priv->fs;
	unsigned int i;

	for (i = 0; i < fs->num_l2_addrs; i++)
		mlx5e_fte_del(priv, &fs->l2, MLX5E_L2_ADDR_IX + i);
	fs->num_l2_addrs = 0;
	if (fs->promisc)
		mlx5e_fte_del(priv, &fs->l2, MLX5E_L2_PROMISC_IX);
	if (fs->allmulti)
		mlx5e_fte_del(priv, &fs->l2, MLX5E_L2_ALLMULTI_IX);
	fs->promisc = false;
	fs->allmulti = false;
}

/**
 * mlx5e_fs_create() - the flow tables, with the netdev's own MAC and
 * broadcast accepted, as the NIC RX root
 * @priv: the netdev's private area, RSS objects created
 *
 * Return: 0, or a negative errno with nothing left behind.
 */
int mlx5e_fs_create(struct mlx5e_priv *priv)
{
	struct mlx5e_flow_steering *fs = &priv->fs;
	int err;

	fs->num_l2_addrs = 0;
	fs->promisc = false;
	fs->allmulti = false;
	err = mlx5e_ttc_create(priv);
	if (err)
		return err;
	err = mlx5e_l2_create(priv);
	if (err)
		goto err_ttc;
	fs->created = true;
	mlx5e_fs_apply_rx_mode(priv);
	mlx5e_ethtool_fs_install(priv);
	err = mlx5e_fs_update_root(priv);
	if (err)
		goto err_l2;
	return 0;

err_l2:
	fs->created = false;
	mlx5e_ethtool_fs_remove(priv);
	mlx5e_l2_flush(priv);
	mlx5e_ft_destroy(priv, &fs->l2);
err_ttc:
	mlx5e_ttc_destroy(priv, MLX5E_NUM_TT);
	return err;
}

void mlx5e_fs_destroy(struct mlx5e_priv *priv)
{
	struct mlx5e_flow_steering *fs = &priv->fs;

	if (!fs->created)
		return;
	fs->created = false;
	mlx5e_set_root(priv, 0, false);
	mlx5e_ethtool_fs_remove(priv);
	mlx5e_l2_flush(priv);
	mlx5e_ft_destroy(priv, &fs->l2);
	mlx5e_ttc_destroy(priv, MLX5E_NUM_TT);
}

/* The DMACs the netdev accepts now: own, broadcast, unicast, multicast. */
static unsigned int mlx5e_wanted_addrs(struct mlx5e_priv *priv,
				       u8 (*addrs)[ETH_ALEN], bool allmulti)
{
	struct net_device *netdev = priv->netdev;
	struct netdev_hw_addr *ha;
	unsigned int n = 0;

	netif_addr_lock_bh(netdev);
	ether_addr_copy(addrs[n++], netdev->dev_addr);
	eth_broadcast_addr(addrs[n++]);
	netdev_for_each_uc_addr(ha, netdev) {
		if (n == MLX5E_L2_MAX_ADDRS)
			break;
		ether_addr_copy(addrs[n++], ha->addr);
	}
	if (!allmulti) {
		netdev_for_each_mc_addr(ha, netdev) {
			if (n == MLX5E_L2_MAX_ADDRS)
				break;
			ether_addr_copy(addrs[n++], ha->addr);
		}
	}
	netif_addr_unlock_bh(netdev);
	return n;
}

static bool mlx5e_addr_in(u8 (*addrs)[ETH_ALEN], unsigned int n, const u8 *a)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (ether_addr_equal(addrs[i], a))
			return true;
	return false;
}

static void mlx5e_apply_flag(struct mlx5e_priv *priv, bool *cur, bool want,
			     u8 group, u32 index)
{
	if (want == *cur)
		return;
	if (want) {
		if (mlx5e_l2_set(priv, group, index, NULL))
			return;
	} else {
		mlx5e_fte_del(priv, &priv->fs.l2, index);
	}
	*cur = want;
}

/**
 * mlx5e_fs_apply_rx_mode() - install the L2 entries the netdev wants
 * @priv: the netdev's private area (state_lock held)
 *
 * The installed addresses are kept densely from MLX5E_L2_ADDR_IX: a stale
 * one is removed and the last entry moved into its place, then the new
 * ones are appended; an address that stays is never briefly missing.
 */
void mlx5e_fs_apply_rx_mode(struct mlx5e_priv *priv)
{
	struct mlx5e_flow_steering *fs = &priv->fs;
	unsigned int flags = priv->netdev->flags;
	bool promisc = flags & IFF_PROMISC;
	bool allmulti = flags & IFF_ALLMULTI;
	u8 (*want)[ETH_ALEN];
	unsigned int n, i;

	if (!fs->created)
		return;
	want = kmalloc_array(MLX5E_L2_MAX_ADDRS, ETH_ALEN, GFP_KERNEL);
	if (!want)
		return;
	n = mlx5e_wanted_addrs(priv, want, allmulti);
	n = min_t(unsigned int, n, MLX5E_L2_MAX_ADDRS - MLX5E_L2_ADDR_IX);

	mlx5e_apply_flag(priv, &fs->promisc, promisc, 0, MLX5E_L2_PROMISC_IX);
	mlx5e_apply_flag(priv, &fs->allmulti, allmulti, 1, MLX5E_L2_ALLMULTI_IX);

	for (i = 0; i < fs->num_l2_addrs;) {
		unsigned int last = fs->num_l2_addrs - 1;

		if (mlx5e_addr_in(want, n, fs->l2_addrs[i])) {
			i++;
			continue;
		}
		mlx5e_fte_del(priv, &fs->l2, MLX5E_L2_ADDR_IX + i);
		if (i != last) {
			if (mlx5e_l2_set(priv, 2, MLX5E_L2_ADDR_IX + i,
					 fs->l2_addrs[last]))
				netdev_warn(priv->netdev, "moving an L2 entry failed\n");
			ether_addr_copy(fs->l2_addrs[i], fs->l2_addrs[last]);
			mlx5e_fte_del(priv, &fs->l2, MLX5E_L2_ADDR_IX + last);
		}
		fs->num_l2_addrs--;
	}
	for (i = 0; i < n; i++) {
		if (mlx5e_addr_in(fs->l2_addrs, fs->num_l2_addrs, want[i]))
			continue;
		if (mlx5e_l2_set(priv, 2, MLX5E_L2_ADDR_IX + fs->num_l2_addrs,
				 want[i]))
			break;
		ether_addr_copy(fs->l2_addrs[fs->num_l2_addrs++], want[i]);
	}
	kfree(want);
}
