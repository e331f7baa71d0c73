// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk KUnit suite pfmk_smpl_full: a full default-format buffer
 * (Documentation/sampling.rst): it masks the context and notifies if the
 * PMD asks (with PFM_FL_OVFL_NO_MSG, completes without a message), an
 * entry that does not fit is refused, pfmk_restart() empties the buffer.
 * Split from pfmk_smpl_notify, which had grown to 1,200 lines.  Every
 * case runs on the deterministic test PMU.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <pfmk/pfmk.h>
#include <pfmk/smpl_dfl.h>

#include "pfmk_kunit.h"
#include "pfmk_kunit_smpl_notify.h"
#include "pfmk_test_pmu.h"

/*
 * A NOTIFY_BUF4 buffer: PMD0 samples every FULL_P ticks with OVFL_NOTIFY
 * (long reset -NOTIFY_L) and records PMD1, which counts FULL_STEP1 per
 * tick.  Four periods fill the buffer.
 */
static void *full_setup(struct kunit *test, int cpu, void **buf)
{
	const struct pfmkt_pmd p = {
		.value = -FULL_P,
		.short_reset = -FULL_P,
		.long_reset = -NOTIFY_L,
		.flags = PFM_REGFL_OVFL_NOTIFY,
		.smpl_pmds = BIT_ULL(1),
	};
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0, NOTIFY_BUF4, buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_pmc(test, desc, 1, PFMK_TEST_PMC(FULL_STEP1));
	pfmkt_write_smpl_pmd(test, desc, 0, &p);
	pfmkt_load_start(test, desc, cpu);
	return desc;
}

/* full_setup() and four periods: full, masked, notified (message read). */
static void *full_masked(struct kunit *test, int cpu, void **buf)
{
	void *desc = full_setup(test, cpu, buf);

	pfmk_test_pmu_tick(cpu, 4 * FULL_P);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
	pfmkt_wait_notify(test);
	pfmkt_expect_ovfl_msg(test, desc, 0, cpu);
	return desc;
}

/*
 * full_setup() and three periods: a buffer that is not yet full.  376
 * bytes hold four 48-byte entries; the three before the last are written.
 */
static void *full_not_full(struct kunit *test, int cpu, void **buf)
{
	void *desc = full_setup(test, cpu, buf);

	pfmk_test_pmu_tick(cpu, 3 * FULL_P);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(*buf), 3ULL);
	return desc;
}

/* The entries before the last do not mask the context. */
static void smpl_notify_buffer_not_full_state(struct kunit *test)
{
	void *desc, *buf;

	desc = full_not_full(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
}

/* ... nor count a buffer overflow. */
static void smpl_notify_buffer_not_full_overflows(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr;

	full_not_full(test, pfmkt_cpu(), (void **)&hdr);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 0ULL);
}

/* ... nor notify. */
static void smpl_notify_buffer_not_full_silent(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	void *buf;

	full_not_full(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_FALSE(test, completion_done(&priv->done));
}

/*
 * full_setup() and four periods: the entry that leaves less than
 * hdr_min_buf_space (104) of the 376 bytes fills the buffer.
 */
static void *full_filled(struct kunit *test, int cpu, void **buf)
{
	void *desc = full_setup(test, cpu, buf);

	pfmk_test_pmu_tick(cpu, 4 * FULL_P);
	return desc;
}

/* A full buffer holds four 48-byte entries. */
static void smpl_notify_buffer_full(struct kunit *test)
{
	void *buf;

	full_filled(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 4ULL);
}

/* hdr_cur_offs is past the four entries. */
static void smpl_notify_buffer_full_offset(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr;

	full_filled(test, pfmkt_cpu(), (void **)&hdr);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs, PFMKT_HDR + 4 * NOTIFY_ENTRY1);
}

/* The fill counts one buffer overflow. */
static void smpl_notify_buffer_full_overflows(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr;

	full_filled(test, pfmkt_cpu(), (void **)&hdr);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 1ULL);
}

