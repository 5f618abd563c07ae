# tests/multinode.mk - multi-node tests: programs written against dsm.h only,
# run by the tests/mn_*.sh scripts under dsmrun on 2, 4 and 8 nodes (the
# apps on 1, 2, 4, 8) through tests/run_mn.sh.  See the head of each file.
check_PROGRAMS += tests/mn_api tests/mn_counter tests/mn_litmus tests/mn_stress
tests_mn_api_SOURCES = tests/mn_api.c
tests_mn_api_LDADD = libdsm.la
tests_mn_counter_SOURCES = tests/mn_counter.c
tests_mn_counter_LDADD = libdsm.la
tests_mn_litmus_SOURCES = tests/mn_litmus.c
tests_mn_litmus_LDADD = libdsm.la
tests_mn_stress_SOURCES = tests/mn_stress.c
tests_mn_stress_LDADD = libdsm.la

MULTINODE_TESTS = \
	tests/mn_api.sh \
	tests/mn_counter.sh \
	tests/mn_litmus_mp.sh \
	tests/mn_litmus_sb.sh \
	tests/mn_litmus_lb.sh \
	tests/mn_litmus_iriw.sh \
	tests/mn_litmus_2p2w.sh \
	tests/mn_stress.sh \
	tests/mn_apps.sh
TESTS += $(MULTINODE_TESTS)
EXTRA_DIST += $(MULTINODE_TESTS) tests/run_mn.sh
