# DSM_CHECK_CAPSTONE: the Capstone disassembler, with which the fault
# handler decodes the faulting instruction (does the write also read its
# operand, how many bytes does it access: doc/patterns.md).  Required.
# Sets CAPSTONE_CFLAGS/CAPSTONE_LIBS and HAVE_CAPSTONE in config.h.
AC_DEFUN([DSM_CHECK_CAPSTONE], [
  PKG_CHECK_MODULES([CAPSTONE], [capstone >= 4.0], [have_capstone=yes], [have_capstone=no])
  AS_IF([test "x$have_capstone" = xyes],
    [AC_DEFINE([HAVE_CAPSTONE], [1], [Capstone disassembler available])],
    [AC_MSG_ERROR([capstone >= 4.0 not found: install the Debian package libcapstone-dev])])
])
