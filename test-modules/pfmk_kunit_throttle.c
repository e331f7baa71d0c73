// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_throttle_kunit: perf throttles a pfmk sampling event, and pfmk
 * tells (Documentation/sampling.rst, "Throttling").
 *
 * Each case sets kernel.perf_event_max_sample_rate to THRT_PER_TICK * HZ,
 * so that perf's cap is THRT_PER_TICK overflow interrupts per tick, and
 * samples an event many times faster than that on the test's CPU: perf
 * counts the interrupts of each tick, throttles the event at the
 * THRT_PER_TICK-th (it still calls pfmk's handler for it, then stops the
 * event), and the CPU's next tick starts it again.  With a cap of two the
 * pattern of every tick is known: one overflow, then one throttled.  The
 * test's exit restores the sysctl.
 *
 * The events (KUNIT_ARRAY_PARAM): cpu-clock, perf's hrtimer event, on
 * every architecture and kernel, recorded by the default format in place
 * and, with reg_smpl_pmds, through its handler; and, on kernels with the
 * Arm PMU driver (the harness boots them on QEMU's PMUv3), CPU cycles
 * through that real driver, which throttles from its interrupt handler.
 * That driver also lowers the sample rate itself when its interrupts take
 * too long (the hrtimer never does): for that row the test sets
 * kernel.perf_cpu_time_max_percent to 100, which turns that off, so that
 * the cap stays the test's.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/encode.h>
#include <pfmk/ns.h>
#include <pfmk/pfmk.h>
#include <pfmk/smpl.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_kunit.h"
#include "pfmk_test_file.h"

#define THRT_RATE	"/proc/sys/kernel/perf_event_max_sample_rate"
#define THRT_PCT	"/proc/sys/kernel/perf_cpu_time_max_percent"

/* perf's cap: overflow interrupts of an event per tick. */
#define THRT_PER_TICK	2
/* Throttles a case waits for; each but the first needs perf to restart. */
#define THRT_WANT	3
#define THRT_TIMEOUT	(10 * HZ)
#define THRT_BUF	(256 << 10)

/**
 * struct thrt_event - one row of the table
 * @name: the event, for pfmk_encode().
 * @period: sampling period, in the event's unit.
 * @smpl_self: the PMD records its own value (reg_smpl_pmds): the default
 *	format's handler writes the entry instead of the overflow path.
 * @hw: a hardware event, whose driver may lower the sample rate itself.
 */
struct thrt_event {
	const char	*name;
	u64		period;
	bool		smpl_self;
	bool		hw;
};

static const struct thrt_event thrt_events[] = {
	/* 50 us: 80 interrupts a tick at HZ=250 where perf allows two. */
	{ "cpu-clock", 50000, false, false },
	{ "cpu-clock", 50000, true, false },
#if IS_ENABLED(CONFIG_ARM_PMU)
	/* About 1e9 cycles a second under QEMU: 10000 interrupts. */
	{ "cycles", 100000, false, true },
#endif
};

static void thrt_event_desc(const struct thrt_event *ev, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s%s", ev->name,
		 ev->smpl_self ? "+smpl_pmds" : "");
}

KUNIT_ARRAY_PARAM(thrt_event, thrt_events, thrt_event_desc);

/**
 * struct thrt - state of one test
 * @base: the shared per-test state: the context is tracked there.
 * @desc: the test's context.
 * @buf: its sampling buffer.
 * @old_rate: kernel.perf_event_max_sample_rate before the test.
 * @old_pct: kernel.perf_cpu_time_max_percent before the test.
 * @set_rate: the test changed kernel.perf_event_max_sample_rate.
 * @set_pct: the test changed kernel.perf_cpu_time_max_percent.
 * @st: the context's statistics once stopped.
 */
struct thrt {
	struct pfmkt_priv	base;
	void			*desc;
	void			*buf;
	int			old_rate;
	int			old_pct;
	bool			set_rate;
	bool			set_pct;
	struct pfmk_ctx_stats	st;
};

static_assert(offsetof(struct thrt, base) == 0);

