# profile/: the data-centric profile (doc/profile-format.md).
#   profile_write.c  the dsm-profile/1 JSON file (json-c) and the exit summary,
#                    compiled into libdsm; its runtime side (names, miss causes,
#                    code attribution with libdw, twins and diffs, gathering)
#                    is dsm/prof.c, listed here with it
#   dsmprof          reports from a profile file: report, csv, diff
AM_CPPFLAGS += -I$(top_srcdir)/profile $(JSON_C_CFLAGS) $(LIBDW_CFLAGS)
libdsm_la_SOURCES += profile/profile.h profile/profile_write.c dsm/prof.h dsm/prof.c \
	dsm/prof_diff.h dsm/prof_diff.c
libdsm_la_LIBADD += libdsmadvice.la $(JSON_C_LIBS) $(LIBDW_LIBS)

bin_PROGRAMS += dsmprof
dsmprof_SOURCES = profile/dsmprof.c $(DSMPROF_EXTRA_SOURCES)
dsmprof_LDADD = $(JSON_C_LIBS)

# dsmprof html / advice (profile/advice.c, html.c, dsmprof_cmds.c; doc/advice.md).
DSMPROF_EXTRA_SOURCES = profile/html.h profile/html.c profile/dsmprof_cmds.h profile/dsmprof_cmds.c
dsmprof_LDADD += libdsmadvice.la
# the advisor serves libdsm (the exit summary's advice line) and dsmprof
noinst_LTLIBRARIES += libdsmadvice.la
libdsmadvice_la_SOURCES = profile/advice.h profile/advice.c profile/pjson.h
libdsmadvice_la_LIBADD = $(JSON_C_LIBS) -lm
