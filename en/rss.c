// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Receive side scaling: one RQ table (RQT) of MLX5E_INDIR_RQT_SIZE entries,
 * each the RQ of the channel the indirection table names, and one TIR per
 * traffic type hashing (Toeplitz) the fields that type has: addresses for
 * IP, addresses and ports for TCP and UDP, nothing for the rest (entry 0).
 * The flow tables steer each traffic type to its TIR. Moving to new
 * channels rewrites the RQTs (below); the TIRs stay.
 *
 * Each channel index (up to max_nch) also has a direct RQT of one entry,
 * that channel's RQ, and a TIR over it: ethtool steering rules forward
 * to those. A channel switch rewrites the direct RQTs too.
 *
 * Each extra RSS context (ethtool -X context N, at most
 * MLX5E_RSS_MAX_CTX - 1) has an RQT over its own indirection table and a
 * TIR per traffic type with its own key (the hashed fields are the main
 * context's): ethtool rules with "context N" forward to those. They exist
 * while the netdev is up, made and destroyed with the main ones, and
 * follow a channel switch as the main RQT does.
 *
 * LRO is the TIRs' (all of them, as upstream): created with it when the
 * parameters have NETIF_F_LRO, switched with MODIFY_TIR.
 */
#include "rss.h"
#include "params.h"

#define MLX5E_HASH_IP		(MLX5_HASH_FIELD_SEL_SRC_IP | \
				 MLX5_HASH_FIELD_SEL_DST_IP)
#define MLX5E_HASH_IP_L4PORTS	(MLX5E_HASH_IP | \
				 MLX5_HASH_FIELD_SEL_L4_SPORT | \
				 MLX5_HASH_FIELD_SEL_L4_DPORT)

/* Per traffic type: L3 and L4 protocol (-1: none). */
static const struct {
	s8 l3;
	s8 l4;
} mlx5e_tt_prot[MLX5E_NUM_TT] = {
	[MLX5E_TT_IPV4_TCP] = { MLX5_L3_PROT_TYPE_IPV4, MLX5_L4_PROT_TYPE_TCP },
	[MLX5E_TT_IPV6_TCP] = { MLX5_L3_PROT_TYPE_IPV6, MLX5_L4_PROT_TYPE_TCP },
	[MLX5E_TT_IPV4_UDP] = { MLX5_L3_PROT_TYPE_IPV4, MLX5_L4_PROT_TYPE_UDP },
	[MLX5E_TT_IPV6_UDP] = { MLX5_L3_PROT_TYPE_IPV6, MLX5_L4_PROT_TYPE_UDP },
	[MLX5E_TT_IPV4] = { MLX5_L3_PROT_TYPE_IPV4, -1 },
	[MLX5E_TT_IPV6] = { MLX5_L3_PROT_TYPE_IPV6, -1 },
	[MLX5E_TT_ANY] = { -1, -1 },
};

void mlx5e_rss_default_indir(struct mlx5e_priv *priv, u16 num_channels)
{
	unsigned int i;

	for (i = 0; i < MLX5E_INDIR_RQT_SIZE; i++)
		priv->rss.indir[i] = ethtool_rxfh_indir_default(i, num_channels);
}

/* The fields each traffic type hashes by default: TCP and UDP the
 * addresses and ports, other IP the addresses, the rest nothing.
 */
static void mlx5e_rss_default_fields(u8 *fields)
{
	unsigned int tt;

	for (tt = 0; tt < MLX5E_NUM_TT; tt++) {
		if (mlx5e_tt_prot[tt].l4 >= 0)
			fields[tt] = MLX5E_HASH_IP_L4PORTS;
		else if (mlx5e_tt_prot[tt].l3 >= 0)
			fields[tt] = MLX5E_HASH_IP;
		else
			fields[tt] = 0;
	}
}

/**
 * mlx5e_rss_init() - default key, indirection and hashed fields
 * @priv: the netdev's private area (params set)
 */