/* The entry that fills the buffer masks the context. */
static void smpl_notify_buffer_full_masks(struct kunit *test)
{
	void *desc, *buf;

	desc = full_filled(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
}

/* ... and notifies, with one overflow message. */
static void smpl_notify_buffer_full_notifies(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = full_filled(test, cpu, &buf);
	notify_expect_one_msg(test, desc, cpu);
}

/* full_masked() and three periods more, which record nothing. */
static void *full_saturated(struct kunit *test, int cpu, void **buf)
{
	void *desc = full_masked(test, cpu, buf);

	pfmk_test_pmu_tick(cpu, 3 * FULL_P);
	return desc;
}

/* Full and masked: the header still counts four entries, one overflow. */
static void smpl_notify_buffer_full_saturates_hdr(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr;

	full_saturated(test, pfmkt_cpu(), (void **)&hdr);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(hdr), 4ULL);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 1ULL);
}

/* ... PMD0 saturates: not reset, it reads the three periods since. */
static void smpl_notify_buffer_full_saturates_pmd0(struct kunit *test)
{
	void *desc, *buf;

	desc = full_saturated(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), 3 * FULL_P);
}

/* ... the statistics: the four overflows of the fill, one notification. */
static void smpl_notify_buffer_full_saturates_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 4,
					     .smpl_count = 4,
					     .notify_count = 1 };
	void *desc, *buf;

	desc = full_saturated(test, pfmkt_cpu(), &buf);
	pfmkt_expect_stats(test, desc, &want);
}

/* ... the four entries are those of the fill, not overwritten. */
static void smpl_notify_buffer_full_saturates_entries(struct kunit *test)
{
	const struct pfm_dfl_smpl_entry *ent;
	int cpu = pfmkt_cpu();
	unsigned int i;
	void *buf;

	full_saturated(test, cpu, &buf);
	for (i = 0; i < 4; i++) {
		ent = pfmkt_entry(buf, i, 1);
		KUNIT_EXPECT_EQ_MSG(test, ent->last_reset_val, -FULL_P,
				    "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ent->cpu, (u16)cpu, "entry %u", i);
	}
}

/* full_masked(), then pfmk_restart(). */
static void *full_restarted(struct kunit *test, int cpu, void **buf)
{
	void *desc = full_masked(test, cpu, buf);

	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	return desc;
}

/* pfmk_restart() of a full buffer unmasks the context. */
static void smpl_notify_buffer_full_restart_state(struct kunit *test)
{
	void *desc, *buf;

	desc = full_restarted(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
}

/* ... empties the buffer: no entry, hdr_cur_offs back at the first. */
static void smpl_notify_buffer_full_restart_emptied(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr;

	full_restarted(test, pfmkt_cpu(), (void **)&hdr);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(hdr), 0ULL);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs, (u64)PFMKT_HDR);
}

/* ... keeps hdr_overflows. */
static void smpl_notify_buffer_full_restart_overflows(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr;

	full_restarted(test, pfmkt_cpu(), (void **)&hdr);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 1ULL);
}

/* ... and reloads PMD0 with its long reset. */
static void smpl_notify_buffer_full_restart_pmd_reset(struct kunit *test)
{
	void *desc, *buf;

	desc = full_restarted(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_L);
}

/* After the restart, recording resumes from the long reset. */
static void smpl_notify_buffer_full_resumes(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *buf;

	full_restarted(test, cpu, &buf);
	pfmk_test_pmu_tick(cpu, NOTIFY_L - 1);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 0ULL);
	pfmk_test_pmu_tick(cpu, 1);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(buf), 1ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_entry(buf, 0, 1)->last_reset_val,
			-NOTIFY_L);
}

/*
 * full_restarted(), then NOTIFY_L ticks (one entry, from the long reset)
 * and FULL_P more (a second entry).
 */
static void *full_resumed_short(struct kunit *test, int cpu, void **buf)
{
	void *desc = full_restarted(test, cpu, buf);

	pfmk_test_pmu_tick(cpu, NOTIFY_L);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(*buf), 1ULL);
	pfmk_test_pmu_tick(cpu, FULL_P);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(*buf), 2ULL);
	return desc;
}

/* Then the short reset again: the next entry a period later. */
static void smpl_notify_buffer_full_resumes_short(struct kunit *test)
{
	void *buf;

	full_resumed_short(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_entry(buf, 1, 1)->last_reset_val, -FULL_P);
}

/* Resumed, the context runs unmasked. */
static void smpl_notify_buffer_full_resumes_short_state(struct kunit *test)
{
	void *desc, *buf;

	desc = full_resumed_short(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
}

/* Six overflows, each recorded, and only the first full buffer notified. */
static void smpl_notify_buffer_full_resumes_short_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 6,
					     .smpl_count = 6,
					     .notify_count = 1,
					     .restarts = 1 };
	void *desc, *buf;

	desc = full_resumed_short(test, pfmkt_cpu(), &buf);
	pfmkt_expect_stats(test, desc, &want);
}

