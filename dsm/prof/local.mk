# dsm/prof/: the profile's runtime side: what every node records while the
# program runs (prof.c: names of data structures, miss causes, faulting
# instructions, twins and diffs of write epochs with diff.c), and at
# dsm_finalize its records symbolized and serialized for node 0, which
# hands them to profile/aggregate.c and writes the file (ship.c).
libdsm_internal_la_SOURCES += dsm/prof/prof.h dsm/prof/prof_state.h dsm/prof/prof.c \
	dsm/prof/ship.c dsm/prof/diff.h dsm/prof/diff.c dsm/prof/elemtype.h dsm/prof/elemtype.c
libdsm_internal_la_LIBADD += $(JSON_C_LIBS) $(LIBDW_LIBS)
