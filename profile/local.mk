# profile/: the data-centric profile (doc/profile-format.md).
#   profile_write.c  the dsm-profile/1 JSON file (json-c) and the exit summary,
#                    compiled into libdsm; its runtime side (names, miss causes,
#                    code attribution with libdw, twins and diffs, gathering)
#                    is dsm/prof.c, listed here with it
#   dsmprof          reports from the files: report, csv, diff (dsmprof_report.c),
#                    html, advice (dsmprof_cmds.c, html.c, advice.c), memspy,
#                    flashpoint (sim.mk); the command table is dsmprof.c
AM_CPPFLAGS += -I$(top_srcdir)/profile $(JSON_C_CFLAGS) $(LIBDW_CFLAGS)
libdsm_la_SOURCES += profile/profile.h profile/profile_write.c dsm/prof.h dsm/prof.c \
	dsm/prof_diff.h dsm/prof_diff.c
libdsm_la_LIBADD += libdsmadvice.la $(JSON_C_LIBS) $(LIBDW_LIBS)

bin_PROGRAMS += dsmprof
dsmprof_SOURCES = profile/dsmprof_main.c profile/dsmprof.h profile/dsmprof.c \
	profile/dsmprof_report.c $(DSMPROF_EXTRA_SOURCES)
dsmprof_LDADD = $(JSON_C_LIBS)

# dsmprof html / advice (profile/advice.c, html.c, dsmprof_cmds.c; doc/advice.md).
DSMPROF_EXTRA_SOURCES = profile/html.h profile/html.c profile/dsmprof_cmds.c
dsmprof_LDADD += libdsmadvice.la
# What libdsm and dsmprof share: the advisor (the exit summary's advice
# line, dsmprof advice), the schema strings (formats.h), the loader and the
# schemas (pschema*), safe file writing (pfile) and text hygiene (ptext).
noinst_LTLIBRARIES += libdsmadvice.la
libdsmadvice_la_SOURCES = profile/advice.h profile/advice.c profile/pjson.h profile/formats.h \
	profile/pschema.h profile/pschema.c profile/pschema_defs.c profile/pfile.h profile/pfile.c \
	profile/ptext.h profile/ptext.c
libdsmadvice_la_LIBADD = $(JSON_C_LIBS) -lm
