/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk: the perfmon2 kernel-level monitoring API (KAPI) on perf_events.
 *
 * This is the public header for client modules.  It carries the perfmon2
 * data model with the field names and layouts of the 2006 perfmon2 headers,
 * so that a 2006 KAPI client compiles unchanged (through <linux/perfmon.h>),
 * the fourteen 2006 calls with their 2006 signatures, and pfmk's documented
 * extensions, all named pfmk_* or PFMK_*.
 *
 * Naming: PFM_* and pfarg_* are perfmon2 names and mean what they meant in
 * 2006.  PFMK_* and pfmk_* are pfmk's own.  Every call takes the opaque
 * descriptor returned by pfmk_create_context(); it is a handle, not a
 * pointer, and every call validates it.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_PFMK_H
#define _PFMK_PFMK_H

#include <linux/bits.h>
#include <linux/module.h>
#include <linux/types.h>
#include <pfmk/ns.h>

struct completion;

/*
 * Register name space.  PMC and PMD numbers run from 0 to the number of
 * registers of the context's PMU description (see <pfmk/pmu.h>), at most
 * PFM_MAX_PMCS / PFM_MAX_PMDS.  Bit vectors are arrays of __u64.
 */
#define PFM_MAX_HW_PMCS		256
#define PFM_MAX_HW_PMDS		256
#define PFM_MAX_XTRA_PMCS	64
#define PFM_MAX_XTRA_PMDS	64
#define PFM_MAX_PMCS		(PFM_MAX_HW_PMCS + PFM_MAX_XTRA_PMCS)
#define PFM_MAX_PMDS		(PFM_MAX_HW_PMDS + PFM_MAX_XTRA_PMDS)

#define PFM_BVSIZE(x)		(((x) + 63) / 64)
#define PFM_HW_PMD_BV		PFM_BVSIZE(PFM_MAX_HW_PMDS)
#define PFM_PMD_BV		PFM_BVSIZE(PFM_MAX_PMDS)
#define PFM_PMC_BV		PFM_BVSIZE(PFM_MAX_PMCS)

/*
 * perfmon2 declared pfm_flags_t __bitwise; pfmk keeps the name but not the
 * sparse annotation, which made every 2006 client assignment of a plain
 * PFM_FL_* constant a sparse warning.
 */
typedef __u32 pfm_flags_t;

/* Sampling format identifier (a UUID in 2006); all zeroes: no sampling. */
typedef __u8 pfm_uuid_t[16];

/* Register flags (reg_flags), bits 0-15 on input. */
#define PFM_REGFL_OVFL_NOTIFY	0x1	/* PMD: message on overflow */
#define PFM_REGFL_RANDOM	0x2	/* PMD: randomize the reset value */
#define PFM_REGFL_NO_EMUL64	0x4	/* PMC: accepted, ignored (always 64 bit) */

/* Register error flags (reg_flags), bits 24-31, set on output with -EINVAL. */
#define PFM_REG_RETFL_NOTAVAIL	BIT(31)	/* register not implemented */
#define PFM_REG_RETFL_EINVAL	BIT(30)	/* invalid value or flags */
#define PFM_REG_RETFL_NOSET	BIT(29)	/* event set does not exist */
#define PFM_REG_RETFL_MASK	(PFM_REG_RETFL_NOTAVAIL | \
				 PFM_REG_RETFL_EINVAL | \
				 PFM_REG_RETFL_NOSET)
#define PFM_REG_HAS_ERROR(flag)	(((flag) & PFM_REG_RETFL_MASK) != 0)

/* Event set flags (set_flags). */
#define PFM_SETFL_OVFL_SWITCH	0x01	/* switch set on overflow */
#define PFM_SETFL_TIME_SWITCH	0x02	/* switch set on timeout */
#define PFM_SETFL_EXPL_NEXT	0x04	/* use set_id_next as the next set */

/* Context flags (ctx_flags). */
#define PFM_FL_NOTIFY_BLOCK	0x01	/* rejected: no task to block */
#define PFM_FL_SYSTEM_WIDE	0x02	/* required: monitor one CPU */
#define PFM_FL_MAP_SETS		0x10	/* rejected: nothing to mmap */
#define PFM_FL_OVFL_NO_MSG	0x80	/* no overflow messages */

