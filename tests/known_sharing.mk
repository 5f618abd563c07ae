# tests/known_sharing.mk: a program with known sharing (tests/known_sharing.c),
# every structure's verdicts checked exactly from the profile by
# tests/known_sharing.sh: sharing pattern, group, false against true sharing,
# the bytes each node wrote; phased and interleaved, on the shm and mpi
# transports, in page mode (4 KiB) and block mode (64 B, dsmcc --dsm).
check_PROGRAMS += tests/known_sharing
tests_known_sharing_SOURCES = tests/known_sharing.c
tests_known_sharing_LDADD = libdsm.la
TESTS += tests/known_sharing.sh
EXTRA_DIST += tests/known_sharing.sh
if HAVE_LLVM
check_SCRIPTS += tests/blk_known_sharing
CLEANFILES += tests/blk_known_sharing
tests/blk_known_sharing: $(top_srcdir)/tests/known_sharing.c $(BLOCK_DEPS)
	$(AM_V_GEN)$(BLOCK_DSMCC) $(top_srcdir)/tests/known_sharing.c -o $@
endif
