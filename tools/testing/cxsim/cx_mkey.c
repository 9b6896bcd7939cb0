// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cxsim: memory keys (CREATE/DESTROY/QUERY_MKEY, QUERY_SPECIAL_CONTEXTS)
 * and guest memory through them.  PA mkeys and the reserved lkey are
 * identity; MTT and KSM mkeys translate page by page (cx_pas.c walks the
 * entries).  Memory protection as hardware: an access through a key the
 * function does not own (never created, or destroyed), through a free
 * mkey (created free, no UMR has enabled it yet), through a key of
 * another protection domain than the queue's, without the local read or
 * write right the access needs, outside the key's start and length
 * (unless length64), through an entry never written (address 0) or an
 * MTT entry without the access's enable bit (MLX5_EN_RD/WR) fails, and the queue that tried gets a
 * LOCAL_PROT_ERR completion; nothing is read or written.
 */
#include <stdlib.h>

#include "cx_kshim.h"
#include "cx_obj.h"
#include "cx_dp.h"

/* The most MTT entries one mkey may hold (8 MiB of translations). */
#define CX_MKEY_MAX_MTT		(1u << 20)

static void cx_mkey_free_obj(struct cx_mkey *mk)
{
	if (!mk)
		return;
	free(mk->mtt);
	free(mk);
}

struct cx_mkey *cx_mkey_lookup(struct cx_core *c, uint32_t mkey)
{
	struct cx_mkey *mk = cx_tab_get(&c->func.nic->mkey, mkey >> 8);

	return mk && mk->variant == (mkey & 0xff) ? mk : NULL;
}

