# tests/network.mk - cluster runs over a real network: the test bed of
# tests/netns.sh (2-4 "hosts" as network namespaces joined by veth links,
# mpirun through an rsh agent into them, MPI on TCP), skipped (77) where it
# cannot be built (not root, no ip netns, no mpirun).
#   tcp_cluster.sh  litmus tests, counters, the apps, run across hosts on TCP
#   tcp_profile.sh  the DSM_STATS counts, the profile and its advice, across
#                   hosts
#   tcp_clock.sh    hosts whose clocks differ by seconds: dsm_wtime
#                   (tests/mn_clock) and the profile's timeslices
#                   (tests/mn_timeslices.sh) on one base
#   tcp_testbed.sh  the bed itself: ranks placed on their hosts, DSM_*
#                   forwarded, everything removed when a test fails, is
#                   stopped or killed, skipped with the reason when not root
#   tcp_faults.sh   a link taken down, a host's processes killed: the job
#                   ends within 10 s with one line naming the lost node,
#                   nothing left in any host; a slow link (netem delay)
#                   does not end it
check_PROGRAMS += tests/mn_clock
tests_mn_clock_SOURCES = tests/mn_clock.c
tests_mn_clock_LDADD = libdsm.la
TESTS += tests/tcp_testbed.sh tests/tcp_cluster.sh tests/tcp_profile.sh tests/tcp_clock.sh tests/tcp_faults.sh
EXTRA_DIST += tests/netns.sh tests/tcp_testbed.sh tests/tcp_cluster.sh tests/tcp_profile.sh tests/tcp_clock.sh tests/tcp_faults.sh
