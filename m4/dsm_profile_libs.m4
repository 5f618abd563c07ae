# DSM_CHECK_PROFILE_LIBS: json-c (the profile file, dsmprof) and elfutils
# libdw (code attribution of misses) for the data-centric profile.  Both
# required: every run writes a profile (doc/profile-format.md).  Sets
# have_json_c, JSON_C_CFLAGS/JSON_C_LIBS, have_libdw, LIBDW_CFLAGS/LIBDW_LIBS,
# and the config.h macros.
AC_DEFUN([DSM_CHECK_PROFILE_LIBS], [
  PKG_CHECK_MODULES([JSON_C], [json-c >= 0.14], [have_json_c=yes], [have_json_c=no])
  AS_IF([test "x$have_json_c" = xyes],
    [AC_DEFINE([HAVE_JSON_C], [1], [json-c available])],
    [AC_MSG_ERROR([json-c >= 0.14 not found: install the Debian package libjson-c-dev])])

  PKG_CHECK_MODULES([LIBDW], [libdw], [have_libdw=yes], [have_libdw=no])
  AS_IF([test "x$have_libdw" = xyes],
    [AC_DEFINE([HAVE_LIBDW], [1], [elfutils libdw available])],
    [AC_MSG_ERROR([elfutils libdw not found: install the Debian package libdw-dev])])
])
