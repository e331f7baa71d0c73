# SPDX-License-Identifier: GPL-2.0-only
# pfmk: perfmon2 KAPI on top of perf_events -- top-level Makefile.
# The module list is in Kbuild; the harness logic lives in scripts/.

KDIR ?= /lib/modules/$(shell uname -r)/build

# The one version number, shared with dkms.conf.
PFMK_TOP := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
VERSION := $(shell cat $(PFMK_TOP)/VERSION)

# Install locations (Documentation/install.rst).  The kernel's
# modules_install runs from KDIR: relative paths are made absolute here.
INSTALL_MOD_DIR ?= extra/pfmk
ifneq ($(INSTALL_MOD_PATH),)
override INSTALL_MOD_PATH := $(abspath $(INSTALL_MOD_PATH))
endif
# The release KDIR was built for, as in the modules' vermagic: UTS_RELEASE.
# (Debian's 6.1 headers say "6.1.192" in include/config/kernel.release and
# "make kernelrelease" but build and install for "6.1.0-<abi>-amd64", from
# an override in their .kernelvariables.)  Also KDIR's System.map if any.
KERNELRELEASE_KDIR = $(or $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
			$(KDIR)/include/generated/utsrelease.h 2>/dev/null),\
		     $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null))
SYSTEM_MAP = $(firstword $(wildcard $(KDIR)/System.map /boot/System.map-$(KERNELRELEASE_KDIR)))
# The client kit of headers_install: one per kernel, like the kernel's own
# /usr/src/linux-headers-<release>, since its Module.symvers is that
# kernel's.  Not /usr/src/pfmk-<version>: that is where dkms keeps pfmk's
# sources.
INSTALL_HDR_PATH ?= /usr/src/pfmk-headers-$(KERNELRELEASE_KDIR)

.PHONY: all modules clean test check htmldocs demo bench kernels help \
	install modules_install headers_install

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(PFMK_TOP) modules

install: modules_install headers_install

# The kernel's modules_install for M= modules, into
# $(INSTALL_MOD_PATH)/lib/modules/<release>/$(INSTALL_MOD_DIR).  It runs
# depmod through scripts/depmod.sh only when KDIR has a System.map, which
# Debian's linux-headers packages (6.1 and 6.12) do not ship: it prints
# "missing 'System.map' file. Skipping depmod".  Then depmod is run here,
# with -b $(INSTALL_MOD_PATH) when staging and /boot's System.map when
# there is one (symbol checks against the kernel).
modules_install: modules
	$(MAKE) -C $(KDIR) M=$(PFMK_TOP) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) modules_install
	$(if $(wildcard $(KDIR)/System.map),,depmod -a \
		$(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) \
		$(if $(SYSTEM_MAP),-F $(SYSTEM_MAP)) $(KERNELRELEASE_KDIR))

