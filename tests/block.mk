# tests/block.mk: block mode (fine-grain blocks, inline access checks).
# The programs below are the multi-node tests and the applications compiled
# by the build tree's `dsmcc --dsm` (clang + the dsmcheck pass); the scripts
# run them at 64-byte and 4-KiB blocks on the shm and mpi transports.  Mode
# axis: these are the page-mode tests (mn_litmus, mn_threads, apps) with
# mode=block; tests/block_*.sh hold the block column until the test matrix
# has a mode axis (doc/user-guide.md, "Block mode").  Built only when
# configure found LLVM (HAVE_LLVM); otherwise the scripts skip.
EXTRA_DIST += tests/block_env.sh tests/block_dsmcc.sh tests/block_litmus.sh tests/block_stress.sh \
	tests/block_apps.sh tests/blk_stress.c tests/block_ranges.c tests/block_pass.sh \
	tests/block_demo.sh
TESTS += tests/block_dsmcc.sh tests/block_pass.sh tests/block_litmus.sh tests/block_stress.sh \
	tests/block_apps.sh tests/block_demo.sh
if HAVE_LLVM
BLK_CHECKED = tests/blk_litmus tests/blk_threads tests/blk_stress tests/blk_unchecked \
	tests/blk_ranges apps/blk_jacobi apps/blk_matmul apps/blk_fft apps/blk_lu apps/blk_radix \
	apps/blk_particles apps/blk_slots apps/blk_pageslots
check_SCRIPTS += $(BLK_CHECKED)
CLEANFILES += $(BLK_CHECKED)
# dsmcc --dsm from the build tree: dsm.h, libdsm and the pass of this build
BLOCK_DSMCC = DSMCC_INCLUDEDIR='$(abs_top_srcdir)/include' DSMCC_LIBDIR='$(abs_top_builddir)/.libs' \
	DSMCC_PLUGIN='$(abs_top_builddir)/dsm/tools/checkpass/dsmcheck.so' $(SHELL) ./dsmcc --dsm -O2
BLOCK_DEPS = dsmcc dsm/tools/checkpass/dsmcheck.so libdsm.la
tests/blk_litmus: $(top_srcdir)/tests/mn_litmus.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_litmus.c -o $@
tests/blk_threads: $(top_srcdir)/tests/mn_threads.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_threads.c -o $@ -pthread
tests/blk_stress: $(top_srcdir)/tests/blk_stress.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/blk_stress.c -o $@ -pthread
# the versioned loop under fire; it counts its fast entries (DSMCHECK_COUNT)
tests/blk_ranges: $(top_srcdir)/tests/block_ranges.c $(BLOCK_DEPS)
	$(AM_V_GEN)DSMCHECK_COUNT=1 $(BLOCK_DSMCC) $(top_srcdir)/tests/block_ranges.c -o $@ -pthread
# the same source without the checks: page mode must refuse sub-page blocks
tests/blk_unchecked: $(top_srcdir)/tests/blk_stress.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(LLVM_CLANG) -O2 -I$(top_srcdir)/include $(top_srcdir)/tests/blk_stress.c -o $@ \
	  -pthread -L$(abs_top_builddir)/.libs -Wl,-rpath,$(abs_top_builddir)/.libs -ldsm
apps/blk_jacobi: $(top_srcdir)/apps/jacobi.c $(top_srcdir)/apps/app_util.h $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/apps/jacobi.c -o $@ -lm
apps/blk_matmul: $(top_srcdir)/apps/matmul.c $(top_srcdir)/apps/app_util.h $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/apps/matmul.c -o $@ -lm
apps/blk_fft: $(top_srcdir)/apps/fft.c $(top_srcdir)/apps/app_util.h $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/apps/fft.c -o $@ -lm
apps/blk_lu: $(top_srcdir)/apps/lu.c $(top_srcdir)/apps/app_util.h $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/apps/lu.c -o $@ -lm
apps/blk_radix: $(top_srcdir)/apps/radix.c $(top_srcdir)/apps/app_util.h $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/apps/radix.c -o $@ -lm
apps/blk_particles: $(top_srcdir)/apps/particles.c $(top_srcdir)/apps/app_util.h $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/apps/particles.c -o $@ -lm
apps/blk_pageslots: $(top_srcdir)/apps/pageslots.c $(top_srcdir)/apps/app_util.h $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/apps/pageslots.c -o $@
apps/blk_slots: $(top_srcdir)/apps/slots.c $(top_srcdir)/apps/app_util.h $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/apps/slots.c -o $@ -lm
endif
