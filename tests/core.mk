# tests/core.mk - runtime behaviour owned by the core: misuse errors and
# several faulting threads per node.  mn_errors.sh, mn_threads and
# mn_patterns.sh run on every transport in the test matrix
# (tests/matrix.list: errors, threads, patterns).
check_PROGRAMS += tests/mn_misuse tests/mn_threads
tests_mn_misuse_SOURCES = tests/mn_misuse.c
tests_mn_misuse_LDADD = libdsm.la
tests_mn_threads_SOURCES = tests/mn_threads.c
tests_mn_threads_LDADD = libdsm.la
CORE_TESTS = tests/mn_blocksize.sh
TESTS += $(CORE_TESTS)
EXTRA_DIST += $(CORE_TESTS) tests/mn_errors.sh tests/mn_patterns.sh

# known sharing, checked against the augmented protocol's dominant patterns
check_PROGRAMS += tests/mn_patterns
tests_mn_patterns_SOURCES = tests/mn_patterns.c
tests_mn_patterns_LDADD = libdsm.la

