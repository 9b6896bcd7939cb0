/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cxsim: the objects a function creates for its Ethernet interface, as the
 * control path (CREATE_* commands) stores them and the data path reads
 * them.  Numbers are the ones the commands return; look objects up with
 * cx_*_lookup() (NULL: no such object on this function).
 *
 * Everything here is plain values decoded from the command layouts, so
 * the data path never needs to parse a context again.
 */
#ifndef CX_OBJ_H
#define CX_OBJ_H

#include "cx_priv.h"
#include "cx_pas.h"
#include "cx_datapath.h"


struct cx_cq {
	uint32_t cqn;
	uint8_t log_size;	/* 2^log_size CQEs */
	uint8_t cqe_sz;		/* 0: 64 bytes, 1: 128 bytes */
	uint32_t uar_page;
	uint32_t eqn;
	uint16_t period;	/* cq_period (us) */
	uint16_t max_count;	/* cq_max_count */
	uint8_t period_mode;	/* 0: from EQE, 1: from CQE */
	bool oi;		/* overrun ignore */
	bool cc;		/* collapsed */
	bool comp_en;		/* cqe_comp_en: RX CQEs compressed */
	uint8_t comp_fmt;	/* mini_cqe_res_format, CX_CQE_FORMAT_* */
	struct cx_pas pas;
	uint64_t dbr_addr;	/* consumer index (be32) then arm (be32) */
	/* Data path state. */
	uint32_t prod;		/* CQEs written, free running */
	bool armed;
	bool armed_solicited;
	uint64_t arms;		/* arm doorbells taken */
	uint64_t arms_wrong_uar;	/* on another UAR page: ignored */
	uint8_t arm_sn;
	uint32_t arm_ci;
	uint32_t events;	/* completion EQEs posted: the arm sn's count */
	uint64_t arms_stale;	/* arms with an old sequence number: ignored */
	bool overrun;
	/* Moderation (cx_cq.c): CQEs since the arm, the EQE's deadline. */
	uint32_t mod_cqes;
	uint64_t mod_deadline;	/* ns, 0: no timer running */
	uint64_t last_eqe_ns;	/* when the last completion EQE went out */
	uint32_t refs;		/* SQs and RQs reporting here */
	uint64_t cqes;		/* CQEs written */
	/* The asynchronous engine: an arm doorbell not yet applied. */
	bool arm_pending;
	uint64_t arm_due_ns;
	uint64_t arm_db;	/* the doorbell's value */
	/*
	 * CQE compression (cx_cq.c): RX CQEs held for the block being
	 * built, written at the end of the step (cx_cq_comp_timer()) or
	 * before any other CQE of the CQ.
	 */
	uint8_t (*comp_held)[64];	/* CX_CQ_COMP_MAX images */
	uint32_t comp_n;		/* held */
	bool comp_striding;		/* of a striding RQ */
	uint64_t comp_blocks;		/* blocks written */
	uint64_t comp_cqes;		/* CQEs in them */
};

/* The most CQEs a compressed block holds (cqe_compression_max_num). */
#define CX_CQ_COMP_MAX	64

/* What a send or receive queue's "wq" says. */
struct cx_wq {
	uint8_t type;		/* MLX5_WQ_TYPE_* */
	uint8_t end_padding_mode;
	uint32_t pd;
	uint32_t uar_page;
	uint64_t dbr_addr;
	uint8_t log_stride;	/* bytes of a WQE (basic block) */
	uint8_t log_sz;		/* 2^log_sz WQEs */
	uint8_t log_pg_sz;	/* pages of 4 KiB << log_pg_sz */
	uint32_t page_offset;
	uint16_t lwm;
	/* Striding RQ (MLX5_WQ_TYPE_*_STRIDING_RQ): decoded. */
	uint8_t log_num_strides;	/* strides per WQE, log2 */
	uint8_t log_stride_bytes;	/* bytes per stride, log2 */
	struct cx_pas pas;
};

