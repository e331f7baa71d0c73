/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk tracepoints (system "pfmk", under tracefs events/pfmk/):
 *
 *   pfmk_state	a KAPI call changed a context's state (load, unload,
 *		start, stop, restart, close)
 *   pfmk_overflow	an overflow handled (NMI or hard-irq): PMD, set, and
 *		whether it was masked already, notified, or masked it ("full")
 *   pfmk_msg	a message queued for the owner
 *   pfmk_set_switch	an event set switch, with its latency
 *   pfmk_hotplug	a context taken offline with its CPU, or re-armed
 *
 * Copyright (C) 2026 The pfmk authors
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM pfmk

#if !defined(_PFMK_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _PFMK_TRACE_H

#include <linux/tracepoint.h>

/*
 * Operations and hotplug steps are numbers printed as names: no string
 * fields, whose __assign_str() changed its arguments in 6.10.
 */
#define PFMK_TR_LOAD		0
#define PFMK_TR_UNLOAD		1
#define PFMK_TR_START		2
#define PFMK_TR_STOP		3
#define PFMK_TR_RESTART		4
#define PFMK_TR_CLOSE		5
#define PFMK_TR_OFFLINE		6
#define PFMK_TR_REARM		7
#define PFMK_TR_REARM_FAILED	8

TRACE_EVENT(pfmk_state,
	    TP_PROTO(unsigned long handle, int cpu, unsigned int op, int state),
	    TP_ARGS(handle, cpu, op, state),
	    TP_STRUCT__entry(__field(unsigned long, handle)
			     __field(int, cpu)
			     __field(unsigned int, op)
			     __field(int, state)),
	    TP_fast_assign(__entry->handle = handle;
			   __entry->cpu = cpu;
			   __entry->op = op;
			   __entry->state = state;),
	    TP_printk("ctx=%#lx cpu=%d op=%s state=%#x", __entry->handle,
		      __entry->cpu,
		      __print_symbolic(__entry->op, { PFMK_TR_LOAD, "load" },
				       { PFMK_TR_UNLOAD, "unload" },
				       { PFMK_TR_START, "start" },
				       { PFMK_TR_STOP, "stop" },
				       { PFMK_TR_RESTART, "restart" },
				       { PFMK_TR_CLOSE, "close" }),
		      __entry->state)
);

TRACE_EVENT(pfmk_overflow,
	    TP_PROTO(unsigned long handle, unsigned int pmd, unsigned int set,
		     bool masked, bool notify, bool full),
	    TP_ARGS(handle, pmd, set, masked, notify, full),
	    TP_STRUCT__entry(__field(unsigned long, handle)
			     __field(unsigned int, pmd)
			     __field(unsigned int, set)
			     __field(bool, masked)
			     __field(bool, notify)
			     __field(bool, full)),
	    TP_fast_assign(__entry->handle = handle;
			   __entry->pmd = pmd;
			   __entry->set = set;
			   __entry->masked = masked;
			   __entry->notify = notify;
			   __entry->full = full;),
	    TP_printk("ctx=%#lx pmd=%u set=%u masked=%d notify=%d full=%d",
		      __entry->handle, __entry->pmd, __entry->set, __entry->masked,
		      __entry->notify, __entry->full)
);

TRACE_EVENT(pfmk_msg,
	    TP_PROTO(unsigned long handle, u32 type, bool queued),
	    TP_ARGS(handle, type, queued),
	    TP_STRUCT__entry(__field(unsigned long, handle)
			     __field(u32, type)
			     __field(bool, queued)),
	    TP_fast_assign(__entry->handle = handle;
			   __entry->type = type;
			   __entry->queued = queued;),
	    TP_printk("ctx=%#lx type=%#x queued=%d", __entry->handle,
		      __entry->type, __entry->queued)
);

TRACE_EVENT(pfmk_set_switch,
	    TP_PROTO(unsigned long handle, unsigned int from, unsigned int to,
		     u64 latency_ns),
	    TP_ARGS(handle, from, to, latency_ns),
	    TP_STRUCT__entry(__field(unsigned long, handle)
			     __field(unsigned int, from)
			     __field(unsigned int, to)
			     __field(u64, latency_ns)),
	    TP_fast_assign(__entry->handle = handle;
			   __entry->from = from;
			   __entry->to = to;
			   __entry->latency_ns = latency_ns;),
	    TP_printk("ctx=%#lx from=%u to=%u latency_ns=%llu", __entry->handle,
		      __entry->from, __entry->to, __entry->latency_ns)
);

TRACE_EVENT(pfmk_hotplug,
	    TP_PROTO(unsigned long handle, int cpu, unsigned int what, int err),
	    TP_ARGS(handle, cpu, what, err),
	    TP_STRUCT__entry(__field(unsigned long, handle)
			     __field(int, cpu)
			     __field(unsigned int, what)
			     __field(int, err)),
	    TP_fast_assign(__entry->handle = handle;
			   __entry->cpu = cpu;
			   __entry->what = what;
			   __entry->err = err;),
	    TP_printk("ctx=%#lx cpu=%d %s err=%d", __entry->handle, __entry->cpu,
		      __print_symbolic(__entry->what, { PFMK_TR_OFFLINE, "offline" },
				       { PFMK_TR_REARM, "rearm" },
				       { PFMK_TR_REARM_FAILED, "rearm_failed" }),
		      __entry->err)
);

#endif /* _PFMK_TRACE_H */

/* This part must be outside the header guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH core
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
