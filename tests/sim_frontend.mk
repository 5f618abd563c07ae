# tests/sim_frontend.mk - the execution front end of the simulated
# machines (dsm/simfront/, dsmcc, dsmrun --machine).
#   sim_counts        a program whose misses are counted by hand (built with
#                     DSMCC_CFLAGS; its comment gives the numbers)
#   sim_json_get      reads values out of dsm-sim.json for the scripts
#   sim_frontend.sh   the counts on the uniform machine with 4 processors,
#                     K=1 determinism, the same binary natively and on
#                     dsmrun -n 2, clear bounded errors (unknown machine, bad
#                     option, deadlock, a processor without dsm_finalize)
#   sim_dsmcc.sh      dsmcc builds sim_counts.c out of the tree (two-step
#                     compile and link, no libtsan) and the result runs
#                     natively and simulated
#   sim_bounds.sh     dsmrun --machine refuses, with status 2 before the
#                     program runs, every time and size option past its
#                     maximum (2^64 - 1 included) and invalid cache geometry
#   sim_crash.sh      tests/sim_crash crashes on processor 2 of 4 (NULL store,
#                     division by zero, abort, stack overflow): one line names
#                     the processor, the function and the signal
#   sim_inline_pass.sh dsmcc --sim (the hooks' test inlined by the pass):
#                     sim_counts' hand counts, and fft, lu, mm give the same
#                     statistics inline and as hook calls, full and sampled

check_PROGRAMS += tests/sim_counts tests/sim_json_get tests/sim_crash
tests_sim_counts_SOURCES = tests/sim_counts.c
tests_sim_counts_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
tests_sim_counts_LINK = $(DSMCC_LINK)
tests_sim_counts_LDADD = libdsm.la
tests_sim_crash_SOURCES = tests/sim_crash.c
tests_sim_crash_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
tests_sim_crash_LINK = $(DSMCC_LINK)
tests_sim_crash_LDADD = libdsm.la
tests_sim_json_get_SOURCES = tests/sim_json_get.c
tests_sim_json_get_LDADD = $(JSON_C_LIBS)

TESTS += tests/sim_frontend.sh tests/sim_dsmcc.sh tests/sim_bounds.sh tests/sim_crash.sh
EXTRA_DIST += tests/sim_frontend.sh tests/sim_dsmcc.sh tests/sim_bounds.sh tests/sim_crash.sh
TESTS += tests/sim_inline_pass.sh
EXTRA_DIST += tests/sim_inline_pass.sh
# sim_dsmcc.sh runs the dsmcc script made in the build tree
check_SCRIPTS += dsmcc