struct cx_sq {
	uint32_t sqn;
	uint32_t cqn;
	uint8_t state;		/* MLX5_SQC_STATE_* */
	uint32_t tisn;		/* valid if ntis */
	uint8_t ntis;
	uint8_t min_inline;	/* MLX5_INLINE_MODE_* */
	bool allow_mpwqe;	/* enhanced multi-packet send WQEs */
	bool reg_umr;		/* may post UMR WQEs */
	bool allow_swp;
	bool flush_in_error_en;
	uint8_t ts_format;
	uint32_t user_index;
	uint16_t rate_limit_index;
	struct cx_wq wq;
	/* Data path state. */
	uint32_t pc_seen;	/* producer counter of the last doorbell (WQEBBs) */
	uint32_t cc;		/* WQEBBs consumed */
	uint64_t doorbells;
	uint64_t doorbells_wrong_uar;	/* rung on another UAR page: dropped */
	uint8_t db_regs;	/* bit k: rang send doorbell register k */
	uint64_t wqes;
	uint64_t mpw_wqes;	/* ENHANCED_MPSW WQEs (MPWQE sessions) run */
	uint64_t lso_wqes;	/* LSO WQEs segmented and sent */
	uint64_t wqebbs;	/* WQEBBs fetched */
	uint32_t errors;	/* times it went to the error state */
	uint32_t err_resets;	/* MODIFY_SQ ERR -> RST */
	/* The test port's UMR hold (CX_TP_UMR_HOLD): stopped at a UMR. */
	bool umr_held;
	bool umr_pass;		/* released: run to pc without a new hold */
	uint64_t umr_release_at;	/* ns; 0: until UMR_RELEASE */
	uint32_t umr_holds;	/* holds it went through */
	/* The asynchronous engine: a doorbell's work not yet done. */
	bool db_pending;
	bool db_fresh;		/* rung since the doorbell record was read */
	uint64_t due_ns;	/* when the next step runs */
	uint64_t rung_ns;	/* when the oldest work not done was rung */
};

/* The largest receive WQE (log_wq_stride) the data path takes. */
#define CX_RQ_WQE_MAX	1024

struct cx_rq {
	uint32_t rqn;
	uint32_t cqn;
	uint8_t state;		/* MLX5_RQC_STATE_* */
	bool vsd;		/* VLAN stripping disabled */
	bool scatter_fcs;
	bool flush_in_error_en;
	uint8_t mem_rq_type;
	uint8_t ts_format;
	uint32_t counter_set_id;	/* 0: none */
	uint32_t user_index;
	struct cx_wq wq;
	/* Data path state. */
	uint32_t wqe_cc;	/* WQEs consumed (free running) */
	uint32_t stride_cc;	/* strides used in the current WQE */
	uint16_t ll_cur;	/* data path: linked-list RQ, WQE in use */
	uint32_t fetched_cc;	/* wqe_cc of the WQE last fetched */
	bool fetched;		/* fetched_cc is valid */
	uint8_t wqe[CX_RQ_WQE_MAX];	/* ... as fetched: kept while in use */
	uint32_t refs;		/* TIRs and RQTs naming it */
	uint64_t packets;
	uint64_t drops;
	uint64_t strides;	/* striding: strides consumed by frames */
	uint64_t filler_strides;	/* striding: strides filler CQEs skipped */
	/* LRO (cx_rx.c): the open session, its CQE as the first segment's */
	struct cx_lro_sess lro;
	struct cx_cqe_rx lro_rx;
	struct cx_rx_class lro_rc;
};

struct cx_tis {
	uint32_t tisn;
	uint32_t td;
	uint32_t pd;
	uint8_t prio;
	uint8_t lag_tx_port_affinity;
	bool strict_lag;
};

struct cx_rqt {
	uint32_t rqtn;
	uint32_t max_size;
	uint32_t size;		/* rqt_actual_size */
	uint32_t *rqn;		/* size entries */
};

/* rx_hash_field_select, decoded. */
struct cx_hash_sel {
	uint8_t l3;		/* MLX5_L3_PROT_TYPE_IPV4 0, IPV6 1 */
	uint8_t l4;		/* MLX5_L4_PROT_TYPE_TCP 0, UDP 1 */
	uint32_t fields;	/* MLX5_HASH_FIELD_SEL_* */
};

