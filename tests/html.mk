# tests/html.mk - `dsmprof html` and `dsmprof advice` (profile/advice.c,
# profile/html.c, profile/dsmprof_cmds.c; doc/advice.md):
#   advice_unit        Check: the advisor on tests/data/advice_sample.json:
#                      every hypothesis found with its numbers and advice,
#                      each threshold (by name and DSM_ADVICE_*) respected
#   dsmprof_advice.sh  the command lines: options, variables, exit 2 on bad input
#   html_chromium.sh   the page in headless Chromium (a real run's profile and
#                      tests/data/html_timeslices.json): charts present by id,
#                      block-map script ran, no network, screenshots saved
if HAVE_CHECK
check_PROGRAMS += tests/advice_unit
tests_advice_unit_SOURCES = tests/advice_unit.c
tests_advice_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_advice_unit_LDADD = libdsmprofile.la $(JSON_C_LIBS) -lm $(CHECK_MAIN)
UNIT_TESTS += tests/advice_unit
endif
TESTS += tests/dsmprof_advice.sh tests/html_chromium.sh
EXTRA_DIST += tests/dsmprof_advice.sh tests/html_chromium.sh tests/data/advice_sample.json \
	tests/data/html_timeslices.json
CLEANFILES += tests/html_chromium_run.png tests/html_chromium_sample.png
