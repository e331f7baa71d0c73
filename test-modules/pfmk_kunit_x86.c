// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite: x86 register images (<pfmk/x86.h>), their validation,
 * their perf encoding and their routing through the default description.
 *
 * The guests have no x86 core PMU: without one, images are refused.  The
 * descriptions themselves are exercised through an announcement of an
 * emulated PMU made by the test and retracted by the suite's exit, also
 * when the case failed first.  On a machine
 * whose CPU has a core PMU, as perf reports it, pfmk describes that one
 * and refuses announcements (-EBUSY): there those cases and the no-PMU
 * case are skipped, saying so; where perf has none, pfmk must have none.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/err.h>
#include <linux/perf_event.h>
#include <linux/string.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu.h>
#include <pfmk/pmu_generic.h>
#include <pfmk/x86.h>

#include "pfmk_kunit.h"

/* libpfm's images: unhalted core cycles, instructions retired. */
#define X86T_CYCLES		0x53003cULL
#define X86T_INSTR		0x5300c0ULL
#define X86T_USR		BIT_ULL(16)
#define X86T_OS			BIT_ULL(17)
#define X86T_EDGE		BIT_ULL(18)
#define X86T_PC			BIT_ULL(19)
#define X86T_INT		BIT_ULL(20)
#define X86T_ANY		BIT_ULL(21)
#define X86T_EN			BIT_ULL(22)
#define X86T_INV		BIT_ULL(23)
/* AMD64: event 0x1c1 (its bit 8 at bit 32), umask 0xf0, USR|OS. */
#define X86T_AMD_IMG		(BIT_ULL(32) | X86T_EN | X86T_USR | X86T_OS | \
				 0xf0c1)

static const struct pfmk_x86_pmu_info x86t_intel = {
	.source = "pfmk_kunit_x86", .vendor = PFMK_X86_INTEL,
	.family = 6, .model = 0x55, .version = 4, .nr_gp = 4, .nr_fixed = 3,
	.gp_width = 48, .fixed_width = 48,
};

static const struct pfmk_x86_pmu_info x86t_amd = {
	.source = "pfmk_kunit_x86", .vendor = PFMK_X86_AMD,
	.family = 0x19, .model = 0x21, .nr_gp = 6, .gp_width = 48,
	.amd_flags = PFMK_X86_AMD_PERFCTR_CORE,
};

static int x86t_write(void *desc, u16 reg, u64 val, pfm_flags_t *flags)
{
	struct pfarg_pmc pmc;
	int ret;

	memset(&pmc, 0, sizeof(pmc));
	pmc.reg_num = reg;
	pmc.reg_value = val;
	ret = pfmk_write_pmcs(desc, &pmc, 1);
	if (flags)
		*flags = pmc.reg_flags;
	return ret;
}

/*
 * Does the kernel's perf drive an x86 core PMU?  A fact of the machine
 * the harness chose (the QEMU TCG guests have none), asked of perf, not
 * of pfmk: only a core PMU takes a PERF_TYPE_HARDWARE event (without
 * one, every PMU refuses it with -ENOENT).
 */
static bool x86t_perf_has_core_pmu(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.disabled = 1,
	};
	struct perf_event *event;

	event = pfmkt_perf_try_create(test, &(struct pfmkt_perf){
		.attr = &attr,
		.cpu = pfmkt_cpu(),
	});
	if (IS_ERR(event))
		return false;
	pfmkt_perf_release(test, event);
	return true;
}

#define X86T_HAS_PMU	"machine has an x86 core PMU (perf drives it)"

/*
 * Announce @info for the test; skip where perf has a core PMU (pfmk then
 * describes the CPU's own and refuses an announcement).
 */
static void x86t_announce(struct kunit *test,
			  const struct pfmk_x86_pmu_info *info)
{
	if (x86t_perf_has_core_pmu(test))
		kunit_skip(test, X86T_HAS_PMU ": no emulated one is announced");
	KUNIT_ASSERT_EQ(test, pfmk_x86_pmu_announce(info), 0);
}

static void x86t_exit(struct kunit *test)
{
	pfmkt_exit(test);
	/*
	 * Retracts by source, so whichever of the two this test announced;
	 * does nothing if it announced none.
	 */
	pfmk_x86_pmu_retract(&x86t_intel);
}