/* Context states, as reported by pfmk_get_state(). */
#define PFM_CTX_UNLOADED	1	/* not attached to a CPU */
#define PFM_CTX_LOADED		2	/* attached to a CPU */
#define PFM_CTX_MASKED		3	/* attached, monitoring masked */
#define PFM_CTX_ZOMBIE		4	/* never reported by pfmk */
#define PFMK_STATE_STARTED	0x100	/* pfmk_get_state(): started */
#define PFMK_STATE_OFFLINE	0x200	/* pfmk_get_state(): CPU offline */
#define PFMK_STATE_FROZEN	0x400	/* pfmk_get_state(): frozen by a crash */

/* Length of the name of a PMU description, NUL included. */
#define PFMK_PMU_NAME_LEN	32

/**
 * struct pfarg_ctx - argument of pfmk_create_context()
 * @ctx_smpl_buf_id: sampling format identifier (PFM_DFL_SMPL_UUID for the
 *	default format); all zeroes for none.
 * @ctx_flags: PFM_FL_* flags; PFM_FL_SYSTEM_WIDE is required.
 * @ctx_fd: output: always -1 (a KAPI context has no file descriptor).
 * @ctx_smpl_buf_size: output: size of the sampling buffer, 0 without one.
 * @ctx_reserved3: reserved by perfmon2, overlaid by pfmk's extensions.
 * @ctx_pmu_name: pfmk extension: name of the PMU description to program
 *	the context with, NUL-terminated; empty selects "generic".
 *
 * The layout is that of perfmon2 2.2 (2006).  Zero the structure before
 * filling it in: pfmk reads @ctx_pmu_name from the reserved area.
 */
struct pfarg_ctx {
	pfm_uuid_t	ctx_smpl_buf_id;
	pfm_flags_t	ctx_flags;
	__s32		ctx_fd;
	__u64		ctx_smpl_buf_size;
	union {
		__u64	ctx_reserved3[12];
		char	ctx_pmu_name[PFMK_PMU_NAME_LEN];
	};
};

/**
 * struct pfarg_pmc - argument of pfmk_write_pmcs()
 * @reg_num: PMC number.
 * @reg_set: event set of the register.
 * @reg_flags: input: PFM_REGFL_NO_EMUL64 only; output: PFM_REG_RETFL_*.
 * @reg_value: PMC value, whose meaning the PMU description defines.
 * @reg_reserved2: reserved.
 */
struct pfarg_pmc {
	__u16		reg_num;
	__u16		reg_set;
	pfm_flags_t	reg_flags;
	__u64		reg_value;
	__u64		reg_reserved2[4];
};

/**
 * struct pfarg_pmd - argument of pfmk_write_pmds() and pfmk_read_pmds()
 * @reg_num: PMD number.
 * @reg_set: event set of the register.
 * @reg_flags: input: PFM_REGFL_OVFL_NOTIFY, PFM_REGFL_RANDOM;
 *	output: PFM_REG_RETFL_*.
 * @reg_value: the 64-bit virtual counter: initial value on write, current
 *	value on read.
 * @reg_long_reset: value reloaded after an overflow notification (restart).
 * @reg_short_reset: value reloaded after an overflow.
 * @reg_last_reset_val: output: last value the PMD was reset to.
 * @reg_ovfl_switch_cnt: number of overflows before an event set switch;
 *	on read, the overflows left before it.
 * @reg_reset_pmds: PMDs to reset when this PMD overflows.
 * @reg_smpl_pmds: PMDs to record in a sample when this PMD overflows.
 * @reg_smpl_eventid: opaque identifier recorded with samples.
 * @reg_random_mask: bits of the random value added to a reset value.
 * @reg_random_seed: seed of the pseudo-random generator.
 * @reg_reserved2: reserved.
 */
struct pfarg_pmd {
	__u16		reg_num;
	__u16		reg_set;
	pfm_flags_t	reg_flags;
	__u64		reg_value;
	__u64		reg_long_reset;
	__u64		reg_short_reset;
	__u64		reg_last_reset_val;
	__u64		reg_ovfl_switch_cnt;
	__u64		reg_reset_pmds[PFM_PMD_BV];
	__u64		reg_smpl_pmds[PFM_PMD_BV];
	__u64		reg_smpl_eventid;
	__u64		reg_random_mask;
	__u32		reg_random_seed;
	__u32		reg_reserved2[7];
};

