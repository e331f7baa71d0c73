// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_dyn_gone: a perf PMU that goes away under a
 * dynamic description (a module of pfmk_dyn_kunit.ko).
 *
 * Each case registers a PMU of its own, allocated with kzalloc() as the
 * drivers are that unregister a PMU without their module going (a device
 * unbound: idxd, devres-managed platform PMUs), selects it by name with
 * pfmk_encode(), then unregisters and frees it while the description and
 * a context of it live.  Documentation/locking.rst says what pfmk does
 * then: a load (or a write re-creating an event) fails with -EOPNOTSUPP,
 * nothing is counted on a PMU registered later under that name or type,
 * the context reads and closes as before; events of a context loaded at
 * that moment are perf's to detach where it can (7.2), and the driver's
 * business on kernels where it cannot (6.1, 6.12).  The debug kernels
 * run the suite with KASAN: a use of the freed struct pmu, or of its
 * name, by pfmk is a KASAN report, which fails the run.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <pfmk/compat.h>
#include <pfmk/encode.h>
#include <pfmk/pfmk.h>
#include <pfmk/pmu_dyn.h>

#include "pfmk_kunit.h"

#define GONE_NAME	"pfmk_kunit_gone"

/*
 * The PMU, freed by the case: a counter adds its event's "step" at every
 * update (->read, and ->stop with PERF_EF_UPDATE, as a driver folds its
 * hardware count).
 */
struct gone_pmu {
	struct pmu	pmu;
	char		name[sizeof(GONE_NAME)];
	atomic_t	inits;
	bool		registered;
};

static struct gone_pmu *to_gone(struct pmu *pmu)
{
	return container_of(pmu, struct gone_pmu, pmu);
}

static int gone_event_init(struct perf_event *event)
{
	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (event->cpu < 0)
		return -EINVAL;
	atomic_inc(&to_gone(event->pmu)->inits);
	return 0;
}

static void gone_read(struct perf_event *event)
{
	local64_add(event->attr.config & 0xff, &event->count);
}

static void gone_stop(struct perf_event *event, int flags)
{
	if (flags & PERF_EF_UPDATE)
		gone_read(event);
}

static void gone_start(struct perf_event *event, int flags)
{
}

static int gone_add(struct perf_event *event, int flags)
{
	return 0;
}

static void gone_del(struct perf_event *event, int flags)
{
	gone_stop(event, PERF_EF_UPDATE);
}

PMU_FORMAT_ATTR(step, "config:0-7");
PMU_FORMAT_ATTR(flag, "config1:0");

static struct attribute *gone_format_attrs[] = {
	&format_attr_step.attr,
	&format_attr_flag.attr,
	NULL,
};

static const struct attribute_group gone_format_group = {
	.name = "format",
	.attrs = gone_format_attrs,
};

static const struct attribute_group *gone_groups[] = {
	&gone_format_group,
	NULL,
};

/**
 * struct gone_priv - per-test state: what to undo if the case ends early
 * @base: the shared per-test state, whose contexts pfmkt_exit() closes.
 * @pmus: the case's PMUs, unregistered and freed at exit.
 */
struct gone_priv {
	struct pfmkt_priv	base;
	struct gone_pmu		*pmus[2];
};

static_assert(offsetof(struct gone_priv, base) == 0);

static int gone_init(struct kunit *test)
{
	return pfmkt_init_priv(test, sizeof(struct gone_priv));
}

static void gone_pmu_free(struct kunit *test, struct gone_pmu *g);

/* Contexts first: a PMU is unregistered with no event of pfmk on it. */
static void gone_exit(struct kunit *test)
{
	struct gone_priv *p = test->priv;
	unsigned int i;

	if (!p)
		return;
	pfmkt_exit(test);
	for (i = 0; i < ARRAY_SIZE(p->pmus); i++)
		if (p->pmus[i])
			gone_pmu_free(test, p->pmus[i]);
}

/* A PMU of the case, allocated, not registered yet. */
static struct gone_pmu *gone_pmu_alloc(struct kunit *test)
{
	struct gone_priv *p = test->priv;
	struct gone_pmu *g;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p->pmus) && p->pmus[i]; i++)
		;
	KUNIT_ASSERT_LT(test, i, ARRAY_SIZE(p->pmus));
	g = pfmk_kzalloc_obj(*g, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g);
	strscpy(g->name, GONE_NAME, sizeof(g->name));
	g->pmu.module = THIS_MODULE;
	g->pmu.task_ctx_nr = perf_invalid_context;
	g->pmu.attr_groups = gone_groups;
	g->pmu.event_init = gone_event_init;
	g->pmu.add = gone_add;
	g->pmu.del = gone_del;
	g->pmu.start = gone_start;
	g->pmu.stop = gone_stop;
	g->pmu.read = gone_read;
	p->pmus[i] = g;
	return g;
}

