# DSM_CHECK_LLVM: block mode's compiler side, the dsmcheck pass plugin for
# clang (dsm/tools/checkpass/), is built when llvm-config and the clang and
# clang++ of the same LLVM are found (Debian: llvm-dev or llvm-14-dev, clang).
# LLVM_CONFIG=/path/to/llvm-config picks another LLVM.  Sets LLVM_CLANG,
# LLVM_CLANGXX, LLVM_INCLUDEDIR, LLVM_VERSION and the conditional HAVE_LLVM.
AC_DEFUN([DSM_CHECK_LLVM], [
  AC_ARG_VAR([LLVM_CONFIG], [llvm-config of the LLVM whose clang runs dsmcc --dsm])
  AC_PATH_PROGS([LLVM_CONFIG], [llvm-config llvm-config-16 llvm-config-15 llvm-config-14], [])
  have_llvm=no
  AS_IF([test -n "$LLVM_CONFIG"], [
    llvm_bindir=`$LLVM_CONFIG --bindir`
    LLVM_INCLUDEDIR=`$LLVM_CONFIG --includedir`
    LLVM_VERSION=`$LLVM_CONFIG --version`
    LLVM_CLANG="$llvm_bindir/clang"
    LLVM_CLANGXX="$llvm_bindir/clang++"
    AS_IF([test -x "$LLVM_CLANG" && test -x "$LLVM_CLANGXX" &&
           test -f "$LLVM_INCLUDEDIR/llvm/Passes/PassPlugin.h"], [have_llvm=yes])
  ])
  AS_IF([test "x$have_llvm" = xno],
    [AC_MSG_WARN([llvm-config with clang not found (Debian packages llvm-dev, clang): dsmcc --dsm (block mode) is not built])])
  AC_SUBST([LLVM_CLANG])
  AC_SUBST([LLVM_CLANGXX])
  AC_SUBST([LLVM_INCLUDEDIR])
  AC_SUBST([LLVM_VERSION])
  AM_CONDITIONAL([HAVE_LLVM], [test "x$have_llvm" = xyes])
])
