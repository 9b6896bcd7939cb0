// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Command interface tests, included by test_core.c.  A small fake driver
 * builds command entries and mailbox chains in the fake guest memory the
 * way mlx5 drivers do, rings the doorbell and reads the output back.
 */

/* Fake guest memory map. */
#define CMDQ_ADDR	0x1000ULL
#define CMDQ_ADDR2	0x4000ULL	/* a second queue, as after a reload */
#define MBOX_BASE	0x10000ULL	/* mailboxes, 1 KiB each */
#define MBOX_END	0x200000ULL
#define EQ_BASE		0x200000ULL	/* EQ buffers */
#define PAGE_BASE	0x300000ULL	/* "firmware pages" */

static uint64_t mbox_next;
static uint8_t cmd_token;

static void *gmem(uint64_t addr)
{
	return fh.mem + addr;
}

static uint64_t mbox_alloc(void)
{
	uint64_t a = mbox_next;

	mbox_next += 1024;
	if (mbox_next > MBOX_END)
		abort();
	memset(gmem(a), 0, 1024);
	return a;
}

/* A chain for @len bytes; data copied from @src when not NULL. */
static uint64_t build_chain(const uint8_t *src, size_t len, uint8_t token)
{
	uint64_t head = 0, prev = 0;
	unsigned int n = 0;

	while (len) {
		size_t chunk = len < 512 ? len : 512;
		uint64_t a = mbox_alloc();
		struct mlx5_cmd_prot_block *b = gmem(a);

		b->block_num = cpu_to_be32(n++);
		b->token = token;
		if (src) {
			memcpy(b->data, src, chunk);
			src += chunk;
		}
		if (prev)
			((struct mlx5_cmd_prot_block *)gmem(prev))->next =
				cpu_to_be64(a);
		else
			head = a;
		prev = a;
		len -= chunk;
	}
	return head;
}

static struct mlx5_cmd_layout *entry(unsigned int idx)
{
	return gmem(CMDQ_ADDR + idx * 64);
}

/* Post @in on entry @idx, without ringing. */
static void post_cmd(unsigned int idx, const void *in, size_t inlen,
		     size_t outlen)
{
	struct mlx5_cmd_layout *e = entry(idx);

	mbox_next = MBOX_BASE + idx * 0x8000 * 0;
	if (idx)
		mbox_next = MBOX_END - 0x10000;	/* a spare area */
	cmd_token++;
	memset(e, 0, sizeof(*e));
	e->type = 7;
	e->inlen = cpu_to_be32(inlen);
	e->outlen = cpu_to_be32(outlen);
	e->token = cmd_token;
	memcpy(e->in, in, inlen < 16 ? inlen : 16);
	if (inlen > 16)
		e->in_ptr = cpu_to_be64(build_chain((const uint8_t *)in + 16,
						    inlen - 16, cmd_token));
	if (outlen > 16)
		e->out_ptr = cpu_to_be64(build_chain(NULL, outlen - 16,
						     cmd_token));
	e->status_own = 1;
}

static void read_out(unsigned int idx, void *out, size_t outlen)
{
	struct mlx5_cmd_layout *e = entry(idx);
	uint64_t p = be64_to_cpu(e->out_ptr);
	uint8_t *o = out;

	memcpy(o, e->out, outlen < 16 ? outlen : 16);
	o += 16;
	outlen = outlen > 16 ? outlen - 16 : 0;
	while (outlen && p) {
		struct mlx5_cmd_prot_block *b = gmem(p);
		size_t chunk = outlen < 512 ? outlen : 512;

		memcpy(o, b->data, chunk);
		o += chunk;
		outlen -= chunk;
		p = be64_to_cpu(b->next);
	}
}

/* Run one command on entry 0; returns the delivery status, or -1 if HW owns. */
static int exec_cmd(const void *in, size_t inlen, void *out, size_t outlen)
{
	uint8_t own;

	post_cmd(0, in, inlen, outlen);
	wr32be(ISEG(cmd_dbell), 1);
	own = entry(0)->status_own;
	if (own & 1)
		return -1;
	memset(out, 0, outlen);
	read_out(0, out, outlen);
	return own >> 1;
}

/* Status of a command, or 0x100 + delivery status. */
static int cmd_status(const void *in, size_t inlen, void *out, size_t outlen)
{
	int ds = exec_cmd(in, inlen, out, outlen);

	if (ds)
		return 0x100 + ds;
	return MLX5_GET(nop_out, out, status);
}

#define EXEC(lay, in, out) cmd_status(in, sizeof(in), out, sizeof(out))

/* A command with 512-byte input and output, all zero but the header. */
static int simple_cmd(uint16_t opcode, uint16_t op_mod)
{
	uint32_t in[128] = { 0 }, out[128];

	MLX5_SET(nop_in, in, opcode, opcode);
	MLX5_SET(nop_in, in, op_mod, op_mod);
	return cmd_status(in, sizeof(in), out, sizeof(out));
}

static void start_dev(void)
{
	setup();
	fh.now += 100 * MS;
	wr32be(ISEG(cmdq_addr_h), 0);
	wr32be(ISEG(cmdq_addr_l_sz), (uint32_t)CMDQ_ADDR);
	/* The firmware initializes again after the address write. */
	fh.now += 20 * MS;
	mbox_next = MBOX_BASE;
}

static int query_pages(int op_mod, int32_t *n)
{
	uint32_t in[MLX5_ST_SZ_DW(query_pages_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_pages_out)];
	int st;

	MLX5_SET(query_pages_in, in, opcode, MLX5_CMD_OP_QUERY_PAGES);
	MLX5_SET(query_pages_in, in, op_mod, op_mod);
	st = EXEC(query_pages, in, out);
	*n = (int32_t)MLX5_GET(query_pages_out, out, num_pages);
	return st;
}

static uint64_t next_page = PAGE_BASE;

static int give_pages_at(const uint64_t *addrs, int n)
{
	size_t inlen = MLX5_ST_SZ_BYTES(manage_pages_in) + n * 8;
	uint32_t *in = calloc(1, inlen);
	uint32_t out[MLX5_ST_SZ_DW(manage_pages_out)];
	int i, st;

	MLX5_SET(manage_pages_in, in, opcode, MLX5_CMD_OP_MANAGE_PAGES);
	MLX5_SET(manage_pages_in, in, op_mod, 1);
	MLX5_SET(manage_pages_in, in, input_num_entries, n);
	for (i = 0; i < n; i++)
		MLX5_ARRAY_SET64(manage_pages_in, in, pas, i, addrs[i]);
	st = cmd_status(in, inlen, out, sizeof(out));
	free(in);
	return st;
}

static int give_pages(int n)
{
	uint64_t *a = calloc(n, 8);
	int i, st;

	for (i = 0; i < n; i++) {
		a[i] = next_page;
		next_page += 4096;
	}
	st = give_pages_at(a, n);
	free(a);
	return st;
}

/* Take up to @n pages back; returns how many, or -status. */
static int take_pages(int n, uint64_t *first)
{
	uint32_t in[MLX5_ST_SZ_DW(manage_pages_in)] = { 0 };
	size_t outlen = MLX5_ST_SZ_BYTES(manage_pages_out) + n * 8;
	uint32_t *out = calloc(1, outlen);
	int st, got;

	MLX5_SET(manage_pages_in, in, opcode, MLX5_CMD_OP_MANAGE_PAGES);
	MLX5_SET(manage_pages_in, in, op_mod, 2);
	MLX5_SET(manage_pages_in, in, input_num_entries, n);
	st = cmd_status(in, sizeof(in), out, outlen);
	got = st ? -st : (int)MLX5_GET(manage_pages_out, out, output_num_entries);
	if (first && got > 0)
		*first = MLX5_GET64(manage_pages_out, out, pas[0]);
	free(out);
	return got;
}

