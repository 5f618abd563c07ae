# tests/stats.mk - the Figure 3 counters (doc/metrics.md).
#   mn_counts.sh     exact counts in the DSM_STATS file for sharing whose
#                    coherence events are known (tests/mn_counts.c), on 2 and
#                    4 nodes; totals over blocks == per-node totals; on every
#                    transport (tests/matrix.list: counts)
#   counters_unit    Check unit tests of protocol/counters.c: lazy chunks,
#                    constant update cost, sums, out-of-range updates
check_PROGRAMS += tests/mn_counts
tests_mn_counts_SOURCES = tests/mn_counts.c
tests_mn_counts_LDADD = libdsm.la
EXTRA_DIST += tests/mn_counts.sh

if HAVE_CHECK
check_PROGRAMS += tests/counters_unit
tests_counters_unit_SOURCES = tests/counters_unit.c
tests_counters_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_counters_unit_LDADD = libdsmproto.la $(CHECK_MAIN)
UNIT_TESTS += tests/counters_unit
endif