/**
 * struct pfarg_start - optional argument of pfmk_start()
 * @start_set: event set to start with.
 * @start_reserved1: reserved.
 * @start_reserved2: reserved.
 * @reserved3: reserved.
 */
struct pfarg_start {
	__u16		start_set;
	__u16		start_reserved1;
	__u32		start_reserved2;
	__u64		reserved3[3];
};

/**
 * struct pfarg_load - argument of pfmk_load_context()
 * @load_pid: for a system-wide context: the CPU to monitor.
 * @load_set: event set to load first.
 * @load_reserved1: reserved.
 * @load_reserved2: reserved.
 */
struct pfarg_load {
	__u32		load_pid;
	__u16		load_set;
	__u16		load_reserved1;
	__u64		load_reserved2[3];
};

/**
 * struct pfarg_setdesc - argument of pfmk_create_evtsets()
 * @set_id: set identifier.
 * @set_id_next: next set with PFM_SETFL_EXPL_NEXT.
 * @set_flags: PFM_SETFL_* flags.
 * @set_timeout: requested switch timeout in microseconds.
 * @set_reserved1: reserved.
 * @set_mmap_offset: unused by the KAPI.
 * @reserved: reserved.
 */
struct pfarg_setdesc {
	__u16		set_id;
	__u16		set_id_next;
	pfm_flags_t	set_flags;
	__u32		set_timeout;
	__u32		set_reserved1;
	__u64		set_mmap_offset;
	__u64		reserved[5];
};

/**
 * struct pfarg_setinfo - argument of pfmk_getinfo_evtsets(), pfmk_delete_evtsets()
 * @set_id: set identifier (input).
 * @set_id_next: output: next set.
 * @set_flags: output: set flags, or PFM_REG_RETFL_* on error.
 * @set_ovfl_pmds: output: PMDs that overflowed last.
 * @set_runs: output: number of times the set was activated.
 * @set_timeout: output: effective switch timeout in microseconds.
 * @set_reserved1: reserved.
 * @set_act_duration: output: total time the set was active, in ns.
 * @set_mmap_offset: unused by the KAPI.
 * @set_avail_pmcs: output: PMCs the set can use.
 * @set_avail_pmds: output: PMDs the set can use.
 * @reserved: reserved.
 */
struct pfarg_setinfo {
	__u16		set_id;
	__u16		set_id_next;
	pfm_flags_t	set_flags;
	__u64		set_ovfl_pmds[PFM_PMD_BV];
	__u64		set_runs;
	__u32		set_timeout;
	__u32		set_reserved1;
	__u64		set_act_duration;
	__u64		set_mmap_offset;
	__u64		set_avail_pmcs[PFM_PMC_BV];
	__u64		set_avail_pmds[PFM_PMD_BV];
	__u64		reserved[4];
};

/* Message types. */
#define PFM_MSG_OVFL	1	/* a PMD overflowed */
#define PFM_MSG_END	2	/* the context was torn down (never sent) */
#define PFMK_MSG_CPU_OFFLINE	0x100	/* pfmk: the context's CPU went away */
#define PFMK_MSG_CPU_ONLINE	0x101	/* pfmk: it is back, context re-armed */

/**
 * struct pfm_ovfl_msg - overflow message
 * @msg_type: PFM_MSG_OVFL.
 * @msg_ovfl_pid: pid of the interrupted task.
 * @msg_ovfl_pmds: bit mask of the PMDs that overflowed.
 * @msg_active_set: event set active at the overflow.
 * @msg_ovfl_cpu: CPU of the overflow.
 * @msg_ovfl_tid: tid of the interrupted task.
 * @msg_ovfl_ip: instruction pointer at the overflow.
 */
struct pfm_ovfl_msg {
	__u32		msg_type;
	__u32		msg_ovfl_pid;
	__u64		msg_ovfl_pmds[PFM_HW_PMD_BV];
	__u16		msg_active_set;
	__u16		msg_ovfl_cpu;
	__u32		msg_ovfl_tid;
	__u64		msg_ovfl_ip;
};

