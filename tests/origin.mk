# tests/origin.mk - tests of the simulated SGI Origin 2000 and its profiler:
#   origin_unit        Check: shape and hops (bristled hypercube, metarouter:
#                      Fig. 3's 128 processors, 512), a read across the
#                      metarouter link by link, system activity (preempt_us),
#                      options, remote/local latency, the paper's Fig. 4 (1 and
#                      2 local readers: MB/s and memory utilisation) and Fig. 5
#                      (remote readers: memory at 100% and 620 MB/s, outgoing
#                      and incoming link utilisation, 9:1), the per-thread
#                      counters (local ratio, hops, transaction mix) and the
#                      Hub samples

if HAVE_CHECK
check_PROGRAMS += tests/origin_unit
tests_origin_unit_SOURCES = tests/origin_unit.c
tests_origin_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_origin_unit_LDADD = libdsmsim.la libdsmproto.la $(CHECK_MAIN)
UNIT_TESTS += tests/origin_unit
endif

#   dsmprof_origin.sh  dsmprof origin on a fixture (tests/data/origin_run.json)
#                      and a live run: tables, --dump, --node, errors
TESTS += tests/dsmprof_origin.sh
EXTRA_DIST += tests/dsmprof_origin.sh tests/data/origin_run.json

#   origin_fft.sh      the paper's FFT traces: Fig. 6 (serial initialisation
#                      node by node, three transpose peaks with drops between),
#                      Fig. 7 (unoptimised transpose: a hot spot moving from
#                      node to node), Fig. 8 (basic stagger: even, mostly under
#                      80%), Fig. 9 (scrambled stagger, printed); both with
#                      system activity: the scrambled one the less even
TESTS += tests/origin_fft.sh
EXTRA_DIST += tests/origin_fft.sh

#   origin_snbench.sh  the snbench kernels as a program (tests/origin_snbench.c,
#                      built with DSMCC_CFLAGS) through dsmrun --machine=origin
#                      and first touch: Fig. 4 (one reader, then two on the
#                      node: MB/s and memory utilisation in the measured section) and Fig. 5 (remote
#                      bw-read readers: memory at 100%, 620 MB/s, links)
check_PROGRAMS += tests/origin_snbench
tests_origin_snbench_SOURCES = tests/origin_snbench.c
tests_origin_snbench_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
tests_origin_snbench_LINK = $(DSMCC_LINK)
tests_origin_snbench_LDADD = libdsm.la
TESTS += tests/origin_snbench.sh
EXTRA_DIST += tests/origin_snbench.sh
