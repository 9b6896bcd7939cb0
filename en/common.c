// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Objects every queue of the netdev refers to: the protection domain (PD)
 * of data segments, the transport domain (TD) that groups the TIRs and the
 * TIS, a memory key (mkey) covering all of physical memory in PA mode, the
 * queue counter the RQs count drops in, and the TIS the SQs send through.
 * Created before the first channel, destroyed after the last.
 */
#include "common.h"

static int mlx5e_alloc_pd(struct mlx5_core_dev *mdev, u32 *pdn)
{
	u32 out[MLX5_ST_SZ_DW(alloc_pd_out)] = {};
	u32 in[MLX5_ST_SZ_DW(alloc_pd_in)] = {};
	int err;

	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	err = mlx5_cmd_exec_inout(mdev, alloc_pd, in, out);
	if (!err)
		*pdn = MLX5_GET(alloc_pd_out, out, pd);
	return err;
}

static void mlx5e_dealloc_pd(struct mlx5_core_dev *mdev, u32 pdn)
{
	u32 in[MLX5_ST_SZ_DW(dealloc_pd_in)] = {};

	MLX5_SET(dealloc_pd_in, in, opcode, MLX5_CMD_OP_DEALLOC_PD);
	MLX5_SET(dealloc_pd_in, in, pd, pdn);
	mlx5_cmd_exec_in(mdev, dealloc_pd, in);
}

static int mlx5e_alloc_td(struct mlx5_core_dev *mdev, u32 *tdn)
{
	u32 out[MLX5_ST_SZ_DW(alloc_transport_domain_out)] = {};
	u32 in[MLX5_ST_SZ_DW(alloc_transport_domain_in)] = {};
	int err;

	MLX5_SET(alloc_transport_domain_in, in, opcode,
		 MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN);
	err = mlx5_cmd_exec_inout(mdev, alloc_transport_domain, in, out);
	if (!err)
		*tdn = MLX5_GET(alloc_transport_domain_out, out,
				transport_domain);
	return err;
}

static void mlx5e_dealloc_td(struct mlx5_core_dev *mdev, u32 tdn)
{
	u32 in[MLX5_ST_SZ_DW(dealloc_transport_domain_in)] = {};

	MLX5_SET(dealloc_transport_domain_in, in, opcode,
		 MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN);
	MLX5_SET(dealloc_transport_domain_in, in, transport_domain, tdn);
	mlx5_cmd_exec_in(mdev, dealloc_transport_domain, in);
}

/* A PA-mode mkey: data segments carry bus addresses as they are. */
static int mlx5e_create_mkey(struct mlx5_core_dev *mdev, u32 pdn, u32 *mkey)
{
	u32 out[MLX5_ST_SZ_DW(create_mkey_out)] = {};
	u32 in[MLX5_ST_SZ_DW(create_mkey_in)] = {};
	void *mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	int err;

	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_PA);
	MLX5_SET(mkc, mkc, lw, 1);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, pd, pdn);
	MLX5_SET(mkc, mkc, length64, 1);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	err = mlx5_cmd_exec_inout(mdev, create_mkey, in, out);
	if (!err)
		*mkey = MLX5_GET(create_mkey_out, out, mkey_index) << 8;
	return err;
}

static void mlx5e_destroy_mkey(struct mlx5_core_dev *mdev, u32 mkey)
{
	u32 in[MLX5_ST_SZ_DW(destroy_mkey_in)] = {};

	MLX5_SET(destroy_mkey_in, in, opcode, MLX5_CMD_OP_DESTROY_MKEY);
	MLX5_SET(destroy_mkey_in, in, mkey_index, mkey >> 8);
	mlx5_cmd_exec_in(mdev, destroy_mkey, in);
}

static int mlx5e_alloc_q_counter(struct mlx5_core_dev *mdev, u16 *id)
{
	u32 out[MLX5_ST_SZ_DW(alloc_q_counter_out)] = {};
	u32 in[MLX5_ST_SZ_DW(alloc_q_counter_in)] = {};
	int err;

	MLX5_SET(alloc_q_counter_in, in, opcode, MLX5_CMD_OP_ALLOC_Q_COUNTER);
	err = mlx5_cmd_exec_inout(mdev, alloc_q_counter, in, out);
	if (!err)
		*id = MLX5_GET(alloc_q_counter_out, out, counter_set_id);
	return err;
}