/* Lower perf's cap to THRT_PER_TICK; the exit puts the sysctl back. */
static int thrt_init(struct kunit *test)
{
	int rate = THRT_PER_TICK * HZ;
	struct thrt *t;
	int ret;

	ret = pfmkt_init_priv(test, sizeof(*t));
	if (ret)
		return ret;
	t = test->priv;
	KUNIT_ASSERT_EQ(test, pfmk_test_sysctl(THRT_RATE, &t->old_rate, false),
			0);
	KUNIT_ASSERT_EQ(test, pfmk_test_sysctl(THRT_PCT, &t->old_pct, false),
			0);
	t->set_rate = true;
	KUNIT_ASSERT_EQ(test, pfmk_test_sysctl(THRT_RATE, &rate, true), 0);
	return 0;
}

static void thrt_exit(struct kunit *test)
{
	struct thrt *t = test->priv;

	if (!t)
		return;
	pfmkt_exit(test);
	/* The percentage first: the rate cannot be written at 100. */
	if (t->set_pct)
		KUNIT_EXPECT_EQ(test,
				pfmk_test_sysctl(THRT_PCT, &t->old_pct, true),
				0);
	if (t->set_rate)
		KUNIT_EXPECT_EQ(test,
				pfmk_test_sysctl(THRT_RATE, &t->old_rate, true),
				0);
}

/*
 * Load t->desc on this CPU and start it, busy until perf has throttled
 * it THRT_WANT times (or THRT_TIMEOUT), then stop it.  Called with
 * migration off: no assertion here, the caller checks the result.
 *
 * Return: 0, or the errno of the call that failed, *@what its name.
 */
static int thrt_busy(struct thrt *t, const char **what)
{
	struct pfarg_load load;
	unsigned long end;
	int ret;

	pfmkt_load_req(&load, smp_processor_id(), 0);
	*what = "load";
	ret = pfmk_load_context(t->desc, &load);
	if (ret)
		return ret;
	*what = "start";
	ret = pfmk_start(t->desc, NULL);
	if (ret)
		return ret;
	*what = "get_stats";
	end = jiffies + THRT_TIMEOUT;
	do {
		mdelay(1);
		ret = pfmk_get_stats(t->desc, &t->st);
	} while (!ret && t->st.throttled < THRT_WANT &&
		 time_before(jiffies, end));
	if (ret)
		return ret;
	*what = "stop";
	return pfmk_stop(t->desc);
}

/*
 * Sample @ev on this CPU into the default format (or the format of @uuid
 * with @arg) until perf has throttled it THRT_WANT times, then stop: the
 * buffer and t->st are stable from then on.  Every step is a set-up
 * step: failing, it aborts the case.
 */
static void thrt_run(struct kunit *test, const struct thrt_event *ev,
		     const pfm_uuid_t uuid, void *arg, size_t arg_size)
{
	struct pfarg_pmc pmcs[PFMK_ENCODE_MAX_PMCS];
	struct thrt *t = test->priv;
	struct pfarg_ctx req;
	struct pfarg_pmd pmd;
	const char *what;
	unsigned int n;
	int pct = 100;
	int ret;

	if (ev->hw) {
		KUNIT_ASSERT_EQ(test, pfmk_test_sysctl(THRT_PCT, &pct, true), 0);
		t->set_pct = true;
	}
	pfmkt_ctx_req(&req, "", 0, false);
	memcpy(req.ctx_smpl_buf_id, uuid, sizeof(pfm_uuid_t));
	KUNIT_ASSERT_EQ(test, pfmk_encode(ev->name, 0, &req, pmcs,
					  ARRAY_SIZE(pmcs), &n), 0);
	KUNIT_ASSERT_EQ(test, pfmkt_try_create_arg(test, &req, arg, arg_size,
						   &t->desc, &t->buf), 0);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(t->desc, pmcs, n), 0);
	pfmkt_pmd_req(&pmd, 0, 0, -ev->period);
	pmd.reg_short_reset = -ev->period;
	pmd.reg_long_reset = -ev->period;
	pmd.reg_smpl_pmds[0] = ev->smpl_self;
	KUNIT_ASSERT_EQ(test, pfmk_write_pmds(t->desc, &pmd, 1), 0);

	/* Busy on the event's CPU: its cycles count, its ticks restart it. */
	migrate_disable();
	ret = thrt_busy(t, &what);
	migrate_enable();
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "%s", what);
	KUNIT_ASSERT_EQ(test, pfmk_get_stats(t->desc, &t->st), 0);
}

static u64 thrt_dfl_run(struct kunit *test, const struct thrt_event *ev)
{
	static const pfm_uuid_t dfl = PFM_DFL_SMPL_UUID;
	struct pfm_dfl_smpl_arg arg = { .buf_size = THRT_BUF };
	struct thrt *t = test->priv;

	thrt_run(test, ev, dfl, &arg, sizeof(arg));
	return pfmkt_hdr_count(t->buf);
}

