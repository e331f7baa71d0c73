// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_aux_smoke: KTAP tests of pfmk AUX for every kernel, KUnit or not,
 * and the AUX copy-out throughput measurement.
 *
 * Runs at module load and prints a KTAP document with pr_info().  Which
 * cases run is the harness's word, not pfmk's: pfmk_test_aux_pmu's
 * aux_patch (pfmk_test_aux_patch()) says whether the kernel carries
 * pfmk's kernel-owned AUX patch, and every case first checks that
 * pfmk_aux_supported() agrees with it.  Without the patch,
 * aux_unsupported checks the -EOPNOTSUPP contract and the other tests are
 * skipped with that reason; with it, aux_stream checks a short stop-when-full stream
 * and aux_copy_throughput_4k, _64k and _1m measure pfmk_aux_copy() of a
 * buffer of that size against memcpy() of the same size in the same run
 * and print the ratio as a diagnostic ("# aux_copy_throughput: ..."); they
 * assert no threshold.  The KUnit suite (pfmk_aux_kunit) covers AUX in
 * depth.  Module init returns 0.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <pfmk/compat.h>
#include <pfmk/aux.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>

#include "pfmk_ktap.h"
#include "pfmk_test_aux_pmu.h"
#include "pfmk_test_file.h"
#include "pfmk_test_sort.h"

#define AUXS_NO_PATCH \
	"the harness says the kernel lacks pfmk's kernel-owned AUX patch (patches/linux-<series>/)"
#define AUXS_PATCH \
	"the harness says the kernel has pfmk's kernel-owned AUX patch"

/*
 * Throughput runs: AUX buffers of 4 KiB, 64 KiB, ... up to bench_kib,
 * each round copying at least bench_round_kib (and bench_loops copies).
 */
static unsigned int bench_kib = 1024;
module_param(bench_kib, uint, 0444);
MODULE_PARM_DESC(bench_kib, "largest AUX buffer of the throughput runs, KiB (4 to 1024)");

static unsigned int bench_round_kib = 4096;
module_param(bench_round_kib, uint, 0444);
MODULE_PARM_DESC(bench_round_kib, "bytes copied per round and side, KiB");

static unsigned int bench_loops = 4;
module_param(bench_loops, uint, 0444);
MODULE_PARM_DESC(bench_loops, "minimum copies per round");

/*
 * The throughput cases' diagnostic lines begin "# aux_copy_throughput: "
 * whichever size's case prints them: scripts/bench.py parses them.
 */
#define AUXS_TPUT_TAG	"aux_copy_throughput"

#define AUXS_MAX_ROUNDS	16
static unsigned int bench_rounds = 5;
module_param(bench_rounds, uint, 0444);
MODULE_PARM_DESC(bench_rounds, "timed rounds after one warm-up round (1 to 16)");

struct auxs {
	const char		*name;
	int			result;	/* 0 pass, 1 fail, 2 skip */
	const char		*skip;
	struct completion	done;
	void			*desc;
	int			cpu;
	int			patch;	/* pfmk_test_aux_patch() */
	struct pfmk_test_aux_out out;
};

static void auxs_fail(struct auxs *s, int line, const char *cond)
{
	pr_info("# %s: line %d: %s\n", s->name, line, cond);
	s->result = 1;
}

#define AUXS_CHECK(s, cond) do {					\
	if (!(cond))							\
		auxs_fail(s, __LINE__, #cond);				\
} while (0)

static int auxs_open(struct auxs *s, size_t size, unsigned int flags)
{
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };
	struct pfarg_pmc pmc = { .reg_value = PFMK_TEST_AUX_PMC(1, 0) };
	struct pfarg_load load = { .load_pid = s->cpu };
	int ret;

	strscpy(ctx.ctx_pmu_name, PFMK_TEST_AUX_NAME, sizeof(ctx.ctx_pmu_name));
	ret = pfmk_create_context(&ctx, NULL, 0, &s->done, &s->desc, NULL);
	if (ret)
		return ret;
	ret = pfmk_write_pmcs(s->desc, &pmc, 1) ?:
	      pfmk_aux_setup(s->desc, 0, size, flags) ?:
	      pfmk_load_context(s->desc, &load) ?:
	      pfmk_start(s->desc, NULL);
	if (ret) {
		pfmk_close(s->desc);
		s->desc = NULL;
	}
	return ret;
}

