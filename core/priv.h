/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The device core's own prototypes: what core/ files call of each other.
 * The Ethernet side never includes this header; it uses only the public
 * include/mlx5_core.h.
 */
#ifndef __MLX5_CORE_PRIV_H__
#define __MLX5_CORE_PRIV_H__

#include "mlx5_core.h"

/* core/iseg.c */
void mlx5_iseg_read_versions(struct mlx5_core_dev *dev);
int mlx5_iseg_wait_fw_init(struct mlx5_core_dev *dev, unsigned int timeout_ms);

/* core/cmd.c */
int mlx5_cmd_init(struct mlx5_core_dev *dev);
void mlx5_cmd_disable(struct mlx5_core_dev *dev);
void mlx5_cmd_cleanup(struct mlx5_core_dev *dev);
void mlx5_cmd_use_events(struct mlx5_core_dev *dev);
void mlx5_cmd_use_polling(struct mlx5_core_dev *dev);
void mlx5_cmd_comp_handler(struct mlx5_core_dev *dev, u32 vector);
void mlx5_cmd_flush(struct mlx5_core_dev *dev);
int mlx5_cmd_wait_late(struct mlx5_core_dev *dev);

/* core/fw.c */
int mlx5_cmd_enable_hca(struct mlx5_core_dev *dev);
int mlx5_cmd_disable_hca(struct mlx5_core_dev *dev);
int mlx5_cmd_set_issi(struct mlx5_core_dev *dev);
int mlx5_cmd_init_hca(struct mlx5_core_dev *dev);
int mlx5_cmd_teardown_hca(struct mlx5_core_dev *dev);
int mlx5_caps_alloc(struct mlx5_core_dev *dev);
void mlx5_caps_free(struct mlx5_core_dev *dev);
int mlx5_query_caps(struct mlx5_core_dev *dev, enum mlx5_cap_type type);
int mlx5_handle_hca_caps(struct mlx5_core_dev *dev);
int mlx5_query_all_caps(struct mlx5_core_dev *dev);
int mlx5_query_board_id(struct mlx5_core_dev *dev);

/* core/main.c */
extern struct dentry *mlx5_debugfs_root;

/* core/pagealloc.c */
int mlx5_pagealloc_init(struct mlx5_core_dev *dev);
void mlx5_pagealloc_cleanup(struct mlx5_core_dev *dev);
int mlx5_satisfy_startup_pages(struct mlx5_core_dev *dev, bool boot);
int mlx5_reclaim_startup_pages(struct mlx5_core_dev *dev);
void mlx5_pages_request(struct mlx5_core_dev *dev, u16 func_id, s32 npages);

/* core/uar.c */
int mlx5_uar_alloc(struct mlx5_core_dev *dev, struct mlx5_uar *uar);
void mlx5_uar_free(struct mlx5_core_dev *dev, struct mlx5_uar *uar);
int mlx5_doorbells_init(struct mlx5_core_dev *dev, unsigned int want);
unsigned int mlx5_doorbell_regs_per_uar(struct mlx5_core_dev *dev);
unsigned int mlx5_doorbells_max(struct mlx5_core_dev *dev);
void mlx5_doorbells_cleanup(struct mlx5_core_dev *dev);

/* core/eq.c */
int mlx5_irqs_init(struct mlx5_core_dev *dev);
void mlx5_irqs_cleanup(struct mlx5_core_dev *dev);
int mlx5_eqs_init(struct mlx5_core_dev *dev);
void mlx5_eqs_cleanup(struct mlx5_core_dev *dev);
int mlx5_eq_cmd_recover(struct mlx5_core_dev *dev);

/* core/health.c */
int mlx5_health_wq_init(struct mlx5_core_dev *dev);
void mlx5_health_wq_cleanup(struct mlx5_core_dev *dev);
int mlx5_health_init(struct mlx5_core_dev *dev);
void mlx5_health_cleanup(struct mlx5_core_dev *dev);
void mlx5_health_start(struct mlx5_core_dev *dev);
void mlx5_health_stop(struct mlx5_core_dev *dev);
void mlx5_health_flush(struct mlx5_core_dev *dev);
void mlx5_health_set_healthy(struct mlx5_core_dev *dev);
enum mlx5_sensor mlx5_health_check_fatal(struct mlx5_core_dev *dev);
bool mlx5_enter_error_state(struct mlx5_core_dev *dev);
void mlx5_health_fatal(struct mlx5_core_dev *dev, enum mlx5_sensor sensor);
int mlx5_health_revive(struct mlx5_core_dev *dev, bool reset);
void mlx5_health_reset_function(struct mlx5_core_dev *dev);
void mlx5_health_allow(struct mlx5_core_dev *dev);
void mlx5_health_pci_error(struct mlx5_core_dev *dev);
void mlx5_health_pci_recovered(struct mlx5_core_dev *dev);

/* core/main.c */
int mlx5_init_one(struct mlx5_core_dev *dev);
void mlx5_uninit_one(struct mlx5_core_dev *dev);
int mlx5_load_one(struct mlx5_core_dev *dev);
void mlx5_unload_one(struct mlx5_core_dev *dev);
int mlx5_load_one_devl_locked(struct mlx5_core_dev *dev);
void mlx5_unload_one_devl_locked(struct mlx5_core_dev *dev);

/* core/dev.c */
int mlx5_adev_add(struct mlx5_core_dev *dev);
void mlx5_adev_del(struct mlx5_core_dev *dev);
void mlx5_adev_suspend(struct mlx5_core_dev *dev);
void mlx5_adev_resume(struct mlx5_core_dev *dev);
void mlx5_adev_ida_cleanup(void);

/* core/devlink.c */
struct devlink *mlx5_devlink_alloc(struct device *device);
void mlx5_devlink_free(struct devlink *devlink);
int mlx5_devlink_params_register(struct devlink *devlink);
void mlx5_devlink_params_unregister(struct devlink *devlink);
unsigned int mlx5_devlink_num_doorbells(struct mlx5_core_dev *dev);

#endif /* __MLX5_CORE_PRIV_H__ */
