// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk_encode(): perf's event strings turned into PMC values, in the
 * kernel, as libpfm did for perfmon2 clients in user space.
 *
 * Forms (perf's syntax, the subset kernel code needs):
 *   name[:mods]               a generic event as perf stat names it
 *                             ("cycles", "cpu-clock", "context-switches",
 *                             "L1-dcache-load-misses")
 *   system:event[:mods]       a tracepoint, by its id (no tracefs needed)
 *   pmu/term[=val],.../[mods] a term is a field of the PMU's "format"
 *                             group, config, config1..config3 (the whole
 *                             word), or an alias of its "events" group
 *   mods                      u, k, h: count only those modes
 *
 * Generic events and tracepoints are PMC values of the "generic"
 * description (<pfmk/pmu_generic.h>); named PMUs' events, PMC values of
 * the PMU's dynamic description (<pfmk/pmu_dyn.h>).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <pfmk/encode.h>
#include <pfmk/pmu_generic.h>

#include "internal.h"

/* Longest event string pfmk_encode() takes, NUL excluded. */
#define PFMK_ENC_MAX_LEN	256

#define pfmk_enc_err(ev, fmt, ...) \
	pr_info_ratelimited("pfmk_encode(\"%s\"): " fmt "\n", ev, ##__VA_ARGS__)

struct pfmk_enc_name {
	const char	*name;
	u32		type;
	u64		config;
};

/* perf stat's names of the generic hardware and software events. */
static const struct pfmk_enc_name pfmk_enc_names[] = {
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "cgroup-switches", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CGROUP_SWITCHES },
};

/* What a string asks for, before it becomes PMC values. */
struct pfmk_enc {
	const char	*event;		/* the caller's string, for messages */
	bool		xuser, xkern, xhv;
	u64		words[PFMK_DYN_NUM_CONFIGS];
};

/* perf's names of the generic cache events: <cache>-<op>s, -<op>-misses. */
static const char * const pfmk_enc_caches[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = "L1-dcache",
	[PERF_COUNT_HW_CACHE_L1I] = "L1-icache",
	[PERF_COUNT_HW_CACHE_LL] = "LLC",
	[PERF_COUNT_HW_CACHE_DTLB] = "dTLB",
	[PERF_COUNT_HW_CACHE_ITLB] = "iTLB",
	[PERF_COUNT_HW_CACHE_BPU] = "branch",
	[PERF_COUNT_HW_CACHE_NODE] = "node",
};

static const char * const pfmk_enc_cache_ops[PERF_COUNT_HW_CACHE_OP_MAX] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = "load",
	[PERF_COUNT_HW_CACHE_OP_WRITE] = "store",
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = "prefetch",
};

/* "L1-dcache-loads", "LLC-load-misses", ...: a HW_CACHE config. */
static bool pfmk_enc_cache(const char *name, u64 *config)
{
	unsigned int c, op;
	const char *p;
	size_t n;

	for (c = 0; c < ARRAY_SIZE(pfmk_enc_caches); c++) {
		n = strlen(pfmk_enc_caches[c]);
		if (strncmp(name, pfmk_enc_caches[c], n) || name[n] != '-')
			continue;
		for (op = 0; op < ARRAY_SIZE(pfmk_enc_cache_ops); op++) {
			p = name + n + 1;
			if (!str_has_prefix(p, pfmk_enc_cache_ops[op]))
				continue;
			p += strlen(pfmk_enc_cache_ops[op]);
			/* "prefetch" + "es", "load" + "s" */
			if (!strcmp(p, op == PERF_COUNT_HW_CACHE_OP_PREFETCH ?
				    "es" : "s")) {
				*config = c | op << 8 |
					  PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16;
				return true;
			}
			if (!strcmp(p, "-misses")) {
				*config = c | op << 8 |
					  PERF_COUNT_HW_CACHE_RESULT_MISS << 16;
				return true;
			}
		}
	}
	return false;
}