static void auxs_close(struct auxs *s)
{
	if (s->desc)
		pfmk_close(s->desc);
	s->desc = NULL;
}

static void aux_unsupported(struct auxs *s)
{
	struct pfarg_ctx ctx = { .ctx_flags = PFM_FL_SYSTEM_WIDE };

	strscpy(ctx.ctx_pmu_name, PFMK_TEST_AUX_NAME, sizeof(ctx.ctx_pmu_name));
	AUXS_CHECK(s, !pfmk_create_context(&ctx, NULL, 0, &s->done, &s->desc,
					   NULL));
	if (s->desc)
		AUXS_CHECK(s, pfmk_aux_setup(s->desc, 0, PAGE_SIZE, 0) ==
			   -EOPNOTSUPP);
	auxs_close(s);
}

static void aux_stream(struct auxs *s)
{
	const struct pfmk_test_aux_rec *r;
	struct pfmk_aux_info info;
	u64 i;

	AUXS_CHECK(s, !auxs_open(s, PAGE_SIZE, 0));
	if (!s->desc)
		return;
	AUXS_CHECK(s, !pfmk_test_aux_write(s->cpu, 100));
	s->out.len = 0;
	AUXS_CHECK(s, !pfmk_aux_copy(s->desc, SIZE_MAX, pfmk_test_aux_sink,
				     &s->out, &info));
	AUXS_CHECK(s, s->out.len == 100 * PFMK_TEST_AUX_REC);
	AUXS_CHECK(s, info.from == 0 && info.to == s->out.len && !info.flags);
	r = (const void *)s->out.buf;
	for (i = 0; i < s->out.len / PFMK_TEST_AUX_REC; i++)
		if (!pfmk_test_aux_rec_ok(&r[i], i)) {
			AUXS_CHECK(s, pfmk_test_aux_rec_ok(&r[i], i));
			break;
		}
	auxs_close(s);
}

/* One timed round of @loops copy-outs; ns, or 0 on an error. */
static u64 auxs_time_copy(struct auxs *s, size_t size, unsigned int loops)
{
	struct pfmk_aux_info info;
	unsigned int i;
	u64 t0 = ktime_get_ns();

	for (i = 0; i < loops; i++) {
		s->out.len = 0;
		if (pfmk_aux_copy(s->desc, size, pfmk_test_aux_sink, &s->out,
				  &info) ||
		    s->out.len != size)
			return 0;
	}
	return ktime_get_ns() - t0;
}

/* One timed round of @loops memcpy() of the same size. */
static u64 auxs_time_memcpy(struct auxs *s, const u8 *src, size_t size,
			    unsigned int loops)
{
	unsigned int i;
	u64 t0 = ktime_get_ns();

	for (i = 0; i < loops; i++) {
		memcpy(s->out.buf, src, size);
		barrier();
	}
	return ktime_get_ns() - t0;
}

/*
 * One timed round of @loops pfmk_get_state() calls: the fixed cost of any
 * KAPI call that locks its context (lookup, reference, mutex), which a
 * copy-out pays too, on the same kernel.
 */
static u64 auxs_time_call(struct auxs *s, unsigned int loops)
{
	unsigned int i;
	u64 t0 = ktime_get_ns();

	for (i = 0; i < loops; i++)
		if (pfmk_get_state(s->desc) < 0)
			return 0;
	return ktime_get_ns() - t0;
}

/* The timed rounds of one buffer size. */
struct auxs_tput {
	unsigned int	loops;		/* copies per round and side */
	unsigned int	n;		/* rounds timed */
	u64		ratio[AUXS_MAX_ROUNDS];	/* memcpy / copy-out, x1000 */
	u64		sum_c, sum_m, sum_k;	/* ns: copy-out, memcpy, call */
};