/**
 * struct pfmk_cpu_msg - CPU hotplug message (pfmk extension)
 * @msg_type: PFMK_MSG_CPU_OFFLINE or PFMK_MSG_CPU_ONLINE.
 * @msg_cpu: the context's CPU.
 * @msg_cycle: number of times this context's CPU went offline since the
 *	context was loaded, this event included (an OFFLINE and the ONLINE
 *	that follows it carry the same number).
 * @msg_reserved: reserved, 0.
 *
 * PFMK_MSG_CPU_OFFLINE: the CPU went offline; the PMD values were saved and
 * the context stays loaded (pfmk_get_state() adds PFMK_STATE_OFFLINE).
 * PFMK_MSG_CPU_ONLINE: the CPU came back and the context was re-armed from
 * the saved values, started again if it was started.
 */
struct pfmk_cpu_msg {
	__u32		msg_type;
	__u32		msg_cpu;
	__u64		msg_cycle;
	__u64		msg_reserved[2];
};

/**
 * union pfm_msg - a message returned by pfmk_read()
 * @type: PFM_MSG_* or PFMK_MSG_* type, common to all messages.
 * @pfm_ovfl_msg: the message when @type is PFM_MSG_OVFL.
 * @pfmk_cpu_msg: the message when @type is PFMK_MSG_CPU_OFFLINE or
 *	PFMK_MSG_CPU_ONLINE.
 */
union pfm_msg {
	__u32			type;
	struct pfm_ovfl_msg	pfm_ovfl_msg;
	struct pfmk_cpu_msg	pfmk_cpu_msg;
};

/* Version of the perfmon2 interface pfmk implements. */
#define PFM_VERSION_MAJ		2U
#define PFM_VERSION_MIN		2U
#define PFM_VERSION		(((PFM_VERSION_MAJ & 0xffff) << 16) | \
				 (PFM_VERSION_MIN & 0xffff))
#define PFM_VERSION_MAJOR(x)	(((x) >> 16) & 0xffff)
#define PFM_VERSION_MINOR(x)	((x) & 0xffff)

/*
 * __pfmk_must_check: __must_check, on every KAPI call that can fail; not
 * on pfmk_close(), which fails only for a descriptor that is not open and
 * leaves none open either way, nor on pfmk_aux_supported(), which cannot
 * fail.  A client that ignores such a return gets a -Wunused-result
 * warning, in every build; 2006 code that must build unchanged with
 * -Werror can define the macro empty (ccflags-y += -D__pfmk_must_check=):
 * its probe is its own definition, as in <pfmk/compat.h>.
 * Documentation/porting.rst.
 */
#ifndef __pfmk_must_check
#define __pfmk_must_check	__must_check
#endif

/* The 2006 KAPI. */
__pfmk_must_check
int __pfmk_create_context(struct pfarg_ctx *req, void *smpl_arg,
			  size_t smpl_size, struct completion *c, void **desc,
			  void **buf, struct module *owner);

/**
 * pfmk_create_context() - create a system-wide monitoring context
 * @req: context description.
 * @smpl_arg: sampling format argument.
 * @smpl_size: size of @smpl_arg.
 * @c: the owner's completion.
 * @desc: output: the context's descriptor.
 * @buf: output, may be NULL: the sampling buffer's address.
 *
 * The 2006 call, unchanged for its callers: it records the calling module
 * (THIS_MODULE) as the context's owner, so that pfmk can reclaim the
 * context if that module unloads without closing it.  See
 * __pfmk_create_context() for the arguments, context and return values.
 */
#define pfmk_create_context(req, smpl_arg, smpl_size, c, desc, buf)	\
	__pfmk_create_context(req, smpl_arg, smpl_size, c, desc, buf,	\
			      THIS_MODULE)
__pfmk_must_check int pfmk_write_pmcs(void *desc, struct pfarg_pmc *req, int count);
__pfmk_must_check int pfmk_write_pmds(void *desc, struct pfarg_pmd *req, int count);
__pfmk_must_check int pfmk_read_pmds(void *desc, struct pfarg_pmd *req, int count);
__pfmk_must_check int pfmk_restart(void *desc);
__pfmk_must_check int pfmk_stop(void *desc);
__pfmk_must_check int pfmk_start(void *desc, struct pfarg_start *req);
__pfmk_must_check int pfmk_load_context(void *desc, struct pfarg_load *req);
__pfmk_must_check int pfmk_unload_context(void *desc);
__pfmk_must_check int pfmk_delete_evtsets(void *desc, struct pfarg_setinfo *req, int count);
__pfmk_must_check int pfmk_create_evtsets(void *desc, struct pfarg_setdesc *req, int count);
__pfmk_must_check int pfmk_getinfo_evtsets(void *desc, struct pfarg_setinfo *req, int count);
int pfmk_close(void *desc);
__pfmk_must_check ssize_t pfmk_read(void *desc, union pfm_msg *msg, size_t sz, int noblock);