/*
 * An overflow that finds no room before it writes (pfmk_dfl_full()).  A
 * full buffer masks the context, and only an unload unmasks it without
 * emptying the buffer: loaded again, an entry larger than the room left
 * is refused, counted in hdr_overflows, and masks and notifies again, as
 * perfmon2 2.2's default format does.  376 bytes hold four 48-byte
 * entries and leave 56; full_refused() makes the PMD sample three PMDs
 * (64 bytes), loads again and runs a period.
 */
static void *full_refused(struct kunit *test, int cpu, void **buf)
{
	const struct pfmkt_pmd p = {
		.value = -FULL_P,
		.short_reset = -FULL_P,
		.long_reset = -FULL_P,
		.flags = PFM_REGFL_OVFL_NOTIFY,
		.smpl_pmds = BIT_ULL(1) | BIT_ULL(2) | BIT_ULL(3),
	};
	struct pfm_dfl_smpl_hdr *hdr;
	void *desc;
	u16 i;

	desc = full_masked(test, cpu, buf);
	hdr = *buf;
	KUNIT_ASSERT_EQ(test, hdr->hdr_overflows, 1ULL);
	KUNIT_ASSERT_EQ(test, pfmk_unload_context(desc), 0);
	for (i = 2; i < 4; i++)
		pfmkt_write_pmc(test, desc, i, PFMK_TEST_PMC(1));
	pfmkt_write_smpl_pmd(test, desc, 0, &p);
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, FULL_P);
	return desc;
}

/* The refused entry is not written: still four entries. */
static void smpl_notify_full_before_entry(struct kunit *test)
{
	void *buf;

	full_refused(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 4ULL);
}

/* ... and hdr_cur_offs has not moved. */
static void smpl_notify_full_before_entry_offset(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr;

	full_refused(test, pfmkt_cpu(), (void **)&hdr);
	KUNIT_EXPECT_EQ(test, hdr->hdr_cur_offs, PFMKT_HDR + 4 * NOTIFY_ENTRY1);
}

/* The refusal is a second buffer overflow. */
static void smpl_notify_full_before_entry_overflows(struct kunit *test)
{
	struct pfm_dfl_smpl_hdr *hdr;

	full_refused(test, pfmkt_cpu(), (void **)&hdr);
	KUNIT_EXPECT_EQ(test, hdr->hdr_overflows, 2ULL);
}

/* The refusal masks the context again. */
static void smpl_notify_full_before_entry_masks(struct kunit *test)
{
	void *desc, *buf;

	desc = full_refused(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
}

/* ... and notifies again, with one overflow message. */
static void smpl_notify_full_before_entry_notifies(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = full_refused(test, cpu, &buf);
	notify_expect_one_msg(test, desc, cpu);
}

/*
 * An overflow, a notification, no sample more: the counts of the first
 * fill, before the unload, are kept.
 */
static void smpl_notify_full_before_entry_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 5,
					     .smpl_count = 4,
					     .notify_count = 2 };
	void *desc, *buf;

	desc = full_refused(test, pfmkt_cpu(), &buf);
	pfmkt_expect_stats(test, desc, &want);
}

/*
 * A buffer that one entry fills and a PMD without PFM_REGFL_OVFL_NOTIFY,
 * sampling every NOTIFY_P ticks (long reset -NOTIFY_L); NOTIFY_P ticks
 * fill the buffer.
 */
static void *full_silent_setup(struct kunit *test, int cpu, void **buf)
{
	const struct pfmkt_pmd p = {
		.value = -NOTIFY_P,
		.short_reset = -NOTIFY_P,
		.long_reset = -NOTIFY_L,
	};
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, 0,
				PFMKT_HDR + SMPL_TEST_MIN, buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_smpl_pmd(test, desc, 0, &p);
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, NOTIFY_P);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(*buf), 1ULL);
	return desc;
}

/*
 * A full buffer and a PMD without PFM_REGFL_OVFL_NOTIFY: the default
 * format asks for NOTIFY | MASK, and as in perfmon2 2.2 the context masks
 * but the notification is not sent (it is subject to the PMD's flag).
 */
