#!/bin/sh
# sim_dsmcc.sh - the compiler wrapper dsmcc, used as a user would outside
# the tree (pointed at this build tree by DSMCC_INCLUDEDIR / DSMCC_LIBDIR):
#   - one command compiles and links tests/sim_counts.c; the program does not
#     depend on libtsan and runs natively and simulated (counts as in
#     sim_frontend.sh)
#   - -c then a separate link works too; --showme prints the two steps
#   - no arguments is a usage error
# Run by `make check` from the build directory.
set -u
builddir=${top_builddir:-.}
srcdir=${srcdir:-.}
abs_builddir=${abs_top_builddir:-$(cd "$builddir" && pwd)}
DSMRUN=${DSMRUN:-$builddir/dsmrun}
to=${TIMEOUT:-timeout}
[ -n "$to" ] || to=timeout
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sim_dsmcc.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

DSMCC_INCLUDEDIR=$(cd "$srcdir" && pwd)/include
DSMCC_LIBDIR=$abs_builddir/.libs
export DSMCC_INCLUDEDIR DSMCC_LIBDIR
dsmcc=$builddir/dsmcc
src=$srcdir/tests/sim_counts.c

if sh "$dsmcc" -O2 -Wall -Werror "$src" -o "$tmp/counts" 2>"$tmp/cc.err"; then
    ok "dsmcc -O2 sim_counts.c -o counts"
else
    bad "dsmcc failed: $(cat "$tmp/cc.err")"
fi
if nm "$tmp/counts" | grep -q '__tsan_write4' && ! ldd "$tmp/counts" | grep -q libtsan; then
    ok "instrumented (calls __tsan_write4) and not linked with libtsan"
else
    bad "not instrumented or linked with libtsan: $(ldd "$tmp/counts" | tr '\n' ' ')"
fi
if DSM_PROFILE=off "$to" 20 "$tmp/counts" >"$tmp/native.out" 2>&1; then ok "natively: $(cat "$tmp/native.out")"
else bad "natively: $(cat "$tmp/native.out")"; fi
if DSM_SIM_PROFILE=$tmp/s.json "$to" 20 "$DSMRUN" --machine=uniform -n 4 "$tmp/counts" >"$tmp/sim.out" 2>&1; then
    v=$("$builddir/tests/sim_json_get" "$tmp/s.json" 'by_bin[name=shared].read_misses')
    if [ "$v" = 256 ]; then ok "simulated: shared read misses 256"; else bad "simulated: shared read misses $v, want 256"; fi
else
    bad "simulated: $(cat "$tmp/sim.out")"
fi

# separate compile and link
if sh "$dsmcc" -O1 -c "$src" -o "$tmp/c.o" && sh "$dsmcc" "$tmp/c.o" -o "$tmp/c2" && DSM_PROFILE=off "$to" 20 "$tmp/c2" >/dev/null 2>&1; then
    ok "dsmcc -c, then dsmcc c.o -o c2, runs"
else
    bad "separate compile and link failed"
fi
show=$(sh "$dsmcc" --showme -O2 "$src" -o prog)
n=$(printf '%s\n' "$show" | wc -l)
if [ "$n" = 2 ] && printf '%s\n' "$show" | head -n 1 | grep -q -- '-fsanitize=thread' &&
   ! printf '%s\n' "$show" | tail -n 1 | grep -q -- '-fsanitize'; then
    ok "--showme: compile with the instrumentation, link without"
else
    bad "--showme: $show"
fi
sh "$dsmcc" >/dev/null 2>"$tmp/none.err"
rc=$?
if [ $rc = 2 ] && grep -q "no arguments" "$tmp/none.err"; then ok "no arguments -> 2"
else bad "no arguments -> $rc: $(cat "$tmp/none.err")"; fi
exit $fail
