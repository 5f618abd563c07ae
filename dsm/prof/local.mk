# dsm/prof/: the profile's recording side, inside the runtime: names of
# data structures, miss causes, faulting instructions, twins and diffs of
# write epochs (diff.c), and this node's records serialized for node 0 at
# dsm_finalize.  Node 0 builds the profile with profile/.
libdsm_internal_la_SOURCES += dsm/prof/prof.h dsm/prof/prof.c dsm/prof/diff.h dsm/prof/diff.c
libdsm_internal_la_LIBADD += $(JSON_C_LIBS) $(LIBDW_LIBS)