/* A generic event by perf stat's name: its type and config. */
static bool pfmk_enc_generic(const char *name, u32 *type, u64 *config)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pfmk_enc_names); i++) {
		if (!strcmp(pfmk_enc_names[i].name, name)) {
			*type = pfmk_enc_names[i].type;
			*config = pfmk_enc_names[i].config;
			return true;
		}
	}
	*type = PERF_TYPE_HW_CACHE;
	return pfmk_enc_cache(name, config);
}

/*
 * Modifiers: any of u, k, h counts those modes only (perf's meaning).
 * Return 0, or -EINVAL for another letter or an empty list.
 */
static int pfmk_enc_mods(struct pfmk_enc *enc, const char *mods)
{
	bool u = false, k = false, h = false;
	const char *p;

	if (!*mods) {
		pfmk_enc_err(enc->event, "empty modifier list");
		return -EINVAL;
	}
	for (p = mods; *p; p++) {
		switch (*p) {
		case 'u':
			u = true;
			break;
		case 'k':
			k = true;
			break;
		case 'h':
			h = true;
			break;
		default:
			pfmk_enc_err(enc->event, "unknown modifier '%c'", *p);
			return -EINVAL;
		}
	}
	enc->xuser = !u;
	enc->xkern = !k;
	enc->xhv = !h;
	return 0;
}

/* Letters only: after a generic name, modifiers (u, k, h or wrong). */
static bool pfmk_enc_is_word(const char *s)
{
	for (; *s; s++)
		if (!isalpha(*s))
			return false;
	return true;
}

/* Deposit @val into the bits of @mask, lowest first (perf's rule). */
static u64 pfmk_enc_deposit(u64 mask, u64 val)
{
	unsigned int bit;
	u64 out = 0;

	for (bit = 0; bit < 64; bit++) {
		if (!(mask & BIT_ULL(bit)))
			continue;
		if (val & 1)
			out |= BIT_ULL(bit);
		val >>= 1;
	}
	return out;
}

struct pfmk_enc_alias {
	const char	*name;
	char		*val;		/* kmalloc'ed copy, or NULL */
};

static int pfmk_enc_find_alias(void *arg, const char *name, const char *val)
{
	struct pfmk_enc_alias *alias = arg;

	if (strcasecmp(name, alias->name))
		return 0;
	/* The last one: sysfs shows ->attr_update's over ->attr_groups'. */
	kfree(alias->val);
	alias->val = kstrdup(val, GFP_KERNEL);
	return alias->val ? 0 : -ENOMEM;
}

static int pfmk_enc_terms(struct pfmk_enc *enc, struct pfmk_dyn *dyn,
			  char *terms, bool in_alias);

/* "config", "config1".. as this kernel has them: the word's number. */
static bool pfmk_enc_config_word(const char *term, unsigned int *word)
{
	if (!strcmp(term, "config")) {
		*word = 0;
		return true;
	}
	if (!strncmp(term, "config", 6) && term[6] >= '1' &&
	    term[6] < '0' + PFMK_DYN_NUM_CONFIGS && !term[7]) {
		*word = term[6] - '0';
		return true;
	}
	return false;
}

/* The field of @dyn's "format" group named @term (the last one), or NULL. */
static const struct pfmk_dyn_field *
pfmk_enc_field_of(const struct pfmk_dyn *dyn, const char *term)
{
	const struct pfmk_dyn_field *f = NULL;
	unsigned int i;

	for (i = 0; i < dyn->nr_fields; i++)
		if (!strcmp(dyn->fields[i].name, term))
			f = &dyn->fields[i];
	return f;
}