static void mlx5e_dealloc_q_counter(struct mlx5_core_dev *mdev, u16 id)
{
	u32 in[MLX5_ST_SZ_DW(dealloc_q_counter_in)] = {};

	MLX5_SET(dealloc_q_counter_in, in, opcode,
		 MLX5_CMD_OP_DEALLOC_Q_COUNTER);
	MLX5_SET(dealloc_q_counter_in, in, counter_set_id, id);
	mlx5_cmd_exec_in(mdev, dealloc_q_counter, in);
}

/**
 * mlx5e_query_out_of_buffer() - drops of the RQs for want of a WQE
 * @mdev: the device
 * @q_counter: the RQs' queue counter
 * @out_of_buffer: filled in
 *
 * Return: 0 or a command error.
 */
int mlx5e_query_out_of_buffer(struct mlx5_core_dev *mdev, u16 q_counter,
			      u32 *out_of_buffer)
{
	u32 out[MLX5_ST_SZ_DW(query_q_counter_out)] = {};
	u32 in[MLX5_ST_SZ_DW(query_q_counter_in)] = {};
	int err;

	MLX5_SET(query_q_counter_in, in, opcode, MLX5_CMD_OP_QUERY_Q_COUNTER);
	MLX5_SET(query_q_counter_in, in, counter_set_id, q_counter);
	err = mlx5_cmd_exec_inout(mdev, query_q_counter, in, out);
	if (!err)
		*out_of_buffer = MLX5_GET(query_q_counter_out, out,
					  out_of_buffer);
	return err;
}

static int mlx5e_create_tis(struct mlx5_core_dev *mdev, u32 tdn, u32 *tisn)
{
	u32 out[MLX5_ST_SZ_DW(create_tis_out)] = {};
	u32 in[MLX5_ST_SZ_DW(create_tis_in)] = {};
	void *tisc = MLX5_ADDR_OF(create_tis_in, in, ctx);
	int err;

	MLX5_SET(create_tis_in, in, opcode, MLX5_CMD_OP_CREATE_TIS);
	MLX5_SET(tisc, tisc, transport_domain, tdn);
	err = mlx5_cmd_exec_inout(mdev, create_tis, in, out);
	if (!err)
		*tisn = MLX5_GET(create_tis_out, out, tisn);
	return err;
}

static void mlx5e_destroy_tis(struct mlx5_core_dev *mdev, u32 tisn)
{
	u32 in[MLX5_ST_SZ_DW(destroy_tis_in)] = {};

	MLX5_SET(destroy_tis_in, in, opcode, MLX5_CMD_OP_DESTROY_TIS);
	MLX5_SET(destroy_tis_in, in, tisn, tisn);
	mlx5_cmd_exec_in(mdev, destroy_tis, in);
}

/**
 * mlx5e_hw_res_create() - create the PD, TD, mkey, Q counter and TIS
 * @mdev: the device
 * @res: filled in
 *
 * Return: 0, or a negative errno with nothing left behind.
 */
int mlx5e_hw_res_create(struct mlx5_core_dev *mdev, struct mlx5e_hw_res *res)
{
	int err;

	err = mlx5e_alloc_pd(mdev, &res->pdn);
	if (err)
		return err;
	err = mlx5e_alloc_td(mdev, &res->tdn);
	if (err)
		goto err_pd;
	err = mlx5e_create_mkey(mdev, res->pdn, &res->mkey);
	if (err)
		goto err_td;
	err = mlx5e_alloc_q_counter(mdev, &res->q_counter);
	if (err)
		goto err_mkey;
	err = mlx5e_create_tis(mdev, res->tdn, &res->tisn);
	if (err)
		goto err_q_counter;
	return 0;

err_q_counter:
	mlx5e_dealloc_q_counter(mdev, res->q_counter);
err_mkey:
	mlx5e_destroy_mkey(mdev, res->mkey);
err_td:
	mlx5e_dealloc_td(mdev, res->tdn);
err_pd:
	mlx5e_dealloc_pd(mdev, res->pdn);
	return err;
}

void mlx5e_hw_res_destroy(struct mlx5_core_dev *mdev, struct mlx5e_hw_res *res)
{
	mlx5e_destroy_tis(mdev, res->tisn);
	mlx5e_dealloc_q_counter(mdev, res->q_counter);
	mlx5e_destroy_mkey(mdev, res->mkey);
	mlx5e_dealloc_td(mdev, res->tdn);
	mlx5e_dealloc_pd(mdev, res->pdn);
}
