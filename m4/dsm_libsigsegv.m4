# DSM_CHECK_LIBSIGSEGV: libsigsegv catches the access faults of page mode.
# Required; sets SIGSEGV_LIBS.
AC_DEFUN([DSM_CHECK_LIBSIGSEGV], [
  AC_CHECK_HEADER([sigsegv.h], [],
    [AC_MSG_ERROR([libsigsegv headers not found: install the Debian package libsigsegv-dev])])
  AC_CHECK_LIB([sigsegv], [sigsegv_install_handler], [SIGSEGV_LIBS=-lsigsegv],
    [AC_MSG_ERROR([libsigsegv not found: install the Debian package libsigsegv-dev])])
  AC_SUBST([SIGSEGV_LIBS])
])
