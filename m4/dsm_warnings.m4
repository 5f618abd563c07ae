# DSM_ENABLE_WARNINGS: the compiler warnings of the build, in WARN_CFLAGS
# (added to AM_CFLAGS by Makefile.am, never to configure's own tests).
# --enable-werror adds -Werror: CI builds with it, so a warning fails CI.
AC_DEFUN([DSM_ENABLE_WARNINGS], [
  AC_ARG_ENABLE([werror],
    [AS_HELP_STRING([--enable-werror], [treat compiler warnings as errors (used by CI)])],
    [], [enable_werror=no])
  AS_CASE([$enable_werror], [yes|no], [],
    [AC_MSG_ERROR([--enable-werror takes yes or no, not '$enable_werror'])])
  WARN_CFLAGS="-Wall -Wextra"
  AS_IF([test "x$enable_werror" = xyes], [WARN_CFLAGS="$WARN_CFLAGS -Werror"])
  AC_SUBST([WARN_CFLAGS])
])
