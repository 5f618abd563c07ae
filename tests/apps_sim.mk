# tests/apps_sim.mk - the issue-6 applications (apps/fft, lu, radix, ocean,
# mm, slots; doc/apps.md), each verifying its own result:
#   apps_native.sh  natively (no launcher) at the default sizes, mm at the
#                   MemSpy paper's 293 / 56, and the error line and exit
#                   status 2 of a bad option on every app
#   apps_dsm.sh     on the DSM, dsmrun -n 1, 2, 4 (quick sizes)
#   apps_sim.sh     simulated, dsmrun --machine=uniform -n 4: "result OK"
#                   and a "dsm-sim/1" statistics file
#   apps_sim_findings.sh  MemSpy's two case studies from the statistics file:
#                   mm 293/56 (mm.Y dominant in block, >= 90% of its
#                   replacements self-caused; not at 300) and slots (packed:
#                   invalidation misses with false sharing; padded: none)
APPS_SIM_TESTS = tests/apps_native.sh tests/apps_dsm.sh tests/apps_sim.sh \
	tests/apps_sim_findings.sh
TESTS += $(APPS_SIM_TESTS)
# parmacs_apps.sh: the PARMACS programs (apps/pm_*.C through dsm-parmacs)
# natively, simulated, and built by m4 + dsmcc as a user would; and
# tests/parmacs_all.C, every macro of the file used once and checked, natively,
# on 2 and 3 nodes and simulated; and every name SPLASH-3's macros define
# is defined by dsm-parmacs
TESTS += tests/parmacs_apps.sh
EXTRA_DIST += tests/parmacs_apps.sh tests/parmacs_all.C
check_PROGRAMS += tests/parmacs_all
CLEANFILES += tests/parmacs_all.c
tests/parmacs_all.c: $(srcdir)/tests/parmacs_all.C $(PARMACS_M4)
	$(PARMACS_GEN) $(srcdir)/tests/parmacs_all.C > $@.tmp && mv $@.tmp $@
nodist_tests_parmacs_all_SOURCES = tests/parmacs_all.c
tests_parmacs_all_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
tests_parmacs_all_LINK = $(DSMCC_LINK)
tests_parmacs_all_LDADD = libdsm.la
EXTRA_DIST += $(APPS_SIM_TESTS)