/* perf's throttling of a pfmk sampling event is counted. */
static void throttle_counted(struct kunit *test)
{
	const struct thrt_event *ev = test->param_value;
	struct thrt *t = test->priv;

	thrt_dfl_run(test, ev);
	KUNIT_EXPECT_GE(test, t->st.throttled, (u64)THRT_WANT);
	/* At most one of every THRT_PER_TICK overflows. */
	KUNIT_EXPECT_LE(test, t->st.throttled * THRT_PER_TICK,
			t->st.ovfl_count);
}

/*
 * However fast the event overflows, no handler finds another's overflow
 * state taken: none is dropped as nested.
 */
static void throttle_not_nested(struct kunit *test)
{
	const struct thrt_event *ev = test->param_value;
	struct thrt *t = test->priv;

	thrt_dfl_run(test, ev);
	KUNIT_EXPECT_EQ(test, t->st.ovfl_nested, 0ULL);
}

/*
 * thrt_dfl_run() for the row's event: returns the entries it recorded, at
 * least THRT_PER_TICK for each throttle waited for (with a cap of two,
 * each tick's first overflow is not throttled, its second is).
 */
static u64 thrt_entries(struct kunit *test)
{
	u64 n = thrt_dfl_run(test, test->param_value);

	KUNIT_ASSERT_GE(test, n, (u64)(THRT_WANT * THRT_PER_TICK));
	return n;
}

/* Whether entry @i of the test's buffer is marked throttled. */
static bool thrt_marked(struct kunit *test, u64 i)
{
	const struct thrt_event *ev = test->param_value;
	struct thrt *t = test->priv;

	return pfmkt_entry(t->buf, i, ev->smpl_self)->reserved &
	       PFMK_DFL_ENT_THROTTLED;
}

/* The entries marked throttled among the @n of the test's buffer. */
static u64 thrt_marks(struct kunit *test, u64 n)
{
	u64 i, marked = 0;

	for (i = 0; i < n; i++)
		marked += thrt_marked(test, i);
	return marked;
}

/* Each throttled overflow's entry is marked, and only those. */
static void throttle_entry_marked(struct kunit *test)
{
	struct thrt *t = test->priv;
	u64 marked;

	marked = thrt_marks(test, thrt_entries(test));
	KUNIT_EXPECT_GE(test, marked, (u64)THRT_WANT);
	KUNIT_EXPECT_EQ(test, marked, t->st.throttled);
}

/* The throttle mark is the only flag an entry carries. */
static void throttle_entry_flags_only(struct kunit *test)
{
	const struct thrt_event *ev = test->param_value;
	struct thrt *t = test->priv;
	u64 i, n;

	n = thrt_entries(test);
	for (i = 0; i < n; i++) {
		u16 flags = pfmkt_entry(t->buf, i, ev->smpl_self)->reserved;

		KUNIT_EXPECT_EQ_MSG(test, flags & ~PFMK_DFL_ENT_THROTTLED, 0,
				    "entry %llu", i);
	}
}

/* The header counts the marked entries. */
static void throttle_entry_marked_hdr(struct kunit *test)
{
	struct thrt *t = test->priv;
	struct pfm_dfl_smpl_hdr *hdr;
	u64 marked;

	marked = thrt_marks(test, thrt_entries(test));
	hdr = t->buf;
	KUNIT_EXPECT_EQ(test, hdr->hdr_reserved[PFMK_DFL_HDR_THROTTLED], marked);
}

/*
 * When perf starts the event again, sampling goes on as before: with a
 * cap of two, each tick's first overflow is not throttled, so no two
 * marked entries follow each other.
 */
static void throttle_recovers(struct kunit *test)
{
	bool marked, prev = true;
	u64 i, n;

	n = thrt_entries(test);
	for (i = 0; i < n; i++) {
		marked = thrt_marked(test, i);
		KUNIT_EXPECT_FALSE_MSG(test, prev && marked,
				       "entry %llu: marked after a mark", i);
		prev = marked;
	}
}