static void gone_pmu_register(struct kunit *test, struct gone_pmu *g)
{
	KUNIT_ASSERT_EQ(test, perf_pmu_register(&g->pmu, g->name, -1), 0);
	g->registered = true;
}

static struct gone_pmu *gone_pmu_new(struct kunit *test)
{
	struct gone_pmu *g = gone_pmu_alloc(test);

	gone_pmu_register(test, g);
	return g;
}

/* What an unbound driver does: unregister, then free at once. */
static void gone_pmu_free(struct kunit *test, struct gone_pmu *g)
{
	struct gone_priv *p = test->priv;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p->pmus); i++)
		if (p->pmus[i] == g)
			p->pmus[i] = NULL;
	if (g->registered)
		perf_pmu_unregister(&g->pmu);
	kfree(g);
}

/* A context counting GONE_NAME/step=3,flag/ on PMD 0, written, unloaded. */
static void *gone_context(struct kunit *test)
{
	struct pfarg_pmc pmcs[PFMK_ENCODE_MAX_PMCS];
	struct pfarg_ctx req;
	unsigned int n;
	void *desc;

	pfmkt_ctx_req(&req, "", 0, false);
	KUNIT_ASSERT_EQ(test, pfmk_encode(GONE_NAME "/step=3,flag/", 0, &req,
					  pmcs, ARRAY_SIZE(pmcs), &n), 0);
	KUNIT_ASSERT_STREQ(test, req.ctx_pmu_name, GONE_NAME);
	desc = pfmkt_create_req(test, &req, NULL);
	KUNIT_ASSERT_EQ(test, pfmk_write_pmcs(desc, pmcs, n), 0);
	pfmkt_write_pmd(test, desc, 0, 0);
	return desc;
}

/*
 * A context of GONE_NAME whose PMU went between pfmk_write_pmcs() and
 * pfmk_load_context(), unloaded.
 */
static void *gone_unloaded_ctx(struct kunit *test)
{
	struct gone_pmu *g = gone_pmu_new(test);
	void *desc = gone_context(test);

	gone_pmu_free(test, g);
	return desc;
}

/* A context by the name caches its description and pins the module. */
static void gone_context_pins(struct kunit *test)
{
	unsigned int cached = pfmk_dyn_count_cached();
	int refs = module_refcount(THIS_MODULE);

	gone_pmu_new(test);
	gone_context(test);
	KUNIT_EXPECT_EQ(test, pfmk_dyn_count_cached(), cached + 1);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs + 1);
}

/*
 * Gone between pfmk_write_pmcs() and pfmk_load_context(): the load fails
 * with -EOPNOTSUPP (twice: the context stays unloaded).
 */
static void gone_before_load(struct kunit *test)
{
	void *desc = gone_unloaded_ctx(test);

	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(desc, pfmkt_cpu()), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(desc, pfmkt_cpu()), -EOPNOTSUPP);
}

/* The PMU gone, a context of its description lives (and failed to load). */
static void gone_name_setup(struct kunit *test)
{
	void *old = gone_unloaded_ctx(test);

	KUNIT_ASSERT_EQ(test, pfmkt_load_cpu(old, pfmkt_cpu()), -EOPNOTSUPP);
}

/* gone_name_setup(): pfmk_encode() of the name finds nothing. */
static void gone_name_unknown(struct kunit *test)
{
	struct pfarg_pmc pmcs[PFMK_ENCODE_MAX_PMCS];
	struct pfarg_ctx req;
	unsigned int n;

	gone_name_setup(test);
	pfmkt_ctx_req(&req, "", 0, false);
	KUNIT_EXPECT_EQ(test, pfmk_encode(GONE_NAME "/step=1/", 0, &req, pmcs,
					  ARRAY_SIZE(pmcs), &n), -ENOENT);
}

/* gone_name_setup(): a context created by the name finds nothing. */
static void gone_name_unknown_create(struct kunit *test)
{
	struct pfarg_ctx req;
	void *desc = NULL;

	gone_name_setup(test);
	pfmkt_ctx_req(&req, GONE_NAME, 0, false);
	KUNIT_EXPECT_EQ(test, pfmkt_try_create(test, &req, &desc), -ENOENT);
}

/*
 * Gone before the load, the context's close releases the description and
 * the module pin.
 */
