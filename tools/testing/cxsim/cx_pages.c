// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: firmware pages.  The device asks for a few pages at boot and at
 * init (QUERY_PAGES) and at run time by a PAGE_REQUEST event; the driver
 * gives them (MANAGE_PAGES give) and takes them back (MANAGE_PAGES take).
 * The model only records the addresses: it never touches the pages.
 */
#include <string.h>

#include "cx_kshim.h"
#include "cx_priv.h"

enum {
	CX_QUERY_PAGES_BOOT	= 1,
	CX_QUERY_PAGES_INIT	= 2,
	CX_QUERY_PAGES_REGULAR	= 3,
	CX_MANAGE_ALLOC_FAIL	= 0,
	CX_MANAGE_GIVE		= 1,
	CX_MANAGE_TAKE		= 2,
};

void cx_pages_release_all(struct cx_core *core)
{
	core->func.npages = 0;
}

uint8_t cx_pages_query(struct cx_cmd *cmd)
{
	int32_t n;

	switch (cmd->op_mod) {
	case CX_QUERY_PAGES_BOOT:
		n = CX_BOOT_PAGES;
		break;
	case CX_QUERY_PAGES_INIT:
		n = cmd->core->faults.init_pages;
		if (!n)
			n = CX_INIT_PAGES;
		break;
	case CX_QUERY_PAGES_REGULAR:
		n = 0;
		break;
	default:
		cmd->syndrome = CX_SYND_BAD_PARAM;
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	}
	MLX5_SET(query_pages_out, cmd->out, function_id, 0);
	MLX5_SET(query_pages_out, cmd->out, num_pages, (uint32_t)n);
	return MLX5_CMD_STAT_OK;
}

static int cx_page_held(const struct cx_func *f, uint64_t addr)
{
	uint32_t i;

	for (i = 0; i < f->npages; i++)
		if (f->pages[i] == addr)
			return 1;
	return 0;
}

static uint8_t cx_pages_give(struct cx_cmd *cmd, uint32_t n)
{
	struct cx_func *f = &cmd->core->func;
	size_t need = MLX5_ST_SZ_BYTES(manage_pages_in) + (size_t)n * 8;
	const uint8_t *pas = MLX5_ADDR_OF(manage_pages_in, cmd->in, pas);
	uint32_t i, j;

	if (cmd->inlen < need) {
		cmd->syndrome = CX_SYND_INLEN;
		return MLX5_CMD_STAT_BAD_INP_LEN_ERR;
	}
	if (n > CX_MAX_PAGES - f->npages) {
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	}
	/* All or nothing: check every address first. */
	for (i = 0; i < n; i++) {
		uint64_t addr = cx_get_be64(pas + 8 * i);

		if ((addr & (CX_PAGE_SIZE - 1)) || cx_page_held(f, addr))
			goto bad;
		for (j = 0; j < i; j++)
			if (cx_get_be64(pas + 8 * j) == addr)
				goto bad;
	}
	for (i = 0; i < n; i++)
		f->pages[f->npages++] = cx_get_be64(pas + 8 * i);
	return MLX5_CMD_STAT_OK;
bad:
	cx_model_error(cmd->core, CX_MERR_PAGES_BAD_GIVE,
		       "cxsim: MANAGE_PAGES give: page %u unaligned or given twice\n",
		       i);
	cmd->syndrome = CX_SYND_BAD_PARAM;
	return MLX5_CMD_STAT_BAD_PARAM_ERR;
}

static uint8_t cx_pages_take(struct cx_cmd *cmd, uint32_t n)
{
	struct cx_faults *faults = &cmd->core->faults;
	struct cx_func *f = &cmd->core->func;
	size_t room = (cmd->outlen - MLX5_ST_SZ_BYTES(manage_pages_out)) / 8;
	uint8_t *pas = MLX5_ADDR_OF(manage_pages_out, cmd->out, pas);
	uint32_t i;

	if (n > room)
		n = room;
	if (n > f->npages)
		n = f->npages;
	for (i = 0; i < n; i++) {
		uint64_t addr;

		if (faults->page_bogus && f->npages) {
			/* Never given; the page stays for a later take. */
			addr = f->pages[f->npages - 1] ^ CX_PAGE_BOGUS_BIT;
			faults->page_bogus--;
			cmd->core->stats.pages_bogus_returns++;
		} else {
			addr = f->pages[--f->npages];
			if (faults->page_offset) {
				addr += faults->page_offset;
				cmd->core->stats.pages_offset_returns++;
			}
		}
		cx_put_be64(pas + 8 * i, addr);
	}
	MLX5_SET(manage_pages_out, cmd->out, output_num_entries, n);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_pages_manage(struct cx_cmd *cmd)
{
	uint32_t n = MLX5_GET(manage_pages_in, cmd->in, input_num_entries);

	if (MLX5_GET(manage_pages_in, cmd->in, function_id)) {
		cmd->syndrome = CX_SYND_BAD_PARAM;
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	}
	switch (cmd->op_mod) {
	case CX_MANAGE_ALLOC_FAIL:
		return MLX5_CMD_STAT_OK;
	case CX_MANAGE_GIVE:
		return cx_pages_give(cmd, n);
	case CX_MANAGE_TAKE:
		return cx_pages_take(cmd, n);
	default:
		cmd->syndrome = CX_SYND_BAD_PARAM;
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	}
}

/* A PAGE_REQUEST event: give (@npages > 0) or take back (< 0) pages. */
int cx_page_request(struct cx_core *core, int32_t npages)
{
	struct mlx5_eqe eqe;

	memset(&eqe, 0, sizeof(eqe));
	eqe.type = MLX5_EVENT_TYPE_PAGE_REQUEST;
	eqe.data.req_pages.func_id = cpu_to_be16(0);
	eqe.data.req_pages.num_pages = cpu_to_be32((uint32_t)npages);
	return cx_eq_event(core, MLX5_EVENT_TYPE_PAGE_REQUEST, &eqe);
}