struct cx_tir {
	uint32_t tirn;
	uint8_t disp_type;	/* MLX5_TIRC_DISP_TYPE_* */
	uint32_t inline_rqn;	/* direct */
	uint32_t rqtn;		/* indirect */
	uint8_t hash_fn;	/* MLX5_RX_HASH_FN_* */
	bool symmetric;
	uint32_t td;
	uint8_t self_lb_block;	/* bit 0 unicast, bit 1 multicast */
	uint8_t key[40];	/* Toeplitz key, as given (big-endian dwords) */
	struct cx_hash_sel outer;
	struct cx_hash_sel inner;
	bool tunneled_offload;
	/* LRO: packet_merge_mask, timeout (us), max IP payload (bytes) */
	uint8_t lro_mask;
	uint16_t lro_timeout_us;
	uint32_t lro_max_payload;
};

/* Match fields of a frame, its mask or its value (outer headers). */
struct cx_fs_spec {
	uint8_t smac[6];
	uint8_t dmac[6];
	uint16_t ethertype;
	uint16_t first_vid;
	uint8_t first_prio;
	uint8_t first_cfi;
	uint8_t cvlan_tag;
	uint8_t svlan_tag;
	uint8_t ip_version;
	uint8_t ip_protocol;
	uint8_t ip_dscp;
	uint8_t ip_ecn;
	uint8_t frag;
	uint8_t ttl;
	uint16_t tcp_flags;
	uint16_t tcp_sport;
	uint16_t tcp_dport;
	uint16_t udp_sport;
	uint16_t udp_dport;
	uint8_t src_ip[16];	/* IPv4 in the last 4 bytes */
	uint8_t dst_ip[16];
};

#define CX_FS_MAX_DEST		64
#define CX_FS_NIC_RX		0	/* MLX5_FLOW_TABLE_TYPE_NIC_RX */

struct cx_fs_dest {
	uint8_t type;		/* MLX5_IFC_FLOW_DESTINATION_TYPE_* */
	uint32_t id;		/* TIR, flow table */
};

struct cx_fte {
	struct cx_fte *next;	/* in the table, by flow_index */
	uint32_t index;
	uint32_t group_id;
	uint32_t action;	/* MLX5_FLOW_CONTEXT_ACTION_* */
	uint32_t flow_tag;
	struct cx_fs_spec value;	/* masked by the group's criteria */
	uint32_t ndest;
	struct cx_fs_dest dest[CX_FS_MAX_DEST];
	uint32_t ncounter;
	uint32_t counter[CX_FS_MAX_DEST];
};

struct cx_ft {
	uint32_t id;
	uint8_t type;		/* CX_FS_NIC_RX */
	uint8_t level;
	uint8_t log_size;
	uint8_t miss_action;	/* 0: default (drop), 1: go to miss_id */
	uint32_t miss_id;
	uint32_t ngroups;
	struct cx_fte *ftes;	/* sorted by index */
	uint32_t nftes;
};

struct cx_fg {
	uint32_t id;
	uint32_t ft;
	uint32_t start;
	uint32_t end;
	uint8_t criteria_enable;	/* MLX5_MATCH_* */
	struct cx_fs_spec mask;
	uint32_t nftes;
};

struct cx_fc {
	uint32_t id;
	uint64_t packets;
	uint64_t octets;
};

struct cx_mkey {
	uint32_t index;		/* mkey >> 8 */
	uint8_t variant;	/* mkey & 0xff */
	bool free;		/* made usable by a UMR */
	bool umr_en;
	uint8_t access_mode;	/* MLX5_MKC_ACCESS_MODE_* */
	uint8_t access;		/* a rw rr lw lr, bits 4..0 */
	bool length64;
	uint32_t pd;
	uint32_t qpn;
	uint64_t start;
	uint64_t len;
	uint8_t log_page_size;
	uint32_t octwords;	/* translations_octword_size */
	uint32_t nmtt;		/* entries in mtt[] (MTT: 8 bytes each) */
	uint64_t *mtt;		/* raw big-endian-decoded entries */
};

