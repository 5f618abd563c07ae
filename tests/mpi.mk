# tests/mpi.mk - the multi-node tests on the mpi transport, and
# node failure on every transport.
#   node_kill.sh     kill -9 of a node mid-run ends the job within 5 s with a
#                    line naming the node: shm, and mpi when mpirun exists
#   *.mpi.*.mn       the multi-node tests under mpirun (through
#                    tests/mpirun_dsm.sh, dsmrun's options on mpirun): the
#                    test matrix (tests/matrix.list, tests/matrix.mk) makes
#                    tests/matrix/NAME.mpi.MODE.mn of each; tests/mpi_env.sh
#                    skips them where mpirun is missing
check_PROGRAMS += tests/mn_kill
tests_mn_kill_SOURCES = tests/mn_kill.c
tests_mn_kill_LDADD = libdsm.la
TESTS += tests/node_kill.sh
EXTRA_DIST += tests/node_kill.sh tests/mpirun_dsm.sh tests/mpi_env.sh
