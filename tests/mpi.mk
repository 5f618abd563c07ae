# tests/mpi.mk - issue 5: the multi-node tests on the mpi transport, and
# node failure on every transport.
#   node_kill.sh     kill -9 of a node mid-run ends the job within 5 s with a
#                    line naming the node: shm, and mpi when mpirun exists
#   mpi_*.sh         the shm multi-node tests run under mpirun (through
#                    tests/mpirun_dsm.sh, dsmrun's options on mpirun): api,
#                    counter, litmus, stress, apps, threads, errors, counts,
#                    patterns; each sources tests/mpi_env.sh
check_PROGRAMS += tests/mn_kill
tests_mn_kill_SOURCES = tests/mn_kill.c
tests_mn_kill_LDADD = libdsm.la
TESTS += tests/node_kill.sh
EXTRA_DIST += tests/node_kill.sh tests/mpirun_dsm.sh tests/mpi_env.sh

MPI_TESTS = \
	tests/mpi_api.sh \
	tests/mpi_counter.sh \
	tests/mpi_litmus.sh \
	tests/mpi_stress.sh \
	tests/mpi_apps.sh \
	tests/mpi_threads.sh \
	tests/mpi_errors.sh \
	tests/mpi_counts.sh \
	tests/mpi_patterns.sh
EXTRA_DIST += $(MPI_TESTS)
if HAVE_MPI
TESTS += $(MPI_TESTS)
endif