struct cx_qcnt {
	uint32_t id;
	uint32_t out_of_buffer;
};

/* Per-vport traffic counters (QUERY_VPORT_COUNTER); the data path adds. */
struct cx_vport_counters {
	uint64_t rx_ucast_pkts, rx_ucast_bytes;
	uint64_t rx_mcast_pkts, rx_mcast_bytes;
	uint64_t rx_bcast_pkts, rx_bcast_bytes;
	uint64_t tx_ucast_pkts, tx_ucast_bytes;
	uint64_t tx_mcast_pkts, tx_mcast_bytes;
	uint64_t tx_bcast_pkts, tx_bcast_bytes;
	uint64_t rx_err_pkts, tx_err_pkts;
};

#define CX_MAX_UC_LIST		128	/* 1 << log_max_current_uc_list */
#define CX_MAX_MC_LIST		4096	/* 1 << log_max_current_mc_list */
#define CX_MAX_VLAN_LIST	4096

/* The NIC vport context of the function. */
struct cx_vport {
	uint8_t perm_mac[6];
	uint16_t mtu;
	bool promisc_uc, promisc_mc, promisc_all;
	bool disable_uc_local_lb, disable_mc_local_lb;
	uint8_t min_inline;
	uint8_t admin_state;	/* MLX5_VPORT_ADMIN_STATE_* */
	uint64_t system_image_guid, node_guid, port_guid;
	uint32_t nuc, nmc, nvlan;
	uint8_t (*uc)[6];	/* CX_MAX_UC_LIST */
	uint8_t (*mc)[6];	/* CX_MAX_MC_LIST */
	uint16_t *vlan;		/* CX_MAX_VLAN_LIST */
	bool arm_change_event;
};

/*
 * RMON size classes (PPCNT RFC 2819 ether_stats_pkts*octets): the largest
 * wire length, FCS included, of each.
 */
#define CX_PORT_HIST_N	10
extern const uint16_t cx_port_hist_max[CX_PORT_HIST_N];

/*
 * What one direction of the port's wire carried, counted as the MAC does
 * on frames sent or received OK: a frame counts its wire length (padded to
 * the 60-byte minimum, plus the 4-byte FCS the model's frames leave out).
 * Read by PPCNT's IEEE 802.3, RFC 2863 and RFC 2819 groups.
 */
struct cx_port_wire {
	uint64_t frames;
	uint64_t octets;
	uint64_t ucast, mcast, bcast;
	uint64_t hist[CX_PORT_HIST_N];	/* by cx_port_hist_max */
};

/* The physical port. */
/*
 * The PPLM speed groups of a 25G-per-lane port (ConnectX-5), in the
 * register's order of its legacy fields: 10G/40G, 25G, 50G (2 lanes),
 * 56G, 100G (4 lanes).
 */
enum cx_fec_speed {
	CX_FEC_10G_40G,
	CX_FEC_25G,
	CX_FEC_50G,
	CX_FEC_56G,
	CX_FEC_100G,
	CX_FEC_SPEEDS,
};

/* FEC modes: bits of PPLM's cap, admin and fec_mode_active fields. */
#define CX_FEC_NONE		(1u << 0)
#define CX_FEC_FC		(1u << 1)	/* Firecode: BASE-R, clause 74 */
#define CX_FEC_RS		(1u << 2)	/* RS(528,514), clause 91 */
#define CX_PORT_LANES		4		/* PMLP width */

/*
 * Loopbacks: bits of PPLR's lb_cap and lb_en.  Phy local: what the port
 * transmits comes back to its own receiver, its transmitter off.
 */
#define CX_PPLR_LB_PHY_REMOTE	0x01u
#define CX_PPLR_LB_PHY_LOCAL	0x02u
#define CX_PPLR_LB_EXTERNAL	0x04u
#define CX_PPLR_LB_LL_LOCAL	0x80u