void mlx5e_rss_init(struct mlx5e_priv *priv)
{
	struct mlx5e_rss *rss = &priv->rss;

	netdev_rss_key_fill(rss->key, sizeof(rss->key));
	mlx5e_rss_default_indir(priv, priv->params.num_channels);
	mlx5e_rss_default_fields(rss->rx_hash_fields);
}

/* An RQT's RQs: those the indirection table @indir names, or channel
 * @ix's alone (a direct RQT, @indir NULL); a channel's XSK RQ while it
 * has one (AF_XDP zero copy: the frames for queue @ix go to the socket's
 * buffers). Returns the RQT's size.
 */
static unsigned int mlx5e_rqt_fill(struct mlx5e_channels *chs,
				   const u32 *indir, int ix, void *rqtc)
{
	unsigned int i;

	if (!indir) {
		MLX5_SET(rqtc, rqtc, rqt_actual_size, 1);
		MLX5_SET(rqtc, rqtc, rq_num[0], mlx5e_channel_rqn(chs->c[ix % chs->num]));
		return 1;
	}
	MLX5_SET(rqtc, rqtc, rqt_actual_size, MLX5E_INDIR_RQT_SIZE);
	for (i = 0; i < MLX5E_INDIR_RQT_SIZE; i++) {
		u32 c = indir[i] % chs->num;

		MLX5_SET(rqtc, rqtc, rq_num[i], mlx5e_channel_rqn(chs->c[c]));
	}
	return MLX5E_INDIR_RQT_SIZE;
}

static unsigned int mlx5e_rqt_size(const u32 *indir)
{
	return indir ? MLX5E_INDIR_RQT_SIZE : 1;
}

/* Create the RQT mlx5e_rqt_fill() describes, its number in @rqtn. */
static int mlx5e_rqt_create(struct mlx5e_priv *priv, struct mlx5e_channels *chs,
			    const u32 *indir, int ix, u32 *rqtn)
{
	int inlen = MLX5_ST_SZ_BYTES(create_rqt_in) +
		    sizeof(u32) * mlx5e_rqt_size(indir);
	u32 out[MLX5_ST_SZ_DW(create_rqt_out)] = {};
	void *in, *rqtc;
	int err;

	in = kvzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	MLX5_SET(create_rqt_in, in, opcode, MLX5_CMD_OP_CREATE_RQT);
	rqtc = MLX5_ADDR_OF(create_rqt_in, in, rqt_context);
	MLX5_SET(rqtc, rqtc, rqt_max_size, mlx5e_rqt_fill(chs, indir, ix, rqtc));
	err = mlx5_cmd_exec(priv->mdev, in, inlen, out, sizeof(out));
	kvfree(in);
	if (!err)
		*rqtn = MLX5_GET(create_rqt_out, out, rqtn);
	return err;
}

/* Point RQT @rqtn at the RQs mlx5e_rqt_fill() names. */
static int mlx5e_rqt_redirect(struct mlx5e_priv *priv,
			      struct mlx5e_channels *chs, const u32 *indir,
			      int ix, u32 rqtn)
{
	int inlen = MLX5_ST_SZ_BYTES(modify_rqt_in) +
		    sizeof(u32) * mlx5e_rqt_size(indir);
	u32 out[MLX5_ST_SZ_DW(modify_rqt_out)] = {};
	void *in, *rqtc;
	int err;

	in = kvzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	MLX5_SET(modify_rqt_in, in, opcode, MLX5_CMD_OP_MODIFY_RQT);
	MLX5_SET(modify_rqt_in, in, rqtn, rqtn);
	MLX5_SET(modify_rqt_in, in, bitmask.rqn_list, 1);
	rqtc = MLX5_ADDR_OF(modify_rqt_in, in, ctx);
	mlx5e_rqt_fill(chs, indir, ix, rqtc);
	err = mlx5_cmd_exec(priv->mdev, in, inlen, out, sizeof(out));
	kvfree(in);
	return err;
}

