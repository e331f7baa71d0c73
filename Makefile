# pfmk: perfmon2 KAPI on top of perf_events -- top-level Makefile.
# The module list is in Kbuild; the harness logic lives in scripts/.

KDIR ?= /lib/modules/$(shell uname -r)/build

.PHONY: all modules clean test check htmldocs demo bench kernels help

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	@if [ -f $(KDIR)/Makefile ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
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
	@for s in $${PFMK_SERIES:-6.1 6.12}; do scripts/debug-kernel.sh $$s || exit 1; done

help:
	@echo 'pfmk make targets:'
	@echo '  make [modules]  build the modules against KDIR (default: running kernel)'
	@echo '                  KDIR=$(KDIR)'
	@echo '  make clean      remove module build products and build/'
	@echo '  make test       full suite: make check, make htmldocs, W=1 -Werror builds'
	@echo '                  and QEMU runs on the Debian 6.1/6.12 kernels and on debug'
	@echo '                  kernels (KASAN, lockdep, kmemleak, KUnit) built from'
	@echo '                  linux-source; prints a summary ending in'
	@echo '                  "N passed, N failed, N skipped"'
	@echo '  make check      sparse, checkpatch --strict, kernel-doc -Wall, coccicheck'
	@echo '  make htmldocs   Documentation/ through Sphinx and kernel-doc into'
	@echo '                  build/htmldocs/index.html; zero warnings allowed'
	@echo '  make demo       boot the Debian 6.1 kernel and run pfmk_example_count'
	@echo '  make bench      benchmarks in the Debian 6.1 guest: pfmk vs the raw perf'
	@echo '                  kernel API and vs perf record; table and build/bench/summary.json'
	@echo '  make kernels    build (or reuse) the cached debug kernels only'
	@echo 'Caches: $${XDG_CACHE_HOME:-$$HOME/.cache}/pfmk; outputs and logs: build/'
	@echo 'Knobs: PFMK_SERIES, PFMK_KERNELS, PFMK_SKIP_CHECK, PFMK_SKIP_DOCS, PFMK_JOBS (see scripts/test.sh)'
