/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_encode(): events as perf's strings, turned into PMC values of
 * pfmk's generic or dynamic PMU descriptions (see pmu/encode.c).
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_ENCODE_H
#define _PFMK_ENCODE_H

#include <pfmk/pfmk.h>
#include <pfmk/pmu_dyn.h>

/* Most PMC requests pfmk_encode() writes for one event. */
#define PFMK_ENCODE_MAX_PMCS	PFMK_DYN_WORDS

__pfmk_must_check int pfmk_encode(const char *event, unsigned int pmd,
				  struct pfarg_ctx *ctx, struct pfarg_pmc *pmcs,
				  unsigned int max, unsigned int *count);

#endif /* _PFMK_ENCODE_H */