struct cx_port {
	bool admin_up;		/* PAOS admin_status */
	bool oper_up;
	bool link_down;		/* test port: cable pulled */
	uint8_t ee_event;	/* PAOS e: 0 no events, 1 event, 2 once */
	uint16_t admin_mtu;	/* PMTU */
	uint16_t oper_mtu;
	/*
	 * Frames over oper_mtu (FCS included), dropped: received (PPCNT
	 * IEEE 802.3 a_frame_too_long_errors) and sent (RFC 2863
	 * if_out_errors).
	 */
	uint64_t rx_oversize;
	uint64_t tx_oversize;
	struct cx_port_wire rx, tx;	/* frames OK, each direction */
	/*
	 * PAUSE frames (MAC control opcode 0x0001) received from the link
	 * partner and sent: PPCNT IEEE 802.3 a_pause_mac_ctrl_frames_* and,
	 * the only MAC control frames the model knows, a_mac_control_frames_*.
	 * Not counted in @rx/@tx (MAC control frames end in the MAC).
	 */
	uint64_t rx_pause_frames;
	uint64_t tx_pause_frames;
	uint32_t eth_proto_admin;	/* PTYS */
	bool pptx, pprx;	/* PFCC global pause */
	uint8_t pfctx, pfcrx;
	uint64_t port_events;
	uint64_t link_down_events;	/* PPCNT physical layer */
	/*
	 * FEC (PPLM): the administrative mode of each speed group (0 auto,
	 * else one CX_FEC_* bit), and the modes in effect: the admin ones
	 * the link came up with (a change waits for the link to retrain).
	 */
	uint16_t fec_admin[CX_FEC_SPEEDS];
	uint16_t fec_link[CX_FEC_SPEEDS];
	/*
	 * Blocks the port's FEC decoder corrected and could not correct
	 * (the test port's FEC_CORRECTED/FEC_UNCORRECTABLE): BASE-R per lane,
	 * RS over the port; PPCNT's physical layer groups read them.
	 */
	uint64_t fc_corrected[CX_PORT_LANES];
	uint64_t fc_uncorrectable[CX_PORT_LANES];
	uint64_t rs_corrected;
	uint64_t rs_uncorrectable;
	uint64_t fec_corrected_bits;	/* one bit a corrected block */
	uint64_t fec_uncounted;		/* asked while no FEC ran */
	/*
	 * Loopback (PPLR): the mode asked (lb_en, 0 or one CX_PPLR_LB_*
	 * bit) and the one the link came up with, which is the one in
	 * effect (a change waits for the link to retrain, as FEC does).
	 * Frames the phy looped back from the transmitter to the receiver.
	 */
	uint8_t lb_admin;
	uint8_t lb_link;
	uint64_t lb_frames;
};

struct cx_nic {
	struct cx_tab pd, td, mkey, qcnt, cq, sq, rq, tis, tir, rqt, ft, fg, fc;
	uint32_t root_ft;	/* NIC RX root, 0: none */
	struct cx_vport vport;
	struct cx_port port;
	struct cx_vport_counters vcnt;
	struct cx_tun_ports tun;	/* ADD_VXLAN_UDP_DPORT's table */
	uint64_t bad_refs;	/* commands refused for a bad reference */
};

