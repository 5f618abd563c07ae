# tests/dsmprof.mk - dsmprof on hostile files, and the safe reading and
# writing of the profile files (profile/pschema*.c, pfile.c, ptext.c):
#   pschema_unit       the loader and both schemas (every sample valid; each
#                      kind of bad field refused with one line naming it;
#                      /dev/zero, FIFOs, directories, files over the size
#                      limit refused at once), UTF-8 repair and terminal
#                      escaping, the writers (no symbolic link followed at a
#                      temporary name, FIFOs/devices/links/directories at the
#                      path refused and kept, write errors keep the old file,
#                      modes), profile_path_check, and hostile names written
#                      as valid UTF-8 JSON
#   dsmprof_hostile.sh each hostile case through the dsmprof binary: wrong
#                      types under csv and report --structure, numbers near
#                      the double range under html, null strings under
#                      flashpoint, /dev/zero and a FIFO as input, output to
#                      /dev/full for every command, control bytes in names
#                      (clean terminal), html -o over a link, a FIFO and on
#                      a write error
#   dsmprof_mutate     the schema-mutation test: every field of every sample
#                      in tests/data (first occurrence of each schema path)
#                      replaced by a wrong type, null, negative, huge, NaN,
#                      infinite, fractional, hostile string, or removed, then
#                      every command run on it: exit 0 or 2 with at most one
#                      line on stderr, never a crash or a hang; also the
#                      HTML axes on unvalidated extremes
check_PROGRAMS += tests/pschema_unit tests/dsmprof_mutate
tests_pschema_unit_SOURCES = tests/pschema_unit.c
tests_pschema_unit_LDADD = libdsm_internal.la $(JSON_C_LIBS)
# the commands without dsmprof's main, to run many command lines per process
tests_dsmprof_mutate_SOURCES = tests/dsmprof_mutate.c profile/dsmprof.c profile/dsmprof_report.c \
	profile/dsmprof_cmds.c profile/html.c profile/dsmprof_sim.c profile/dsmprof_flashpoint.c \
	profile/dsmprof_quickstep.c \
	profile/dsmprof_origin.c profile/origin_html.h profile/origin_html.c
tests_dsmprof_mutate_LDADD = libdsmprofile.la $(JSON_C_LIBS) -lm
TESTS += tests/pschema_unit tests/dsmprof_hostile.sh tests/dsmprof_mutate
EXTRA_DIST += tests/dsmprof_hostile.sh
CLEANFILES += tests/dsmprof_mutate-fail.json
