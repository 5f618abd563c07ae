# tests/core.mk - runtime behaviour owned by the core: misuse errors,
# several faulting threads per node, many short-lived threads, signal
# handlers that touch shared memory, signals sent to dsmrun, system calls on
# shared memory.  mn_errors.sh, mn_threads and mn_patterns.sh run on every
# transport in the test matrix (tests/matrix.list: errors, threads,
# patterns).
check_PROGRAMS += tests/mn_misuse tests/mn_threads tests/mn_signal tests/mn_manythreads \
	tests/mn_sigbusy tests/mn_syscall tests/mn_sigrace tests/mn_sighold tests/mn_park
tests_mn_misuse_SOURCES = tests/mn_misuse.c
tests_mn_misuse_LDADD = libdsm.la
tests_mn_threads_SOURCES = tests/mn_threads.c
tests_mn_threads_LDADD = libdsm.la
tests_mn_signal_SOURCES = tests/mn_signal.c
tests_mn_signal_LDADD = libdsm.la
tests_mn_manythreads_SOURCES = tests/mn_manythreads.c
tests_mn_manythreads_LDADD = libdsm.la
tests_mn_sigbusy_SOURCES = tests/mn_sigbusy.c
tests_mn_sigbusy_LDADD = libdsm_internal.la
tests_mn_syscall_SOURCES = tests/mn_syscall.c
tests_mn_sigrace_SOURCES = tests/mn_sigrace.c
tests_mn_sigrace_LDADD = libdsm.la
tests_mn_sighold_SOURCES = tests/mn_sighold.c
tests_mn_sighold_LDADD = libdsm.la
tests_mn_syscall_LDADD = libdsm.la
# mn_park reads the runtime's count of deferred protections (dsm/park.h)
tests_mn_park_SOURCES = tests/mn_park.c
tests_mn_park_LDADD = libdsm_internal.la
CORE_TESTS = tests/mn_blocksize.sh tests/mn_signal.sh tests/mn_manythreads.sh \
	tests/dsmrun_signals.sh tests/mn_syscall.sh tests/mn_park.sh
TESTS += $(CORE_TESTS)
EXTRA_DIST += $(CORE_TESTS) tests/mn_errors.sh tests/mn_patterns.sh

# known sharing, checked against the augmented protocol's dominant patterns
check_PROGRAMS += tests/mn_patterns
tests_mn_patterns_SOURCES = tests/mn_patterns.c
tests_mn_patterns_LDADD = libdsm.la

# jobsync_unit: Check: the collectives, counters, locks and barriers of
# dsm/jobsync.c between forked processes sharing one area.
check_PROGRAMS += tests/jobsync_unit
tests_jobsync_unit_SOURCES = tests/jobsync_unit.c
tests_jobsync_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_jobsync_unit_LDADD = libdsm_internal.la $(CHECK_MAIN)
UNIT_TESTS += tests/jobsync_unit

# region_unit: Check: dsm_region_commit commits one block's pages of the
# protocol view before its first install, and only that block
if HAVE_CHECK
check_PROGRAMS += tests/region_unit
tests_region_unit_SOURCES = tests/region_unit.c
tests_region_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_region_unit_LDADD = libdsm_internal.la $(CHECK_MAIN)
UNIT_TESTS += tests/region_unit
endif