/* Term @term=@val of field @f: @val into the field's bits of its word. */
static int pfmk_enc_field(struct pfmk_enc *enc, const struct pfmk_dyn_field *f,
			  const char *term, u64 val)
{
	unsigned int word = f->word, width;
	u64 mask = f->mask;

	width = hweight64(mask);
	if (!width || (width < 64 && val >> width)) {
		pfmk_enc_err(enc->event, "term %s: %llu wider than its %u bits",
			     term, val, width);
		return -EINVAL;
	}
	enc->words[word] = (enc->words[word] & ~mask) |
			   pfmk_enc_deposit(mask, val);
	return 0;
}

/* Term config<@word>=@val: a whole word, raw, only the bits of its fields. */
static int pfmk_enc_word(struct pfmk_enc *enc, const struct pfmk_dyn *dyn,
			 const char *term, unsigned int word, u64 val)
{
	u64 mask = dyn->formatted ? dyn->masks[word] : ~0ULL;

	if (val & ~mask) {
		pfmk_enc_err(enc->event, "term %s: 0x%llx sets bits of no field",
			     term, val);
		return -EINVAL;
	}
	enc->words[word] = val;
	return 0;
}

/* Term @term, an alias of @dyn's "events" group: its terms applied. */
static int pfmk_enc_alias(struct pfmk_enc *enc, struct pfmk_dyn *dyn,
			  const char *term)
{
	struct pfmk_enc_alias alias = { .name = term };
	int ret;

	ret = pfmk_perf_pmu_attrs(dyn->pmu, dyn->name, "events",
				  pfmk_enc_find_alias, &alias);
	if (ret < 0)
		return ret;
	if (!alias.val) {
		pfmk_enc_err(enc->event, "unknown term %s", term);
		return -EINVAL;
	}
	ret = pfmk_enc_terms(enc, dyn, alias.val, true);
	kfree(alias.val);
	return ret;
}

/* Apply one term "key" or "key=value" to @enc. */
static int pfmk_enc_term(struct pfmk_enc *enc, struct pfmk_dyn *dyn,
			 char *term, bool in_alias)
{
	const struct pfmk_dyn_field *f;
	char *eq = strchr(term, '=');
	unsigned int word;
	u64 val = 1;

	if (eq) {
		*eq = 0;
		if (kstrtou64(eq + 1, 0, &val)) {
			pfmk_enc_err(enc->event, "term %s: bad value '%s'",
				     term, eq + 1);
			return -EINVAL;
		}
	}
	if (!*term) {
		pfmk_enc_err(enc->event, "empty term");
		return -EINVAL;
	}
	f = pfmk_enc_field_of(dyn, term);
	if (f)
		return pfmk_enc_field(enc, f, term, val);
	if (pfmk_enc_config_word(term, &word))
		return pfmk_enc_word(enc, dyn, term, word, val);
	/* An alias takes no value, and names no other alias. */
	if (eq || in_alias) {
		pfmk_enc_err(enc->event, "unknown term %s", term);
		return -EINVAL;
	}
	return pfmk_enc_alias(enc, dyn, term);
}

