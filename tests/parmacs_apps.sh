#!/bin/sh
# parmacs_apps.sh - the PARMACS programs (apps/pm_*.C, turned into C by the
# macro file dsm-parmacs at build time) run as a user runs them and verify
# their own result ("NAME: result OK"); the DSM runs (both transports, 1-4
# nodes, more processes than nodes) are in tests/matrix.list (parmacs).
#   - natively: no launcher, one node, the processes are threads
#   - simulated: dsmrun --machine=uniform and =flash, 4 processors
#   - through dsmcc as a user outside the tree would: m4 with the macro
#     file, then dsmcc, then simulated
#   - tests/parmacs_all: every macro used once and checked, natively, on 2
#     and 3 nodes, simulated
#   - every name SPLASH-3's macro file (c.m4.null.POSIX_BARRIER) defines is
#     defined by dsm-parmacs
#   - misuse: more processes than simulated processors is one clear line
set -u
builddir=${top_builddir:-.}
srcdir=${srcdir:-.}
abs_builddir=${abs_top_builddir:-$(cd "$builddir" && pwd)}
DSMRUN=${DSMRUN:-$builddir/dsmrun}
to=${TIMEOUT:-timeout}
[ -n "$to" ] || to=timeout
tmp=$(mktemp -d "${TMPDIR:-/tmp}/parmacs_apps.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
export DSM_PROFILE=off DSM_SIM_PROFILE=off
unset DSM_MACHINE DSM_TRANSPORT
fail=0
# run NAME EXPECT COMMAND...: the output must have the line EXPECT (grep -E)
run() {
    name=$1 want=$2
    shift 2
    out=$("$to" -k 5 60 "$@" 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -Eq "$want"; then
        echo "ok   $name: $(printf '%s\n' "$out" | grep -E "$want" | head -1)"
    else
        echo "FAIL $name (status $rc):"; printf '%s\n' "$out" | sed 's/^/    /'; fail=1
    fi
}

for spec in pm_lu pm_radix pm_nbody pm_globals; do
    [ -x "$builddir/apps/$spec" ] || { echo "parmacs_apps.sh: apps/$spec is not built"; exit 99; }
done
for spec in "pm_lu -n 64 -b 16" "pm_radix -n 4096" "pm_nbody -n 96 -s 3" "pm_globals -n 20000"; do
    set -- $spec
    app=$1
    shift
    run "$app natively, 1 process" "^$app: result OK" "$builddir/apps/$app" -p 1 "$@"
    run "$app natively, 5 processes" "^$app: result OK" "$builddir/apps/$app" -p 5 "$@"
    run "$app simulated (uniform, 4)" "^$app: result OK" "$DSMRUN" --machine=uniform -n 4 \
        "$builddir/apps/$app" -p 4 "$@"
    run "$app simulated (flash, 4)" "^$app: result OK" "$DSMRUN" --machine=flash -n 4 \
        "$builddir/apps/$app" -p 4 "$@"
done
[ -x "$builddir/tests/parmacs_all" ] || { echo "parmacs_apps.sh: tests/parmacs_all is not built"; exit 99; }
run "parmacs_all natively" "^parmacs_all: result OK" "$builddir/tests/parmacs_all"
run "parmacs_all dsmrun -n 2" "^parmacs_all: result OK" "$DSMRUN" -n 2 "$builddir/tests/parmacs_all"
run "parmacs_all dsmrun -n 3" "^parmacs_all: result OK" "$DSMRUN" -n 3 "$builddir/tests/parmacs_all"
run "parmacs_all simulated (uniform, 4)" "^parmacs_all: result OK" "$DSMRUN" --machine=uniform -n 4 \
    "$builddir/tests/parmacs_all"
# the names of SPLASH-3's macro file, each defined here
missing=
for name in NEWPROC BARRIER BARDEC BARINIT BAREXCLUDE BARINCLUDE GSDEC GSINIT GETSUB NU_GSDEC \
    NU_GSINIT NU_GETSUB ADEC AINIT PROBEND LOCKDEC LOCKINIT LOCK UNLOCK SPINLOCKDEC SPINLOCKINIT \
    SPINLOCK SPINUNLOCK NLOCKDEC NLOCKINIT NLOCK NUNLOCK ALOCKDEC ALOCKINIT ALOCK AULOCK PAUSEDEC \
    PAUSEINIT CLEARPAUSE SETPAUSE EVENT WAITPAUSE PAUSE AUG_ON AUG_OFF TRACE_ON TRACE_OFF REF_TRACE_ON \
    REF_TRACE_OFF DYN_TRACE_ON DYN_TRACE_OFF DYN_REF_TRACE_ON DYN_REF_TRACE_OFF DYN_SIM_ON DYN_SIM_OFF \
    DYN_SCHED_ON DYN_SCHED_OFF AUG_SET_LOLIMIT AUG_SET_HILIMIT MENTER DELAY CONTINUE MEXIT MONINIT \
    WAIT_FOR_END CREATE MAIN_INITENV MAIN_END MAIN_ENV ENV EXTERN_ENV G_MALLOC G_FREE G_MALLOC_F \
    NU_MALLOC NU_FREE NU_MALLOC_F GET_HOME GET_PID AUG_DELAY ST_LOG SET_HOME CLOCK AGETL CONDVARDEC \
    CONDVARINIT CONDVARWAIT CONDVARSIGNAL CONDVARBCAST SEMDEC SEMINIT SEMP SEMV; do
    got=$(printf 'ifdef(`%s'"'"', `yes'"'"', `no'"'"')\n' "$name" | m4 "$srcdir/dsm/tools/dsm-parmacs" -)
    [ "$got" = yes ] || missing="$missing $name"
done
if [ -z "$missing" ]; then
    echo "ok   every name of SPLASH-3's macro file is defined"
else
    echo "FAIL not defined by dsm-parmacs:$missing"; fail=1
fi
# what the file expands to compiles cleanly under the flags old programs are
# built with (strict C89/C99, SPLASH-3's warnings), also with the
# environment macros given twice in one file (a header with EXTERN_ENV)
printf 'EXTERN_ENV\nMAIN_ENV\nEXTERN_ENV\nvoid Work(void);\nvoid Work(void) {}\nint main(void)\n{\n    double *p = (double *)G_MALLOC(16)\n    free(p);\n    CREATE(Work, 2)\n    WAIT_FOR_END(2)\n    MAIN_END\n}\n' >"$tmp/envs.C"
m4 "$srcdir/dsm/tools/dsm-parmacs" "$tmp/envs.C" >"$tmp/envs.c"
for flags in "-std=c89 -pedantic" "-std=c99 -pedantic" \
    "-D_POSIX_C_SOURCE=200112 -W -Wmissing-prototypes -Wmissing-declarations -Wredundant-decls -Wpointer-arith -Wsign-compare"; do
    if ${CC:-cc} $flags -Wall -Werror -pthread -I"$srcdir/include" -c "$tmp/envs.c" -o "$tmp/envs.o" \
        2>"$tmp/envs.err"; then
        echo "ok   expanded macros compile with $flags -Wall -Werror"
    else
        echo "FAIL expanded macros with $flags -Wall -Werror:"; sed 's/^/    /' "$tmp/envs.err"; fail=1
    fi
done
# the way a user builds for the simulated machines: m4, then dsmcc
DSMCC_INCLUDEDIR=$(cd "$srcdir" && pwd)/include
DSMCC_LIBDIR=$abs_builddir/.libs
export DSMCC_INCLUDEDIR DSMCC_LIBDIR
if m4 "$srcdir/dsm/tools/dsm-parmacs" "$srcdir/apps/pm_nbody.C" >"$tmp/nbody.c" &&
    sh "$builddir/dsmcc" -O2 -Wall -Werror "$tmp/nbody.c" -o "$tmp/nbody" -lm 2>"$tmp/cc.err"; then
    echo "ok   m4 dsm-parmacs pm_nbody.C, dsmcc -O2 -Wall -Werror"
    run "dsmcc-built pm_nbody simulated" "^pm_nbody: result OK" "$DSMRUN" --machine=uniform -n 3 \
        "$tmp/nbody" -p 3 -n 64 -s 2
else
    echo "FAIL m4 + dsmcc of pm_nbody.C:"; sed 's/^/    /' "$tmp/cc.err"; fail=1
fi
# more processes than simulated processors: the run ends with the reason
out=$("$to" -k 5 60 "$DSMRUN" --machine=uniform -n 2 "$builddir/apps/pm_nbody" -p 4 -n 64 2>&1)
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 124 ] &&
    printf '%s\n' "$out" | grep -q "dsm: processor 0: dsm_create: .*simulate more processors"; then
    echo "ok   4 processes on 2 simulated processors: status $rc, $(printf '%s\n' "$out" | grep dsm_create)"
else
    echo "FAIL 4 processes on 2 simulated processors (status $rc):"; printf '%s\n' "$out" | sed 's/^/    /'
    fail=1
fi
exit $fail
