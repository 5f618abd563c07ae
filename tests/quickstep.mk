# tests/quickstep.mk - the simulated Alewife and QuickStep:
#   quickstep_unit     Check: the Fig. 4.1 numbering and hops, the CMMU
#                      registers (masks, 32/20-bit overflow into software,
#                      timeslices), the configuration language (every
#                      keyword and operation; bad files name file and line),
#                      the resource allocator, LimitLESS traps on a machine,
#                      private memory through the cache, overflow traps'
#                      cycles, a read taking a dirty line from its owner
#   qs_bench           QuickStep's validation programs (Appendix A), dsmcc
#   quickstep_paper.sh bench1, bench5, bench11 and Proc1's checkpoints
#                      through dsmrun --quickstep and dsmprof quickstep,
#                      against the paper's figures
#   quickstep_apps.sh  SOR's zgrid, mgrid and cgrid (apps/sor.c, section 5.2):
#                      hit ratios, Table 5.3's order of times; MP3D's
#                      versions (apps/mp3d.c, 5.1): directions and Tables
#                      5.1-5.2 within tolerances
if HAVE_CHECK
check_PROGRAMS += tests/quickstep_unit
tests_quickstep_unit_SOURCES = tests/quickstep_unit.c
tests_quickstep_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_quickstep_unit_LDADD = libdsmsim.la libdsmproto.la $(CHECK_MAIN)
UNIT_TESTS += tests/quickstep_unit
endif

check_PROGRAMS += tests/qs_bench
tests_qs_bench_SOURCES = tests/qs_bench.c
tests_qs_bench_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
tests_qs_bench_LINK = $(DSMCC_LINK)
tests_qs_bench_LDADD = libdsm.la

TESTS += tests/quickstep_paper.sh tests/quickstep_apps.sh
EXTRA_DIST += tests/quickstep_paper.sh tests/quickstep_apps.sh
