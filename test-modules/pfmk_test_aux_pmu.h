/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_test_aux_pmu: a synthetic AUX PMU and its pfmk PMU description.
 *
 * The perf PMU "pfmk_aux_test" writes a verifiable stream into the AUX
 * buffer of each of its events, through perf_aux_output_begin()/end(),
 * like an instruction tracer would: fixed-size records carrying a
 * sequence number and a checksum.  Its events are CPU-bound.  Encoding
 * (perf_event_attr.config):
 *
 *   bits 15..0   RATE    records written per timer tick (1..65535)
 *   bits 46..16  PERIOD  timer period in microseconds; 0: no timer, the
 *                        stream advances only on pfmk_test_aux_write()
 *   bit  47      OFFSET  in snapshot mode, report the head as Intel PT and
 *                        BTS do in snapshot mode (pt_update_head(),
 *                        bts_update()): handle->head is the offset of the
 *                        next byte inside the buffer, and every
 *                        transaction ends with the whole buffer as its
 *                        size.  Without it the head grows, as arm_spe's
 *                        and the CoreSight sinks' do.
 *   bits 63..48  reserved, must be 0
 *
 * The event counts records produced; with a sample_period, its overflow
 * handler runs (called directly, hard-irq, on the event's CPU) right
 * after the record that used the period up was committed, so the AUX
 * head is then exactly count * PFMK_TEST_AUX_REC bytes.  Without room in
 * a stop-when-full buffer the records of the transaction that do not fit
 * are produced but dropped (their sequence numbers are skipped) and the
 * transaction is flagged PERF_AUX_FLAG_TRUNCATED, which makes perf
 * disable the event.  In snapshot mode the PMU writes on and wraps.
 *
 * The pfmk PMU description "pfmk_aux_test" has PFMK_TEST_AUX_NUM_PMCS
 * PMCs; PMC value: bit 63 EN, bits 47..0 the config above.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_TEST_AUX_PMU_H
#define _PFMK_TEST_AUX_PMU_H

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>

#define PFMK_TEST_AUX_NAME	"pfmk_aux_test"
#define PFMK_TEST_AUX_NUM_PMCS	2

#define PFMK_TEST_AUX_RATE	GENMASK_ULL(15, 0)
#define PFMK_TEST_AUX_PERIOD	GENMASK_ULL(46, 16)
#define PFMK_TEST_AUX_OFFSET	BIT_ULL(47)
#define PFMK_TEST_AUX_PMC_EN	BIT_ULL(63)

/* PMC value: @rate records every @period_us microseconds (0: no timer). */
#define PFMK_TEST_AUX_PMC(rate, period_us) \
	(PFMK_TEST_AUX_PMC_EN | ((u64)(period_us) << 16) | (u64)(rate))

#define PFMK_TEST_AUX_MAGIC	0x52585541U	/* "AUXR" */
#define PFMK_TEST_AUX_REC	32

/**
 * struct pfmk_test_aux_rec - one record of the stream
 * @magic: PFMK_TEST_AUX_MAGIC.
 * @cpu: CPU that wrote it.
 * @seq: sequence number: the event's count before this record.
 * @payload: pfmk_test_aux_payload(@seq).
 * @csum: pfmk_test_aux_csum() of the fields above.
 *
 * Record n of the stream sits at stream position n * PFMK_TEST_AUX_REC.
 */
struct pfmk_test_aux_rec {
	u32	magic;
	u32	cpu;
	u64	seq;
	u64	payload;
	u64	csum;
};

static inline u64 pfmk_test_aux_payload(u64 seq)
{
	return seq * 0x9e3779b97f4a7c15ULL ^ 0x5851f42d4c957f2dULL;
}

static inline u64 pfmk_test_aux_csum(const struct pfmk_test_aux_rec *r)
{
	u64 c = ((u64)r->magic << 32 | r->cpu) ^ r->seq;

	return (c ^ r->payload) * 0xff51afd7ed558ccdULL + 1;
}

/**
 * pfmk_test_aux_rec_ok() - is a record intact and the one expected?
 * @r: the record.
 * @seq: its expected sequence number.
 *
 * Return: true if magic, payload and checksum are right and it is @seq.
 */
static inline bool pfmk_test_aux_rec_ok(const struct pfmk_test_aux_rec *r,
					u64 seq)
{
	return r->magic == PFMK_TEST_AUX_MAGIC && r->seq == seq &&
	       r->payload == pfmk_test_aux_payload(seq) &&
	       r->csum == pfmk_test_aux_csum(r);
}

/**
 * struct pfmk_test_aux_out - where pfmk_test_aux_sink() appends
 * @buf: the destination.
 * @len: bytes in @buf.
 * @cap: size of @buf.
 */
struct pfmk_test_aux_out {
	u8	*buf;
	size_t	len;
	size_t	cap;
};

/**
 * pfmk_test_aux_sink() - pfmk_aux_copy()'s sink of the test modules
 * @data: the struct pfmk_test_aux_out to append to.
 * @src: the bytes of this call.
 * @len: how many.
 *
 * Appends to the buffer, or refuses what does not fit whole.
 *
 * Context: as pfmk_aux_copy()'s sink (process context, no lock held).
 * Return: 0, or -ENOSPC with nothing appended.
 */
static inline int pfmk_test_aux_sink(void *data, const void *src, size_t len)
{
	struct pfmk_test_aux_out *o = data;

	if (o->len + len > o->cap)
		return -ENOSPC;
	memcpy(o->buf + o->len, src, len);
	o->len += len;
	return 0;
}

int pfmk_test_aux_write(int cpu, u64 nrec);
int pfmk_test_aux_type(void);
unsigned int pfmk_test_aux_last_runs(void);

#endif /* _PFMK_TEST_AUX_PMU_H */