/*
 * The rounds of one buffer size, as the benchmarks measure
 * (Documentation/performance.rst): one warm-up round of each, discarded
 * (under TCG the first run of a code path pays for its translation), then
 * bench_rounds rounds alternating which side goes first, a ratio per round
 * (memcpy time / copy-out time: the copy-out's bytes/s over memcpy's).
 */
static void auxs_rounds(struct auxs *s, const u8 *src, size_t size,
			struct auxs_tput *tp)
{
	u64 tc, tm, tk;
	unsigned int r;

	/* Warm-up, discarded. */
	AUXS_CHECK(s, auxs_time_copy(s, size, 1));
	auxs_time_memcpy(s, src, size, 1);
	for (r = 0; r < bench_rounds; r++) {
		if (r & 1) {
			tm = auxs_time_memcpy(s, src, size, tp->loops);
			tc = auxs_time_copy(s, size, tp->loops);
		} else {
			tc = auxs_time_copy(s, size, tp->loops);
			tm = auxs_time_memcpy(s, src, size, tp->loops);
		}
		tk = auxs_time_call(s, tp->loops);
		AUXS_CHECK(s, tc);
		AUXS_CHECK(s, tk);
		if (!tc || !tm || !tk)
			break;
		tp->ratio[tp->n++] = div64_u64(tm * 1000, tc);
		tp->sum_c += tc;
		tp->sum_m += tm;
		tp->sum_k += tk;
	}
}

/* The throughputs and the median and best of the ratios, as diagnostics. */
static void auxs_report(struct auxs *s, size_t size, struct auxs_tput *tp)
{
	u64 bytes = (u64)size * tp->loops * tp->n, calls = (u64)tp->loops * tp->n;
	u64 *ratio = tp->ratio;
	unsigned int n = tp->n;

	if (!n)
		return;
	pfmk_test_sort_u64(ratio, n);
	pr_info("# %s: %zu KiB buffer, %u rounds of %u copies: copy-out %llu MB/s, memcpy %llu MB/s, ratio median %llu.%03llu best %llu.%03llu\n",
		AUXS_TPUT_TAG, size >> 10, n, tp->loops,
		div64_u64(bytes * 1000, tp->sum_c),
		div64_u64(bytes * 1000, tp->sum_m),
		ratio[n / 2] / 1000, ratio[n / 2] % 1000,
		ratio[n - 1] / 1000, ratio[n - 1] % 1000);
	/* Per call: the copy-out, the memcpy, and any locked KAPI call. */
	pr_info("# %s: %zu KiB buffer, ns per call: copy-out %llu, memcpy %llu, pfmk_get_state %llu\n",
		AUXS_TPUT_TAG, size >> 10, div64_u64(tp->sum_c, calls),
		div64_u64(tp->sum_m, calls), div64_u64(tp->sum_k, calls));
}

/*
 * Copy-out vs memcpy for one buffer size: a snapshot buffer filled once
 * and stopped, the rounds of auxs_rounds(), auxs_report().
 */
static void auxs_throughput(struct auxs *s, size_t size)
{
	struct auxs_tput tp = {
		.loops = max_t(unsigned int, bench_loops,
			       DIV_ROUND_UP((size_t)bench_round_kib << 10, size)),
	};
	u8 *src;

	src = vmalloc(size);
	AUXS_CHECK(s, src);
	if (!src)
		return;
	memset(src, 0x5a, size);
	AUXS_CHECK(s, !auxs_open(s, size, PFMK_AUX_SNAPSHOT));
	if (!s->desc)
		goto out;
	/* Fill the buffer once, then stop: copies see a still snapshot. */
	AUXS_CHECK(s, !pfmk_test_aux_write(s->cpu, size / PFMK_TEST_AUX_REC));
	AUXS_CHECK(s, !pfmk_stop(s->desc));
	auxs_rounds(s, src, size, &tp);
	auxs_report(s, size, &tp);
	auxs_close(s);
out:
	vfree(src);
}

/*
 * A throughput case: auxs_throughput() of a @size buffer, or a skip if
 * the module parameters are out of range or leave @size out (sizes up to
 * bench_kib run).
 */