uint8_t cx_mkey_create(struct cx_cmd *cmd)
{
	struct cx_core *core = cmd->core;
	const void *mkc = MLX5_ADDR_OF(create_mkey_in, cmd->in,
				       memory_key_mkey_entry);
	size_t hdr = MLX5_ST_SZ_BYTES(create_mkey_in);
	uint32_t actual = MLX5_GET(create_mkey_in, cmd->in,
				   translations_octword_actual_size);
	uint32_t octw = MLX5_GET(mkc, mkc, translations_octword_size);
	uint8_t mode = MLX5_GET(mkc, mkc, access_mode_1_0) |
		       MLX5_GET(mkc, mkc, access_mode_4_2) << 2;
	uint32_t pd = MLX5_GET(mkc, mkc, pd);
	const uint8_t *tr = (const uint8_t *)cmd->in + hdr;
	struct cx_mkey *mk;
	uint32_t id, i, n;

	if (MLX5_GET(create_mkey_in, cmd->in, mkey_umem_valid) ||
	    MLX5_GET(create_mkey_in, cmd->in, pg_access))
		return CX_BAD_PARAM(cmd, "umem/pg_access not supported");
	if (mode != MLX5_MKC_ACCESS_MODE_PA && mode != MLX5_MKC_ACCESS_MODE_MTT &&
	    mode != MLX5_MKC_ACCESS_MODE_KSM && mode != MLX5_MKC_ACCESS_MODE_KLMS)
		return CX_BAD_PARAM(cmd, "access mode %u", mode);
	if (!cx_pd_exists(core, pd))
		return CX_BAD_RES(cmd, "pd 0x%x", pd);
	if (octw > CX_MKEY_MAX_MTT / 2 || actual > octw)
		return CX_BAD_PARAM(cmd, "translations %u of %u", actual, octw);
	if (mode == MLX5_MKC_ACCESS_MODE_MTT &&
	    (MLX5_GET(mkc, mkc, log_page_size) < 12 ||
	     MLX5_GET(mkc, mkc, log_page_size) > 30))
		return CX_BAD_PARAM(cmd, "log_page_size %u",
				    MLX5_GET(mkc, mkc, log_page_size));
	if (cmd->inlen < hdr || (cmd->inlen - hdr) / 16 < actual)
		return CX_BAD_PARAM(cmd, "input shorter than its translations");
	if (MLX5_GET(mkc, mkc, bsf_en))
		return CX_BAD_PARAM(cmd, "signature not supported");

	mk = calloc(1, sizeof(*mk));
	n = octw * 2;
	if (mk && n)
		mk->mtt = calloc(n, sizeof(*mk->mtt));
	if (!mk || (n && !mk->mtt)) {
		cx_mkey_free_obj(mk);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_NO_RES_ERR;
	}
	mk->nmtt = n;
	for (i = 0; i < actual * 2 && i < n; i++)
		mk->mtt[i] = cx_get_be64(tr + 8 * i);
	mk->variant = MLX5_GET(mkc, mkc, mkey_7_0);
	mk->free = MLX5_GET(mkc, mkc, free);
	mk->umr_en = MLX5_GET(mkc, mkc, umr_en);
	mk->access_mode = mode;
	mk->access = MLX5_GET(mkc, mkc, a) << 4 | MLX5_GET(mkc, mkc, rw) << 3 |
		     MLX5_GET(mkc, mkc, rr) << 2 | MLX5_GET(mkc, mkc, lw) << 1 |
		     MLX5_GET(mkc, mkc, lr);
	mk->length64 = MLX5_GET(mkc, mkc, length64);
	mk->pd = pd;
	mk->qpn = MLX5_GET(mkc, mkc, qpn);
	mk->start = MLX5_GET64(mkc, mkc, start_addr);
	mk->len = MLX5_GET64(mkc, mkc, len);
	mk->log_page_size = MLX5_GET(mkc, mkc, log_page_size);
	mk->octwords = octw;
	if (cx_tab_add(core, &core->func.nic->mkey, mk, &id)) {
		cx_mkey_free_obj(mk);
		cmd->syndrome = CX_SYND_NO_RES;
		return MLX5_CMD_STAT_LIM_ERR;
	}
	mk->index = id;
	MLX5_SET(create_mkey_out, cmd->out, mkey_index, id);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_mkey_destroy(struct cx_cmd *cmd)
{
	uint32_t idx = MLX5_GET(destroy_mkey_in, cmd->in, mkey_index);
	struct cx_mkey *mk = cx_tab_del(cmd->core, &cmd->core->func.nic->mkey,
					idx);

	if (!mk)
		return CX_BAD_RES(cmd, "mkey index 0x%x", idx);
	cx_mkey_free_obj(mk);
	return MLX5_CMD_STAT_OK;
}

uint8_t cx_mkey_query(struct cx_cmd *cmd)
{
	uint32_t idx = MLX5_GET(query_mkey_in, cmd->in, mkey_index);
	struct cx_mkey *mk = cx_tab_get(&cmd->core->func.nic->mkey, idx);
	void *mkc = MLX5_ADDR_OF(query_mkey_out, cmd->out,
				 memory_key_mkey_entry);

	if (!mk)
		return CX_BAD_RES(cmd, "mkey index 0x%x", idx);
	MLX5_SET(mkc, mkc, free, mk->free);
	MLX5_SET(mkc, mkc, umr_en, mk->umr_en);
	MLX5_SET(mkc, mkc, access_mode_1_0, mk->access_mode & 3);
	MLX5_SET(mkc, mkc, access_mode_4_2, mk->access_mode >> 2);
	MLX5_SET(mkc, mkc, a, mk->access >> 4 & 1);
	MLX5_SET(mkc, mkc, rw, mk->access >> 3 & 1);
	MLX5_SET(mkc, mkc, rr, mk->access >> 2 & 1);
	MLX5_SET(mkc, mkc, lw, mk->access >> 1 & 1);
	MLX5_SET(mkc, mkc, lr, mk->access & 1);
	MLX5_SET(mkc, mkc, qpn, mk->qpn);
	MLX5_SET(mkc, mkc, mkey_7_0, mk->variant);
	MLX5_SET(mkc, mkc, length64, mk->length64);
	MLX5_SET(mkc, mkc, pd, mk->pd);
	MLX5_SET64(mkc, mkc, start_addr, mk->start);
	MLX5_SET64(mkc, mkc, len, mk->len);
	MLX5_SET(mkc, mkc, translations_octword_size, mk->octwords);
	MLX5_SET(mkc, mkc, log_page_size, mk->log_page_size);
	return MLX5_CMD_STAT_OK;
}

/*
 * Special mkeys.  None of the capabilities that announce them
 * (dump_fill_mkey, null_mkey, terminate_scatter_list_mkey,
 * repeated_mkey) is set; the reserved lkey is what every device has.
 */
#define CX_RESD_LKEY	0x100

uint8_t cx_query_special_contexts(struct cx_cmd *cmd)
{
	MLX5_SET(query_special_contexts_out, cmd->out, resd_lkey,
		 CX_RESD_LKEY);
	return MLX5_CMD_STAT_OK;
}

/* ---- guest memory through mkeys ---------------------------------------- */

/* Bits of cx_mkey.access. */
#define CX_MKEY_LR	0x1	/* local read */
#define CX_MKEY_LW	0x2	/* local write */

/* May a queue of @pd access [@addr, @addr + @len) through @mk? */
static bool cx_mkey_allows(const struct cx_mkey *mk, uint32_t pd,
			   uint64_t addr, size_t len, bool write)
{
	if (mk->pd != pd)
		return false;	/* another protection domain's key */
	if (!(mk->access & (write ? CX_MKEY_LW : CX_MKEY_LR)))
		return false;
	if (mk->length64)
		return true;
	return addr >= mk->start && len <= mk->len &&
	       addr - mk->start <= mk->len - len;
}

int cx_mkey_dma(struct cx_core *core, uint32_t pd, uint32_t lkey,
		uint64_t addr, void *buf, size_t len, bool write)
{
	struct cx_mkey *mk = core->func.nic ? cx_mkey_lookup(core, lkey) : NULL;
	uint8_t *p = buf;

	if (!mk && lkey != CX_RESD_LKEY)
		return -1;	/* unknown or destroyed key */
	if (mk && (mk->free || !cx_mkey_allows(mk, pd, addr, len, write)))
		return -1;
	if (!mk || mk->access_mode == MLX5_MKC_ACCESS_MODE_PA)
		return write ? cx_dma_write(core, addr, buf, len) :
			       cx_dma_read(core, addr, buf, len);
	while (len) {
		uint64_t pa, room;
		size_t n;
		int r;

		if (cx_mtt_xlate(mk->access_mode, mk->mtt, mk->nmtt, mk->start,
				 mk->log_page_size, addr, write, &pa, &room))
			return -1;
		n = len < room ? len : (size_t)room;
		r = write ? cx_dma_write(core, pa, p, n) :
			    cx_dma_read(core, pa, p, n);
		if (r)
			return -1;
		p += n;
		addr += n;
		len -= n;
	}
	return 0;
}

static void cx_free_mkey(struct cx_core *c, void *o)
{
	(void)c;
	cx_mkey_free_obj(o);
}

void cx_mkey_release_all(struct cx_core *core)
{
	cx_tab_clear(core, &core->func.nic->mkey, cx_free_mkey);
}