static void gone_before_load_close_releases(struct kunit *test)
{
	unsigned int cached = pfmk_dyn_count_cached();
	int refs = module_refcount(THIS_MODULE);
	void *desc = gone_unloaded_ctx(test);

	KUNIT_ASSERT_EQ(test, pfmkt_load_cpu(desc, pfmkt_cpu()), -EOPNOTSUPP);
	pfmkt_close(test, desc);
	KUNIT_EXPECT_EQ(test, pfmk_dyn_count_cached(), cached);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs);
}

/*
 * A context that counted and was unloaded, then its PMU went.
 * @v: output: its count before the PMU went.
 */
static void *gone_after_unload_ctx(struct kunit *test, u64 *v)
{
	struct gone_pmu *g = gone_pmu_new(test);
	void *desc;

	desc = gone_context(test);
	pfmkt_load_start(test, desc, pfmkt_cpu());
	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	*v = pfmkt_read_pmd(test, desc, 0);
	KUNIT_ASSERT_GT(test, *v, 0ULL);
	KUNIT_ASSERT_EQ(test, *v % 3, 0ULL);
	gone_pmu_free(test, g);
	return desc;
}

/* Gone after the context counted and was unloaded: the count stays. */
static void gone_after_unload(struct kunit *test)
{
	u64 v;
	void *desc = gone_after_unload_ctx(test, &v);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), v);
}

/*
 * Gone after the context counted and was unloaded: a new load fails with
 * -EOPNOTSUPP and leaves the count as it was.
 */
static void gone_after_unload_load_refused(struct kunit *test)
{
	u64 v;
	void *desc = gone_after_unload_ctx(test, &v);

	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(desc, pfmkt_cpu()), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), v);
}

/*
 * A context by the name on a first PMU, which goes; another PMU is
 * registered under the name after it, perhaps with its type number.
 * @old: output: the first PMU's context, unloaded.
 *
 * Return: the newcomer.
 */
static struct gone_pmu *gone_newcomer(struct kunit *test, void **old)
{
	struct gone_pmu *g1 = gone_pmu_new(test);
	struct gone_pmu *g2 = gone_pmu_alloc(test);
	int type1 = g1->pmu.type;

	/* Both allocated at once: the newcomer is not at the old address. */
	*old = gone_context(test);
	gone_pmu_free(test, g1);
	gone_pmu_register(test, g2);
	kunit_info(test, "type %d, then %d\n", type1, g2->pmu.type);
	return g2;
}

/*
 * The old context's load fails (-EOPNOTSUPP) once a newcomer has the
 * name: it counts nothing on the newcomer.
 */
static void gone_newcomer_old_refused(struct kunit *test)
{
	void *old;

	gone_newcomer(test, &old);
	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(old, pfmkt_cpu()), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, old, 0), 0ULL);
}

/*
 * A new context by the name, after gone_newcomer(), loaded.
 * @g2: output: the newcomer.
 */
static void *gone_newcomer_loaded(struct kunit *test, struct gone_pmu **g2)
{
	void *old, *new;

	*g2 = gone_newcomer(test, &old);
	new = gone_context(test);
	pfmkt_load(test, new, pfmkt_cpu());
	return new;
}

/* A new context by the name creates its events on the newcomer. */
static void gone_newcomer_creates(struct kunit *test)
{
	struct gone_pmu *g2;

	gone_newcomer_loaded(test, &g2);
	KUNIT_EXPECT_GT(test, atomic_read(&g2->inits), 0);
}

/* A new context by the name counts on the newcomer. */
static void gone_newcomer_counts(struct kunit *test)
{
	struct gone_pmu *g2;
	void *new = gone_newcomer_loaded(test, &g2);

	KUNIT_ASSERT_EQ(test, pfmk_start(new, NULL), 0);
	KUNIT_ASSERT_EQ(test, pfmk_stop(new), 0);
	KUNIT_EXPECT_GT(test, pfmkt_read_pmd(test, new, 0), 0ULL);
}

/*
 * A new context by the name gets a description of its own, not the old
 * context's: two cached while both live.
 */
static void gone_newcomer_own_description(struct kunit *test)
{
	unsigned int cached = pfmk_dyn_count_cached();
	void *old;

	gone_newcomer(test, &old);
	gone_context(test);
	KUNIT_EXPECT_EQ(test, pfmk_dyn_count_cached(), cached + 2);
}

/* The old and the new context closed, neither description stays cached. */
static void gone_newcomer_descriptions_released(struct kunit *test)
{
	unsigned int cached = pfmk_dyn_count_cached();
	void *old, *new;

	gone_newcomer(test, &old);
	new = gone_context(test);
	KUNIT_ASSERT_EQ(test, pfmk_dyn_count_cached(), cached + 2);
	pfmkt_close(test, new);
	pfmkt_close(test, old);
	KUNIT_EXPECT_EQ(test, pfmk_dyn_count_cached(), cached);
}

