// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Function-level firmware commands: enable/disable the HCA, ISSI,
 * capabilities, init/teardown.
 */

#include <linux/slab.h>

#include "priv.h"

int mlx5_cmd_enable_hca(struct mlx5_core_dev *dev)
{
	u32 in[MLX5_ST_SZ_DW(enable_hca_in)] = {};

	MLX5_SET(enable_hca_in, in, opcode, MLX5_CMD_OP_ENABLE_HCA);
	return mlx5_cmd_exec_in(dev, enable_hca, in);
}

int mlx5_cmd_disable_hca(struct mlx5_core_dev *dev)
{
	u32 in[MLX5_ST_SZ_DW(disable_hca_in)] = {};

	MLX5_SET(disable_hca_in, in, opcode, MLX5_CMD_OP_DISABLE_HCA);
	return mlx5_cmd_exec_in(dev, disable_hca, in);
}

/**
 * mlx5_cmd_set_issi() - agree on the interface step sequence ID
 * @dev: the device
 *
 * The driver speaks ISSI 1. Firmware that does not know QUERY_ISSI speaks
 * only ISSI 0, which this driver does not support.
 *
 * Return: 0 or a negative errno.
 */
int mlx5_cmd_set_issi(struct mlx5_core_dev *dev)
{
	u32 query_out[MLX5_ST_SZ_DW(query_issi_out)] = {};
	u32 query_in[MLX5_ST_SZ_DW(query_issi_in)] = {};
	u32 set_in[MLX5_ST_SZ_DW(set_issi_in)] = {};
	u32 supported;
	int err;

	MLX5_SET(query_issi_in, query_in, opcode, MLX5_CMD_OP_QUERY_ISSI);
	err = mlx5_cmd_exec_inout(dev, query_issi, query_in, query_out);
	if (err)
		return err;

	supported = MLX5_GET(query_issi_out, query_out, supported_issi_dw0);
	if (!(supported & BIT(1))) {
		dev_err(dev->device,
			"firmware does not support ISSI 1 (supported 0x%x)\n",
			supported);
		return -EOPNOTSUPP;
	}

	MLX5_SET(set_issi_in, set_in, opcode, MLX5_CMD_OP_SET_ISSI);
	MLX5_SET(set_issi_in, set_in, current_issi, 1);
	return mlx5_cmd_exec_in(dev, set_issi, set_in);
}

static int mlx5_query_hca_cap(struct mlx5_core_dev *dev,
			      enum mlx5_cap_type type, u16 which, u32 *cap)
{
	int outlen = MLX5_ST_SZ_BYTES(query_hca_cap_out);
	u32 in[MLX5_ST_SZ_DW(query_hca_cap_in)] = {};
	void *out;
	int err;

	out = kzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;

	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod, (type << 1) | which);
	err = mlx5_cmd_exec(dev, in, sizeof(in), out, outlen);
	if (!err)
		memcpy(cap, MLX5_ADDR_OF(query_hca_cap_out, out, capability),
		       MLX5_UN_SZ_BYTES(hca_cap_union));
	kfree(out);
	return err;
}

/**
 * mlx5_query_caps() - read the current and maximum values of a capability
 * @dev: the device
 * @type: which capability group
 *
 * Return: 0 or a negative errno.
 */
int mlx5_query_caps(struct mlx5_core_dev *dev, enum mlx5_cap_type type)
{
	struct mlx5_hca_cap *cap = dev->caps.hca[type];
	int err;

	if (WARN_ON(!cap))
		return -EINVAL;
	err = mlx5_query_hca_cap(dev, type, HCA_CAP_OPMOD_GET_MAX, cap->max);
	if (err)
		return err;
	return mlx5_query_hca_cap(dev, type, HCA_CAP_OPMOD_GET_CUR, cap->cur);
}

/*
 * Adjust the general capabilities to what this driver wants before
 * INIT_HCA: no command signatures, UAR pages of the host page size.
 */