static void auxs_throughput_case(struct auxs *s, size_t size)
{
	if (bench_kib < 4 || bench_kib > s->out.cap >> 10 || !bench_loops ||
	    !bench_round_kib || !bench_rounds ||
	    bench_rounds > AUXS_MAX_ROUNDS) {
		s->result = 2;
		s->skip = "bench_kib must be 4 to 1024, bench_rounds 1 to 16, the others > 0";
		return;
	}
	if (size > (size_t)bench_kib << 10) {
		s->result = 2;
		s->skip = "buffer larger than bench_kib";
		return;
	}
	auxs_throughput(s, size);
}

/*
 * Buffers of 4 KiB, 64 KiB, 1 MiB, a case each: the fixed cost of a
 * pfmk_aux_copy() call against the per-byte cost.
 */
static void aux_copy_throughput_4k(struct auxs *s)
{
	auxs_throughput_case(s, SZ_4K);
}

static void aux_copy_throughput_64k(struct auxs *s)
{
	auxs_throughput_case(s, SZ_64K);
}

static void aux_copy_throughput_1m(struct auxs *s)
{
	auxs_throughput_case(s, SZ_1M);
}

/* @patch: the case runs where the harness says the kernel has the patch. */
struct auxs_test {
	const char	*name;
	void		(*run)(struct auxs *s);
	bool		patch;
};

static const struct auxs_test auxs_tests[] = {
	{ "aux_unsupported", aux_unsupported, false },
	{ "aux_stream", aux_stream, true },
	{ "aux_copy_throughput_4k", aux_copy_throughput_4k, true },
	{ "aux_copy_throughput_64k", aux_copy_throughput_64k, true },
	{ "aux_copy_throughput_1m", aux_copy_throughput_1m, true },
};

/*
 * The harness said whether the kernel has the AUX patch, and pfmk agrees:
 * a pfmk that reports no AUX support on a patched kernel fails every case
 * instead of skipping them.
 */
static bool auxs_harness_agrees(struct auxs *s)
{
	if (s->patch < 0) {
		pr_info("# %s: the harness did not say whether the kernel has pfmk's AUX patch (pfmk_test_aux_pmu aux_patch=0|1): %d\n",
			s->name, s->patch);
		s->result = 1;
		return false;
	}
	if (pfmk_aux_supported() != !!s->patch) {
		pr_info("# %s: pfmk_aux_supported() is %d, the harness's aux_patch %d\n",
			s->name, pfmk_aux_supported(), s->patch);
		s->result = 1;
		return false;
	}
	return true;
}

static bool auxs_run_case(struct auxs *s, const struct auxs_test *t,
			  const char **skip)
{
	s->name = t->name;
	s->result = 0;
	if (auxs_harness_agrees(s) && t->patch != !!s->patch) {
		s->result = 2;
		s->skip = t->patch ? AUXS_NO_PATCH : AUXS_PATCH;
	} else if (!s->result) {
		t->run(s);
	}
	if (s->result == 2)
		*skip = s->skip;
	return s->result != 1;
}

static int __init pfmk_aux_smoke_init(void)
{
	struct pfmk_ktap k;
	struct auxs *s;

	s = pfmk_kzalloc_obj(*s, GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->out.cap = 1 << 20;
	s->out.buf = vmalloc(s->out.cap);
	if (!s->out.buf) {
		kfree(s);
		return -ENOMEM;
	}
	init_completion(&s->done);
	s->cpu = cpumask_first(cpu_online_mask);
	s->patch = pfmk_test_aux_patch();

	pfmk_ktap_run(&k, auxs_tests, ARRAY_SIZE(auxs_tests), auxs_run_case,
		      s);
	pfmk_ktap_end(&k);
	auxs_close(s);
	vfree(s->out.buf);
	kfree(s);
	return 0;
}

static void __exit pfmk_aux_smoke_exit(void)
{
}

module_init(pfmk_aux_smoke_init);
module_exit(pfmk_aux_smoke_exit);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk AUX smoke tests and copy-out throughput (KTAP output)");
MODULE_LICENSE("GPL");