static void mlx5e_rqtn_destroy(struct mlx5e_priv *priv, u32 rqtn)
{
	u32 in[MLX5_ST_SZ_DW(destroy_rqt_in)] = {};

	MLX5_SET(destroy_rqt_in, in, opcode, MLX5_CMD_OP_DESTROY_RQT);
	MLX5_SET(destroy_rqt_in, in, rqtn, rqtn);
	mlx5_cmd_exec_in(priv->mdev, destroy_rqt, in);
}

static struct mlx5e_rss_ctx *mlx5e_rss_ctx_priv(struct ethtool_rxfh_context *ctx)
{
	return ethtool_rxfh_context_priv(ctx);
}

/**
 * mlx5e_rss_redirect_indir() - point the RQT at the RQs of @chs the
 * indirection table names (after it changed)
 * @priv: the netdev's private area
 * @chs: the channels
 *
 * Return: 0 or a command error.
 */
int mlx5e_rss_redirect_indir(struct mlx5e_priv *priv,
			     struct mlx5e_channels *chs)
{
	return mlx5e_rqt_redirect(priv, chs, priv->rss.indir, -1,
				  priv->rss.rqtn);
}

/**
 * mlx5e_rss_redirect() - point the RQT, the direct RQTs and the RQTs of
 * the extra contexts at the RQs of @chs
 * @priv: the netdev's private area
 * @chs: the channels
 *
 * Return: 0 or a command error.
 */
int mlx5e_rss_redirect(struct mlx5e_priv *priv, struct mlx5e_channels *chs)
{
	struct ethtool_rxfh_context *ctx;
	unsigned int ix;
	int err;

	err = mlx5e_rss_redirect_indir(priv, chs);
	for (ix = 0; !err && ix < priv->max_nch; ix++)
		err = mlx5e_rqt_redirect(priv, chs, NULL, ix,
					 priv->rss.direct_rqtn[ix]);
	for (ix = 1; !err && ix < MLX5E_RSS_MAX_CTX; ix++) {
		ctx = priv->rss.ctx[ix];
		if (ctx && mlx5e_rss_ctx_priv(ctx)->created)
			err = mlx5e_rqt_redirect(priv, chs,
						 ethtool_rxfh_context_indir(ctx),
						 -1, mlx5e_rss_ctx_priv(ctx)->rqtn);
	}
	return err;
}

/* The LRO fields of a TIR: IPv4 and IPv6, 64 KiB less headers. */
static void mlx5e_tirc_lro(struct mlx5e_priv *priv, void *tirc, bool lro)
{
	if (!lro)
		return;
	MLX5_SET(tirc, tirc, packet_merge_mask,
		 MLX5_TIRC_PACKET_MERGE_MASK_IPV4_LRO |
		 MLX5_TIRC_PACKET_MERGE_MASK_IPV6_LRO);
	MLX5_SET(tirc, tirc, lro_max_ip_payload_size,
		 (MLX5E_LRO_MAX_BYTES - MLX5E_LRO_HDR_ROOM) >> 8);
	MLX5_SET(tirc, tirc, lro_timeout_period_usecs,
		 mlx5e_lro_timeout(priv->mdev));
}

