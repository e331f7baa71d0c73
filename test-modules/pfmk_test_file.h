/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfmk_test_file.h - read and write a /proc/sys or /sys file from a test
 *
 * The tests set what an administrator would set (a sysctl of perf's,
 * pfmk's module parameters) through the file an administrator would
 * write, and put it back.  Shared by the KUnit suites and the KTAP
 * modules alike; static inline, as pfmk_ktap.h: pfmk_emu_smoke.ko is
 * one object, so there is no second one to link into it.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#ifndef _PFMK_TEST_FILE_H
#define _PFMK_TEST_FILE_H

#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>

/**
 * pfmk_test_file_io() - read or write a small text file of the kernel
 * @path: its absolute path, under /proc/sys or /sys.
 * @buf: the text to write (NUL-terminated), or the buffer to read into,
 *	NUL-terminated on success.
 * @len: size of @buf when reading, at least 1; unused when writing.
 * @write: write @buf instead of reading.
 *
 * Context: process context; sleeps.
 * Return: 0 or a negative errno (of the open, read or write).
 */
static inline int pfmk_test_file_io(const char *path, char *buf, size_t len,
				    bool write)
{
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	f = filp_open(path, write ? O_WRONLY : O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (write) {
		n = kernel_write(f, buf, strlen(buf), &pos);
	} else {
		n = kernel_read(f, buf, len - 1, &pos);
		if (n >= 0)
			buf[n] = 0;
	}
	filp_close(f, NULL);
	return n < 0 ? n : 0;
}

/**
 * pfmk_test_sysctl() - read or write an integer sysctl
 * @path: its file, /proc/sys/...
 * @val: the value to write, or where to store the value read.
 * @write: write *@val instead of reading it.
 *
 * Context: process context; sleeps.
 * Return: 0 or a negative errno (of the file, or of parsing what it held).
 */
static inline int pfmk_test_sysctl(const char *path, int *val, bool write)
{
	char buf[24];
	int ret;

	if (write) {
		scnprintf(buf, sizeof(buf), "%d\n", *val);
		return pfmk_test_file_io(path, buf, 0, true);
	}
	ret = pfmk_test_file_io(path, buf, sizeof(buf), false);
	return ret ? ret : kstrtoint(strim(buf), 10, val);
}

/**
 * pfmk_test_param_io() - read or write one of pfmk's module parameters
 * @name: the parameter, as in /sys/module/pfmk/parameters/.
 * @buf: what to write, or where to read it.
 * @len: size of @buf when reading; 0 when writing.
 * @write: write @buf instead of reading.
 *
 * Context: process context; sleeps.
 * Return: as pfmk_test_file_io().
 */
static inline int pfmk_test_param_io(const char *name, char *buf, size_t len,
				     bool write)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/module/pfmk/parameters/%s", name);
	return pfmk_test_file_io(path, buf, len, write);
}

/**
 * pfmk_test_aux_patch() - does the kernel carry pfmk's AUX patch?
 *
 * The harness's answer, not pfmk's: the harness knows which kernels it
 * patched and says so in pfmk_test_aux_pmu's parameter aux_patch
 * (scripts/mkinitramfs.sh).  The AUX tests skip on this answer and check
 * pfmk_aux_supported() against it, so that a pfmk that reports no AUX
 * support on a patched kernel fails instead of skipping.
 *
 * Context: process context; sleeps.
 * Return: 1 (patched) or 0 (not), or a negative errno: -ENOENT when
 * pfmk_test_aux_pmu is not loaded, -ENODATA when nobody set aux_patch.
 */
static inline int pfmk_test_aux_patch(void)
{
	char buf[8];
	int ret, val;

	ret = pfmk_test_file_io("/sys/module/pfmk_test_aux_pmu/parameters/aux_patch",
				buf, sizeof(buf), false);
	if (!ret)
		ret = kstrtoint(strim(buf), 10, &val);
	if (ret)
		return ret;
	return val == 0 || val == 1 ? val : -ENODATA;
}

#endif /* _PFMK_TEST_FILE_H */
