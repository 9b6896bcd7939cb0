// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: the initialization segment at the start of BAR0.
 *
 * Layout is the kernel's struct mlx5_init_seg; every register is a
 * big-endian dword.  Register values here are in host order, as the
 * driver's ioread32be() sees them; cx_core.c does the byte ordering.
 */
#include "cx_kshim.h"
#include "cx_priv.h"

#define ISEG_OFF(field)		offsetof(struct mlx5_init_seg, field)

#define CX_INITIALIZING_BIT	31
#define CX_NIC_IFC_MASK		0x7u
#define CX_CMDQ_ADDR_L_MASK	0xfffff000u
#define NSEC_PER_SEC		1000000000ULL
/*
 * After the command queue address is written the firmware initializes
 * again before it takes commands (the PRM start-up sequence).
 */
#define CX_CMDQ_INIT_NS		10000000ULL
#define CX_RFR_BIT		7

int cx_iseg_contains(uint64_t off)
{
	return off < sizeof(struct mlx5_init_seg);
}

void cx_iseg_reset(struct cx_core *core)
{
	struct cx_iseg_state *s = &core->iseg;

	s->reset_ns = cx_now(core);
	s->cmdq_addr_h = 0;
	s->cmdq_addr_l = 0;
	s->nic_ifc = MLX5_INITIAL_SEG_NIC_INTERFACE_FULL_DRIVER;
	s->health_frozen = false;
	s->health_synd = 0;
	s->health_rfr = false;
	s->cmdq_write_ns = 0;
}

static uint64_t cx_iseg_uptime(struct cx_core *core)
{
	uint64_t now = cx_now(core);

	/* A clock that steps back must not make the device re-initialize. */
	return now > core->iseg.reset_ns ? now - core->iseg.reset_ns : 0;
}

static uint32_t cx_iseg_initializing(struct cx_core *core)
{
	uint64_t now = cx_now(core);

	if (cx_iseg_uptime(core) < core->params.init_delay_ns)
		return 1u << CX_INITIALIZING_BIT;
	if (core->iseg.cmdq_write_ns && now >= core->iseg.cmdq_write_ns &&
	    now - core->iseg.cmdq_write_ns < CX_CMDQ_INIT_NS)
		return 1u << CX_INITIALIZING_BIT;
	return 0;
}

/* The firmware takes no command yet (cx_cmd.c drops the doorbell). */
bool cx_iseg_busy(struct cx_core *core)
{
	return cx_iseg_initializing(core) != 0;
}

static uint32_t cx_iseg_cmdq_addr_l_sz(struct cx_core *core)
{
	const struct cx_iseg_state *s = &core->iseg;

	return s->cmdq_addr_l |
	       (uint32_t)(s->nic_ifc & CX_NIC_IFC_MASK) << MLX5_NIC_IFC_OFFSET |
	       CX_CMDQ_LOG_SZ << 4 | CX_CMDQ_LOG_STRIDE;
}

static uint32_t cx_iseg_health_counter(struct cx_core *core)
{
	if (core->iseg.health_frozen || (core->fw_dead & CX_TP_FW_DEAD_ON))
		return core->iseg.health_frozen_value;
	return (uint32_t)(cx_iseg_uptime(core) / CX_HEALTH_TICK_NS);
}

/*
 * Stop the health counter, as firmware that hangs does; it runs again when
 * the firmware restarts (the function is disabled and enabled, or reset).
 */
void cx_iseg_health_freeze(struct cx_core *core, bool on)
{
	if (on && !core->iseg.health_frozen)
		core->iseg.health_frozen_value = cx_iseg_health_counter(core);
	core->iseg.health_frozen = on;
}

/* The test port's firmware-dead switch (CX_TP_FW_DEAD_*). */
void cx_iseg_fw_dead(struct cx_core *core, uint32_t val)
{
	val &= CX_TP_FW_DEAD_ON | CX_TP_FW_DEAD_ALL_ONES | CX_TP_FW_MUTE;
	/* The counter stops where it is. */
	if ((val & CX_TP_FW_DEAD_ON) && !(core->fw_dead & CX_TP_FW_DEAD_ON) &&
	    !core->iseg.health_frozen)
		core->iseg.health_frozen_value = cx_iseg_health_counter(core);
	core->fw_dead = val;
}