static int pfmk_enc_terms(struct pfmk_enc *enc, struct pfmk_dyn *dyn,
			  char *terms, bool in_alias)
{
	char *term;
	int ret;

	while ((term = strsep(&terms, ",")) != NULL) {
		term = strim(term);
		ret = pfmk_enc_term(enc, dyn, term, in_alias);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The description name @name (a PMU name, or "" for generic) goes into
 * the context's: an empty one takes it for PMD 0, a set one must select
 * the same description.
 */
static int pfmk_enc_ctx(struct pfmk_enc *enc, struct pfarg_ctx *ctx,
			unsigned int pmd, const char *name, char *out)
{
	const char *cur = ctx->ctx_pmu_name;

	if (!*name) {
		if (!*cur || !strcmp(cur, PFMK_GENERIC_NAME))
			return 0;
		pfmk_enc_err(enc->event, "a generic event in a context of %s",
			     cur);
		return -EINVAL;
	}
	/* A registered description of that name hides the dynamic one. */
	if (pfmk_pmu_registered(name) &&
	    snprintf(out, PFMK_PMU_NAME_LEN, PFMK_DYN_PREFIX "%s", name) >=
	    PFMK_PMU_NAME_LEN) {
		pfmk_enc_err(enc->event, "PMU name %s too long", name);
		return -EINVAL;
	} else if (!*out) {
		strscpy(out, name, PFMK_PMU_NAME_LEN);
	}
	if (!*cur) {
		if (pmd)
			goto mismatch;
		return 0;
	}
	if (!strcmp(cur, out) ||
	    (str_has_prefix(cur, PFMK_DYN_PREFIX) &&
	     !strcmp(cur + strlen(PFMK_DYN_PREFIX), name)))
		return 0;
mismatch:
	pfmk_enc_err(enc->event, "PMU %s in a context of %s (PMD %u)", name,
		     *cur ? cur : PFMK_GENERIC_NAME, pmd);
	return -EINVAL;
}

/*
 * Split "pmu/terms/[mods]" (@s) at its slashes, in place: @s keeps the
 * PMU's name, *@terms the terms; the modifiers are applied to @enc.
 */
static int pfmk_enc_pmu_split(struct pfmk_enc *enc, char *s, char **terms)
{
	char *slash = strchr(s, '/');
	char *end, *mods;

	*slash = 0;
	*terms = slash + 1;
	end = strrchr(*terms, '/');
	if (!*s || !end) {
		pfmk_enc_err(enc->event, "malformed: pmu/terms/ expected");
		return -EINVAL;
	}
	*end = 0;
	if (strchr(*terms, '/')) {
		pfmk_enc_err(enc->event, "malformed: '/' in the terms");
		return -EINVAL;
	}
	mods = end + 1;
	if (*mods == ':')
		mods++;
	if (end[1])
		return pfmk_enc_mods(enc, mods);
	return 0;
}

/* The PMCs of PMD @pmd of @dyn's description: control, then config words. */
static void pfmk_enc_pmu_pmcs(const struct pfmk_enc *enc,
			      const struct pfmk_dyn *dyn, unsigned int pmd,
			      struct pfarg_pmc *out, unsigned int *n)
{
	unsigned int w;

	out[0].reg_num = PFMK_DYN_PMC(pmd, PFMK_DYN_CTRL);
	out[0].reg_value = PFMK_DYN_EN |
			   (enc->xuser ? PFMK_DYN_XUSER : 0) |
			   (enc->xkern ? PFMK_DYN_XKERN : 0) |
			   (enc->xhv ? PFMK_DYN_XHV : 0);
	*n = 1;
	/* config always; config1.. where the PMU has fields, or set. */
	for (w = 0; w < PFMK_DYN_NUM_CONFIGS; w++) {
		if (w && dyn->formatted && !dyn->masks[w])
			continue;
		if (w && !dyn->formatted && !enc->words[w])
			continue;
		out[*n].reg_num = PFMK_DYN_PMC(pmd, PFMK_DYN_CONFIG + w);
		out[*n].reg_value = enc->words[w];
		(*n)++;
	}
}

static int pfmk_enc_pmu(struct pfmk_enc *enc, char *s, unsigned int pmd,
			struct pfarg_ctx *ctx, struct pfarg_pmc *out,
			unsigned int *n, char *ctx_name)
{
	const struct pfmk_pmu_desc *desc;
	struct pfmk_dyn *dyn;
	char *terms;
	int ret;

	ret = pfmk_enc_pmu_split(enc, s, &terms);
	if (ret)
		return ret;
	if (pmd >= PFMK_DYN_NUM_PMDS) {
		pfmk_enc_err(enc->event, "PMD %u of a PMU by name (max %u)",
			     pmd, PFMK_DYN_NUM_PMDS - 1);
		return -EINVAL;
	}
	desc = pfmk_dyn_get(s);
	if (IS_ERR(desc)) {
		pfmk_enc_err(enc->event, "no PMU %s", s);
		return PTR_ERR(desc);
	}
	dyn = container_of(desc, struct pfmk_dyn, desc);
	/* "pmu//": no term, every config word 0 (perf's intel_pt//). */
	ret = *terms ? pfmk_enc_terms(enc, dyn, terms, false) : 0;
	if (!ret)
		ret = pfmk_enc_ctx(enc, ctx, pmd, s, ctx_name);
	if (!ret)
		pfmk_enc_pmu_pmcs(enc, dyn, pmd, out, n);
	pfmk_pmu_put(desc);
	return ret;
}

/* A tracepoint's perf id, or -ENOENT. */
static int pfmk_enc_tp_id(const char *system, const char *event, u64 *id)
{
#ifdef CONFIG_EVENT_TRACING
	struct trace_event_file *file;

	file = trace_get_event_file(NULL, system, event);
	if (IS_ERR(file))
		return -ENOENT;
	*id = file->event_call->event.type;
	trace_put_event_file(file);
	return 0;
#else
	return -ENOENT;
#endif
}

static int pfmk_enc_generic_or_tp(struct pfmk_enc *enc, char *s,
				  unsigned int pmd, struct pfarg_ctx *ctx,
				  struct pfarg_pmc *out, char *ctx_name)
{
	char *colon = strchr(s, ':');
	char *mods = NULL;
	u32 type;
	u64 config;
	int ret;

	if (colon) {
		*colon = 0;
		if (pfmk_enc_generic(s, &type, &config) &&
		    pfmk_enc_is_word(colon + 1)) {
			mods = colon + 1;
		} else {
			/* system:event[:mods] */
			char *event = colon + 1, *c2 = strchr(event, ':');

			if (c2) {
				*c2 = 0;
				mods = c2 + 1;
			}
			if (!*s || !*event) {
				pfmk_enc_err(enc->event, "malformed tracepoint");
				return -EINVAL;
			}
			if (pfmk_enc_tp_id(s, event, &config)) {
				pfmk_enc_err(enc->event, "no tracepoint %s:%s",
					     s, event);
				return -ENOENT;
			}
			type = PERF_TYPE_TRACEPOINT;
		}
	} else {
		if (!pfmk_enc_generic(s, &type, &config)) {
			pfmk_enc_err(enc->event, "unknown event %s", s);
			return -ENOENT;
		}
	}
	if (mods) {
		ret = pfmk_enc_mods(enc, mods);
		if (ret)
			return ret;
	}
	if (pmd >= PFMK_GENERIC_NUM_PMCS) {
		pfmk_enc_err(enc->event, "PMD %u of generic (max %u)", pmd,
			     PFMK_GENERIC_NUM_PMCS - 1);
		return -EINVAL;
	}
	ret = pfmk_enc_ctx(enc, ctx, pmd, "", ctx_name);
	if (ret)
		return ret;
	out->reg_num = pmd;
	out->reg_value = PFMK_GEN_PMC(type, config) |
			 (enc->xuser ? PFMK_GEN_XUSER : 0) |
			 (enc->xkern ? PFMK_GEN_XKERN : 0) |
			 (enc->xhv ? PFMK_GEN_XHV : 0);
	return 0;
}

/**
 * pfmk_encode() - turn an event string into the PMC values of a PMD
 * @event: the event, in perf's syntax: a generic event as perf stat names
 *	it ("cycles", "instructions", "cache-misses", "cpu-clock",
 *	"context-switches", "LLC-load-misses", ...), a tracepoint
 *	"system:event", or a PMU's
 *	event "pmu/term=value,term,.../" whose terms are the fields of the
 *	PMU's sysfs "format" group, config, config1..config3 (a whole word),
 *	or an alias of its "events" group ("pmu//": none, every config word
 *	0); each form takes the modifiers u,
 *	k and h ("cycles:u", "sched:sched_switch:k", "msr/tsc/u"): count
 *	only those modes.
 * @pmd: the PMD to program.
 * @ctx: the context request the event is for: its ctx_pmu_name selects
 *	the description the values are for.  Generic events and tracepoints
 *	are values of the "generic" description (empty ctx_pmu_name); a
 *	PMU's events, of its dynamic description (<pfmk/pmu_dyn.h>).  An
 *	empty ctx_pmu_name is set to the PMU's name (PFMK_DYN_PREFIX and
 *	the name where a registered description has the name) by the event
 *	of PMD 0: encode PMD 0 first.
 * @pmcs: output: the PMC write requests that program PMD @pmd (reg_num
 *	and reg_value set, the other fields zeroed), for pfmk_write_pmcs().
 * @max: number of entries @pmcs has room for: 1 for a generic event or a
 *	tracepoint, 2 to 5 for a PMU's (control word, config, and config1..3
 *	where the PMU has format fields in them).
 * @count: output: number of entries written to @pmcs; 0 on error.
 *
 * One context counts events of one description: generic hardware and
 * software events and tracepoints together, or events of one PMU by name.
 * A PMU's event in a generic context, a generic event in a PMU's context,
 * or events of two PMUs: -EINVAL (use one context for each).  Every error
 * logs a rate-limited line naming the offending part.  Nothing is written
 * to @pmcs or @ctx on error.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL for a NULL @event, @ctx, @count (or @pmcs with @max
 * non-zero), a string longer than 256 characters, malformed syntax, an
 * unknown modifier, term or alias, a value wider than its field, a bad
 * number, a PMD the description does not have, an event @ctx's
 * description cannot carry, or a PMU name too long for ctx_pmu_name;
 * -ENOENT for an unknown PMU, generic event name or tracepoint; -E2BIG if
 * @max is too small; -ENOMEM.
 */
int pfmk_encode(const char *event, unsigned int pmd, struct pfarg_ctx *ctx,
		struct pfarg_pmc *pmcs, unsigned int max, unsigned int *count)
{
	struct pfarg_pmc out[1 + PFMK_DYN_NUM_CONFIGS];
	char ctx_name[PFMK_PMU_NAME_LEN] = "";
	struct pfmk_enc enc = { };
	unsigned int n = 1;
	char *s;
	int ret;

	might_sleep();
	if (count)
		*count = 0;
	if (!event || !ctx || !count || (max && !pmcs))
		return -EINVAL;
	if (!memchr(ctx->ctx_pmu_name, 0, sizeof(ctx->ctx_pmu_name)))
		return -EINVAL;
	if (strnlen(event, PFMK_ENC_MAX_LEN + 1) > PFMK_ENC_MAX_LEN) {
		pr_info_ratelimited("%s(): event string too long\n", __func__);
		return -EINVAL;
	}
	enc.event = event;
	s = kstrdup(event, GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	memset(out, 0, sizeof(out));
	if (!*s) {
		pfmk_enc_err(event, "empty event");
		ret = -EINVAL;
	} else if (strchr(s, '/')) {
		ret = pfmk_enc_pmu(&enc, s, pmd, ctx, out, &n, ctx_name);
	} else {
		ret = pfmk_enc_generic_or_tp(&enc, s, pmd, ctx, out, ctx_name);
	}
	kfree(s);
	if (ret)
		return ret;
	if (n > max) {
		pfmk_enc_err(event, "needs %u PMCs, room for %u", n, max);
		return -E2BIG;
	}
	memcpy(pmcs, out, n * sizeof(*out));
	if (*ctx_name && !ctx->ctx_pmu_name[0])
		strscpy(ctx->ctx_pmu_name, ctx_name,
			sizeof(ctx->ctx_pmu_name));
	*count = n;
	return 0;
}
EXPORT_SYMBOL_GPL(pfmk_encode);
