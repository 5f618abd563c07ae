# tests/protocol.mk - tests of the coherence engine (protocol/).
#   explore          exhaustive exploration of the real engine on 3 nodes and
#                    2 blocks: coherence, latest value, no deadlock or
#                    livelock, no rejected pair; table coverage; self-check by
#                    fault injection (tests/explore --help for single runs)
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

TESTS += tests/explore tests/proto_doc.sh tests/proto_memory
# doc/local.mk lists doc/protocol.md too; make dist copies a file once.
EXTRA_DIST += tests/proto_doc.sh doc/protocol.md

if HAVE_CHECK
check_PROGRAMS += tests/proto_unit
tests_proto_unit_SOURCES = tests/proto_unit.c
tests_proto_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_proto_unit_LDADD = libdsmproto.la $(CHECK_LIBS)
TESTS += tests/proto_unit

# pattern_unit: the augmented protocol's detection rules, one test per
# regular expression of section 3.1 and per clearing case
check_PROGRAMS += tests/pattern_unit
tests_pattern_unit_SOURCES = tests/pattern_unit.c
tests_pattern_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_pattern_unit_LDADD = libdsmproto.la $(CHECK_LIBS)
TESTS += tests/pattern_unit

# growable_unit: the growable array every layer uses (protocol/growable.h):
# doubling, contents kept, overflow and out of memory refused
check_PROGRAMS += tests/growable_unit
tests_growable_unit_SOURCES = tests/growable_unit.c
tests_growable_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_growable_unit_LDADD = $(CHECK_LIBS)
TESTS += tests/growable_unit

# sharing_unit: the sharing pattern of a block (migratory needs the new
# owner's read, read-only after an initialisation by read-modify-write,
# private, write-shared; group counts never outvote a sharing pattern)
check_PROGRAMS += tests/sharing_unit
tests_sharing_unit_SOURCES = tests/sharing_unit.c
tests_sharing_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_sharing_unit_LDADD = libdsmproto.la $(CHECK_LIBS)
TESTS += tests/sharing_unit
endif