/* The dword holding the health syndrome byte, big-endian. */
static uint32_t cx_iseg_health_synd_dword(struct cx_core *core)
{
	unsigned int lane = ISEG_OFF(health.synd) & 3;
	uint8_t synd = core->iseg.health_synd;

	if (core->fw_dead & CX_TP_FW_DEAD_ON)
		synd = MLX5_INITIAL_SEG_HEALTH_SYNDROME_DEAD_IRISC;
	return (uint32_t)synd << (24 - 8 * lane);
}

/* rfr_severity: the reset-request bit of a fatal syndrome. */
static uint32_t cx_iseg_rfr_dword(struct cx_core *core)
{
	unsigned int lane = ISEG_OFF(health.rfr_severity) & 3;
	bool rfr = core->iseg.health_rfr || (core->fw_dead & CX_TP_FW_DEAD_ON);

	return (uint32_t)(rfr ? 1u << CX_RFR_BIT : 0) << (24 - 8 * lane);
}

uint32_t cx_iseg_read32(struct cx_core *core, uint64_t off)
{
	const struct cx_params *p = &core->params;
	uint64_t now;

	/* Fallen off the bus: every read completes with all ones. */
	if ((core->fw_dead & (CX_TP_FW_DEAD_ON | CX_TP_FW_DEAD_ALL_ONES)) ==
	    (CX_TP_FW_DEAD_ON | CX_TP_FW_DEAD_ALL_ONES))
		return 0xffffffffu;
	switch (off) {
	case ISEG_OFF(fw_rev):
		return (uint32_t)p->fw_minor << 16 | p->fw_major;
	case ISEG_OFF(cmdif_rev_fw_sub):
		return (uint32_t)CX_CMDIF_REV << 16 | p->fw_subminor;
	case ISEG_OFF(cmdq_addr_h):
		return core->iseg.cmdq_addr_h;
	case ISEG_OFF(cmdq_addr_l_sz):
		return cx_iseg_cmdq_addr_l_sz(core);
	case ISEG_OFF(initializing):
		return cx_iseg_initializing(core);
	case ISEG_OFF(internal_timer_h):
		return (uint32_t)(cx_now(core) >> 32);
	case ISEG_OFF(internal_timer_l):
		return (uint32_t)cx_now(core);
	case ISEG_OFF(real_time_h):
		return (uint32_t)(cx_now(core) / NSEC_PER_SEC);
	case ISEG_OFF(real_time_l):
		now = cx_now(core);
		return (uint32_t)(now % NSEC_PER_SEC);
	case ISEG_OFF(health_counter):
		return cx_iseg_health_counter(core);
	case ISEG_OFF(health.synd) & ~3ul:
		return cx_iseg_health_synd_dword(core);
	case ISEG_OFF(health.rfr_severity) & ~3ul:
		return cx_iseg_rfr_dword(core);
	case ISEG_OFF(cmd_q_init_to):
		return CX_ISEG_TO_S << CX_ISEG_TO_UNIT_SHIFT | CX_FW_INIT_TO_S;
	case ISEG_OFF(cmd_exec_to):
		if (core->faults.cmd_timeout_ms)
			return CX_ISEG_TO_MS << CX_ISEG_TO_UNIT_SHIFT |
			       (core->faults.cmd_timeout_ms & 0xfffff);
		return CX_ISEG_TO_S << CX_ISEG_TO_UNIT_SHIFT | CX_CMD_EXEC_TO_S;
	default:
		/* Health buffer (no syndrome), timeouts, reserved words. */
		return 0;
	}
}

static void cx_iseg_write_cmdq_addr_l_sz(struct cx_core *core, uint32_t val)
{
	core->iseg.cmdq_addr_l = val & CX_CMDQ_ADDR_L_MASK;
	core->iseg.nic_ifc = (val >> MLX5_NIC_IFC_OFFSET) & CX_NIC_IFC_MASK;
	/*
	 * A new queue: the firmware initializes again (cx_core.c drops the
	 * commands still delayed on the old one).
	 */
	core->iseg.cmdq_write_ns = cx_now(core);
	if (!core->iseg.cmdq_write_ns)
		core->iseg.cmdq_write_ns = 1;
}

void cx_iseg_write32(struct cx_core *core, uint64_t off, uint32_t val)
{
	switch (off) {
	case ISEG_OFF(cmdq_addr_h):
		core->iseg.cmdq_addr_h = val;
		break;
	case ISEG_OFF(cmdq_addr_l_sz):
		cx_iseg_write_cmdq_addr_l_sz(core, val);
		break;
	default:
		/* Read-only or reserved: ignored, as on hardware. */
		break;
	}
}