/*
 * A context loaded and started on its PMU, which then went.  perf
 * detaches the PMU's events at perf_pmu_unregister() from 6.15 on (probed
 * in Kbuild: PFMK_HAVE_PMU_DETACH); before, a PMU must not be unregistered
 * with events on it, pfmk's or any, and the gone_while_loaded* cases skip
 * here (the harness expects those skips on 6.1 and 6.12).
 * @v0: output: its count before the PMU went.
 * @v1: output: its count right after.
 */
#ifdef PFMK_HAVE_PMU_DETACH
static void *gone_loaded_ctx(struct kunit *test, u64 *v0, u64 *v1)
{
	struct gone_pmu *g = gone_pmu_new(test);
	void *desc;

	desc = gone_context(test);
	pfmkt_load_start(test, desc, pfmkt_cpu());
	*v0 = pfmkt_read_pmd(test, desc, 0);
	gone_pmu_free(test, g);
	*v1 = pfmkt_read_pmd(test, desc, 0);
	return desc;
}
#else
static void *gone_loaded_ctx(struct kunit *test, u64 *v0, u64 *v1)
{
	kunit_skip(test, "this kernel's perf cannot unregister a PMU with events");
	return NULL;
}
#endif

/* Gone while loaded and started: the count stops where it was. */
static void gone_while_loaded(struct kunit *test)
{
	u64 v0, v1;
	void *desc = gone_loaded_ctx(test, &v0, &v1);

	KUNIT_EXPECT_GE(test, v1, v0);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), v1);
}

/* Gone while loaded and started: the context stops as before. */
static void gone_while_loaded_stop(struct kunit *test)
{
	u64 v0, v1;
	void *desc = gone_loaded_ctx(test, &v0, &v1);

	KUNIT_EXPECT_EQ(test, pfmk_stop(desc), 0);
}

/* Gone while loaded and started, then stopped: it unloads as before. */
static void gone_while_loaded_unload(struct kunit *test)
{
	u64 v0, v1;
	void *desc = gone_loaded_ctx(test, &v0, &v1);

	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_unload_context(desc), 0);
}

/*
 * gone_loaded_ctx(), then stopped and unloaded.
 * @v1: output: its count right after the PMU went.
 */
static void *gone_while_loaded_unloaded(struct kunit *test, u64 *v1)
{
	u64 v0;
	void *desc = gone_loaded_ctx(test, &v0, v1);

	KUNIT_ASSERT_EQ(test, pfmk_stop(desc), 0);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	return desc;
}

/* Gone while loaded, stopped and unloaded: the count stays where it was. */
static void gone_while_loaded_unload_keeps(struct kunit *test)
{
	u64 v1;
	void *desc = gone_while_loaded_unloaded(test, &v1);

	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), v1);
}

/* Gone while loaded, stopped and unloaded: a new load gets -EOPNOTSUPP. */
static void gone_while_loaded_reload_refused(struct kunit *test)
{
	u64 v1;
	void *desc = gone_while_loaded_unloaded(test, &v1);

	KUNIT_EXPECT_EQ(test, pfmkt_load_cpu(desc, pfmkt_cpu()), -EOPNOTSUPP);
}

static struct kunit_case gone_cases[] = {
	KUNIT_CASE(gone_context_pins),
	KUNIT_CASE(gone_before_load),
	KUNIT_CASE(gone_name_unknown),
	KUNIT_CASE(gone_name_unknown_create),
	KUNIT_CASE(gone_before_load_close_releases),
	KUNIT_CASE(gone_after_unload),
	KUNIT_CASE(gone_after_unload_load_refused),
	KUNIT_CASE(gone_newcomer_old_refused),
	KUNIT_CASE(gone_newcomer_creates),
	KUNIT_CASE(gone_newcomer_counts),
	KUNIT_CASE(gone_newcomer_own_description),
	KUNIT_CASE(gone_newcomer_descriptions_released),
	KUNIT_CASE(gone_while_loaded),
	KUNIT_CASE(gone_while_loaded_stop),
	KUNIT_CASE(gone_while_loaded_unload),
	KUNIT_CASE(gone_while_loaded_unload_keeps),
	KUNIT_CASE(gone_while_loaded_reload_refused),
	{}
};

static struct kunit_suite dyn_gone_suite = {
	.name = "pfmk_dyn_gone",
	.init = gone_init,
	.exit = gone_exit,
	.test_cases = gone_cases,
};

kunit_test_suites(&dyn_gone_suite);