static int mlx5_set_general_caps(struct mlx5_core_dev *dev)
{
	int inlen = MLX5_ST_SZ_BYTES(set_hca_cap_in);
	void *in, *cap;
	int err;

	in = kzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;

	cap = MLX5_ADDR_OF(set_hca_cap_in, in, capability);
	memcpy(cap, dev->caps.hca[MLX5_CAP_GENERAL]->cur,
	       MLX5_ST_SZ_BYTES(cmd_hca_cap));
	MLX5_SET(cmd_hca_cap, cap, cmdif_checksum, 0);
	MLX5_SET(cmd_hca_cap, cap, log_uar_page_sz, PAGE_SHIFT - 12);
	if (MLX5_CAP_GEN_MAX(dev, uar_4k))
		MLX5_SET(cmd_hca_cap, cap, uar_4k, 1);

	MLX5_SET(set_hca_cap_in, in, opcode, MLX5_CMD_OP_SET_HCA_CAP);
	MLX5_SET(set_hca_cap_in, in, op_mod,
		 MLX5_SET_HCA_CAP_OP_MOD_GENERAL_DEVICE << 1);
	err = mlx5_cmd_exec_in(dev, set_hca_cap, in);
	kfree(in);
	return err;
}

/**
 * mlx5_handle_hca_caps() - query the general caps and set what we need
 * @dev: the device, HCA enabled, boot pages given
 *
 * Return: 0 or a negative errno.
 */
int mlx5_handle_hca_caps(struct mlx5_core_dev *dev)
{
	int err;

	err = mlx5_query_caps(dev, MLX5_CAP_GENERAL);
	if (err)
		return err;
	return mlx5_set_general_caps(dev);
}

#define MLX5_REG_PCAM	0x507f

/*
 * The port registers 0x5000..0x507f the device has and their enhanced
 * features (PCAM), where it announces PCAM; else, or when the read fails
 * (as upstream, not fatal: only optional port features depend on it),
 * none.
 */
static void mlx5_query_pcam(struct mlx5_core_dev *dev)
{
	u32 in[MLX5_ST_SZ_DW(pcam_reg)] = {};
	int err;

	memset(dev->caps.pcam, 0, sizeof(dev->caps.pcam));
	if (!MLX5_CAP_GEN(dev, pcam_reg))
		return;
	MLX5_SET(pcam_reg, in, feature_group,
		 MLX5_PCAM_FEATURE_ENHANCED_FEATURES);
	MLX5_SET(pcam_reg, in, access_reg_group, MLX5_PCAM_REGS_5000_TO_507F);
	err = mlx5_access_reg(dev, in, sizeof(in), dev->caps.pcam,
			      sizeof(dev->caps.pcam), MLX5_REG_PCAM, 0, false);
	if (err) {
		dev_dbg(dev->device, "PCAM: %d, no optional port feature\n",
			err);
		memset(dev->caps.pcam, 0, sizeof(dev->caps.pcam));
	}
}

/**
 * mlx5_query_all_caps() - read every capability group the driver uses
 * @dev: the device, after INIT_HCA
 *
 * Groups the device does not announce stay zero.
 *
 * Return: 0 or a negative errno.
 */
int mlx5_query_all_caps(struct mlx5_core_dev *dev)
{
	int err;

	err = mlx5_query_caps(dev, MLX5_CAP_GENERAL);
	if (err)
		return err;
	if (MLX5_CAP_GEN(dev, eth_net_offloads)) {
		err = mlx5_query_caps(dev, MLX5_CAP_ETHERNET_OFFLOADS);
		if (err)
			return err;
	}
	if (MLX5_CAP_GEN(dev, nic_flow_table)) {
		err = mlx5_query_caps(dev, MLX5_CAP_FLOW_TABLE);
		if (err)
			return err;
	}
	mlx5_query_pcam(dev);
	return 0;
}

int mlx5_caps_alloc(struct mlx5_core_dev *dev)
{
	static const enum mlx5_cap_type used[] = {
		MLX5_CAP_GENERAL, MLX5_CAP_ETHERNET_OFFLOADS,
		MLX5_CAP_FLOW_TABLE,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(used); i++) {
		dev->caps.hca[used[i]] = kzalloc(sizeof(struct mlx5_hca_cap),
						 GFP_KERNEL);
		if (!dev->caps.hca[used[i]]) {
			mlx5_caps_free(dev);
			return -ENOMEM;
		}
	}
	return 0;
}