static void smpl_notify_full_silent_masks(struct kunit *test)
{
	void *desc, *buf;

	desc = full_silent_setup(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
}

/* ... not notified: no completion, no message. */
static void smpl_notify_full_silent_no_notify(struct kunit *test)
{
	struct pfmkt_priv *priv = test->priv;
	void *desc, *buf;

	desc = full_silent_setup(test, pfmkt_cpu(), &buf);
	msleep(20);
	KUNIT_EXPECT_FALSE(test, completion_done(&priv->done));
	pfmkt_expect_no_msg(test, desc);
}

/* One overflow, one sample, no notification counted. */
static void smpl_notify_full_silent_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 1,
					     .smpl_count = 1 };
	void *desc, *buf;

	desc = full_silent_setup(test, pfmkt_cpu(), &buf);
	pfmkt_expect_stats(test, desc, &want);
}

/* Masked silently, restart empties the buffer and reloads the long reset. */
static void smpl_notify_full_silent_restart(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = full_silent_setup(test, cpu, &buf);
	KUNIT_ASSERT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 0ULL);
	KUNIT_EXPECT_EQ(test, pfmkt_read_pmd(test, desc, 0), -NOTIFY_L);
}

/*
 * PFM_FL_OVFL_NO_MSG and a buffer that one entry fills; FULL_P ticks
 * fill it.
 */
static void *notify_no_msg_full(struct kunit *test, int cpu, void **buf)
{
	void *desc;

	desc = pfmkt_create_dfl(test, PFMK_TEST_PMU_NAME, PFM_FL_OVFL_NO_MSG,
				PFMKT_HDR + SMPL_TEST_MIN, buf);
	pfmkt_write_pmc(test, desc, 0, PFMK_TEST_PMC(1));
	pfmkt_write_smpl_pmd(test, desc, 0, &(struct pfmkt_pmd){
		.value = -FULL_P,
		.short_reset = -FULL_P,
		.long_reset = -NOTIFY_L,
		.flags = PFM_REGFL_OVFL_NOTIFY,
	});
	pfmkt_load_start(test, desc, cpu);
	pfmk_test_pmu_tick(cpu, FULL_P);
	return desc;
}

/* PFM_FL_OVFL_NO_MSG: FULL_P ticks fill the buffer with one entry. */
static void smpl_notify_no_msg_full_buffer(struct kunit *test)
{
	void *buf;

	notify_no_msg_full(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 1ULL);
}

/* PFM_FL_OVFL_NO_MSG: the full buffer masks the context. */
static void smpl_notify_no_msg_full_masks(struct kunit *test)
{
	void *desc, *buf;

	desc = notify_no_msg_full(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
}

/* PFM_FL_OVFL_NO_MSG: the full buffer completes, but queues no message. */
static void smpl_notify_no_msg_full_no_msg(struct kunit *test)
{
	void *desc, *buf;

	desc = notify_no_msg_full(test, pfmkt_cpu(), &buf);
	pfmkt_wait_notify(test);
	pfmkt_expect_no_msg(test, desc);
}

/* PFM_FL_OVFL_NO_MSG: one overflow, one sample, one notification. */
static void smpl_notify_no_msg_full_stats(struct kunit *test)
{
	const struct pfmk_ctx_stats want = { .ovfl_count = 1,
					     .smpl_count = 1,
					     .notify_count = 1 };
	void *desc, *buf;

	desc = notify_no_msg_full(test, pfmkt_cpu(), &buf);
	pfmkt_wait_notify(test);
	pfmkt_expect_stats(test, desc, &want);
}

/* Restart unmasks and empties it. */
static void smpl_notify_no_msg_full_restart(struct kunit *test)
{
	int cpu = pfmkt_cpu();
	void *desc, *buf;

	desc = notify_no_msg_full(test, cpu, &buf);
	pfmkt_wait_notify(test);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_STARTED);
	KUNIT_EXPECT_EQ(test, pfmkt_hdr_count(buf), 0ULL);
}

/*
 * notify_no_msg_full(), restarted, then NOTIFY_L ticks: recording resumed
 * and its first entry filled the buffer again.
 */
static void *notify_no_msg_refilled(struct kunit *test, int cpu, void **buf)
{
	void *desc = notify_no_msg_full(test, cpu, buf);

	pfmkt_wait_notify(test);
	KUNIT_ASSERT_EQ(test, pfmk_restart(desc), 0);
	pfmk_test_pmu_tick(cpu, NOTIFY_L);
	KUNIT_ASSERT_EQ(test, pfmkt_hdr_count(*buf), 1ULL);
	return desc;
}

