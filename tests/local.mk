# tests/: each part keeps its own fragment.
#
# Check unit tests (tests/*_unit.c) share one main (tests/check_main.c): a
# test file defines unit_suite() (tests/check_main.h) and links
# $(CHECK_MAIN) last; its fragment adds it to UNIT_TESTS (inside
# "if HAVE_CHECK"), which make check and make check-quick run.
UNIT_TESTS =
if HAVE_CHECK
check_LTLIBRARIES = tests/libcheckmain.la
tests_libcheckmain_la_SOURCES = tests/check_main.c tests/check_main.h
tests_libcheckmain_la_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
endif
CHECK_MAIN = tests/libcheckmain.la $(CHECK_LIBS)
TESTS += $(UNIT_TESTS)

# make check-quick: the quick tier, a first check in seconds (4-7 s on a busy
# 2-core machine, once built): the unit tests and one configuration of the
# exhaustive exploration (tests/explore_quick.sh), then the closing line of
# scripts/test-summary.sh; it builds only what they need.  make check runs
# everything (the unit tests too).
QUICK_TESTS = $(UNIT_TESTS:=$(EXEEXT)) tests/explore_quick.sh
EXTRA_DIST += tests/explore_quick.sh
check-quick:
	@rc=0; $(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='$(QUICK_TESTS)' \
	    check_PROGRAMS='$(UNIT_TESTS:=$(EXEEXT)) tests/explore$(EXEEXT)' check_SCRIPTS= check_DATA= || rc=$$?; \
	$(SHELL) $(srcdir)/scripts/test-summary.sh . $$rc
.PHONY: check-quick

include tests/abi.mk
include tests/protocol.mk
include tests/transport.mk
include tests/multinode.mk
include tests/matrix.mk
include tests/core.mk
include tests/settings.mk
include tests/stats.mk
include tests/particles.mk
include tests/profile.mk
include tests/html.mk
include tests/dsmprof.mk
include tests/mpi.mk
include tests/network.mk
include tests/fuzz.mk
include tests/verbs.mk
include tests/sim_machine.mk
include tests/sim_frontend.mk
include tests/sim_flash.mk
include tests/quickstep.mk
include tests/origin.mk
include tests/sim_stats.mk
include tests/apps_sim.mk
include tests/block.mk
include tests/known_sharing.mk
include tests/tasks.mk
