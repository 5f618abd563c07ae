# tests/protocol.mk - tests of the coherence engine (protocol/).
#   explore          exhaustive exploration of the real engine on 3 nodes and
#                    2 blocks: coherence, latest value (at reads and stores),
#                    no deadlock or livelock, no rejected pair, directory
#                    matching the caches, FIFO queue, detection counting;
#                    table coverage; self-check by fault injection
#                    (tests/explore --help for single runs)
#   mutants.sh       mutation testing: bugs of tests/mutants.list planted in a
#                    copy of the engine, each caught by explore or the unit
#                    tests; make check runs the sample (one mutant per check
#                    it shows can fail, about a minute), make check-mutants
#                    all of them (several minutes) with the table of catches
#   proto_unit       Check unit tests: sharer sets, single transitions and
#                    their exact actions, errors, queueing, snapshots, 1024
#                    nodes (only when Check is installed)
#                    The exploration also proves the augmentation inert: every
#                    engine call is repeated with it off, same actions.
#   proto_doc.sh     doc/protocol.md carries the tables as tests/proto_table_doc
#                    prints them (--update rewrites them)
#   proto_memory     the engines of a 16-processor machine over 2M blocks
#                    (shared home table, per-block state in chunks): the bytes
#                    they allocate (counted, not timed) within a bound; the
#                    resident set is printed (--help for other machines)
check_PROGRAMS += tests/explore tests/proto_table_doc tests/proto_memory
tests_explore_SOURCES = tests/explore.c
tests_explore_LDADD = libdsmproto.la
tests_proto_table_doc_SOURCES = tests/proto_table_doc.c
tests_proto_table_doc_LDADD = libdsmproto.la

tests_proto_memory_SOURCES = tests/proto_memory.c
tests_proto_memory_LDADD = libdsmproto.la

TESTS += tests/explore tests/proto_doc.sh tests/proto_memory tests/mutants.sh
# doc/local.mk lists doc/protocol.md too; make dist copies a file once.
EXTRA_DIST += tests/proto_doc.sh doc/protocol.md tests/mutants.sh tests/mutants.list

# The mutants are built outside automake (a copy of the engine each): the
# script gets the compiler and the Check flags from here.
MUTANT_ENVIRONMENT = MUTANT_CC='$(CC)'; MUTANT_CFLAGS='$(CFLAGS)'; \
	MUTANT_CHECK_CFLAGS='$(CHECK_CFLAGS)'; MUTANT_CHECK_LIBS='$(CHECK_LIBS)'; \
	export MUTANT_CC MUTANT_CFLAGS MUTANT_CHECK_CFLAGS MUTANT_CHECK_LIBS;
AM_TESTS_ENVIRONMENT += $(MUTANT_ENVIRONMENT)

# Every mutant (make check runs a sample); MUTANTS_FLAGS='-j 2' for two at
# a time, or names of mutants.
check-mutants:
	$(AM_V_at)srcdir='$(srcdir)'; export srcdir; $(MUTANT_ENVIRONMENT) \
	$(SHELL) $(srcdir)/tests/mutants.sh --all $${MUTANTS_FLAGS:-}
.PHONY: check-mutants

if HAVE_CHECK
check_PROGRAMS += tests/proto_unit
tests_proto_unit_SOURCES = tests/proto_unit.c
tests_proto_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_proto_unit_LDADD = libdsmproto.la $(CHECK_MAIN)
UNIT_TESTS += tests/proto_unit

# pattern_unit: the augmented protocol's detection rules, one test per
# regular expression of section 3.1 and per clearing case
check_PROGRAMS += tests/pattern_unit
tests_pattern_unit_SOURCES = tests/pattern_unit.c tests/engine_sys.h
tests_pattern_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_pattern_unit_LDADD = libdsmproto.la $(CHECK_MAIN)
UNIT_TESTS += tests/pattern_unit
# adapt_unit: the adaptive protocol (DSM_ADAPT): migratory reads granted
# exclusive, the fallback to shared grants, its counts in a snapshot
check_PROGRAMS += tests/adapt_unit
tests_adapt_unit_SOURCES = tests/adapt_unit.c tests/engine_sys.h
tests_adapt_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_adapt_unit_LDADD = libdsmproto.la $(CHECK_MAIN)
UNIT_TESTS += tests/adapt_unit
# mn_adapt.sh: the adaptive protocol in the runtime on 2 nodes (tests/mn_adapt.c):
# exact results, grants and fallbacks counted in the profile, dsmprof's line
check_PROGRAMS += tests/mn_adapt
tests_mn_adapt_SOURCES = tests/mn_adapt.c
tests_mn_adapt_LDADD = libdsm.la
TESTS += tests/mn_adapt.sh
EXTRA_DIST += tests/mn_adapt.sh

# growable_unit: the growable array every layer uses (protocol/growable.h):
# doubling, contents kept, overflow and out of memory refused
check_PROGRAMS += tests/growable_unit
tests_growable_unit_SOURCES = tests/growable_unit.c
tests_growable_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_growable_unit_LDADD = $(CHECK_MAIN)
UNIT_TESTS += tests/growable_unit

# sharing_unit: the sharing pattern of a block (migratory needs the new
# owner's read, read-only after an initialisation by read-modify-write,
# private, write-shared; group counts never outvote a sharing pattern)
check_PROGRAMS += tests/sharing_unit
tests_sharing_unit_SOURCES = tests/sharing_unit.c tests/engine_sys.h
tests_sharing_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_sharing_unit_LDADD = libdsmproto.la $(CHECK_MAIN)
UNIT_TESTS += tests/sharing_unit
endif
