# tests/transport.mk - tests of the shm transport and of the launcher dsmrun.
#   dsmrun_queue.sh    tests/shm_queue_test under dsmrun: FIFO, payloads, the
#                      overflow path, several nodes and block sizes
#   dsmrun_status.sh   exit statuses, failing/killed nodes end the job, no
#                      process or /dev/shm segment left behind, --timeout
#   dsmrun_options.sh  command line, usage errors, node environment, --prefix
#   dsmrun_bind.sh     DSM_BIND: each node its own share of the cores, or none
#   progress_move.sh   DSM_PROGRESS_MOVE: a bound node's progress thread kept
#                      from its core by a spinning program moves to any core
#   shm_hole.sh        a slot of a queue reserved and never written (a sender
#                      dying mid-send) ends the job with one line, not a hang
#   transport_choice.sh  DSM_TRANSPORT and launch detection (transport/registry.c):
#                      unknown names, a transport its launcher did not start
#                      (mpi under dsmrun, shm under mpirun), none: one node
#   mpi_abort_load.sh  a node's fatal error under mpirun ends the job within
#                      seconds also with busy loops beside it (MPI_Abort bounded)
#   backend_api.sh     the dsm.h calls before dsm_init and after dsm_finalize,
#                      natively, on the DSM and simulated: their exact lines
check_PROGRAMS += tests/shm_queue_test
# Linked straight against the transport's sources (not libdsm), so it tests
# the transport alone.  Per-target flags give it its own objects of files
# that libdsm also compiles (libtool objects and plain ones must not mix).
tests_shm_queue_test_SOURCES = tests/shm_queue_test.c dsm/transport/shm.c dsm/settings.c \
	dsm/settings_table.c dsm/futex.c dsm/error.c \
	dsm/transport/shm_layout.h dsm/transport/transport.h dsm/settings.h dsm/futex.h dsm/error.h
tests_shm_queue_test_CFLAGS = $(AM_CFLAGS)
tests_shm_queue_test_LDADD = $(PTHREAD_LIBS)
check_PROGRAMS += tests/mpi_abort tests/backend_calls
tests_mpi_abort_SOURCES = tests/mpi_abort.c
tests_mpi_abort_LDADD = libdsm.la
tests_backend_calls_SOURCES = tests/backend_calls.c
tests_backend_calls_LDADD = libdsm.la
check_PROGRAMS += tests/spin_lock
tests_spin_lock_SOURCES = tests/spin_lock.c
tests_spin_lock_LDADD = libdsm.la

TRANSPORT_TESTS = \
	tests/dsmrun_queue.sh \
	tests/dsmrun_status.sh \
	tests/dsmrun_options.sh \
	tests/dsmrun_bind.sh \
	tests/progress_move.sh \
	tests/shm_hole.sh \
	tests/transport_choice.sh \
	tests/mpi_abort_load.sh \
	tests/backend_api.sh
TESTS += $(TRANSPORT_TESTS)
EXTRA_DIST += $(TRANSPORT_TESTS)