static uint32_t cap_out[MLX5_ST_SZ_DW(query_hca_cap_out)];

static int query_cap(int type, int cur)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = { 0 };

	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod, type << 1 | cur);
	return EXEC(query_hca_cap, in, cap_out);
}

#define CAP(lay, f)	MLX5_GET(lay, MLX5_ADDR_OF(query_hca_cap_out, \
				 cap_out, capability), f)

static int alloc_uar(uint32_t *idx)
{
	uint32_t in[MLX5_ST_SZ_DW(alloc_uar_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(alloc_uar_out)];
	int st;

	MLX5_SET(alloc_uar_in, in, opcode, MLX5_CMD_OP_ALLOC_UAR);
	st = EXEC(alloc_uar, in, out);
	*idx = MLX5_GET(alloc_uar_out, out, uar);
	return st;
}

static int dealloc_uar(uint32_t idx)
{
	uint32_t in[MLX5_ST_SZ_DW(dealloc_uar_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(dealloc_uar_out)];

	MLX5_SET(dealloc_uar_in, in, opcode, MLX5_CMD_OP_DEALLOC_UAR);
	MLX5_SET(dealloc_uar_in, in, uar, idx);
	return EXEC(dealloc_uar, in, out);
}

/* Create an EQ of 2^@log_nent entries at @buf, owner bits 1. */
static int create_eq(uint64_t buf, int log_nent, uint32_t uar, int vec,
		     uint64_t events0, uint32_t *eqn)
{
	int npages = ((64 << log_nent) + 4095) / 4096;
	size_t inlen = MLX5_ST_SZ_BYTES(create_eq_in) + npages * 8;
	uint32_t *in = calloc(1, inlen);
	uint32_t out[MLX5_ST_SZ_DW(create_eq_out)];
	void *eqc = MLX5_ADDR_OF(create_eq_in, in, eq_context_entry);
	int i, st;

	for (i = 0; log_nent <= 12 && i < (1 << log_nent); i++)
		((struct mlx5_eqe *)gmem(buf))[i].owner = 1;
	MLX5_SET(create_eq_in, in, opcode, MLX5_CMD_OP_CREATE_EQ);
	MLX5_SET(eqc, eqc, log_eq_size, log_nent);
	MLX5_SET(eqc, eqc, uar_page, uar);
	MLX5_SET(eqc, eqc, intr, vec);
	for (i = 0; i < npages; i++)
		MLX5_ARRAY_SET64(create_eq_in, in, pas, i, buf + i * 4096);
	MLX5_ARRAY_SET64(create_eq_in, in, event_bitmask, 0, events0);
	st = cmd_status(in, inlen, out, sizeof(out));
	*eqn = MLX5_GET(create_eq_out, out, eq_number);
	free(in);
	return st;
}

static int destroy_eq(uint32_t eqn)
{
	uint32_t in[MLX5_ST_SZ_DW(destroy_eq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(destroy_eq_out)];

	MLX5_SET(destroy_eq_in, in, opcode, MLX5_CMD_OP_DESTROY_EQ);
	MLX5_SET(destroy_eq_in, in, eq_number, eqn);
	return EXEC(destroy_eq, in, out);
}

static void eq_doorbell(uint32_t uar, uint32_t eqn, uint32_t ci, int arm)
{
	wr32be((uint64_t)uar * 4096 + (arm ? 0x40 : 0x48),
	       eqn << 24 | (ci & 0xffffff));
}

static int tp_rd(uint64_t off)
{
	return (int)cx_core_testport_read(&core, off, 4);
}

static void tp_wr(uint64_t off, uint32_t v)
{
	cx_core_testport_write(&core, off, v, 4);
}

/* The value of "key" in a fresh report, or -1. */
static long report_val(const char *key)
{
	char line[128];
	size_t klen = strlen(key);
	const char *p;
	unsigned int i;

	tp_wr(CX_TP_SNAPSHOT, 1);
	for (i = 0; i < CX_TP_REPORT_SIZE; i++)
		if (!(char)cx_core_testport_read(&core, CX_TP_REPORT + i, 1))
			break;
	p = core.report;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n < sizeof(line)) {
			memcpy(line, p, n);
			line[n] = 0;
			if (!strncmp(line, key, klen) && line[klen] == ' ')
				return strtol(line + klen + 1, NULL, 0);
		}
		p += n + (nl ? 1 : 0);
	}
	return -1;
}

#define OKA(x)	do { if (!(x)) { ok_all = 0; \
		fprintf(stderr, "# bring_up: line %d failed\n", __LINE__); } } while (0)

