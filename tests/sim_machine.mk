# tests/sim_machine.mk - the machine core of the simulator.
#   sim_unit   Check unit tests of protocol/sim: hand-computed miss counts
#              and causes on the uniform machine (cold, replacement with the
#              evicting bin, direct-mapped conflicts, invalidation, upgrade,
#              ping-pong, false/true sharing), NUMA latencies per hop,
#              FIFO per pair under random delays, determinism, sampling
#              windows, bad parameters (only when Check is installed)
if HAVE_CHECK
check_PROGRAMS += tests/sim_unit
tests_sim_unit_SOURCES = tests/sim_unit.c
tests_sim_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_sim_unit_LDADD = libdsmsim.la libdsmproto.la $(CHECK_MAIN)
UNIT_TESTS += tests/sim_unit
endif