/* pfmk extensions. */

/**
 * struct pfmk_pmd_time - enabled and running times of a PMD
 * @time_enabled: ns the PMD's event was enabled, over all loads.
 * @time_running: ns it was actually counting (less than @time_enabled when
 *	perf multiplexed it with other events).
 */
struct pfmk_pmd_time {
	__u64		time_enabled;
	__u64		time_running;
};

/**
 * struct pfmk_ctx_stats - overflow statistics of a context
 * @ovfl_count: overflows seen by the overflow handler.
 * @smpl_count: samples recorded by the sampling format.
 * @ovfl_masked: overflows while the context was masked (not recorded).
 * @ovfl_nested: overflows that arrived while another overflow of the
 *	same context was being handled (NMI within an interrupt), dropped.
 * @throttled: overflows at which perf throttled an event (it then stays
 *	silent until the next tick).
 * @ovfl_missed: whole periods that went by without an overflow, because
 *	the overflow interrupt came late (the PMD had run past zero by that
 *	many periods); the samples a late interrupt cost.
 * @notify_count: notifications (masking overflows and full buffers).
 * @msgs_dropped: messages lost because the queue was full.
 * @restarts: pfmk_restart() calls that unmasked the context.
 * @set_switches: event set switches done (on timeout or overflow).
 * @switch_lat_max: longest delay, in ns, between a switch being due (the
 *	timeout's expiry time, or the switching overflow) and the new set
 *	counting.
 * @switch_lat_total: sum of those delays, in ns (divide by @set_switches).
 * @reserved: reserved, 0.
 */
struct pfmk_ctx_stats {
	__u64		ovfl_count;
	__u64		smpl_count;
	__u64		ovfl_masked;
	__u64		ovfl_nested;
	__u64		throttled;
	__u64		ovfl_missed;
	__u64		notify_count;
	__u64		msgs_dropped;
	__u64		restarts;
	__u64		set_switches;
	__u64		switch_lat_max;
	__u64		switch_lat_total;
	__u64		reserved[4];
};

/**
 * struct pfmk_global_stats - pfmk-wide counters
 * @ctx_alive: contexts whose memory is not freed yet (created - freed).
 * @ctx_created: contexts created since pfmk was loaded.
 * @ctx_freed: contexts freed since pfmk was loaded.
 * @ctx_open: contexts not closed yet (counted against the max_contexts
 *	limit).
 * @ctx_reclaimed: contexts closed by pfmk because the module that
 *	created them was unloaded without closing them.
 * @events: perf events held by all contexts (max_events limit).
 * @smpl_bytes: bytes of sampling buffers (max_smpl_mem limit).
 * @mem_bytes: bytes of memory held by open contexts, buffers included.
 * @cpu_offline: times a loaded context's CPU went offline.
 * @cpu_online: times a context was re-armed when its CPU came back.
 * @rearm_failed: re-arms that failed (the context stays offline).
 * @reserved: reserved, 0.
 */
struct pfmk_global_stats {
	__u64		ctx_alive;
	__u64		ctx_created;
	__u64		ctx_freed;
	__u64		ctx_open;
	__u64		ctx_reclaimed;
	__u64		events;
	__u64		smpl_bytes;
	__u64		mem_bytes;
	__u64		cpu_offline;
	__u64		cpu_online;
	__u64		rearm_failed;
	__u64		reserved[5];
};

__pfmk_must_check int pfmk_read_pmds_time(void *desc, struct pfarg_pmd *req,
					  struct pfmk_pmd_time *time, int count);
__pfmk_must_check int pfmk_get_state(void *desc);
__pfmk_must_check int pfmk_get_stats(void *desc, struct pfmk_ctx_stats *stats);
__pfmk_must_check int pfmk_get_global_stats(struct pfmk_global_stats *stats);

#endif /* _PFMK_PFMK_H */