static void mlx5e_tirc_fill(struct mlx5e_priv *priv, unsigned int tt,
			    u32 rqtn, const u8 *key, const u8 *fields,
			    void *tirc)
{
	void *hfs = MLX5_ADDR_OF(tirc, tirc, rx_hash_field_selector_outer);

	MLX5_SET(tirc, tirc, transport_domain, priv->res.tdn);
	MLX5_SET(tirc, tirc, disp_type, MLX5_TIRC_DISP_TYPE_INDIRECT);
	MLX5_SET(tirc, tirc, indirect_table, rqtn);
	MLX5_SET(tirc, tirc, rx_hash_fn, MLX5_RX_HASH_FN_TOEPLITZ);
	memcpy(MLX5_ADDR_OF(tirc, tirc, rx_hash_toeplitz_key), key,
	       MLX5E_RSS_KEY_SIZE);
	if (mlx5e_tt_prot[tt].l3 >= 0)
		MLX5_SET(rx_hash_field_select, hfs, l3_prot_type,
			 mlx5e_tt_prot[tt].l3);
	if (mlx5e_tt_prot[tt].l4 >= 0)
		MLX5_SET(rx_hash_field_select, hfs, l4_prot_type,
			 mlx5e_tt_prot[tt].l4);
	MLX5_SET(rx_hash_field_select, hfs, selected_fields, fields[tt]);
	mlx5e_tirc_lro(priv, tirc, priv->params.features & NETIF_F_LRO);
}

static int mlx5e_tir_create(struct mlx5e_priv *priv, unsigned int tt,
			    u32 rqtn, const u8 *key, const u8 *fields,
			    u32 *tirn)
{
	u32 out[MLX5_ST_SZ_DW(create_tir_out)] = {};
	u32 in[MLX5_ST_SZ_DW(create_tir_in)] = {};
	int err;

	MLX5_SET(create_tir_in, in, opcode, MLX5_CMD_OP_CREATE_TIR);
	mlx5e_tirc_fill(priv, tt, rqtn, key, fields,
			MLX5_ADDR_OF(create_tir_in, in, ctx));
	err = mlx5_cmd_exec_inout(priv->mdev, create_tir, in, out);
	if (!err)
		*tirn = MLX5_GET(create_tir_out, out, tirn);
	return err;
}

static void mlx5e_tirn_destroy(struct mlx5e_priv *priv, u32 tirn)
{
	u32 in[MLX5_ST_SZ_DW(destroy_tir_in)] = {};

	MLX5_SET(destroy_tir_in, in, opcode, MLX5_CMD_OP_DESTROY_TIR);
	MLX5_SET(destroy_tir_in, in, tirn, tirn);
	mlx5_cmd_exec_in(priv->mdev, destroy_tir, in);
}

/* An RQT over @indir and a TIR per traffic type over it, keyed @key,
 * hashing @fields of its type.
 */
static int mlx5e_rss_tables_create(struct mlx5e_priv *priv,
				   struct mlx5e_channels *chs,
				   const u32 *indir, const u8 *key,
				   const u8 *fields, u32 *rqtn, u32 *tirn)
{
	unsigned int tt;
	int err;

	err = mlx5e_rqt_create(priv, chs, indir, -1, rqtn);
	if (err)
		return err;
	for (tt = 0; tt < MLX5E_NUM_TT; tt++) {
		err = mlx5e_tir_create(priv, tt, *rqtn, key, fields, &tirn[tt]);
		if (err)
			goto err_tirs;
	}
	return 0;

err_tirs:
	while (tt--)
		mlx5e_tirn_destroy(priv, tirn[tt]);
	mlx5e_rqtn_destroy(priv, *rqtn);
	return err;
}

static void mlx5e_rss_tables_destroy(struct mlx5e_priv *priv, u32 rqtn,
				     const u32 *tirn)
{
	unsigned int tt;

	for (tt = 0; tt < MLX5E_NUM_TT; tt++)
		mlx5e_tirn_destroy(priv, tirn[tt]);
	mlx5e_rqtn_destroy(priv, rqtn);
}

/* MODIFY_TIR of the hash: TIR @tirn of traffic type @tt over RQT @rqtn
 * hashes @fields of @tt with key @key.
 */
