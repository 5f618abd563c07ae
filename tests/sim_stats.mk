# tests of the simulated runs' statistics: MemSpy and the dsm-sim/1 file.
#   memspy_unit       Check unit tests fed with synthetic sim_miss records:
#                     totals per (procedure, bin), causes, true/false sharing,
#                     the replacement matrix, growth of the tables, Eq. 6.1
#                     and the sampling plan against hand-computed values, and
#                     a writer round trip (dsm-sim/1 read back with json-c)
#   dsmprof_memspy.sh dsmprof memspy on a fixture (tests/data/memspy_sample.json):
#                     its rankings, causes, sharing, replacement and sampling
#                     displays, --bin, and its errors on bad input
if HAVE_CHECK
check_PROGRAMS += tests/memspy_unit
tests_memspy_unit_SOURCES = tests/memspy_unit.c profile/simprof_json.c protocol/sim/memspy.c
tests_memspy_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_memspy_unit_LDADD = libdsmprofile.la $(JSON_C_LIBS) $(CHECK_MAIN)
UNIT_TESTS += tests/memspy_unit
endif
TESTS += tests/dsmprof_memspy.sh
EXTRA_DIST += tests/dsmprof_memspy.sh tests/data/memspy_sample.json
#   sim_stats_apps.sh apps/mm --memspy on the uniform machine, -n 1: mm.Y
#                     dominant with >= 90% self-caused replacements; apps/slots
#                     on 4 processors: invalidation misses, false sharing
TESTS += tests/sim_stats_apps.sh
EXTRA_DIST += tests/sim_stats_apps.sh
