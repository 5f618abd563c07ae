# tests/sim_flash.mk - tests of the FLASH machine and FlashPoint:
#   flash_unit         Check: pointer-list sharer sets against the bit vector
#                      (random sequences up to 4096 nodes, next() order, walk
#                      lengths), handler classes, costs derived from the
#                      handlers' work and the directory state per FlashPoint
#                      mode, options, network delay and contention,
#                      miss latencies and occupancy queuing on a simulated
#                      machine, FP-Proc's procedure commands (stall,
#                      occupancy, queuing both ways, proc above noproc), the
#                      FlashPoint collector and its JSON section (the measured
#                      section's tables, Table 4), the write buffer and
#                      overlapped loads (load_use)
#   dsmprof_flashpoint.sh  dsmprof flashpoint on fixtures (tests/data/fp_*.json):
#                      Tables 1-3, --check passing and failing (the relative
#                      share limit too), --system-cycles, and its errors
#                      on bad or mismatched files
#   flash_apps.sh      FFT, LU, radix and the stencil on
#                      --machine=flash,fp_mode=control|noproc|proc, 4
#                      processors, each against the control: misses within
#                      3%, bin shares within 7 points (FFT: relative 12% too),
#                      time under 10% (noproc; the small radix: twice its
#                      measured) and about twice the measured overhead (proc); Tables 1-4 of the measured section,
#                      Table 4 showing the modes differ; the miss limit
#                      failing on an 8 KB cache; FFT's FP-Proc at the
#                      paper's configuration (Table 5: +30% to +120%);
#                      prints the perturbations
#   sim_reschedule.sh  the uniform machine as MemSpy's: rescheduling at
#                      synchronisation only, a sole holder's store a hit
#   flash_quantum.sh   causality: the measured section's time at --quantum=1,
#                      100, 1000 (LU equal, every app within 5%)

if HAVE_CHECK
check_PROGRAMS += tests/flash_unit
tests_flash_unit_SOURCES = tests/flash_unit.c profile/flashpoint_json.c
tests_flash_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_flash_unit_LDADD = libdsmsim.la libdsmproto.la libdsmprofile.la $(JSON_C_LIBS) $(CHECK_MAIN)
UNIT_TESTS += tests/flash_unit
endif

TESTS += tests/dsmprof_flashpoint.sh tests/flash_apps.sh tests/flash_quantum.sh \
	tests/sim_reschedule.sh
EXTRA_DIST += tests/dsmprof_flashpoint.sh tests/flash_apps.sh tests/flash_quantum.sh \
	tests/sim_reschedule.sh \
	tests/data/fp_run.json tests/data/fp_control.json tests/data/fp_far.json