static int mlx5e_tir_set_hash(struct mlx5e_priv *priv, unsigned int tt,
			      u32 tirn, u32 rqtn, const u8 *key,
			      const u8 *fields)
{
	u32 in[MLX5_ST_SZ_DW(modify_tir_in)] = {};

	MLX5_SET(modify_tir_in, in, opcode, MLX5_CMD_OP_MODIFY_TIR);
	MLX5_SET(modify_tir_in, in, tirn, tirn);
	MLX5_SET(modify_tir_in, in, bitmask.hash, 1);
	mlx5e_tirc_fill(priv, tt, rqtn, key, fields,
			MLX5_ADDR_OF(modify_tir_in, in, ctx));
	return mlx5_cmd_exec_in(priv->mdev, modify_tir, in);
}

/* Give the TIRs @tirn over RQT @rqtn the Toeplitz key @key. */
static int mlx5e_rss_tables_set_key(struct mlx5e_priv *priv, u32 rqtn,
				    const u32 *tirn, const u8 *key,
				    const u8 *fields)
{
	unsigned int tt;
	int err;

	for (tt = 0; tt < MLX5E_NUM_TT; tt++) {
		err = mlx5e_tir_set_hash(priv, tt, tirn[tt], rqtn, key, fields);
		if (err)
			return err;
	}
	return 0;
}

/* A TIR over the direct RQT of channel index @ix: no hashing, one RQ. */
static int mlx5e_direct_tir_create(struct mlx5e_priv *priv, unsigned int ix)
{
	u32 out[MLX5_ST_SZ_DW(create_tir_out)] = {};
	u32 in[MLX5_ST_SZ_DW(create_tir_in)] = {};
	void *tirc = MLX5_ADDR_OF(create_tir_in, in, ctx);
	int err;

	MLX5_SET(create_tir_in, in, opcode, MLX5_CMD_OP_CREATE_TIR);
	MLX5_SET(tirc, tirc, transport_domain, priv->res.tdn);
	MLX5_SET(tirc, tirc, disp_type, MLX5_TIRC_DISP_TYPE_INDIRECT);
	MLX5_SET(tirc, tirc, indirect_table, priv->rss.direct_rqtn[ix]);
	MLX5_SET(tirc, tirc, rx_hash_fn, MLX5_RX_HASH_FN_INVERTED_XOR8);
	mlx5e_tirc_lro(priv, tirc, priv->params.features & NETIF_F_LRO);
	err = mlx5_cmd_exec_inout(priv->mdev, create_tir, in, out);
	if (!err)
		priv->rss.direct_tirn[ix] = MLX5_GET(create_tir_out, out, tirn);
	return err;
}

static void mlx5e_direct_destroy(struct mlx5e_priv *priv, unsigned int n)
{
	struct mlx5e_rss *rss = &priv->rss;

	while (n--) {
		mlx5e_tirn_destroy(priv, rss->direct_tirn[n]);
		mlx5e_rqtn_destroy(priv, rss->direct_rqtn[n]);
	}
	kfree(rss->direct_rqtn);
	kfree(rss->direct_tirn);
	rss->direct_rqtn = NULL;
	rss->direct_tirn = NULL;
}

static int mlx5e_direct_create(struct mlx5e_priv *priv,
			       struct mlx5e_channels *chs)
{
	struct mlx5e_rss *rss = &priv->rss;
	unsigned int ix;
	int err = 0;

	rss->direct_rqtn = kcalloc(priv->max_nch, sizeof(u32), GFP_KERNEL);
	rss->direct_tirn = kcalloc(priv->max_nch, sizeof(u32), GFP_KERNEL);
	if (!rss->direct_rqtn || !rss->direct_tirn) {
		mlx5e_direct_destroy(priv, 0);
		return -ENOMEM;
	}
	for (ix = 0; ix < priv->max_nch; ix++) {
		err = mlx5e_rqt_create(priv, chs, NULL, ix, &rss->direct_rqtn[ix]);
		if (err)
			break;
		err = mlx5e_direct_tir_create(priv, ix);
		if (err) {
			mlx5e_rqtn_destroy(priv, rss->direct_rqtn[ix]);
			break;
		}
	}
	if (err)
		mlx5e_direct_destroy(priv, ix);
	return err;
}