/*
 * An image the announced PMU (none for x86t_no_pmu_images[], whose
 * images go through write_pmcs) would not take, and how it is refused.
 */
struct x86t_bad_image {
	const char *name;
	const struct pfmk_x86_pmu_info *pmu;
	/* pfmk_x86_image_to_attr() on a PMD, else a PMC's check. */
	bool to_attr;
	u16 reg;
	u64 img;
	int err;
};

/* No x86 core PMU, and a context of the default description. */
static void *x86t_no_pmu_ctx(struct kunit *test)
{
	if (x86t_perf_has_core_pmu(test))
		kunit_skip(test, X86T_HAS_PMU);
	return pfmkt_create(test, "");
}

/*
 * Images write_pmcs refuses without a core PMU: libpfm's cycles and
 * instructions, and the fixed counters' control.
 */
static const struct x86t_bad_image x86t_no_pmu_images[] = {
	{ "cycles on PMC0", NULL, false, 0, X86T_CYCLES, -EINVAL },
	{ "instructions on PMC1", NULL, false, 1, X86T_INSTR, -EINVAL },
	{ "fixed PMC16", NULL, false, PFMK_X86_FIXED_PMC, 0x333, -EINVAL },
};

/* Images that cannot become an event without a core PMU: cycles. */
static const struct x86t_bad_image x86t_no_pmu_attrs[] = {
	{ "cycles to_attr", NULL, true, 0, X86T_CYCLES, -EINVAL },
};

