# tests/block.mk: block mode (fine-grain blocks, inline access checks).
# The programs below are the multi-node tests and the applications compiled
# by the build tree's `dsmcc --dsm` (clang + the dsmcheck pass): the checked
# twin of DIR/NAME is DIR/blk_NAME.  The test matrix's mode axis
# (tests/matrix.list, mode=block) runs every multi-node test with its twin
# (tests/run_mn.sh, tests/block_env.sh), at 64-byte blocks and, where it is
# cheap, 4-KiB blocks; the scripts here test what only block mode has (the
# pass, its versioned loops under fire, the demonstration).  Built only when
# configure found LLVM (HAVE_LLVM); otherwise the block runs skip.
EXTRA_DIST += tests/block_env.sh tests/block_dsmcc.sh tests/block_stress.sh \
	tests/blk_stress.c tests/block_ranges.c tests/block_pass.sh tests/block_demo.sh \
	tests/block_stats.sh tests/block_local.c tests/block_local.sh
TESTS += tests/block_dsmcc.sh tests/block_pass.sh tests/block_stress.sh tests/block_demo.sh \
	tests/block_local.sh
if HAVE_LLVM
BLK_CHECKED = tests/blk_mn_api tests/blk_mn_counter tests/blk_mn_litmus tests/blk_mn_stress \
	tests/blk_mn_threads tests/blk_mn_misuse tests/blk_mn_counts tests/blk_mn_patterns \
	tests/blk_stress tests/blk_unchecked tests/blk_ranges \
	apps/blk_hello apps/blk_jacobi apps/blk_matmul apps/blk_fft apps/blk_lu apps/blk_radix \
	apps/blk_ocean apps/blk_mm apps/blk_particles apps/blk_slots apps/blk_pageslots \
	tests/blk_local tests/blk_mn_signal tests/blk_mn_manythreads tests/blk_mn_timeslices \
	tests/blk_mn_kill tests/blk_mn_sighold
check_SCRIPTS += $(BLK_CHECKED)
CLEANFILES += $(BLK_CHECKED)
# dsmcc --dsm from the build tree: dsm.h, libdsm and the pass of this build
BLOCK_DSMCC = DSMCC_INCLUDEDIR='$(abs_top_srcdir)/include' DSMCC_LIBDIR='$(abs_top_builddir)/.libs' \
	DSMCC_PLUGIN='$(abs_top_builddir)/dsm/tools/checkpass/dsmcheck.so' $(SHELL) ./dsmcc --dsm -O2
BLOCK_DEPS = dsmcc dsm/tools/checkpass/dsmcheck.so libdsm.la
# the twins of the matrix's test programs (tests/blk_mn_NAME from tests/mn_NAME.c)
tests/blk_mn_api: $(top_srcdir)/tests/mn_api.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_api.c -o $@ -pthread
tests/blk_mn_counter: $(top_srcdir)/tests/mn_counter.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_counter.c -o $@ -pthread
tests/blk_mn_litmus: $(top_srcdir)/tests/mn_litmus.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_litmus.c -o $@ -pthread
tests/blk_mn_stress: $(top_srcdir)/tests/mn_stress.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_stress.c -o $@ -pthread
tests/blk_mn_threads: $(top_srcdir)/tests/mn_threads.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_threads.c -o $@ -pthread
tests/blk_mn_misuse: $(top_srcdir)/tests/mn_misuse.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_misuse.c -o $@ -pthread
tests/blk_mn_counts: $(top_srcdir)/tests/mn_counts.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_counts.c -o $@ -pthread
tests/blk_mn_patterns: $(top_srcdir)/tests/mn_patterns.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_patterns.c -o $@ -pthread
tests/blk_stress: $(top_srcdir)/tests/blk_stress.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/blk_stress.c -o $@ -pthread
# the block-mode runs of the multi-node tests outside the matrix (their
# scripts' block steps) and the one-node local grants
tests/blk_local: $(top_srcdir)/tests/block_local.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/block_local.c -o $@
tests/blk_mn_signal: $(top_srcdir)/tests/mn_signal.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_signal.c -o $@ -pthread
tests/blk_mn_sighold: $(top_srcdir)/tests/mn_sighold.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_sighold.c -o $@ -pthread
tests/blk_mn_manythreads: $(top_srcdir)/tests/mn_manythreads.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_manythreads.c -o $@ -pthread
tests/blk_mn_timeslices: $(top_srcdir)/tests/mn_timeslices.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_timeslices.c -o $@ -pthread
tests/blk_mn_kill: $(top_srcdir)/tests/mn_kill.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/mn_kill.c -o $@ -pthread
# the versioned loop under fire; it counts its fast entries (DSMCHECK_COUNT)
tests/blk_ranges: $(top_srcdir)/tests/block_ranges.c $(BLOCK_DEPS)
	$(AM_V_GEN)DSMCHECK_COUNT=1 $(BLOCK_DSMCC) $(top_srcdir)/tests/block_ranges.c -o $@ -pthread
# the same source without the checks: page mode must refuse sub-page blocks
tests/blk_unchecked: $(top_srcdir)/tests/blk_stress.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(LLVM_CLANG) -O2 -I$(top_srcdir)/include $(top_srcdir)/tests/blk_stress.c -o $@ \
	  -pthread -L$(abs_top_builddir)/.libs -Wl,-rpath,$(abs_top_builddir)/.libs -ldsm
apps/blk_hello: $(top_srcdir)/apps/hello.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/apps/hello.c -o $@
apps/blk_ocean: $(top_srcdir)/apps/ocean.c $(top_srcdir)/apps/app_util.h $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/apps/ocean.c -o $@ -lm
apps/blk_mm: $(top_srcdir)/apps/mm.c $(top_srcdir)/apps/app_util.h $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/apps/mm.c -o $@ -lm
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

#   blk_signal_unit    Check: the wrapper around the program's signal handlers
#                      keeps an interrupted access's window visible to a
#                      lowering (dsm/blk_signal.c); the same harness without the
#                      wrapper loses it
if HAVE_CHECK
check_PROGRAMS += tests/blk_signal_unit
tests_blk_signal_unit_SOURCES = tests/blk_signal_unit.c
tests_blk_signal_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_blk_signal_unit_LDADD = libdsm_internal.la $(CHECK_MAIN)
UNIT_TESTS += tests/blk_signal_unit
endif
