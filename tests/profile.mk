# tests/profile.mk - the data-centric profile (doc/profile-format.md).
#   mn_profile.sh  a 2-node program with known sharing (tests/mn_profile.c):
#                  checks the dsm-profile/2 file (false sharing with its byte
#                  offsets, miss causes, an unnamed allocation binned by its
#                  site, procedures), the exit summary, DSM_PROFILE=off and
#                  the default path, and dsmprof report/csv/diff with its
#                  errors on bad input
check_PROGRAMS += tests/mn_profile
tests_mn_profile_SOURCES = tests/mn_profile.c
tests_mn_profile_LDADD = libdsm.la
TESTS += tests/mn_profile.sh
EXTRA_DIST += tests/mn_profile.sh
#   mn_timeslices.sh  the profile's timeslices (tests/mn_timeslices.c): misses
#                  in both phases and none inside the pause between them,
#                  the pause's barrier wait, slices adding up to the run's
#                  totals, DSM_TIMESLICE_MS and its errors
check_PROGRAMS += tests/mn_timeslices
tests_mn_timeslices_SOURCES = tests/mn_timeslices.c
tests_mn_timeslices_LDADD = libdsm.la
TESTS += tests/mn_timeslices.sh
EXTRA_DIST += tests/mn_timeslices.sh
#   diff_unit      the write-epoch diff (dsm/prof/diff.c) against a byte-by-byte
#                  reference on random blocks, exactly; exact byte sets (runs.c)
if HAVE_CHECK
check_PROGRAMS += tests/diff_unit
tests_diff_unit_SOURCES = tests/diff_unit.c dsm/prof/diff.c profile/runs.c
tests_diff_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_diff_unit_LDADD = $(CHECK_MAIN)
UNIT_TESTS += tests/diff_unit
endif
#   aggregate_unit node 0's aggregation (profile/aggregate.c) on synthetic
#                  nodes, checked exactly: structures, causes, false-sharing
#                  verdicts, pair ranking, timeslices; and the records'
#                  reader (profile/records.c) refusing truncated and corrupt
#                  bytes with a reason
if HAVE_CHECK
check_PROGRAMS += tests/aggregate_unit
tests_aggregate_unit_SOURCES = tests/aggregate_unit.c profile/profile_write.c
tests_aggregate_unit_CPPFLAGS = -I$(top_srcdir)/protocol -I$(top_srcdir)/profile $(JSON_C_CFLAGS)
tests_aggregate_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_aggregate_unit_LDADD = libdsmaggregate.la libdsmprofile.la libdsmproto.la $(JSON_C_LIBS) $(CHECK_LIBS)
TESTS += tests/aggregate_unit
endif
#   fuzz_records.sh  libFuzzer on the records' reader and the aggregation of
#                  what it accepts (tests/fuzz_records.c; skipped without
#                  clang/libFuzzer; make fuzz-records runs it for 60 s)
TESTS += tests/fuzz_records.sh
EXTRA_DIST += tests/fuzz_records.sh tests/fuzz_records.c
CLEANFILES += tests/fuzz_records

fuzz-records:
	top_builddir=$(top_builddir) srcdir=$(srcdir) FUZZ_SECONDS=$${FUZZ_SECONDS:-60} \
	    $(SHELL) $(srcdir)/tests/fuzz_records.sh
.PHONY: fuzz-records