/**
 * mlx5e_rss_set_key() - change the Toeplitz key of every TIR
 * @priv: the netdev's private area, RSS objects created
 * @key: MLX5E_RSS_KEY_SIZE bytes
 *
 * Return: 0 or a command error.
 */
int mlx5e_rss_set_key(struct mlx5e_priv *priv, const u8 *key)
{
	memcpy(priv->rss.key, key, sizeof(priv->rss.key));
	return mlx5e_rss_tables_set_key(priv, priv->rss.rqtn, priv->rss.tirn,
					key, priv->rss.rx_hash_fields);
}

static int mlx5e_tirn_set_lro(struct mlx5e_priv *priv, u32 tirn, bool lro)
{
	u32 in[MLX5_ST_SZ_DW(modify_tir_in)] = {};

	MLX5_SET(modify_tir_in, in, opcode, MLX5_CMD_OP_MODIFY_TIR);
	MLX5_SET(modify_tir_in, in, tirn, tirn);
	MLX5_SET(modify_tir_in, in, bitmask.packet_merge, 1);
	mlx5e_tirc_lro(priv, MLX5_ADDR_OF(modify_tir_in, in, ctx), lro);
	return mlx5_cmd_exec_in(priv->mdev, modify_tir, in);
}

/**
 * mlx5e_rss_set_lro() - switch LRO on every TIR (MODIFY_TIR), those of
 * the extra contexts too
 * @priv: the netdev's private area, RSS objects created
 * @lro: on or off
 *
 * The RQs stay: their layout must already be right for @lro.
 *
 * Return: 0 or the first command error (the TIRs before it switched).
 */
int mlx5e_rss_set_lro(struct mlx5e_priv *priv, bool lro)
{
	struct mlx5e_rss_ctx *rc;
	unsigned int i, tt;
	int err;

	for (i = 0; i < MLX5E_NUM_TT; i++) {
		err = mlx5e_tirn_set_lro(priv, priv->rss.tirn[i], lro);
		if (err)
			return err;
	}
	for (i = 0; i < priv->max_nch; i++) {
		err = mlx5e_tirn_set_lro(priv, priv->rss.direct_tirn[i], lro);
		if (err)
			return err;
	}
	for (i = 1; i < MLX5E_RSS_MAX_CTX; i++) {
		if (!priv->rss.ctx[i])
			continue;
		rc = ethtool_rxfh_context_priv(priv->rss.ctx[i]);
		for (tt = 0; rc->created && tt < MLX5E_NUM_TT; tt++) {
			err = mlx5e_tirn_set_lro(priv, rc->tirn[tt], lro);
			if (err)
				return err;
		}
	}
	return 0;
}

static void mlx5e_rss_ctx_objs_destroy(struct mlx5e_priv *priv,
				       struct ethtool_rxfh_context *ctx)
{
	struct mlx5e_rss_ctx *rc = mlx5e_rss_ctx_priv(ctx);

	if (!rc->created)
		return;
	mlx5e_rss_tables_destroy(priv, rc->rqtn, rc->tirn);
	rc->created = false;
}

static int mlx5e_rss_ctx_objs_create(struct mlx5e_priv *priv,
				     struct mlx5e_channels *chs,
				     struct ethtool_rxfh_context *ctx)
{
	struct mlx5e_rss_ctx *rc = mlx5e_rss_ctx_priv(ctx);
	int err;

	err = mlx5e_rss_tables_create(priv, chs,
				      ethtool_rxfh_context_indir(ctx),
				      ethtool_rxfh_context_key(ctx),
				      rc->rx_hash_fields, &rc->rqtn, rc->tirn);
	rc->created = !err;
	return err;
}

