# DSM_CHECK_MPI: detect an MPI implementation (OpenMPI) for the mpi
# transport.  Optional; sets have_mpi, MPI_CFLAGS, MPI_LIBS, MPIRUN and the
# conditional HAVE_MPI.  --without-mpi turns it off.
AC_DEFUN([DSM_CHECK_MPI], [
  AC_ARG_WITH([mpi], [AS_HELP_STRING([--without-mpi], [do not build the MPI transport])],
    [], [with_mpi=check])
  have_mpi=no
  MPI_CFLAGS=
  MPI_LIBS=
  AS_IF([test "x$with_mpi" != xno], [
    PKG_CHECK_MODULES([MPI], [ompi-c], [have_mpi=yes], [
      AC_PATH_PROG([MPICC_PROG], [mpicc], [])
      AS_IF([test -n "$MPICC_PROG"], [
        MPI_CFLAGS=`$MPICC_PROG --showme:compile 2>/dev/null`
        MPI_LIBS=`$MPICC_PROG --showme:link 2>/dev/null`
        AS_IF([test -n "$MPI_LIBS"], [have_mpi=yes])
      ])
    ])
  ])
  AS_IF([test "x$with_mpi" = xyes && test "x$have_mpi" = xno],
    [AC_MSG_ERROR([--with-mpi given but no MPI found: install libopenmpi-dev openmpi-bin])])
  AC_PATH_PROG([MPIRUN], [mpirun], [])
  AS_IF([test "x$have_mpi" = xyes], [AC_DEFINE([HAVE_MPI], [1], [MPI transport available])])
  AC_SUBST([MPI_CFLAGS])
  AC_SUBST([MPI_LIBS])
  AM_CONDITIONAL([HAVE_MPI], [test "x$have_mpi" = xyes])
])
