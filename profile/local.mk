# profile/: the data-centric profile and the statistics of simulated
# machines, written at dsm_finalize and rendered by dsmprof.
#   records.c           one node's profile records on the wire (written by
#                       every node, checked and decoded at node 0)
#   aggregate.c         node 0 builds the profile from the records (pure)
#   profile_write.c     the dsm-profile/2 file (json-c) and the exit summary
#                       (doc/profile-format.md)
#   simprof.c           attaches the collectors to a simulated machine and
#                       writes the dsm-sim/1 file (doc/sim-format.md);
#                       simprof_json.c and flashpoint_json.c render it
#   libdsmaggregate.la  node 0 builds the profile from the records every node
#                       ships (records.c, aggregate.c): pure, unit-tested
#   libdsmprofile.la    what libdsm and dsmprof share: the advisor (advice.c,
#                       doc/advice.md), the schema strings (formats.h), the
#                       loader and the schemas (pschema*), safe file writing
#                       (pfile) and text hygiene (ptext)
#   dsmprof*.c, html.c  the dsmprof command (dsmprof.1); its command table is
#                       dsmprof.c
AM_CPPFLAGS += -I$(top_srcdir)/profile $(JSON_C_CFLAGS) $(LIBDW_CFLAGS)

# records and aggregation: pure, built without dsm/ on the include path so
# the layering holds by construction
noinst_LTLIBRARIES += libdsmaggregate.la
libdsmaggregate_la_SOURCES = profile/records.h profile/records.c \
	profile/aggregate.h profile/aggregate.c profile/runs.h profile/runs.c
libdsmaggregate_la_CPPFLAGS = -I$(top_srcdir)/protocol -I$(top_srcdir)/profile
libdsm_internal_la_LIBADD += libdsmaggregate.la

libdsm_internal_la_SOURCES += profile/profile.h profile/profile_write.c \
	profile/simprof.h profile/simprof.c profile/simprof_json.c \
	profile/flashpoint_json.h profile/flashpoint_json.c \
	profile/origin_json.h profile/origin_json.c

noinst_LTLIBRARIES += libdsmprofile.la
libdsmprofile_la_SOURCES = profile/advice.h profile/advice.c profile/pjson.h profile/formats.h \
	profile/pschema.h profile/pschema.c profile/pschema_defs.c profile/pfile.h profile/pfile.c \
	profile/ptext.h profile/ptext.c
libdsmprofile_la_LIBADD = $(JSON_C_LIBS) -lm

bin_PROGRAMS += dsmprof
dsmprof_SOURCES = profile/dsmprof_main.c profile/dsmprof.h profile/dsmprof.c \
	profile/dsmprof_report.c profile/html.h profile/html.c profile/dsmprof_cmds.c \
	profile/dsmprof_sim.c profile/dsmprof_flashpoint.c profile/dsmprof_quickstep.c \
	profile/dsmprof_origin.c profile/origin_html.h profile/origin_html.c
dsmprof_LDADD = libdsmprofile.la $(JSON_C_LIBS)
