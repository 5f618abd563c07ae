# tests/fuzz.mk - the libFuzzer targets, each built and run by its script
# (skipped without clang/libFuzzer): make check runs a smoke of a few
# seconds; `make fuzz` runs each for 60 s (FUZZ_SECONDS=N to change).
#   fuzz_msg.sh      the wire decoder and validator (dsm/msg.c)
#   fuzz_dsmprof.sh  every dsmprof command on arbitrary files (profile/):
#                    loader, schema check and renderers
TESTS += tests/fuzz_msg.sh tests/fuzz_dsmprof.sh
EXTRA_DIST += tests/fuzz_msg.sh tests/fuzz_msg.c tests/fuzz_dsmprof.sh tests/fuzz_dsmprof.c
# and a malformed message on a live job ends it with one line (shm, mpi)
check_PROGRAMS += tests/mn_badmsg
tests_mn_badmsg_SOURCES = tests/mn_badmsg.c
tests_mn_badmsg_LDADD = libdsm_internal.la
TESTS += tests/wire_bad.sh
EXTRA_DIST += tests/wire_bad.sh
CLEANFILES += tests/fuzz_msg tests/fuzz_dsmprof

fuzz:
	top_builddir=$(top_builddir) srcdir=$(srcdir) FUZZ_SECONDS=$${FUZZ_SECONDS:-60} \
	    $(SHELL) $(srcdir)/tests/fuzz_msg.sh
	top_builddir=$(top_builddir) srcdir=$(srcdir) FUZZ_SECONDS=$${FUZZ_SECONDS:-60} \
	    $(SHELL) $(srcdir)/tests/fuzz_dsmprof.sh
.PHONY: fuzz