/**
 * mlx5e_rss_ctx_add() - take on a new extra RSS context
 * @priv: the netdev's private area (state_lock held)
 * @id: its id, 0 < @id < MLX5E_RSS_MAX_CTX
 * @ctx: the context, its indirection table and key filled in
 *
 * While the netdev is up its RQT and TIRs are made now, else at the
 * next open.
 *
 * Return: 0 or a negative errno, the context not taken on.
 */
int mlx5e_rss_ctx_add(struct mlx5e_priv *priv, u32 id,
		      struct ethtool_rxfh_context *ctx)
{
	int err = 0;

	if (WARN_ON_ONCE(!id || id >= MLX5E_RSS_MAX_CTX || priv->rss.ctx[id]))
		return -EINVAL;
	memset(mlx5e_rss_ctx_priv(ctx), 0, sizeof(struct mlx5e_rss_ctx));
	mlx5e_rss_default_fields(mlx5e_rss_ctx_priv(ctx)->rx_hash_fields);
	if (test_bit(MLX5E_STATE_OPENED, &priv->state))
		err = mlx5e_rss_ctx_objs_create(priv, &priv->channels, ctx);
	if (!err)
		priv->rss.ctx[id] = ctx;
	return err;
}

/**
 * mlx5e_rss_ctx_modify() - a new indirection table and/or key for a context
 * @priv: the netdev's private area (state_lock held)
 * @ctx: the context, still with the old settings
 * @indir: the new indirection table, or NULL
 * @key: the new key, or NULL
 *
 * Return: 0 or a command error.
 */
int mlx5e_rss_ctx_modify(struct mlx5e_priv *priv,
			 struct ethtool_rxfh_context *ctx, const u32 *indir,
			 const u8 *key)
{
	struct mlx5e_rss_ctx *rc = mlx5e_rss_ctx_priv(ctx);
	int err = 0;

	if (!rc->created)
		return 0;
	if (indir)
		err = mlx5e_rqt_redirect(priv, &priv->channels, indir, -1,
					 rc->rqtn);
	if (!err && key)
		err = mlx5e_rss_tables_set_key(priv, rc->rqtn, rc->tirn, key,
					       rc->rx_hash_fields);
	return err;
}

/**
 * mlx5e_rss_ctx_del() - forget context @id, its objects destroyed
 * @priv: the netdev's private area (state_lock held)
 * @id: the context's id
 */
void mlx5e_rss_ctx_del(struct mlx5e_priv *priv, u32 id)
{
	if (id >= MLX5E_RSS_MAX_CTX || !priv->rss.ctx[id])
		return;
	mlx5e_rss_ctx_objs_destroy(priv, priv->rss.ctx[id]);
	priv->rss.ctx[id] = NULL;
}

/**
 * mlx5e_rss_ctx_tirn() - the TIR of context @id for traffic type @tt
 * @priv: the netdev's private area (state_lock held)
 * @id: the context's id
 * @tt: the traffic type
 * @tirn: the TIR's number
 *
 * Return: 0, -ENOENT for no such context, -ENODEV when its objects are
 * not made (the netdev is down).
 */
int mlx5e_rss_ctx_tirn(struct mlx5e_priv *priv, u32 id,
		       enum mlx5e_traffic_type tt, u32 *tirn)
{
	struct mlx5e_rss_ctx *rc;

	if (!id || id >= MLX5E_RSS_MAX_CTX || !priv->rss.ctx[id])
		return -ENOENT;
	rc = mlx5e_rss_ctx_priv(priv->rss.ctx[id]);
	if (!rc->created)
		return -ENODEV;
	*tirn = rc->tirn[tt];
	return 0;
}

/**
 * mlx5e_rss_hash_fields() - what the TIRs of an RSS context hash
 * @priv: the netdev's private area (state_lock held)
 * @id: the context's id, 0 for the main one
 *
 * Return: its MLX5_HASH_FIELD_SEL_* per traffic type, NULL for no such
 * context.
 */