/* Lookups for the data path; NULL when the number names nothing. */
static inline struct cx_cq *cx_cq_lookup(struct cx_core *c, uint32_t n)
{ return cx_tab_get(&c->func.nic->cq, n); }
static inline struct cx_sq *cx_sq_lookup(struct cx_core *c, uint32_t n)
{ return cx_tab_get(&c->func.nic->sq, n); }
static inline struct cx_rq *cx_rq_lookup(struct cx_core *c, uint32_t n)
{ return cx_tab_get(&c->func.nic->rq, n); }
static inline struct cx_tir *cx_tir_lookup(struct cx_core *c, uint32_t n)
{ return cx_tab_get(&c->func.nic->tir, n); }
static inline struct cx_tis *cx_tis_lookup(struct cx_core *c, uint32_t n)
{ return cx_tab_get(&c->func.nic->tis, n); }
static inline struct cx_rqt *cx_rqt_lookup(struct cx_core *c, uint32_t n)
{ return cx_tab_get(&c->func.nic->rqt, n); }
static inline struct cx_ft *cx_ft_lookup(struct cx_core *c, uint32_t n)
{ return cx_tab_get(&c->func.nic->ft, n); }
static inline struct cx_fg *cx_fg_lookup(struct cx_core *c, uint32_t n)
{ return cx_tab_get(&c->func.nic->fg, n); }
static inline struct cx_fc *cx_fc_lookup(struct cx_core *c, uint32_t n)
{ return cx_tab_get(&c->func.nic->fc, n); }
static inline struct cx_qcnt *cx_qcnt_lookup(struct cx_core *c, uint32_t n)
{ return cx_tab_get(&c->func.nic->qcnt, n); }
/* An mkey by its full value (index << 8 | variant). */
struct cx_mkey *cx_mkey_lookup(struct cx_core *c, uint32_t mkey);

/*
 * Flow steering for the receive path: the first entry of table @ft whose
 * group's mask matches @key (flow_index order), or NULL (a miss).
 */
struct cx_fte *cx_fs_match(struct cx_core *core, struct cx_ft *ft,
			   const struct cx_fs_spec *key);
/* Fill @key from a frame's outer headers; 0, or -1 if too short. */
int cx_fs_parse_frame(const void *frame, size_t len, struct cx_fs_spec *key);

/* Port (cx_vport.c): link state changes post PORT_CHANGE events. */
void cx_port_update(struct cx_core *core);
void cx_port_set_link(struct cx_core *core, bool up);
/*
 * FEC blocks the link partner's noise cost (cx_reg.c, the test port):
 * @n more corrected or uncorrectable blocks counted by the FEC running,
 * none when no FEC runs (link down, or no FEC).
 */
void cx_port_fec_blocks(struct cx_core *core, bool uncorrectable, uint32_t n);
/* The FEC mode the link runs (a CX_FEC_* bit), 0 when it is down. */
uint16_t cx_port_fec_active(const struct cx_port *p);

/* The vport and port as a function finds them (cx_vport.c). */
void cx_vport_reset(struct cx_core *core);

/* Life cycle of the whole store (cx_nic.c). */
int cx_nic_init(struct cx_core *core);
void cx_nic_release_all(struct cx_core *core);
void cx_nic_fini(struct cx_core *core);

/* Each owner frees what the function left behind of its objects. */
void cx_fs_release_all(struct cx_core *core);		/* cx_fs.c */
void cx_tir_release_all(struct cx_core *core);		/* cx_tir.c */
void cx_queues_release_all(struct cx_core *core);	/* cx_queues.c */
void cx_cq_release_all(struct cx_core *core);		/* cx_cq.c */
void cx_mkey_release_all(struct cx_core *core);	/* cx_mkey.c */
void cx_qcnt_release_all(struct cx_core *core);	/* cx_qcnt.c */
void cx_pd_release_all(struct cx_core *core);		/* cx_pd.c */

/* A handler refuses a command (cx_bad.c): logs, sets a syndrome. */
uint8_t cx_bad(struct cx_cmd *cmd, uint8_t status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define CX_BAD_PARAM(cmd, ...) \
	cx_bad(cmd, MLX5_CMD_STAT_BAD_PARAM_ERR, __VA_ARGS__)
#define CX_BAD_RES(cmd, ...) \
	cx_bad(cmd, MLX5_CMD_STAT_BAD_RES_ERR, __VA_ARGS__)
#define CX_BAD_STATE(cmd, ...) \
	cx_bad(cmd, MLX5_CMD_STAT_BAD_RES_STATE_ERR, __VA_ARGS__)
bool cx_pd_exists(struct cx_core *core, uint32_t pd);
bool cx_td_exists(struct cx_core *core, uint32_t td);

#endif /* CX_OBJ_H */
