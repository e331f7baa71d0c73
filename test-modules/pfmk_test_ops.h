/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_test_ops.h - KAPI calls the KTAP test modules make the same way
 *
 * Shared by pfmk_smoke, pfmk_emu_smoke, pfmk_pmu_exact, pfmk_postmortem,
 * pfmk_hotplug_stress and pfmk_test_leaky.  static inline, as pfmk_ktap.h: each of these
 * modules is one object, so there is no second one to link into it.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_TEST_OPS_H
#define _PFMK_TEST_OPS_H

#include <linux/completion.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>

#include <pfmk/pfmk.h>
#include <pfmk/smpl_dfl.h>

/**
 * pfmk_test_create() - a system-wide context, counting or sampling
 * @pmu: name of its PMU description, or NULL (or "") for the default.
 * @buf_size: bytes of its default-format buffer; 0: a counting context,
 *	no format.
 * @done: the owner's completion.
 * @desc: the new context.
 * @buf: the buffer (its struct pfm_dfl_smpl_hdr first), or NULL.
 *
 * The request every KTAP module writes by hand: PFM_FL_SYSTEM_WIDE and
 * nothing else; a context whose request pfmk_encode() fills, or with a
 * format of its own, is created by its module.
 *
 * Context: process context, may sleep.
 * Return: pfmk_create_context()'s.
 */
static inline int pfmk_test_create(const char *pmu, u64 buf_size,
				   struct completion *done, void **desc,
				   void **buf)
{
	static const pfm_uuid_t uuid = PFM_DFL_SMPL_UUID;
	struct pfm_dfl_smpl_arg arg;
	struct pfarg_ctx req;

	memset(&req, 0, sizeof(req));
	memset(&arg, 0, sizeof(arg));
	req.ctx_flags = PFM_FL_SYSTEM_WIDE;
	if (pmu)
		strscpy(req.ctx_pmu_name, pmu, sizeof(req.ctx_pmu_name));
	if (!buf_size)
		return pfmk_create_context(&req, NULL, 0, done, desc, buf);
	memcpy(req.ctx_smpl_buf_id, uuid, sizeof(uuid));
	arg.buf_size = buf_size;
	return pfmk_create_context(&req, &arg, sizeof(arg), done, desc, buf);
}

/**
 * pfmk_test_load() - load a system-wide context on @cpu
 * @desc: the context.
 * @cpu: the CPU.
 *
 * Context: process context, may sleep.
 * Return: pfmk_load_context()'s.
 */
static inline int pfmk_test_load(void *desc, int cpu)
{
	struct pfarg_load load;

	memset(&load, 0, sizeof(load));
	load.load_pid = cpu;
	return pfmk_load_context(desc, &load);
}

/**
 * pfmk_test_load_start() - load a system-wide context on @cpu and start it
 * @desc: the context.
 * @cpu: the CPU.
 *
 * Context: process context, may sleep.
 * Return: pfmk_load_context()'s or pfmk_start()'s, whichever failed.
 */
static inline int pfmk_test_load_start(void *desc, int cpu)
{
	return pfmk_test_load(desc, cpu) ?: pfmk_start(desc, NULL);
}

/* Most PMDs pfmk_test_read_pmds() reads in one call. */
#define PFMK_TEST_READ_MAX	2

/**
 * pfmk_test_read_pmds() - read consecutive PMDs of set 0 in one call
 * @desc: the context.
 * @first: number of the first PMD.
 * @n: how many, 1 to %PFMK_TEST_READ_MAX.
 * @v: their values, @n of them; written even on failure (with what
 *	pfmk_read_pmds() left, zero if it wrote nothing).
 *
 * One pfmk_read_pmds() call for all @n, so that two PMDs are read
 * together as a caller timing the read or racing hotplug expects.
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL if @n is out of range, or pfmk_read_pmds()'s errno.
 */
static inline int pfmk_test_read_pmds(void *desc, u16 first, unsigned int n,
				      u64 *v)
{
	struct pfarg_pmd pmd[PFMK_TEST_READ_MAX];
	unsigned int i;
	int ret;

	if (!n || n > PFMK_TEST_READ_MAX)
		return -EINVAL;
	memset(pmd, 0, sizeof(pmd));
	for (i = 0; i < n; i++)
		pmd[i].reg_num = first + i;
	ret = pfmk_read_pmds(desc, pmd, n);
	for (i = 0; i < n; i++)
		v[i] = pmd[i].reg_value;
	return ret;
}

#endif /* _PFMK_TEST_OPS_H */