/* ... every entry, throttled or not, has the short reset. */
static void throttle_recovers_reset(struct kunit *test)
{
	const struct thrt_event *ev = test->param_value;
	const struct pfm_dfl_smpl_entry *ent;
	struct thrt *t = test->priv;
	u64 i, n;

	n = thrt_entries(test);
	for (i = 0; i < n; i++) {
		ent = pfmkt_entry(t->buf, i, ev->smpl_self);
		KUNIT_EXPECT_EQ_MSG(test, ent->last_reset_val, -ev->period,
				    "entry %llu", i);
	}
}

/* ... and the context is not masked. */
static void throttle_recovers_state(struct kunit *test)
{
	struct thrt *t = test->priv;

	thrt_entries(test);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(t->desc), PFM_CTX_LOADED);
}

/* A sampling format of the test's: counts what ->handler() is told. */
struct thrt_fmt_buf {
	u64	overflows;
	u64	throttled;
};

static ssize_t thrt_fmt_get_size(const void *arg, unsigned int npmds)
{
	return sizeof(struct thrt_fmt_buf);
}

static void thrt_fmt_init(void *buf, void *priv, size_t size,
			  const void *arg, unsigned int npmds)
{
}

static int thrt_fmt_handler(void *buf, void *priv, struct pfmk_ovfl_arg *arg)
{
	struct thrt_fmt_buf *b = buf;

	WRITE_ONCE(b->overflows, b->overflows + 1);
	WRITE_ONCE(b->throttled, b->throttled + arg->throttled);
	arg->ovfl_ctrl = PFM_OVFL_CTRL_RESET;
	return 0;
}

static void thrt_fmt_restart(void *buf, void *priv)
{
}

static struct pfmk_smpl_fmt thrt_fmt = {
	.name		= "pfmk_throttle_fmt",
	.uuid		= { 0x70, 0x66, 0x6d, 0x6b, 0x2d, 0x74, 0x68, 0x72,
			    0x6f, 0x74, 0x74, 0x6c, 0x65, 0x00, 0x00, 0x01 },
	.owner		= THIS_MODULE,
	.arg_size	= sizeof(u64),
	.get_size	= thrt_fmt_get_size,
	.init		= thrt_fmt_init,
	.handler	= thrt_fmt_handler,
	.restart	= thrt_fmt_restart,
};

/* A format's ->handler() is told which overflows perf throttled. */
static void throttle_fmt_arg(struct kunit *test)
{
	const struct thrt_event *ev = test->param_value;
	struct thrt *t = test->priv;
	struct thrt_fmt_buf *b;
	u64 arg = 0;

	thrt_run(test, ev, thrt_fmt.uuid, &arg, sizeof(arg));
	b = t->buf;
	KUNIT_EXPECT_GE(test, READ_ONCE(b->throttled), (u64)THRT_WANT);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->throttled), t->st.throttled);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->overflows), t->st.ovfl_count);
}

static int thrt_suite_init(struct kunit_suite *suite)
{
	return pfmk_smpl_fmt_register(&thrt_fmt);
}

static void thrt_suite_exit(struct kunit_suite *suite)
{
	pfmk_smpl_fmt_unregister(&thrt_fmt);
}

static struct kunit_case pfmk_throttle_cases[] = {
	KUNIT_CASE_PARAM(throttle_counted, thrt_event_gen_params),
	KUNIT_CASE_PARAM(throttle_not_nested, thrt_event_gen_params),
	KUNIT_CASE_PARAM(throttle_entry_marked, thrt_event_gen_params),
	KUNIT_CASE_PARAM(throttle_entry_flags_only, thrt_event_gen_params),
	KUNIT_CASE_PARAM(throttle_entry_marked_hdr, thrt_event_gen_params),
	KUNIT_CASE_PARAM(throttle_recovers, thrt_event_gen_params),
	KUNIT_CASE_PARAM(throttle_recovers_reset, thrt_event_gen_params),
	KUNIT_CASE_PARAM(throttle_recovers_state, thrt_event_gen_params),
	KUNIT_CASE_PARAM(throttle_fmt_arg, thrt_event_gen_params),
	{}
};

static struct kunit_suite pfmk_throttle_suite = {
	.name = "pfmk_throttle",
	.init = thrt_init,
	.exit = thrt_exit,
	.suite_init = thrt_suite_init,
	.suite_exit = thrt_suite_exit,
	.test_cases = pfmk_throttle_cases,
};

kunit_test_suites(&pfmk_throttle_suite);

PFMK_IMPORT_NS();
MODULE_DESCRIPTION("pfmk KUnit suite: perf's throttling of sampling events");
MODULE_LICENSE("GPL");