void mlx5_caps_free(struct mlx5_core_dev *dev)
{
	int i;

	for (i = 0; i < MLX5_CAP_NUM; i++) {
		kfree(dev->caps.hca[i]);
		dev->caps.hca[i] = NULL;
	}
}

int mlx5_cmd_init_hca(struct mlx5_core_dev *dev)
{
	u32 in[MLX5_ST_SZ_DW(init_hca_in)] = {};

	MLX5_SET(init_hca_in, in, opcode, MLX5_CMD_OP_INIT_HCA);
	return mlx5_cmd_exec_in(dev, init_hca, in);
}

int mlx5_cmd_teardown_hca(struct mlx5_core_dev *dev)
{
	u32 in[MLX5_ST_SZ_DW(teardown_hca_in)] = {};

	MLX5_SET(teardown_hca_in, in, opcode, MLX5_CMD_OP_TEARDOWN_HCA);
	MLX5_SET(teardown_hca_in, in, profile,
		 MLX5_TEARDOWN_HCA_IN_PROFILE_GRACEFUL_CLOSE);
	return mlx5_cmd_exec_in(dev, teardown_hca, in);
}

/**
 * mlx5_query_board_id() - board (PSID) of the adapter, for devlink info
 * @dev: the device
 *
 * Return: 0 or a negative errno; @dev->board_id is empty when unknown.
 */
int mlx5_query_board_id(struct mlx5_core_dev *dev)
{
	u32 in[MLX5_ST_SZ_DW(query_adapter_in)] = {};
	int outlen = MLX5_ST_SZ_BYTES(query_adapter_out);
	void *out;
	int err;

	out = kzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;

	MLX5_SET(query_adapter_in, in, opcode, MLX5_CMD_OP_QUERY_ADAPTER);
	err = mlx5_cmd_exec(dev, in, sizeof(in), out, outlen);
	if (!err)
		memcpy(dev->board_id,
		       MLX5_ADDR_OF(query_adapter_out, out,
				    query_adapter_struct.vsd_contd_psid),
		       MLX5_FLD_SZ_BYTES(query_adapter_out,
					 query_adapter_struct.vsd_contd_psid));
	dev->board_id[sizeof(dev->board_id) - 1] = '\0';
	kfree(out);
	return err;
}

/**
 * mlx5_access_reg() - read or write one access register (ACCESS_REG)
 * @dev: the device
 * @data_in: the register's layout to write, or the index fields of a read
 * @size_in: bytes of @data_in
 * @data_out: filled with the register's layout as the device returns it
 * @size_out: bytes of @data_out
 * @reg_id: register id (MLX5_REG_*)
 * @arg: the command's argument field
 * @write: write (else read)
 *
 * Return: 0 or a negative errno.
 */
int mlx5_access_reg(struct mlx5_core_dev *dev, const void *data_in,
		    int size_in, void *data_out, int size_out, u16 reg_id,
		    int arg, bool write)
{
	int outlen = MLX5_ST_SZ_BYTES(access_register_out) + size_out;
	int inlen = MLX5_ST_SZ_BYTES(access_register_in) + size_in;
	void *in, *out;
	int err;

	in = kvzalloc(inlen, GFP_KERNEL);
	out = kvzalloc(outlen, GFP_KERNEL);
	if (!in || !out) {
		err = -ENOMEM;
		goto out;
	}

	memcpy(MLX5_ADDR_OF(access_register_in, in, register_data), data_in,
	       size_in);
	MLX5_SET(access_register_in, in, opcode, MLX5_CMD_OP_ACCESS_REG);
	MLX5_SET(access_register_in, in, op_mod,
		 write ? MLX5_ACCESS_REGISTER_IN_OP_MOD_WRITE :
			 MLX5_ACCESS_REGISTER_IN_OP_MOD_READ);
	MLX5_SET(access_register_in, in, argument, arg);
	MLX5_SET(access_register_in, in, register_id, reg_id);

	err = mlx5_cmd_exec(dev, in, inlen, out, outlen);
	if (!err)
		memcpy(data_out,
		       MLX5_ADDR_OF(access_register_out, out, register_data),
		       size_out);
out:
	kvfree(out);
	kvfree(in);
	return err;
}
