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
# natively, simulated, and built by m4 + dsmcc as a user would
TESTS += tests/parmacs_apps.sh
EXTRA_DIST += tests/parmacs_apps.sh
EXTRA_DIST += $(APPS_SIM_TESTS)