/* After the restart recording resumes from the long reset. */
static void smpl_notify_no_msg_full_resumes(struct kunit *test)
{
	void *buf;

	notify_no_msg_refilled(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmkt_entry(buf, 0, 0)->last_reset_val,
			-NOTIFY_L);
}

/* The entry that fills the buffer again masks the context again. */
static void smpl_notify_no_msg_full_remasks(struct kunit *test)
{
	void *desc, *buf;

	desc = notify_no_msg_refilled(test, pfmkt_cpu(), &buf);
	KUNIT_EXPECT_EQ(test, pfmk_get_state(desc), PFMKT_MASKED);
}

/* Full again, still no message is queued. */
static void smpl_notify_no_msg_full_again_no_msg(struct kunit *test)
{
	void *desc, *buf;

	desc = notify_no_msg_refilled(test, pfmkt_cpu(), &buf);
	pfmkt_expect_no_msg(test, desc);
}

static struct kunit_case pfmk_smpl_full_cases[] = {
	KUNIT_CASE(smpl_notify_buffer_not_full_state),
	KUNIT_CASE(smpl_notify_buffer_not_full_overflows),
	KUNIT_CASE(smpl_notify_buffer_not_full_silent),
	KUNIT_CASE(smpl_notify_buffer_full),
	KUNIT_CASE(smpl_notify_buffer_full_offset),
	KUNIT_CASE(smpl_notify_buffer_full_overflows),
	KUNIT_CASE(smpl_notify_buffer_full_masks),
	KUNIT_CASE(smpl_notify_buffer_full_notifies),
	KUNIT_CASE(smpl_notify_buffer_full_saturates_hdr),
	KUNIT_CASE(smpl_notify_buffer_full_saturates_pmd0),
	KUNIT_CASE(smpl_notify_buffer_full_saturates_stats),
	KUNIT_CASE(smpl_notify_buffer_full_saturates_entries),
	KUNIT_CASE(smpl_notify_buffer_full_restart_state),
	KUNIT_CASE(smpl_notify_buffer_full_restart_emptied),
	KUNIT_CASE(smpl_notify_buffer_full_restart_overflows),
	KUNIT_CASE(smpl_notify_buffer_full_restart_pmd_reset),
	KUNIT_CASE(smpl_notify_buffer_full_resumes),
	KUNIT_CASE(smpl_notify_buffer_full_resumes_short),
	KUNIT_CASE(smpl_notify_buffer_full_resumes_short_state),
	KUNIT_CASE(smpl_notify_buffer_full_resumes_short_stats),
	KUNIT_CASE(smpl_notify_full_before_entry),
	KUNIT_CASE(smpl_notify_full_before_entry_offset),
	KUNIT_CASE(smpl_notify_full_before_entry_overflows),
	KUNIT_CASE(smpl_notify_full_before_entry_masks),
	KUNIT_CASE(smpl_notify_full_before_entry_notifies),
	KUNIT_CASE(smpl_notify_full_before_entry_stats),
	KUNIT_CASE(smpl_notify_full_silent_masks),
	KUNIT_CASE(smpl_notify_full_silent_no_notify),
	KUNIT_CASE(smpl_notify_full_silent_stats),
	KUNIT_CASE(smpl_notify_full_silent_restart),
	KUNIT_CASE(smpl_notify_no_msg_full_buffer),
	KUNIT_CASE(smpl_notify_no_msg_full_masks),
	KUNIT_CASE(smpl_notify_no_msg_full_no_msg),
	KUNIT_CASE(smpl_notify_no_msg_full_stats),
	KUNIT_CASE(smpl_notify_no_msg_full_restart),
	KUNIT_CASE(smpl_notify_no_msg_full_resumes),
	KUNIT_CASE(smpl_notify_no_msg_full_remasks),
	KUNIT_CASE(smpl_notify_no_msg_full_again_no_msg),
	{}
};

static struct kunit_suite pfmk_smpl_full_suite = {
	.name = "pfmk_smpl_full",
	.init = pfmkt_init,
	.exit = pfmkt_exit,
	.test_cases = pfmk_smpl_full_cases,
};

kunit_test_suites(&pfmk_smpl_full_suite);