u8 *mlx5e_rss_hash_fields(struct mlx5e_priv *priv, u32 id)
{
	if (!id)
		return priv->rss.rx_hash_fields;
	if (id >= MLX5E_RSS_MAX_CTX || !priv->rss.ctx[id])
		return NULL;
	return mlx5e_rss_ctx_priv(priv->rss.ctx[id])->rx_hash_fields;
}

/**
 * mlx5e_rss_set_hash_fields() - the fields one TIR of an RSS context hashes
 * @priv: the netdev's private area (state_lock held)
 * @id: the context's id, 0 for the main one
 * @tt: the traffic type
 * @fields: MLX5_HASH_FIELD_SEL_* bits
 *
 * Kept for the next open while the context's objects are not made, else
 * applied by MODIFY_TIR.
 *
 * Return: 0, -ENOENT for no such context, or a command error with the
 * old fields kept.
 */
int mlx5e_rss_set_hash_fields(struct mlx5e_priv *priv, u32 id,
			      enum mlx5e_traffic_type tt, u8 fields)
{
	u8 *cur = mlx5e_rss_hash_fields(priv, id);
	u8 want[MLX5E_NUM_TT];
	struct mlx5e_rss_ctx *rc;
	int err = 0;

	if (!cur)
		return -ENOENT;
	memcpy(want, cur, sizeof(want));
	want[tt] = fields;
	if (!id) {
		if (test_bit(MLX5E_STATE_OPENED, &priv->state))
			err = mlx5e_tir_set_hash(priv, tt, priv->rss.tirn[tt],
						 priv->rss.rqtn, priv->rss.key,
						 want);
	} else {
		rc = mlx5e_rss_ctx_priv(priv->rss.ctx[id]);
		if (rc->created)
			err = mlx5e_tir_set_hash(priv, tt, rc->tirn[tt], rc->rqtn,
						 ethtool_rxfh_context_key(priv->rss.ctx[id]),
						 want);
	}
	if (!err)
		cur[tt] = fields;
	return err;
}

static void mlx5e_rss_ctxs_destroy(struct mlx5e_priv *priv)
{
	unsigned int id;

	for (id = 1; id < MLX5E_RSS_MAX_CTX; id++)
		if (priv->rss.ctx[id])
			mlx5e_rss_ctx_objs_destroy(priv, priv->rss.ctx[id]);
}

/**
 * mlx5e_rss_create() - the RQT over @chs, a TIR per traffic type, the
 * direct RQT and TIR of each channel index, and the RQT and TIRs of each
 * extra context
 * @priv: the netdev's private area
 * @chs: the channels
 *
 * Return: 0, or a negative errno with nothing left behind.
 */
int mlx5e_rss_create(struct mlx5e_priv *priv, struct mlx5e_channels *chs)
{
	struct mlx5e_rss *rss = &priv->rss;
	unsigned int id;
	int err;

	err = mlx5e_rss_tables_create(priv, chs, rss->indir, rss->key,
				      rss->rx_hash_fields, &rss->rqtn, rss->tirn);
	if (err)
		return err;
	err = mlx5e_direct_create(priv, chs);
	if (err)
		goto err_tables;
	for (id = 1; id < MLX5E_RSS_MAX_CTX; id++) {
		if (!rss->ctx[id])
			continue;
		err = mlx5e_rss_ctx_objs_create(priv, chs, rss->ctx[id]);
		if (err)
			goto err_ctxs;
	}
	return 0;

err_ctxs:
	mlx5e_rss_ctxs_destroy(priv);
	mlx5e_direct_destroy(priv, priv->max_nch);
err_tables:
	mlx5e_rss_tables_destroy(priv, rss->rqtn, rss->tirn);
	return err;
}

void mlx5e_rss_destroy(struct mlx5e_priv *priv)
{
	mlx5e_rss_ctxs_destroy(priv);
	mlx5e_direct_destroy(priv, priv->max_nch);
	mlx5e_rss_tables_destroy(priv, priv->rss.rqtn, priv->rss.tirn);
}
