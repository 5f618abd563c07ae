# tests/multinode.mk - multi-node tests: programs written against dsm.h only,
# run on 2, 4 and 8 nodes (the apps on 1, 2, 4, 8) through tests/run_mn.sh
# on every transport by the test matrix (tests/matrix.list, tests/matrix.mk):
# api, counter, litmus_mp/sb/lb/iriw/2p2w, stress, apps.  See the head of
# each program.
check_PROGRAMS += tests/mn_api tests/mn_counter tests/mn_litmus tests/mn_stress
tests_mn_api_SOURCES = tests/mn_api.c
tests_mn_api_LDADD = libdsm.la
tests_mn_counter_SOURCES = tests/mn_counter.c
tests_mn_counter_LDADD = libdsm.la
tests_mn_litmus_SOURCES = tests/mn_litmus.c
tests_mn_litmus_LDADD = libdsm.la
# mn_sync: made locks, barriers of any count and condition variables with
# more threads than nodes (tests/matrix.list: sync)
check_PROGRAMS += tests/mn_sync
tests_mn_sync_SOURCES = tests/mn_sync.c
tests_mn_sync_LDADD = libdsm.la $(PTHREAD_LIBS)
EXTRA_DIST += tests/mn_sync_errors.sh
# mn_homes: DSM_MALLOC_HOMES and the line of a dsm_malloc that does not fit
check_PROGRAMS += tests/mn_homes
tests_mn_homes_SOURCES = tests/mn_homes.c
tests_mn_homes_LDADD = libdsm.la
tests_mn_stress_SOURCES = tests/mn_stress.c
tests_mn_stress_LDADD = libdsm.la
EXTRA_DIST += tests/run_mn.sh