/* Driver bring-up to INIT_HCA, like mlx5_function_setup(). */
static int bring_up(void)
{
	uint32_t in[MLX5_ST_SZ_DW(set_hca_cap_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(set_hca_cap_out)];
	int32_t n;
	int ok_all = 1;

	OKA(simple_cmd(MLX5_CMD_OP_ENABLE_HCA, 0) == 0);
	OKA(simple_cmd(MLX5_CMD_OP_QUERY_ISSI, 0) == 0);
	{
		uint32_t qi[MLX5_ST_SZ_DW(query_issi_in)] = { 0 };
		uint32_t qo[MLX5_ST_SZ_DW(query_issi_out)];

		MLX5_SET(query_issi_in, qi, opcode, MLX5_CMD_OP_QUERY_ISSI);
		OKA(EXEC(query_issi, qi, qo) == 0 &&
			  MLX5_GET(query_issi_out, qo, supported_issi_dw0) == 3);
	}
	{
		uint32_t si[MLX5_ST_SZ_DW(set_issi_in)] = { 0 };
		uint32_t so[MLX5_ST_SZ_DW(set_issi_out)];

		MLX5_SET(set_issi_in, si, opcode, MLX5_CMD_OP_SET_ISSI);
		MLX5_SET(set_issi_in, si, current_issi, 1);
		OKA(EXEC(set_issi, si, so) == 0);
	}
	OKA(query_pages(1, &n) == 0 && n == CX_BOOT_PAGES);
	OKA(give_pages(n) == 0);
	OKA(query_cap(MLX5_CAP_GENERAL, 0) == 0);
	OKA(query_cap(MLX5_CAP_GENERAL, 1) == 0);
	memcpy(MLX5_ADDR_OF(set_hca_cap_in, in, capability),
	       MLX5_ADDR_OF(query_hca_cap_out, cap_out, capability), 4096);
	MLX5_SET(set_hca_cap_in, in, opcode, MLX5_CMD_OP_SET_HCA_CAP);
	MLX5_SET(set_hca_cap_in, in, op_mod, 0);
	MLX5_SET(cmd_hca_cap, MLX5_ADDR_OF(set_hca_cap_in, in, capability),
		 uar_4k, 1);
	MLX5_SET(cmd_hca_cap, MLX5_ADDR_OF(set_hca_cap_in, in, capability),
		 roce, 1);	/* not supported: stays 0 */
	OKA(EXEC(set_hca_cap, in, out) == 0);
	OKA(query_pages(2, &n) == 0 && n == CX_INIT_PAGES);
	OKA(give_pages(n) == 0);
	OKA(simple_cmd(MLX5_CMD_OP_INIT_HCA, 0) == 0);
	return ok_all;
}

static void test_bringup_teardown(void)
{
	uint32_t uar, uars[4], eqn, ceqn, i;
	struct mlx5_eqe *eqe;
	uint32_t qa_in[MLX5_ST_SZ_DW(query_adapter_in)] = { 0 };
	uint32_t qa_out[MLX5_ST_SZ_DW(query_adapter_out)];
	int got, total = 0, ok_all;

	start_dev();
	ok(bring_up(), "bring-up to INIT_HCA answers every command OK");
	ok(core.func.state == CX_HCA_INITIALISED &&
	   core.func.npages == CX_BOOT_PAGES + CX_INIT_PAGES,
	   "initialised, holding boot + init pages");

	ok(query_cap(MLX5_CAP_GENERAL, 1) == 0 &&
	   CAP(cmd_hca_cap, port_type) == MLX5_CAP_PORT_TYPE_ETH &&
	   CAP(cmd_hca_cap, num_ports) == 1 &&
	   CAP(cmd_hca_cap, log_max_eq) == 6 &&
	   CAP(cmd_hca_cap, striding_rq) == 1 &&
	   CAP(cmd_hca_cap, uar_4k) == 1 && CAP(cmd_hca_cap, roce) == 0 &&
	   CAP(cmd_hca_cap, vport_group_manager) == 0,
	   "general caps (cur): Ethernet CX5, uar_4k set, roce refused");
	ok(query_cap(MLX5_CAP_ETHERNET_OFFLOADS, 1) == 0 &&
	   CAP(per_protocol_networking_offload_caps,
	       enhanced_multi_pkt_send_wqe) == 1 &&
	   CAP(per_protocol_networking_offload_caps, csum_cap) == 1 &&
	   CAP(per_protocol_networking_offload_caps, wqe_vlan_insert) == 1 &&
	   CAP(per_protocol_networking_offload_caps, wqe_inline_mode) == 2,
	   "ethernet caps: enhanced MPWQE, csum, VLAN insertion, no inline required");
	core.params.vlan_insert = false;
	core.params.min_inline = MLX5_INLINE_MODE_IP;
	ok(query_cap(MLX5_CAP_ETHERNET_OFFLOADS, 1) == 0 &&
	   CAP(per_protocol_networking_offload_caps, wqe_vlan_insert) == 0 &&
	   CAP(per_protocol_networking_offload_caps, wqe_inline_mode) == 1,
	   "vlan_insert=off, inline=ip: no VLAN insertion, inline mode from the vport");
	core.params.vlan_insert = true;
	core.params.min_inline = MLX5_INLINE_MODE_NONE;
	ok(query_cap(MLX5_CAP_FLOW_TABLE, 0) == 0 &&
	   CAP(flow_table_nic_cap,
	       flow_table_properties_nic_receive.ft_support) == 1,
	   "flow table caps: NIC RX tables");
	ok(query_cap(MLX5_CAP_GENERAL_2, 0) == 0, "general_2 caps answer");
	ok(query_cap(MLX5_CAP_ODP, 0) == MLX5_CMD_STAT_BAD_PARAM_ERR,
	   "unannounced cap group: BAD_PARAM");

	MLX5_SET(query_adapter_in, qa_in, opcode, MLX5_CMD_OP_QUERY_ADAPTER);
	ok(EXEC(query_adapter, qa_in, qa_out) == 0 &&
	   !memcmp(MLX5_ADDR_OF(query_adapter_out, qa_out,
				query_adapter_struct.vsd_contd_psid),
		   "MT_0000000008", 13), "QUERY_ADAPTER gives a PSID");

	ok(alloc_uar(&uar) == 0 && uar == 1, "first UAR is index 1");
	fh.notifies = 0;
	ok(create_eq(EQ_BASE, 8, uar, 0,
		     1ull << MLX5_EVENT_TYPE_CMD |
		     1ull << MLX5_EVENT_TYPE_PAGE_REQUEST, &eqn) == 0,
	   "CREATE_EQ async");
	eqe = gmem(EQ_BASE);
	ok(eqe[0].owner == 1 && fh.notifies == 0,
	   "CREATE_EQ's own completion is not reported on the new EQ");
	eq_doorbell(uar, eqn, 0, 1);
	ok_all = simple_cmd(MLX5_CMD_OP_QUERY_ISSI, 0) == 0;
	ok(ok_all && eqe[0].type == MLX5_EVENT_TYPE_CMD && eqe[0].owner == 0 &&
	   be32_to_cpu(eqe[0].data.cmd.vector) == 1 && fh.vec_notifies[0] == 1,
	   "command completion EQE (vector bit 0) and MSI-X 0");
	simple_cmd(MLX5_CMD_OP_QUERY_ISSI, 0);
	ok(eqe[1].owner == 0 && fh.vec_notifies[0] == 1,
	   "disarmed EQ: EQE written, no second interrupt");
	eq_doorbell(uar, eqn, 1, 1);
	ok(fh.vec_notifies[0] == 2, "arming with an unconsumed EQE fires");
	eq_doorbell(uar, eqn, 2, 1);

	ok(create_eq(EQ_BASE + 0x10000, 10, uar, 1,
		     1ull << MLX5_EVENT_TYPE_COMP, &ceqn) == 0 && ceqn != eqn,
	   "completion EQ on vector 1");
	eq_doorbell(uar, ceqn, 0, 1);
	for (i = 0; i < 4; i++)
		ok_all &= alloc_uar(&uars[i]) == 0;
	ok(ok_all && uars[3] == 5 && report_val("obj.uar") == 5 &&
	   report_val("obj.eq") == 2, "doorbell pool UARs; report counts objects");
	ok(report_val("doorbell.uar.1") >= 4, "UAR doorbell writes counted");

	/* Down, like mlx5_uninit_one(). */
	ok_all = 1;
	for (i = 0; i < 4; i++)
		ok_all &= dealloc_uar(uars[i]) == 0;
	ok_all &= destroy_eq(ceqn) == 0 && destroy_eq(eqn) == 0;
	ok_all &= dealloc_uar(uar) == 0;
	ok_all &= simple_cmd(MLX5_CMD_OP_TEARDOWN_HCA, 0) == 0;
	do {
		got = take_pages(50, NULL);
		if (got > 0)
			total += got;
	} while (got > 0);
	ok(ok_all && total == CX_BOOT_PAGES + CX_INIT_PAGES,
	   "teardown: objects destroyed, all pages taken back");
	ok(simple_cmd(MLX5_CMD_OP_DISABLE_HCA, 0) == 0 &&
	   report_val("leak.objects") == 0 && report_val("leak.pages") == 0 &&
	   report_val("leak.reports") == 0 && report_val("teardowns") == 1 &&
	   report_val("cmd.ENABLE_HCA") == 1,
	   "DISABLE_HCA: no leaks, report counts commands");
	tp_wr(CX_TP_SNAPSHOT, 1);
	ok(strstr(core.report, "hca_state disabled\n") != NULL,
	   "report says hca_state disabled");
}

static void test_errors(void)
{
	uint32_t in[4] = { 0 }, out[4];
	uint32_t si[MLX5_ST_SZ_DW(set_issi_in)] = { 0 };
	uint32_t so[MLX5_ST_SZ_DW(set_issi_out)];
	unsigned int logs;

	start_dev();
	logs = fh.logs;
	ok(simple_cmd(0x7ff, 0) == MLX5_CMD_STAT_BAD_OP_ERR &&
	   MLX5_GET(nop_out, entry(0)->out, syndrome) != 0 &&
	   fh.logs == logs + 1 && strstr(fh.last_log, "0x7ff"),
	   "unknown opcode: BAD_OP, syndrome, one log line");
	ok(simple_cmd(MLX5_CMD_OP_CREATE_QP, 0) == MLX5_CMD_STAT_BAD_OP_ERR &&
	   strstr(fh.last_log, "CREATE_QP"), "unmodelled opcode named in log");
	ok(simple_cmd(MLX5_CMD_OP_INIT_HCA, 0) ==
	   MLX5_CMD_STAT_BAD_SYS_STATE_ERR, "INIT_HCA while disabled: BAD_SYS_STATE");
	ok(query_cap(MLX5_CAP_GENERAL, 1) ==
	   MLX5_CMD_STAT_BAD_SYS_STATE_ERR, "QUERY_HCA_CAP while disabled: BAD_SYS_STATE");
	ok(simple_cmd(MLX5_CMD_OP_DISABLE_HCA, 0) ==
	   MLX5_CMD_STAT_BAD_SYS_STATE_ERR, "DISABLE_HCA while disabled: BAD_SYS_STATE");
	simple_cmd(MLX5_CMD_OP_ENABLE_HCA, 0);
	ok(simple_cmd(MLX5_CMD_OP_TEARDOWN_HCA, 0) ==
	   MLX5_CMD_STAT_BAD_SYS_STATE_ERR, "TEARDOWN_HCA before INIT: BAD_SYS_STATE");
	ok(simple_cmd(MLX5_CMD_OP_ALLOC_UAR, 0) ==
	   MLX5_CMD_STAT_BAD_SYS_STATE_ERR, "ALLOC_UAR before INIT: BAD_SYS_STATE");
	MLX5_SET(set_issi_in, si, opcode, MLX5_CMD_OP_SET_ISSI);
	MLX5_SET(set_issi_in, si, current_issi, 2);
	ok(EXEC(set_issi, si, so) == MLX5_CMD_STAT_BAD_PARAM_ERR,
	   "SET_ISSI 2: BAD_PARAM");
	/* QUERY_HCA_CAP input is 16 bytes; its output 4 KiB + 16. */
	MLX5_SET(nop_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	ok(cmd_status(in, 12, out, sizeof(out)) == MLX5_CMD_STAT_BAD_INP_LEN_ERR,
	   "short input: BAD_INP_LEN (0x50)");
	ok(cmd_status(in, 16, out, sizeof(out)) == MLX5_CMD_STAT_BAD_OUTP_LEN_ERR,
	   "short output: BAD_OUTP_LEN");
	ok(report_val("cmd.errors") == 10, "errors counted");
	simple_cmd(MLX5_CMD_OP_INIT_HCA, 0);
	ok(dealloc_uar(77) == MLX5_CMD_STAT_BAD_PARAM_ERR,
	   "DEALLOC_UAR of an unknown index: BAD_PARAM");
	ok(simple_cmd(MLX5_CMD_OP_SET_ISSI, 0) ==
	   MLX5_CMD_STAT_BAD_SYS_STATE_ERR, "SET_ISSI after INIT_HCA: BAD_SYS_STATE");
}

static void test_pages(void)
{
	uint64_t a[3], first = 0;
	uint32_t uar;
	int got;

	start_dev();
	simple_cmd(MLX5_CMD_OP_ENABLE_HCA, 0);
	a[0] = PAGE_BASE + 0x800;
	ok(give_pages_at(a, 1) == MLX5_CMD_STAT_BAD_PARAM_ERR &&
	   core.func.npages == 0, "unaligned page: BAD_PARAM");
	a[0] = PAGE_BASE;
	a[1] = PAGE_BASE + 4096;
	a[2] = PAGE_BASE;
	ok(give_pages_at(a, 3) == MLX5_CMD_STAT_BAD_PARAM_ERR &&
	   core.func.npages == 0, "duplicate page in one give: BAD_PARAM, none kept");
	ok(give_pages_at(a, 2) == 0 && give_pages_at(a + 1, 1) ==
	   MLX5_CMD_STAT_BAD_PARAM_ERR && core.func.npages == 2,
	   "page given twice: BAD_PARAM");
	/* 200 pages: 1616-byte input, 4 mailboxes; take 150: 1216-byte output. */
	next_page = PAGE_BASE + 0x10000;
	ok(give_pages(200) == 0 && core.func.npages == 202,
	   "give 200 pages through a 4-block mailbox chain");
	got = take_pages(150, &first);
	ok(got == 150 && first == next_page - 4096 && core.func.npages == 52,
	   "take 150 pages: addresses come back through the output chain");
	ok(take_pages(100, NULL) == 52 && take_pages(10, NULL) == 0,
	   "take more than held returns what is held, then 0");
	give_pages(8);
	simple_cmd(MLX5_CMD_OP_INIT_HCA, 0);
	alloc_uar(&uar);
	fh.logs = 0;
	ok(simple_cmd(MLX5_CMD_OP_DISABLE_HCA, 0) == 0 &&
	   report_val("leak.pages") == 8 && report_val("leak.obj.uar") == 1 &&
	   report_val("leak.objects") == 1 && report_val("leak.reports") == 1 &&
	   fh.logs == 1, "DISABLE_HCA with pages and a UAR held: leak report, one log");
	ok(report_val("pages") == 0 && report_val("obj.uar") == 0,
	   "leaked objects and pages are freed");
	simple_cmd(MLX5_CMD_OP_ENABLE_HCA, 0);
	give_pages(4);
	cx_core_reset(&core);
	ok(report_val("leak.pages") == 4 && report_val("leak.reports") == 2 &&
	   core.func.state == CX_HCA_DISABLED &&
	   rd32be(ISEG(cmdq_addr_l_sz)) >> 12 == 0,
	   "reset: leak report, disabled, cmdq address cleared");
}

static void test_eq_laps(void)
{
	uint32_t uar, eqn;
	struct mlx5_eqe *eqe = gmem(EQ_BASE);
	int i, lap0 = 1, lap1 = 1;

	start_dev();
	bring_up();
	alloc_uar(&uar);
	create_eq(EQ_BASE, 2, uar, 3, 1ull << MLX5_EVENT_TYPE_PAGE_REQUEST,
		  &eqn);
	eq_doorbell(uar, eqn, 0, 1);
	for (i = 0; i < 4; i++)
		tp_wr(CX_TP_PAGE_REQUEST, (uint32_t)(i - 2));
	for (i = 0; i < 4; i++)
		lap0 &= eqe[i].owner == 0 &&
			eqe[i].type == MLX5_EVENT_TYPE_PAGE_REQUEST &&
			(int32_t)be32_to_cpu(eqe[i].data.req_pages.num_pages) == i - 2;
	ok(lap0 && fh.vec_notifies[3] == 1,
	   "lap 0: owner 0, page requests (signed), one MSI-X on vector 3");
	tp_wr(CX_TP_PAGE_REQUEST, 5);
	ok(core.func.eq[eqn].overruns == 1 && eqe[0].owner == 0,
	   "full EQ: overrun counted, unconsumed EQE kept");
	eq_doorbell(uar, eqn, 4, 0);
	ok(fh.vec_notifies[3] == 1, "update CI without arming: no interrupt");
	for (i = 0; i < 4; i++)
		tp_wr(CX_TP_PAGE_REQUEST, 7);
	for (i = 0; i < 4; i++)
		lap1 &= eqe[i].owner == 1;
	ok(lap1 && fh.vec_notifies[3] == 1, "lap 1: owner 1, still disarmed");
	eq_doorbell(uar, eqn, 6, 1);
	ok(fh.vec_notifies[3] == 2, "arm with 2 pending fires at once");
	eq_doorbell(uar, eqn, 8, 1);
	tp_wr(CX_TP_PAGE_REQUEST, 1);
	ok(fh.vec_notifies[3] == 3 && eqe[0].owner == 0,
	   "lap 2 writes owner 0 and fires the armed EQ");
	eq_doorbell(uar, eqn, 11, 1);
	ok(core.func.eq[eqn].cons == 8 && !core.func.eq[eqn].armed &&
	   core.stats.eq_ci_bad == 1 && fh.vec_notifies[3] == 3,
	   "consumer index past the producer: refused, counted, not armed");
	eq_doorbell(uar, eqn, 9, 1);
	ok(core.func.eq[eqn].cons == 9 && core.func.eq[eqn].armed,
	   "consumer index at the producer: taken, armed");
	ok(create_eq(EQ_BASE + 0x8000, 17, uar, 0, 0, &eqn) ==
	   MLX5_CMD_STAT_BAD_PARAM_ERR &&
	   create_eq(EQ_BASE + 0x8000, 4, uar, 64, 0, &eqn) ==
	   MLX5_CMD_STAT_BAD_PARAM_ERR &&
	   create_eq(EQ_BASE + 0x8000, 4, 99, 0, 0, &eqn) ==
	   MLX5_CMD_STAT_BAD_PARAM_ERR,
	   "CREATE_EQ: too large, bad vector, bad UAR: BAD_PARAM");
}

/* PAGE_OFFSET and PAGE_BOGUS: what MANAGE_PAGES(take) hands back. */
static void test_page_returns(void)
{
	uint64_t first = 0;
	int got;

	start_dev();
	simple_cmd(MLX5_CMD_OP_ENABLE_HCA, 0);
	next_page = PAGE_BASE;
	give_pages(4);
	tp_wr(CX_TP_PAGE_OFFSET, 0x100);
	ok(tp_rd(CX_TP_PAGE_OFFSET) == 0x100 && take_pages(1, &first) == 1 &&
	   first == PAGE_BASE + 3 * 4096 + 0x100 && core.func.npages == 3 &&
	   report_val("pages.offset_returns") == 1,
	   "PAGE_OFFSET: the page comes back with the in-page offset");
	tp_wr(CX_TP_PAGE_OFFSET, 0x1000 | 0x80);
	ok(tp_rd(CX_TP_PAGE_OFFSET) == 0x80, "PAGE_OFFSET keeps bits 11:0");
	tp_wr(CX_TP_PAGE_OFFSET, 0);
	tp_wr(CX_TP_PAGE_BOGUS, 1);
	got = take_pages(2, &first);
	ok(got == 2 && first == ((PAGE_BASE + 2 * 4096) ^ CX_PAGE_BOGUS_BIT) &&
	   core.func.npages == 2 && tp_rd(CX_TP_PAGE_BOGUS) == 0 &&
	   report_val("pages.bogus_returns") == 1,
	   "PAGE_BOGUS: a never-given address, one page only taken");
	ok(take_pages(4, &first) == 2 && first == PAGE_BASE + 4096 &&
	   core.func.npages == 0, "the rest comes back as given");
	give_pages(2);
	tp_wr(CX_TP_PAGE_BOGUS, 5);
	ok(take_pages(3, NULL) == 2 && core.func.npages == 2 &&
	   tp_rd(CX_TP_PAGE_BOGUS) == 3,
	   "PAGE_BOGUS never takes the page it names");
	tp_wr(CX_TP_PAGE_BOGUS, 0);
	simple_cmd(MLX5_CMD_OP_DISABLE_HCA, 0);
}

/* INIT_PAGES: what QUERY_PAGES(init) asks for. */
static void test_init_pages(void)
{
	int32_t init = 0, boot = 0;

	start_dev();
	simple_cmd(MLX5_CMD_OP_ENABLE_HCA, 0);
	ok(query_pages(2, &init) == 0 && init == CX_INIT_PAGES,
	   "QUERY_PAGES(init): the model's figure");
	tp_wr(CX_TP_INIT_PAGES, 100000000);
	ok(tp_rd(CX_TP_INIT_PAGES) == 100000000 &&
	   query_pages(2, &init) == 0 && init == 100000000 &&
	   query_pages(1, &boot) == 0 && boot == CX_BOOT_PAGES,
	   "INIT_PAGES: QUERY_PAGES(init) asks for 10^8, boot pages unchanged");
	tp_wr(CX_TP_INIT_PAGES, 0);
	ok(query_pages(2, &init) == 0 && init == CX_INIT_PAGES,
	   "INIT_PAGES 0: the model's figure again");
	simple_cmd(MLX5_CMD_OP_DISABLE_HCA, 0);
}

/* EQ_FLOOD: port events, the EQ kept half full until the count is done. */
static void test_eq_flood(void)
{
	uint32_t uar, eqn, ci = 0;
	struct mlx5_eqe *eqe = gmem(EQ_BASE);
	int i, ok_all = 1;

	start_dev();
	bring_up();
	alloc_uar(&uar);
	tp_wr(CX_TP_EQ_FLOOD, 10);
	ok(tp_rd(CX_TP_EQ_FLOOD) == 10, "no port-event EQ yet: nothing posted");
	create_eq(EQ_BASE, 4, uar, 0, 1ull << MLX5_EVENT_TYPE_PORT_CHANGE,
		  &eqn);
	eq_doorbell(uar, eqn, 0, 1);
	ok(tp_rd(CX_TP_EQ_FLOOD) == 2 && core.func.eq[eqn].prod == 8 &&
	   eqe[0].type == MLX5_EVENT_TYPE_PORT_CHANGE &&
	   eqe[0].sub_type == MLX5_PORT_CHANGE_SUBTYPE_DOWN &&
	   fh.vec_notifies[0] == 1,
	   "the EQ's first doorbell: half its 16 entries posted, one MSI-X");
	ci = 5;
	eq_doorbell(uar, eqn, ci, 0);
	ok(tp_rd(CX_TP_EQ_FLOOD) == 0 && core.func.eq[eqn].prod == 10,
	   "a consumer index tops it up to what is left");
	tp_wr(CX_TP_EQ_FLOOD, 1000);
	fh.now += 5 * MS;
	ok(report_val("eq.flood_ns") == 5 * MS, "eq.flood_ns runs while flooding");
	for (i = 0; i < 200 && tp_rd(CX_TP_EQ_FLOOD); i++) {
		ci = core.func.eq[eqn].prod;
		eq_doorbell(uar, eqn, ci, 0);
		ok_all &= ((core.func.eq[eqn].prod - ci) & 0xffffff) <= 8;
	}
	ci = core.func.eq[eqn].prod;
	eq_doorbell(uar, eqn, ci, 1);
	ok(ok_all && !tp_rd(CX_TP_EQ_FLOOD) &&
	   report_val("eq.flood_posted") == 1010 &&
	   report_val("eq.overruns") == 0 && core.func.eq[eqn].cons == 1010,
	   "1000 more, never more than half the EQ pending, none lost");
	fh.now += 5 * MS;
	ok(report_val("eq.flood_ns") == 5 * MS,
	   "eq.flood_ns stops at the flood's last event");
	tp_wr(CX_TP_EQ_FLOOD, 100);
	tp_wr(CX_TP_EQ_FLOOD, 0);
	ok(tp_rd(CX_TP_EQ_FLOOD) == 0 && core.func.eq[eqn].prod == 1018,
	   "0 stops the flood");
}

static void test_faults(void)
{
	start_dev();
	tp_wr(CX_TP_FAULT_OPCODE, MLX5_CMD_OP_ENABLE_HCA);
	tp_wr(CX_TP_FAULT_COUNT, 1);
	tp_wr(CX_TP_FAULT_SYNDROME, 0x1234);
	ok(simple_cmd(MLX5_CMD_OP_ENABLE_HCA, 0) == MLX5_CMD_STAT_INT_ERR &&
	   MLX5_GET(nop_out, entry(0)->out, syndrome) == 0x1234 &&
	   core.func.state == CX_HCA_DISABLED,
	   "fault once: INT_ERR with the syndrome, no effect");
	ok(simple_cmd(MLX5_CMD_OP_ENABLE_HCA, 0) == 0, "then succeeds");
	tp_wr(CX_TP_FAULT_OPCODE, MLX5_CMD_OP_QUERY_ISSI);
	tp_wr(CX_TP_FAULT_COUNT, CX_TP_ALWAYS);
	tp_wr(CX_TP_FAULT_STATUS, MLX5_CMD_STAT_BAD_OP_ERR);
	ok(simple_cmd(MLX5_CMD_OP_QUERY_ISSI, 0) == MLX5_CMD_STAT_BAD_OP_ERR &&
	   simple_cmd(MLX5_CMD_OP_QUERY_ISSI, 0) == MLX5_CMD_STAT_BAD_OP_ERR &&
	   tp_rd(CX_TP_FAULT_COUNT) == (int)CX_TP_ALWAYS,
	   "fault always: fails every time with the given status");
	tp_wr(CX_TP_FAULT_OPCODE, 0);
	ok(simple_cmd(MLX5_CMD_OP_QUERY_ISSI, 0) == 0, "cleared fault");

	/* Delay: the entry stays owned by the device until the timer. */
	tp_wr(CX_TP_DELAY_MS, 100);
	tp_wr(CX_TP_DELAY_COUNT, 1);
	tp_wr(CX_TP_DELAY_OPCODE, MLX5_CMD_OP_QUERY_ISSI);
	ok(simple_cmd(MLX5_CMD_OP_QUERY_PAGES, 1) == 0,
	   "delay for another opcode does not apply");
	post_cmd(0, (uint32_t[4]){ cpu_to_be32(MLX5_CMD_OP_QUERY_ISSI << 16) },
		 16, 512);
	wr32be(ISEG(cmd_dbell), 1);
	ok((entry(0)->status_own & 1) && fh.timer_deadline == fh.now + 100 * MS,
	   "delayed command: still owned, timer at +100 ms");
	wr32be(ISEG(cmd_dbell), 1);
	fh.now += 50 * MS;
	cx_core_timer(&core);
	ok((entry(0)->status_own & 1) && report_val("cmd.busy") == 1 &&
	   report_val("model_errors") >= 1,
	   "not done at 50 ms (a re-ring is refused: a model error)");
	fh.now += 50 * MS;
	cx_core_timer(&core);
	ok(!(entry(0)->status_own & 1) &&
	   MLX5_GET(nop_out, entry(0)->out, status) == 0 &&
	   fh.timer_deadline == 0, "done at 100 ms, timer cancelled");
	ok(simple_cmd(MLX5_CMD_OP_QUERY_ISSI, 0) == 0, "delay once: next is prompt");

	/* Health. */
	tp_wr(CX_TP_HEALTH_FREEZE, 1);
	{
		uint32_t c = rd32be(ISEG(health_counter));

		fh.now += 10 * CX_HEALTH_TICK_NS;
		ok(rd32be(ISEG(health_counter)) == c && tp_rd(CX_TP_HEALTH_FREEZE) == 1,
		   "frozen health counter stays");
		simple_cmd(MLX5_CMD_OP_DISABLE_HCA, 0);
		simple_cmd(MLX5_CMD_OP_ENABLE_HCA, 0);
		fh.now += CX_HEALTH_TICK_NS;
		ok(rd32be(ISEG(health_counter)) != c,
		   "DISABLE/ENABLE_HCA restarts it");
	}
	tp_wr(CX_TP_HEALTH_SYND, 0x42);
	ok(cx_core_bar0_read(&core, ISEG(health.synd), 1) == 0x42,
	   "health syndrome readable as a byte");
	tp_wr(CX_TP_HEALTH_SYND, 0);
	ok(cx_core_bar0_read(&core, ISEG(health.synd), 1) == 0, "and cleared");
	tp_wr(CX_TP_HEALTH_SYND, 0x42 | CX_TP_HEALTH_SYND_RFR);
	ok(cx_core_bar0_read(&core, ISEG(health.rfr_severity), 1) == 0x80 &&
	   tp_rd(CX_TP_HEALTH_SYND) == (0x42 | CX_TP_HEALTH_SYND_RFR),
	   "syndrome with the reset-request bit");
	tp_wr(CX_TP_HEALTH_SYND, 0);
	ok(tp_rd(CX_TP_MAGIC) == (int)CX_TP_MAGIC_VALUE && tp_rd(CX_TP_VERSION) == 1 &&
	   report_val("cmd.faults") == 3 && report_val("cmd.delays") == 1,
	   "test port magic, version; faults and delays in the report");

	/* Initializing again after the command queue address is written. */
	wr32be(ISEG(cmdq_addr_l_sz), (uint32_t)CMDQ_ADDR);
	ok(rd32be(ISEG(initializing)) >> 31 == 1 &&
	   simple_cmd(MLX5_CMD_OP_QUERY_ISSI, 0) == 0x100 - 1 &&
	   report_val("cmd.early") == 1,
	   "cmdq address write: initializing, a doorbell then is lost");
	fh.now += 20 * MS;
	ok(rd32be(ISEG(initializing)) >> 31 == 0 &&
	   simple_cmd(MLX5_CMD_OP_QUERY_ISSI, 0) == 0,
	   "10 ms later ready and taking commands");

	/* A command still executing when the driver moves the queue. */
	{
		struct mlx5_cmd_layout *e2 = gmem(CMDQ_ADDR2);

		tp_wr(CX_TP_DELAY_MS, 100);
		tp_wr(CX_TP_DELAY_COUNT, 1);
		tp_wr(CX_TP_DELAY_OPCODE, MLX5_CMD_OP_QUERY_ISSI);
		post_cmd(0, (uint32_t[4]){ cpu_to_be32(MLX5_CMD_OP_QUERY_ISSI << 16) },
			 16, 512);
		wr32be(ISEG(cmd_dbell), 1);
		memcpy(e2, entry(0), sizeof(*e2));
		wr32be(ISEG(cmdq_addr_l_sz), (uint32_t)CMDQ_ADDR2);
		fh.now += 20 * MS;
		wr32be(ISEG(cmd_dbell), 1);
		ok((e2->status_own & 1) && report_val("cmd.busy") == 2,
		   "new queue: entry 0 still executing, its doorbell refused");
		fh.now += 80 * MS;
		cx_core_timer(&core);
		ok(!(entry(0)->status_own & 1) && (e2->status_own & 1),
		   "the late answer lands where it was rung: the old queue");
		tp_wr(CX_TP_DELAY_MS, 100);
		tp_wr(CX_TP_DELAY_COUNT, 1);
		wr32be(ISEG(cmd_dbell), 1);
		ok((e2->status_own & 1) && fh.timer_deadline,
		   "delayed again on the new queue");
		cx_core_reset(&core);
		fh.now += 200 * MS;
		cx_core_timer(&core);
		ok((e2->status_own & 1) && !(core.cmdq.delayed & 1),
		   "a function reset drops it: never answered");
	}
}

static void test_fw_dead(void)
{
	uint32_t c;

	start_dev();
	simple_cmd(MLX5_CMD_OP_ENABLE_HCA, 0);
	fh.now += 10 * CX_HEALTH_TICK_NS;
	tp_wr(CX_TP_FW_DEAD, CX_TP_FW_DEAD_ON);
	c = rd32be(ISEG(health_counter));
	fh.now += 10 * CX_HEALTH_TICK_NS;
	ok(rd32be(ISEG(health_counter)) == c && c &&
	   cx_core_bar0_read(&core, ISEG(health.synd), 1) ==
	   MLX5_INITIAL_SEG_HEALTH_SYNDROME_DEAD_IRISC &&
	   cx_core_bar0_read(&core, ISEG(health.rfr_severity), 1) == 0x80,
	   "firmware dead: counter stopped, DEAD_IRISC with reset request");
	ok(simple_cmd(MLX5_CMD_OP_QUERY_ISSI, 0) == 0x100 - 1 &&
	   (entry(0)->status_own & 1) && report_val("cmd.dead") == 1,
	   "firmware dead: a command is never answered");
	cx_core_reset(&core);
	ok(tp_rd(CX_TP_FW_DEAD) == CX_TP_FW_DEAD_ON &&
	   cx_core_bar0_read(&core, ISEG(health.synd), 1) ==
	   MLX5_INITIAL_SEG_HEALTH_SYNDROME_DEAD_IRISC,
	   "a function reset does not revive it");
	tp_wr(CX_TP_FW_DEAD, CX_TP_FW_DEAD_ON | CX_TP_FW_DEAD_ALL_ONES);
	ok(rd32be(ISEG(fw_rev)) == 0xffffffffu &&
	   rd32be(ISEG(initializing)) == 0xffffffffu,
	   "all-ones option: every init segment read is all ones");
	tp_wr(CX_TP_FW_DEAD, 0);
	start_dev();
	ok(rd32be(ISEG(fw_rev)) != 0xffffffffu &&
	   cx_core_bar0_read(&core, ISEG(health.synd), 1) == 0 &&
	   simple_cmd(MLX5_CMD_OP_ENABLE_HCA, 0) == 0,
	   "switch cleared: reads, syndrome and commands are back");
}

/* Mute firmware: alive (counter runs, no syndrome) but answers no command. */
static void test_fw_mute(void)
{
	uint32_t c;

	start_dev();
	simple_cmd(MLX5_CMD_OP_ENABLE_HCA, 0);
	tp_wr(CX_TP_FW_DEAD, CX_TP_FW_MUTE);
	tp_wr(CX_TP_CMD_TIMEOUT, 2000);
	c = rd32be(ISEG(health_counter));
	fh.now += 10 * CX_HEALTH_TICK_NS;
	ok(rd32be(ISEG(health_counter)) != c &&
	   cx_core_bar0_read(&core, ISEG(health.synd), 1) == 0 &&
	   cx_core_bar0_read(&core, ISEG(health.rfr_severity), 1) == 0,
	   "firmware mute: counter runs, no syndrome");
	ok(simple_cmd(MLX5_CMD_OP_QUERY_ISSI, 0) == 0x100 - 1 &&
	   (entry(0)->status_own & 1) && report_val("cmd.muted") == 1 &&
	   report_val("cmd.dead") == 0,
	   "firmware mute: a command is never answered");
	cx_core_reset(&core);
	ok(tp_rd(CX_TP_FW_DEAD) == CX_TP_FW_MUTE,
	   "a function reset does not make it answer");
	ok(tp_rd(CX_TP_CMD_TIMEOUT) == 2000 &&
	   rd32be(ISEG(cmd_exec_to)) == 2000,
	   "a function reset keeps the stated command timeout");
	tp_wr(CX_TP_FW_DEAD, 0);
	tp_wr(CX_TP_CMD_TIMEOUT, 0);
	start_dev();
	ok(simple_cmd(MLX5_CMD_OP_ENABLE_HCA, 0) == 0,
	   "switch cleared: commands are answered again");
}

static void test_drop_irq(void)
{
	uint32_t uar, eqn;
	struct mlx5_eqe *eqe = gmem(EQ_BASE);

	start_dev();
	bring_up();
	alloc_uar(&uar);
	create_eq(EQ_BASE, 2, uar, 3, 1ull << MLX5_EVENT_TYPE_PAGE_REQUEST,
		  &eqn);
	eq_doorbell(uar, eqn, 0, 1);
	tp_wr(CX_TP_DROP_IRQ, 1);
	tp_wr(CX_TP_PAGE_REQUEST, 1);
	ok(eqe[0].owner == 0 && fh.vec_notifies[3] == 0 &&
	   tp_rd(CX_TP_DROP_IRQ) == 0 && report_val("irq.dropped") == 1,
	   "drop one interrupt: the EQE is written, its MSI-X lost");
	eq_doorbell(uar, eqn, 0, 1);
	ok(fh.vec_notifies[3] == 1,
	   "re-arming with the EQE pending fires; later ones are delivered");
}

/* MSIX_RAISE: a message now, or when the next CREATE_EQ is rung. */
static void test_msix_raise(void)
{
	uint32_t uar, eqn;

	start_dev();
	bring_up();
	alloc_uar(&uar);
	tp_wr(CX_TP_MSIX_RAISE, CX_TP_MSIX_NOW | 5);
	ok(fh.vec_notifies[5] == 1 && tp_rd(CX_TP_MSIX_RAISE) == 0 &&
	   report_val("msix.sent") == 1,
	   "raise vector 5 now: one message, nothing armed");
	fh.masked_vecs = 1ull << 5;
	tp_wr(CX_TP_MSIX_RAISE, CX_TP_MSIX_NOW | 5 | 0x40);
	ok(fh.vec_notifies[5] == 2 && report_val("msix.masked") == 1,
	   "raise a masked vector (bits above 5:0 ignored): counted as masked");
	fh.masked_vecs = 0;
	tp_wr(CX_TP_MSIX_RAISE, CX_TP_MSIX_ON_CREATE_EQ | 2);
	ok(tp_rd(CX_TP_MSIX_RAISE) == (int)(CX_TP_MSIX_ON_CREATE_EQ | 2) &&
	   fh.vec_notifies[2] == 0 && simple_cmd(MLX5_CMD_OP_QUERY_ISSI, 0) == 0 &&
	   fh.vec_notifies[2] == 0,
	   "armed for CREATE_EQ: another command does not fire it");
	tp_wr(CX_TP_MSIX_RAISE, 0);
	ok(tp_rd(CX_TP_MSIX_RAISE) == 0 && fh.vec_notifies[0] == 0,
	   "0 disarms, raises nothing");
	tp_wr(CX_TP_MSIX_RAISE, CX_TP_MSIX_ON_CREATE_EQ | 2);
	tp_wr(CX_TP_DELAY_MS, 100);
	tp_wr(CX_TP_DELAY_COUNT, 1);
	tp_wr(CX_TP_DELAY_OPCODE, MLX5_CMD_OP_CREATE_EQ);
	/* Still owned by the device: exec_cmd() says -1, 0x100 - 1 here. */
	ok(create_eq(EQ_BASE, 2, uar, 3, 0, &eqn) == 0xff &&
	   fh.vec_notifies[2] == 1 && tp_rd(CX_TP_MSIX_RAISE) == 0 &&
	   !core.func.eq[0].valid && (entry(0)->status_own & 1),
	   "CREATE_EQ rung, delayed: vector 2 raised before it runs, disarmed");
	fh.now += 100 * MS;
	cx_core_timer(&core);
	ok(!(entry(0)->status_own & 1) && core.func.eq[0].valid &&
	   fh.vec_notifies[2] == 1 && fh.vec_notifies[3] == 0,
	   "the delayed CREATE_EQ runs later; no second message");
	ok(create_eq(EQ_BASE + 0x8000, 2, uar, 3, 0, &eqn) == 0 &&
	   fh.vec_notifies[2] == 1, "one-shot: the next CREATE_EQ raises nothing");
}

static void test_malformed(void)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = { 0 };
	struct mlx5_cmd_layout *e;
	struct mlx5_cmd_prot_block *b;
	uint64_t head;

	start_dev();
	simple_cmd(MLX5_CMD_OP_ENABLE_HCA, 0);
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);

	post_cmd(0, in, sizeof(in), sizeof(cap_out));
	entry(0)->type = 3;
	wr32be(ISEG(cmd_dbell), 1);
	ok(entry(0)->status_own == 0x10 << 1, "bad type: delivery status 0x10");

	post_cmd(0, in, sizeof(in), sizeof(cap_out));
	entry(0)->out_ptr = cpu_to_be64(FAKE_MEM_SIZE + 4096ull);
	wr32be(ISEG(cmd_dbell), 1);
	ok(entry(0)->status_own == 0x4 << 1, "output pointer outside memory: 0x4");

	post_cmd(0, in, sizeof(in), sizeof(cap_out));
	entry(0)->out_ptr = cpu_to_be64(be64_to_cpu(entry(0)->out_ptr) + 8);
	wr32be(ISEG(cmd_dbell), 1);
	ok(entry(0)->status_own == 0x4 << 1, "unaligned output mailbox: 0x4");

	post_cmd(0, in, sizeof(in), sizeof(cap_out));
	e = entry(0);
	b = gmem(be64_to_cpu(e->out_ptr));
	b->token ^= 0xff;
	wr32be(ISEG(cmd_dbell), 1);
	ok(entry(0)->status_own == 0x2 << 1, "token mismatch: 0x2");

	/* A chain whose second block points back at the first. */
	post_cmd(0, in, sizeof(in), sizeof(cap_out));
	head = be64_to_cpu(entry(0)->out_ptr);
	b = gmem(head);
	((struct mlx5_cmd_prot_block *)gmem(be64_to_cpu(b->next)))->next =
		cpu_to_be64(head);
	wr32be(ISEG(cmd_dbell), 1);
	ok(entry(0)->status_own == 0x3 << 1, "looping chain: bad block number");

	/* A self-loop with every block number 0.. and a huge inlen. */
	post_cmd(0, in, sizeof(in), 16);
	e = entry(0);
	head = mbox_alloc();
	b = gmem(head);
	b->token = e->token;
	b->next = cpu_to_be64(head);
	e->in_ptr = cpu_to_be64(head);
	e->inlen = cpu_to_be32(CX_CMD_MAX_MSG);
	wr32be(ISEG(cmd_dbell), 1);
	ok(entry(0)->status_own == 0x3 << 1, "self loop: ends with bad block number");
	post_cmd(0, in, sizeof(in), 16);
	entry(0)->inlen = cpu_to_be32(0xffffffff);
	wr32be(ISEG(cmd_dbell), 1);
	ok(entry(0)->status_own == 0x7 << 1, "huge inlen: input length error");
	post_cmd(0, in, sizeof(in), 16);
	entry(0)->outlen = cpu_to_be32(4);
	wr32be(ISEG(cmd_dbell), 1);
	ok(entry(0)->status_own == 0x8 << 1, "tiny outlen: output length error");
	post_cmd(0, (uint32_t[8]){ in[0] }, 32, 16);
	entry(0)->in_ptr = 0;
	wr32be(ISEG(cmd_dbell), 1);
	ok(entry(0)->status_own == 0x5 << 1, "missing input mailbox: 0x5");

	/* The queue itself outside guest memory: counted, nothing else. */
	wr32be(ISEG(cmdq_addr_h), 0x10);
	wr32be(ISEG(cmd_dbell), 0xffffffff);
	ok(core.stats.cmd_delivery_errors >= 9 + 32, "queue outside memory: no crash");
	wr32be(ISEG(cmdq_addr_h), 0);
	wr32be(ISEG(cmdq_addr_l_sz), 0);
	{
		uint64_t dbs = core.stats.cmd_doorbells, cmds = core.stats.cmds;
		uint64_t derr = core.stats.cmd_delivery_errors;
		uint8_t page0[64], own = entry(0)->status_own;

		/* Poison what a queue at 0 would have as its first entry. */
		memset(gmem(0), 0xa5, sizeof(page0));
		memcpy(page0, gmem(0), sizeof(page0));
		wr32be(ISEG(cmd_dbell), 1);
		ok(core.stats.cmd_doorbells == dbs + 1 &&
		   core.stats.cmds == cmds &&
		   core.stats.cmd_delivery_errors == derr &&
		   !memcmp(gmem(0), page0, sizeof(page0)) &&
		   entry(0)->status_own == own,
		   "doorbell without a queue: counted, nothing read, run or written");
	}

	/* Doorbells on pages not allocated, and odd EQ doorbells. */
	wr32be(5 * 4096 + 0x40, 0x3f000001);
	cx_core_bar0_write(&core, 8191 * 4096 + 0x800, ~0ull, 8);
	ok(core.stats.uar_bad_writes == 2, "writes to unallocated UARs counted");
	ok(cx_core_testport_read(&core, CX_TESTPORT_SIZE - 2, 4) == 0 &&
	   cx_core_testport_read(&core, ~0ull, 8) == 0,
	   "test port reads out of range return 0");
	cx_core_testport_write(&core, CX_TP_FAULT_OPCODE + 1, 5, 4);
	ok(tp_rd(CX_TP_FAULT_OPCODE) == 0, "unaligned test port writes ignored");
}

static void test_multi_entry(void)
{
	uint32_t in[4] = { 0 };

	start_dev();
	MLX5_SET(nop_in, in, opcode, MLX5_CMD_OP_ENABLE_HCA);
	post_cmd(3, in, 16, 16);
	wr32be(ISEG(cmd_dbell), 1u << 3);
	ok(!(entry(3)->status_own & 1) &&
	   MLX5_GET(nop_out, entry(3)->out, status) == 0 &&
	   core.func.state == CX_HCA_ENABLED, "entry 3 runs on doorbell bit 3");
}

static void test_cmd_all(void)
{
	test_bringup_teardown();
	test_errors();
	test_pages();
	test_eq_laps();
	test_page_returns();
	test_init_pages();
	test_eq_flood();
	test_faults();
	test_fw_dead();
	test_fw_mute();
	test_drop_irq();
	test_msix_raise();
	test_malformed();
	test_multi_entry();
}
