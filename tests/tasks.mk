# tests/tasks.mk - the thread model and shared globals (dsm.h:
# dsm_init_master, dsm_create, dsm_join, dsm_wait_for_end, dsm_task,
# DSM_SHARED) and what comes with them: the master's globals and heap in
# the tasks, function pointers in shared memory (no address randomisation),
# stdin on every node.  tests/mn_tasks.sh runs tests/mn_tasks on every
# transport of the test matrix (tests/matrix.list: tasks) and, built by
# dsmcc, on a simulated machine (tests/sim_tasks).
check_PROGRAMS += tests/mn_tasks
tests_mn_tasks_SOURCES = tests/mn_tasks.c
tests_mn_tasks_LDADD = libdsm.la
# DSM_SHARED needs its section page-aligned: the script dsm.pc's Libs add
tests_mn_tasks_LDFLAGS = $(AM_LDFLAGS) -Wl,-T,$(top_srcdir)/dsm/dsm_shared.ld
EXTRA_DIST += tests/mn_tasks.sh
# the same program linked without the script: dsm_init must refuse it
check_PROGRAMS += tests/mn_tasks_noscript
tests_mn_tasks_noscript_SOURCES = tests/mn_tasks.c
tests_mn_tasks_noscript_LDADD = libdsm.la
# dsmcc builds of the same program on a simulated machine and on the DSM
TESTS += tests/sim_tasks.sh
EXTRA_DIST += tests/sim_tasks.sh tests/mn_globals.c
