# DSM_CHECK_IBVERBS: detect libibverbs for the RDMA transport.  Optional;
# sets have_ibverbs, IBVERBS_LIBS and the conditional HAVE_IBVERBS.
AC_DEFUN([DSM_CHECK_IBVERBS], [
  AC_ARG_WITH([ibverbs], [AS_HELP_STRING([--without-ibverbs], [do not build the verbs transport])],
    [], [with_ibverbs=check])
  have_ibverbs=no
  IBVERBS_LIBS=
  AS_IF([test "x$with_ibverbs" != xno], [
    AC_CHECK_HEADER([infiniband/verbs.h],
      [AC_CHECK_LIB([ibverbs], [ibv_get_device_list], [have_ibverbs=yes; IBVERBS_LIBS=-libverbs])])
  ])
  AS_IF([test "x$have_ibverbs" = xno && test "x$with_ibverbs" != xno],
    [AC_MSG_NOTICE([libibverbs not found (Debian libibverbs-dev): the verbs transport is left out])])
  AS_IF([test "x$have_ibverbs" = xyes], [AC_DEFINE([HAVE_IBVERBS], [1], [verbs transport available])])
  AC_SUBST([IBVERBS_LIBS])
  AM_CONDITIONAL([HAVE_IBVERBS], [test "x$have_ibverbs" = xyes])
])
