# tests/matrix.mk - the multi-node test matrix.  tests/matrix.list declares
# the multi-node tests (name and steps: program and arguments) and the axes
# they run along (transport: shm, mpi, verbs; mode: page, block); every
# combination is a test of make check of its own,
# tests/matrix/NAME.TRANSPORT.MODE.mn, logged in
# tests/matrix/NAME.TRANSPORT.MODE.log:
#     make check TESTS=tests/matrix/counter.mpi.block.mn
# Adding a multi-node test to every transport is one line of
# tests/matrix.list (its head says how); its program is built as any
# other (check_PROGRAMS in the fragment that owns it).
# The .mn files are generated from the list (tests/matrix.sh --generate):
# make needs them as files to make their logs, and each says what its run
# does.  tests/matrix.sh runs one: DSM_TEST_TRANSPORT and DSM_TEST_MODE set,
# skipped (77) with the reason where the transport is not built or the
# machine lacks mpirun, an RDMA device or LLVM for block mode
# (tests/mpi_env.sh, tests/verbs_env.sh, tests/block_env.sh).
# The names reach make through tests/matrix-tests.mk, written with the .mn
# files: "MATRIX_TESTS = the names", "TESTS += $(MATRIX_TESTS)" and each
# name's dependency on the list.  GNU make reads it (-include), remaking it
# first when the list changed.  (Automake cannot see these names: it
# rewrites TESTS as it reads it, so they are added when make runs.)
MATRIX_LIST = $(srcdir)/tests/matrix.list
-include tests/matrix-tests.mk
# tests/matrix.sh runs each step of a test under tests/run-test.sh.
MN_LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/matrix.sh
AM_MN_LOG_FLAGS = --built '$(MATRIX_BUILT)'
MATRIX_BUILT = shm
if HAVE_MPI
MATRIX_BUILT += mpi
if HAVE_IBVERBS
MATRIX_BUILT += verbs
endif
endif

# Made before any test runs too (check_DATA): make ignores a failure to
# remake a -include'd file, make check must not (a bad list).
check_DATA += tests/matrix-tests.mk
tests/matrix-tests.mk: $(MATRIX_LIST) $(srcdir)/tests/matrix.sh
	$(AM_V_GEN)$(SHELL) $(srcdir)/tests/matrix.sh --generate $(MATRIX_LIST) tests/matrix $@
clean-local: clean-matrix
clean-matrix:
	rm -rf tests/matrix tests/matrix-tests.mk
.PHONY: clean-matrix

EXTRA_DIST += tests/matrix.list tests/matrix.sh