static void x86t_bad_image_desc(const struct x86t_bad_image *b, char *desc)
{
	strscpy(desc, b->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(x86t_no_pmu_image, x86t_no_pmu_images,
		  x86t_bad_image_desc);
KUNIT_ARRAY_PARAM(x86t_no_pmu_attr, x86t_no_pmu_attrs, x86t_bad_image_desc);

/* No x86 core PMU: write_pmcs refuses an image, never takes it to count 0. */
static void x86_no_pmu_refuses_write(struct kunit *test)
{
	const struct x86t_bad_image *b = test->param_value;
	void *desc = x86t_no_pmu_ctx(test);
	pfm_flags_t flags;

	KUNIT_EXPECT_EQ(test, x86t_write(desc, b->reg, b->img, &flags),
			b->err);
	KUNIT_EXPECT_TRUE(test, flags & PFM_REG_RETFL_EINVAL);
}

/* No x86 core PMU: an image becomes no event that would count 0. */
static void x86_no_pmu_refuses_to_attr(struct kunit *test)
{
	const struct x86t_bad_image *b = test->param_value;
	struct perf_event_attr attr = { };

	x86t_no_pmu_ctx(test);
	KUNIT_EXPECT_EQ(test, pfmk_x86_image_to_attr(b->reg, b->img, &attr),
			b->err);
}

/**
 * struct x86t_reg_val - one PMC write
 * @name: the row's description.
 * @reg: the PMC.
 * @val: the value written.
 */
struct x86t_reg_val {
	const char	*name;
	u16		reg;
	u64		val;
};

static void x86t_reg_val_desc(const struct x86t_reg_val *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

/* The values a context without an x86 core PMU still takes. */
static const struct x86t_reg_val x86t_no_pmu_values[] = {
	{ "generic cpu-clock", 0, PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK) },
	{ "zero", 1, 0 },
};

KUNIT_ARRAY_PARAM(x86t_no_pmu_value, x86t_no_pmu_values, x86t_reg_val_desc);

/* No x86 core PMU: generic values and zero still work. */
static void x86_no_pmu_generic_values(struct kunit *test)
{
	const struct x86t_reg_val *r = test->param_value;
	void *desc = x86t_no_pmu_ctx(test);

	KUNIT_EXPECT_EQ(test, x86t_write(desc, r->reg, r->val, NULL), 0);
}

/* No x86 core PMU: no native description by name either. */
static void x86_no_pmu_no_named(struct kunit *test)
{
	void *desc;

	if (x86t_perf_has_core_pmu(test))
		kunit_skip(test, X86T_HAS_PMU);
	KUNIT_EXPECT_EQ(test, pfmkt_try_create(test, &(struct pfarg_ctx) {
		.ctx_flags = PFM_FL_SYSTEM_WIDE,
		.ctx_pmu_name = PFMK_X86_INTEL_NAME }, &desc), -ENOENT);
}

/* Mutations of a good announcement that make it nonsense. */
static void x86t_bad_version(struct pfmk_x86_pmu_info *info)
{
	info->version = 6;
}

static void x86t_no_gp(struct pfmk_x86_pmu_info *info)
{
	info->nr_gp = 0;
}

/* Fixed counters came with version 2. */
static void x86t_fixed_v1(struct pfmk_x86_pmu_info *info)
{
	info->version = 1;
}

/* Six counters need PerfCtrCore. */
static void x86t_six_no_core(struct pfmk_x86_pmu_info *info)
{
	info->nr_gp = 6;
	info->amd_flags = 0;
}

struct x86t_bad_announce {
	const char *name;
	/* NULL: the announcement itself is NULL. */
	const struct pfmk_x86_pmu_info *good;
	void (*mutate)(struct pfmk_x86_pmu_info *info);
	int err;
};

static const struct x86t_bad_announce x86t_bad_announces[] = {
	{ "intel version 6", &x86t_intel, x86t_bad_version, -EINVAL },
	{ "intel no gp counters", &x86t_intel, x86t_no_gp, -EINVAL },
	{ "intel fixed counters on version 1", &x86t_intel, x86t_fixed_v1,
	  -EINVAL },
	{ "amd six counters without PerfCtrCore", &x86t_amd, x86t_six_no_core,
	  -EINVAL },
	{ "NULL", NULL, NULL, -EINVAL },
};

static void x86t_bad_announce_desc(const struct x86t_bad_announce *b,
				   char *desc)
{
	strscpy(desc, b->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(x86t_bad_announce, x86t_bad_announces,
		  x86t_bad_announce_desc);

/* Announcements: nonsense refused, one at a time. */
static void x86_announce_rules(struct kunit *test)
{
	const struct x86t_bad_announce *b = test->param_value;
	struct pfmk_x86_pmu_info bad;

	if (!b->good) {
		KUNIT_EXPECT_EQ(test, pfmk_x86_pmu_announce(NULL), b->err);
		return;
	}
	bad = *b->good;
	b->mutate(&bad);
	KUNIT_EXPECT_EQ(test, pfmk_x86_pmu_announce(&bad), b->err);
}

/* One announced PMU at a time: a second announcement is busy. */
static void x86_announce_busy(struct kunit *test)
{
	x86t_announce(test, &x86t_intel);
	KUNIT_EXPECT_EQ(test, pfmk_x86_pmu_announce(&x86t_amd), -EBUSY);
}

/**
 * struct x86t_encoding - an image of the emulated Intel PMU and its event
 * @name: what the row checks.
 * @pmc: the PMC the image programs (PMC16 for the fixed counters).
 * @pmd: the PMD whose event the image describes.
 * @img: the image, valid for pfmk_x86_image_check().
 * @ret: what pfmk_x86_image_to_attr() returns: 0 or PFMK_PMC_OFF.
 * @config: the raw event's config, if @ret is 0.
 * @exclude_user: the event's exclude_user, if @ret is 0.
 * @exclude_kernel: the event's exclude_kernel, if @ret is 0.
 */
struct x86t_encoding {
	const char	*name;
	u16		pmc;
	u16		pmd;
	u64		img;
	int		ret;
	u64		config;
	bool		exclude_user;
	bool		exclude_kernel;
};

/* USR only; INT ignored; edge, inv, cmask and umask kept. */
#define X86T_GP_FIELDS	(0x02000000ULL | X86T_INV | X86T_EDGE | 0x4100 | 0x2e)

/* Intel general counters: the fields of an image, as perf wants them. */
static const struct x86t_encoding x86t_gp_encodings[] = {
	{ "cycles", 0, 0, X86T_CYCLES, 0, 0x3c, false, false },
	{ "USR only, edge inv cmask umask", 3, 3,
	  X86T_GP_FIELDS | X86T_EN | X86T_INT | X86T_USR, 0, X86T_GP_FIELDS,
	  false, true },
	{ "OS only", 1, 1, X86T_EN | X86T_OS | 0xc0, 0, 0xc0, true, false },
	{ "EN clear: the PMD is unused", 0, 0, X86T_CYCLES & ~X86T_EN,
	  PFMK_PMC_OFF },
};

/*
 * PMC16 = IA32_FIXED_CTR_CTRL programs PMD16, PMD17, PMD18.  Fixed 0:
 * OS|USR|PMI; fixed 1: USR; fixed 2: off, then OS|USR.
 */
#define X86T_FIXED_IMG	(0x0b | (0x2 << 4))
#define X86T_FIXED_PMD1	(PFMK_X86_FIXED_PMD0 + 1)
#define X86T_FIXED_PMD2	(PFMK_X86_FIXED_PMD0 + 2)

static const struct x86t_encoding x86t_fixed_encodings[] = {
	{ "fixed 0 OS USR PMI", PFMK_X86_FIXED_PMC, PFMK_X86_FIXED_PMD0,
	  X86T_FIXED_IMG, 0, 0x00c0, false, false },
	{ "fixed 1 USR", PFMK_X86_FIXED_PMC, X86T_FIXED_PMD1, X86T_FIXED_IMG, 0,
	  0x003c, false, true },
	{ "fixed 2 off", PFMK_X86_FIXED_PMC, X86T_FIXED_PMD2, X86T_FIXED_IMG,
	  PFMK_PMC_OFF },
	{ "fixed 2 OS USR", PFMK_X86_FIXED_PMC, X86T_FIXED_PMD2, 0x300, 0,
	  0x0300, false, false },
};

static void x86t_encoding_desc(const struct x86t_encoding *e, char *desc)
{
	strscpy(desc, e->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(x86t_gp_encoding, x86t_gp_encodings, x86t_encoding_desc);
KUNIT_ARRAY_PARAM(x86t_fixed_encoding, x86t_fixed_encodings,
		  x86t_encoding_desc);

/* The emulated Intel PMU announced: a row's image is valid. */
static void x86t_expect_image_valid(struct kunit *test)
{
	const struct x86t_encoding *e = test->param_value;

	x86t_announce(test, &x86t_intel);
	KUNIT_EXPECT_EQ(test, pfmk_x86_image_check(e->pmc, e->img), 0);
}

/* Intel general counters: one row of x86t_gp_encodings[], valid. */
static void x86_intel_gp_image_valid(struct kunit *test)
{
	x86t_expect_image_valid(test);
}

/* Intel fixed counters: one row of x86t_fixed_encodings[], valid. */
static void x86_intel_fixed_image_valid(struct kunit *test)
{
	x86t_expect_image_valid(test);
}

/* The emulated Intel PMU announced: a row's image as an event. */
static void x86t_expect_encoding(struct kunit *test)
{
	const struct x86t_encoding *e = test->param_value;
	struct perf_event_attr attr;

	x86t_announce(test, &x86t_intel);
	memset(&attr, 0, sizeof(attr));
	KUNIT_ASSERT_EQ(test, pfmk_x86_image_to_attr(e->pmd, e->img, &attr),
			e->ret);
	if (e->ret)
		return;
	KUNIT_EXPECT_EQ(test, attr.type, (u32)PERF_TYPE_RAW);
	KUNIT_EXPECT_EQ(test, attr.config, e->config);
	KUNIT_EXPECT_EQ(test, (bool)attr.exclude_user, e->exclude_user);
	KUNIT_EXPECT_EQ(test, (bool)attr.exclude_kernel, e->exclude_kernel);
}

/* Intel general counters: one row of x86t_gp_encodings[]. */
static void x86_intel_gp_encoding(struct kunit *test)
{
	x86t_expect_encoding(test);
}

/* Intel fixed counters: one row of x86t_fixed_encodings[]. */
static void x86_intel_fixed_encoding(struct kunit *test)
{
	x86t_expect_encoding(test);
}

/* AMD64: six counters with PerfCtrCore: an image on PMC5 is valid. */
static void x86_amd_image_valid(struct kunit *test)
{
	x86t_announce(test, &x86t_amd);
	KUNIT_EXPECT_EQ(test, pfmk_x86_image_check(5, X86T_AMD_IMG), 0);
}

/* AMD64: event bits 11:8 at 35:32. */
static void x86_amd_encoding(struct kunit *test)
{
	struct perf_event_attr attr = { };
	const u64 img = X86T_AMD_IMG;

	x86t_announce(test, &x86t_amd);
	KUNIT_ASSERT_EQ(test, pfmk_x86_image_to_attr(5, img, &attr), 0);
	KUNIT_EXPECT_EQ(test, attr.config, BIT_ULL(32) | 0xf0c1);
}

static const struct x86t_bad_image x86t_bad_images[] = {
	/* Intel general counters: what the hardware would not take. */
	{ "intel gp bit 32", &x86t_intel, false, 0, X86T_CYCLES | BIT_ULL(32),
	  -EINVAL },
	{ "intel gp PC", &x86t_intel, false, 0, X86T_CYCLES | X86T_PC,
	  -EINVAL },
	{ "intel gp AnyThread", &x86t_intel, false, 0, X86T_CYCLES | X86T_ANY,
	  -EINVAL },
	/* Four general counters: PMC4 to PMC15 do not exist. */
	{ "intel gp PMC4", &x86t_intel, false, 4, X86T_CYCLES, -EINVAL },
	{ "intel gp PMC15", &x86t_intel, false, 15, X86T_CYCLES, -EINVAL },
	/* Three fixed counters: a fourth field, AnyThread: refused. */
	{ "intel fixed fourth field", &x86t_intel, false, PFMK_X86_FIXED_PMC,
	  0x3000, -EINVAL },
	{ "intel fixed AnyThread", &x86t_intel, false, PFMK_X86_FIXED_PMC,
	  0x7, -EINVAL },
	{ "intel fixed PMD19", &x86t_intel, true, PFMK_X86_FIXED_PMD0 + 3,
	  0x3000, -EINVAL },
	/* PMC17 is not a register of perfmon2's numbering. */
	{ "intel PMC17", &x86t_intel, false, 17, 0x3, -EINVAL },
	/* AMD64: six counters. */
	{ "amd PMC6", &x86t_amd, false, 6, X86T_AMD_IMG, -EINVAL },
	/* Host/guest-only and reserved bits. */
	{ "amd host-only", &x86t_amd, false, 0, X86T_AMD_IMG | BIT_ULL(40),
	  -EINVAL },
	{ "amd reserved bit 19", &x86t_amd, false, 0,
	  X86T_AMD_IMG | BIT_ULL(19), -EINVAL },
	{ "amd no fixed counters", &x86t_amd, false, PFMK_X86_FIXED_PMC, 0x3,
	  -EINVAL },
};

KUNIT_ARRAY_PARAM(x86t_bad_image, x86t_bad_images, x86t_bad_image_desc);

/* Images the announced PMU would not take: refused, one at a time. */
static void x86_image_refused(struct kunit *test)
{
	const struct x86t_bad_image *b = test->param_value;
	struct perf_event_attr attr = { };

	x86t_announce(test, b->pmu);
	if (b->to_attr)
		KUNIT_EXPECT_EQ(test, pfmk_x86_image_to_attr(b->reg, b->img,
							     &attr), b->err);
	else
		KUNIT_EXPECT_EQ(test, pfmk_x86_image_check(b->reg, b->img),
				b->err);
}

/*
 * Set-up of the default-route cases: the emulated Intel PMU announced
 * (skipped where perf drives a core PMU) and a 2006 client's context of
 * a zeroed pfarg_ctx, the default description.
 */
static void *x86t_default_ctx(struct kunit *test)
{
	x86t_announce(test, &x86t_intel);
	return pfmkt_create(test, "");
}

/* The emulated Intel PMU announced, a context of its description by name. */
static void *x86t_named_ctx(struct kunit *test)
{
	x86t_announce(test, &x86t_intel);
	return pfmkt_create(test, PFMK_X86_INTEL_NAME);
}

/*
 * libpfm's images of cycles, instructions and the fixed counters, and a
 * generic value next to them, as a 2006 client writes them.
 */
static const struct x86t_reg_val x86t_routed[] = {
	{ "PMC0 cycles", 0, X86T_CYCLES },
	{ "PMC1 instructions", 1, X86T_INSTR },
	{ "fixed PMC", PFMK_X86_FIXED_PMC, 0x333 },
	{ "PMC3 generic cpu-clock", 3, PFMK_GEN_SW(PERF_COUNT_SW_CPU_CLOCK) },
};

KUNIT_ARRAY_PARAM(x86t_routed, x86t_routed, x86t_reg_val_desc);

/*
 * x86t_default_ctx() with x86t_routed[] written one PMC at a time, each
 * write asserted (x86_default_routes_images checks them).
 */
static void *x86t_default_routed(struct kunit *test)
{
	void *desc = x86t_default_ctx(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(x86t_routed); i++)
		KUNIT_ASSERT_EQ_MSG(test, x86t_write(desc, x86t_routed[i].reg,
						     x86t_routed[i].val, NULL),
				    0, "PMC%u", x86t_routed[i].reg);
	return desc;
}

/*
 * A 2006 client's zeroed pfarg_ctx and libpfm's images: routed to the
 * native description, accepted as the hardware would, a generic value
 * next to them.
 */
static void x86_default_routes_images(struct kunit *test)
{
	const struct x86t_reg_val *r = test->param_value;
	void *desc = x86t_default_ctx(test);

	KUNIT_EXPECT_EQ(test, x86t_write(desc, r->reg, r->val, NULL), 0);
}

/* An image the hardware would not take: refused and flagged. */
static void x86_default_refuses_image(struct kunit *test)
{
	void *desc = x86t_default_ctx(test);
	pfm_flags_t flags;

	KUNIT_EXPECT_EQ(test, x86t_write(desc, 2, X86T_CYCLES | X86T_ANY,
					 &flags), -EINVAL);
	KUNIT_EXPECT_TRUE(test, flags & PFM_REG_RETFL_EINVAL);
}

/*
 * Events of the emulated PMU the test announced do not exist, so the
 * load of the routed images fails loudly (never counts zero in silence).
 */
static void x86_default_load_fails(struct kunit *test)
{
	void *desc = x86t_default_routed(test);

	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(desc, pfmkt_cpu()), -EOPNOTSUPP);
}

/* The failed load of the routed images leaves the context unloaded. */
static void x86_default_load_fails_unloaded(struct kunit *test)
{
	void *desc = x86t_default_routed(test);

	KUNIT_ASSERT_EQ(test, pfmkt_load_cpu(desc, pfmkt_cpu()), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFM_CTX_UNLOADED);
}

/**
 * struct x86t_named_write - a PMC write to the native description by name
 * @name: what the row checks.
 * @reg: the PMC.
 * @img: the image written.
 * @err: what write_pmcs returns (an -EINVAL flags the entry EINVAL).
 */
struct x86t_named_write {
	const char	*name;
	u16		reg;
	u64		img;
	int		err;
};

static const struct x86t_named_write x86t_named_writes[] = {
	{ "cycles accepted", 0, X86T_CYCLES, 0 },
	{ "bit 32 refused", 0, X86T_CYCLES | BIT_ULL(32), -EINVAL },
	{ "PMC4 refused", 4, X86T_CYCLES, -EINVAL },
};

static void x86t_named_write_desc(const struct x86t_named_write *w,
				  char *desc)
{
	strscpy(desc, w->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(x86t_named_write, x86t_named_writes,
		  x86t_named_write_desc);

/* The native description is also there by name, with the same rules. */
static void x86_named_routes_images(struct kunit *test)
{
	const struct x86t_named_write *w = test->param_value;
	void *named = x86t_named_ctx(test);
	pfm_flags_t flags;

	KUNIT_EXPECT_EQ(test, x86t_write(named, w->reg, w->img, &flags),
			w->err);
	if (w->err)
		KUNIT_EXPECT_TRUE(test, flags & PFM_REG_RETFL_EINVAL);
}

/* Retracted: images are refused again, in a context made before. */
static void x86_retract_refuses_images(struct kunit *test)
{
	void *desc = x86t_default_ctx(test);

	KUNIT_ASSERT_EQ(test, x86t_write(desc, 0, X86T_CYCLES, NULL), 0);
	pfmk_x86_pmu_retract(&x86t_intel);
	KUNIT_EXPECT_EQ(test, x86t_write(desc, 0, X86T_CYCLES, NULL), -EINVAL);
}

/* PMDs of counters the CPU lacks: PMD4 (PMC4), PMD19 (PMC16's 4th). */
static const struct x86t_reg_val x86t_unused[] = {
	{ "PMD4", 4, 0 },
	{ "fixed PMD19", PFMK_X86_FIXED_PMD0 + 3, 0 },
};

KUNIT_ARRAY_PARAM(x86t_unused, x86t_unused, x86t_reg_val_desc);

/*
 * The registers of counters the CPU lacks (PMC4..15, PMC16's fourth
 * field here) are 0 by default, and leave their PMDs unused, as on
 * hardware.
 */
static void x86_named_defaults_unused(struct kunit *test)
{
	const struct x86t_reg_val *r = test->param_value;
	struct perf_event_attr attr;

	x86t_announce(test, &x86t_intel);
	memset(&attr, 0, sizeof(attr));
	KUNIT_EXPECT_EQ(test, pfmk_x86_image_to_attr(r->reg, r->val, &attr),
			PFMK_PMC_OFF);
}

/* A context of the native description by name loads with its defaults. */
static void x86_named_loads_defaults(struct kunit *test)
{
	void *named = x86t_named_ctx(test);

	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(named, pfmkt_cpu()), 0);
}

/* Loaded with its defaults, the context by name is in the loaded state. */
static void x86_named_loads_defaults_state(struct kunit *test)
{
	void *named = x86t_named_ctx(test);

	KUNIT_ASSERT_EQ(test, pfmkt_load_cpu(named, pfmkt_cpu()), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(named), PFM_CTX_LOADED);
}

static struct kunit_case pfmk_x86_cases[] = {
	KUNIT_CASE_PARAM(x86_no_pmu_refuses_write,
			 x86t_no_pmu_image_gen_params),
	KUNIT_CASE_PARAM(x86_no_pmu_refuses_to_attr,
			 x86t_no_pmu_attr_gen_params),
	KUNIT_CASE_PARAM(x86_no_pmu_generic_values,
			 x86t_no_pmu_value_gen_params),
	KUNIT_CASE(x86_no_pmu_no_named),
	KUNIT_CASE_PARAM(x86_announce_rules, x86t_bad_announce_gen_params),
	KUNIT_CASE(x86_announce_busy),
	KUNIT_CASE_PARAM(x86_intel_gp_image_valid,
			 x86t_gp_encoding_gen_params),
	KUNIT_CASE_PARAM(x86_intel_gp_encoding, x86t_gp_encoding_gen_params),
	KUNIT_CASE_PARAM(x86_intel_fixed_image_valid,
			 x86t_fixed_encoding_gen_params),
	KUNIT_CASE_PARAM(x86_intel_fixed_encoding,
			 x86t_fixed_encoding_gen_params),
	KUNIT_CASE(x86_amd_image_valid),
	KUNIT_CASE(x86_amd_encoding),
	KUNIT_CASE_PARAM(x86_image_refused, x86t_bad_image_gen_params),
	KUNIT_CASE_PARAM(x86_default_routes_images, x86t_routed_gen_params),
	KUNIT_CASE(x86_default_refuses_image),
	KUNIT_CASE(x86_default_load_fails),
	KUNIT_CASE(x86_default_load_fails_unloaded),
	KUNIT_CASE_PARAM(x86_named_routes_images,
			 x86t_named_write_gen_params),
	KUNIT_CASE(x86_retract_refuses_images),
	KUNIT_CASE_PARAM(x86_named_defaults_unused, x86t_unused_gen_params),
	KUNIT_CASE(x86_named_loads_defaults),
	KUNIT_CASE(x86_named_loads_defaults_state),
	{}
};

static struct kunit_suite pfmk_x86_suite = {
	.name = "pfmk_x86",
	.init = pfmkt_init,
	.exit = x86t_exit,
	.test_cases = pfmk_x86_cases,
};

kunit_test_suites(&pfmk_x86_suite);
