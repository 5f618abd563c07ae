# tests/fuzz.mk - issue 5: wire validation.  The libFuzzer target of the wire decoder and
# validator (dsm/msg.c).  make check runs a 10 s smoke (skipped without
# clang/libFuzzer); `make fuzz` runs it for 60 s (FUZZ_SECONDS=N to change).
TESTS += tests/fuzz_msg.sh
EXTRA_DIST += tests/fuzz_msg.sh tests/fuzz_msg.c
# and a malformed message on a live job ends it with one line (shm, mpi)
check_PROGRAMS += tests/mn_badmsg
tests_mn_badmsg_SOURCES = tests/mn_badmsg.c
tests_mn_badmsg_LDADD = libdsm_internal.la
TESTS += tests/wire_bad.sh
EXTRA_DIST += tests/wire_bad.sh
CLEANFILES += tests/fuzz_msg

fuzz:
	top_builddir=$(top_builddir) srcdir=$(srcdir) FUZZ_SECONDS=$${FUZZ_SECONDS:-60} \
	    $(SHELL) $(srcdir)/tests/fuzz_msg.sh
.PHONY: fuzz