# The kit client modules build against (Documentation/install.rst):
# pfmk's headers, client.kbuild and the Module.symvers built for KDIR, and
# the static checks for clients' CI (pfmk's Coccinelle rules and
# scripts/pfmk-check.sh, which finds them at ../coccinelle).
headers_install: modules
	install -d $(INSTALL_HDR_PATH)/include/pfmk $(INSTALL_HDR_PATH)/include/linux \
		$(INSTALL_HDR_PATH)/coccinelle $(INSTALL_HDR_PATH)/scripts
	install -m 0644 $(PFMK_TOP)/include/pfmk/*.h $(INSTALL_HDR_PATH)/include/pfmk/
	install -m 0644 $(PFMK_TOP)/include/linux/perfmon*.h $(INSTALL_HDR_PATH)/include/linux/
	install -m 0644 $(PFMK_TOP)/coccinelle/pfmk_*.cocci $(INSTALL_HDR_PATH)/coccinelle/
	install -m 0755 $(PFMK_TOP)/scripts/pfmk-check.sh $(INSTALL_HDR_PATH)/scripts/
	install -m 0644 $(PFMK_TOP)/client.kbuild $(PFMK_TOP)/VERSION $(PFMK_TOP)/Module.symvers \
		$(INSTALL_HDR_PATH)/
	echo $(KERNELRELEASE_KDIR) >$(INSTALL_HDR_PATH)/KERNELRELEASE

clean:
	@if [ -f $(KDIR)/Makefile ]; then $(MAKE) -C $(KDIR) M=$(PFMK_TOP) clean; fi
	rm -rf build

test:
	@scripts/test.sh

check:
	@scripts/check.sh

htmldocs:
	@scripts/htmldocs.sh

demo:
	@scripts/demo.sh

bench:
	@scripts/bench.sh

kernels:
	@for s in $${PFMK_SERIES:-6.1 6.12 7.2}; do scripts/debug-kernel.sh $$s || exit 1; done
	@for s in $${PFMK_ARM64_SERIES-6.12}; do scripts/debug-kernel.sh --arch arm64 $$s || exit 1; done

help:
	@echo 'pfmk make targets:'
	@echo '  make [modules]  build the modules against KDIR (default: running kernel)'
	@echo '                  KDIR=$(KDIR)'
	@echo '  make clean      remove module build products and build/'
	@echo '  make install    modules_install + headers_install (as root)'
	@echo '  make modules_install  install the modules into'
	@echo '                  $$(INSTALL_MOD_PATH)/lib/modules/<release>/$(INSTALL_MOD_DIR)'
	@echo '                  and run depmod'
	@echo '  make headers_install  install the client kit (headers, client.kbuild,'
	@echo '                  Module.symvers, Coccinelle rules and scripts/pfmk-check.sh)'
	@echo '                  into INSTALL_HDR_PATH, default /usr/src/pfmk-headers-<release>'
	@echo '  (DKMS: dkms.conf, version $(VERSION); see Documentation/install.rst)'
	@echo '  make test       full suite: make check, make htmldocs, W=1 -Werror builds'
	@echo '                  and QEMU runs on the Debian 6.1/6.12 kernels and on debug'
	@echo '                  kernels (KASAN, lockdep, kmemleak, KUnit) built from'
	@echo '                  linux-source 6.1, 6.12 and 7.2 (7.2 fetched from Debian'
	@echo '                  unstable into the cache), then Debian arm64 6.1/6.12 kernels'
	@echo '                  (fetched into the cache) and an arm64 debug kernel, modules'
	@echo '                  cross-built, on QEMU'"'"'s PMUv3; prints a summary ending in'
	@echo '                  "N passed, N failed, N skipped"'
	@echo '  make check      sparse, checkpatch --strict, kernel-doc -Wall, coccicheck, shellcheck,'
	@echo '                  and the fixtures of the client rules (coccinelle/)'
	@echo '  make htmldocs   Documentation/ through Sphinx and kernel-doc into'
	@echo '                  build/htmldocs/index.html; zero warnings allowed'
	@echo '  make demo       boot the Debian 6.1 kernel and run the examples, then its'
	@echo '                  arm64 build on QEMU'"'"'s PMUv3 (cycles, instructions, IPC)'
	@echo '  make bench      benchmarks in the Debian 6.1 guest: pfmk vs the raw perf'
	@echo '                  kernel API and vs perf record, timed, then counted in'
	@echo '                  instructions (QEMU icount; PFMK_BENCH_ICOUNT=0 skips it),'
	@echo '                  then on arm64'"'"'s armv8_pmuv3 driver in instructions'
	@echo '                  (PFMK_BENCH_ARCHES); table and build/bench/summary.json'
	@echo '  make kernels    build (or reuse) the cached debug kernels only'
	@echo 'Caches: $${XDG_CACHE_HOME:-$$HOME/.cache}/pfmk; outputs and logs: build/'
	@echo 'Knobs: PFMK_SERIES, PFMK_STOCK_SERIES, PFMK_ARM64_SERIES, PFMK_ARM64_STOCK_SERIES, PFMK_KERNELS, PFMK_SKIP_CHECK, PFMK_SKIP_DOCS, PFMK_SKIP_INSTALL, PFMK_JOBS (see scripts/test.sh)'
