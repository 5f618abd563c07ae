#!/bin/sh
# block_pass.sh - what the dsmcheck pass emits, function by function: small
# C functions compiled with dsmcc --dsm -O2 -S -emit-llvm, the IR of each
# function counted (checks, window stores, reads of the region globals,
# range windows), so every optimisation of the pass is pinned:
#   - the region globals are read once per function, again only after a
#     call that may reach dsm_init (an unknown function; not libdsm's own
#     calls) or after synchronisation (globals.cpp);
#   - a loop with a known trip count and no call is versioned: a range
#     window before it, no per-access check in its fast copy, except for
#     accesses no range bounds (a scatter), checked with the slow path that
#     reopens the range windows; a loop that
#     spins on shared memory (volatile or unknown trip count) or calls a
#     function is not (loops.cpp);
#   - checks in one basic block hand the window over, only the last one
#     closes it; private accesses get no check; a small struct copy is
#     loads and stores, not a call; memcmp goes to libdsm (dsmcheck.cpp);
#   - DSMCHECK_OPT=0 turns all of it off (one check per access);
#   - a tiled nest's outer loop is dense for the whole nest's iterations
#     (run natively at 64-byte blocks, its fast entries counted).
. "${srcdir:-.}/tests/block_env.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/block_pass.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
st=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; st=1; }
export DSMCC_INCLUDEDIR="$abs_top_srcdir/include" DSMCC_LIBDIR="$abs_top_builddir/.libs" \
    DSMCC_PLUGIN="$abs_top_builddir/dsm/tools/checkpass/dsmcheck.so"

cat > "$tmp/p.c" <<'CEOF'
#include <dsm.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
extern void unknown(void);
struct pt { double x, y; };
/* three checks in three blocks: one read of the globals */
double three(double *a, double *b, double *c, int k)
{
    double s = a[0];
    if (k > 0)
        s += b[k];
    if (k > 5)
        s *= c[k];
    return s;
}
/* a call that may run dsm_init in between: read again after it */
double after_unknown(double *a, double *b) { double x = a[0]; unknown(); return x + b[0]; }
/* libdsm's own calls do not change the globals */
double after_barrier(double *a, double *b) { double x = a[0]; dsm_barrier(); return x + b[0]; }
/* a loop with a known trip count and no call: versioned */
void scale(double *a, long n)
{
#pragma clang loop vectorize(disable) interleave(disable) unroll(disable)
    for (long i = 0; i < n; i++)
        a[i] *= 2;
}
/* a scatter through loaded indices (radix): versioned for src[i], the
 * store to dst keeps a check in the fast copy, with the ranged slow path */
void scatter(int *dst, const int *src, const long *to, long n)
{
#pragma clang loop vectorize(disable) interleave(disable) unroll(disable)
    for (long i = 0; i < n; i++)
        dst[to[i]] = src[i];
}
/* spinning on shared memory: never under a range window */
void spin(volatile int *flag) { while (*flag == 0) {} }
int spin_atomic(atomic_int *flag) { int n = 0; while (!atomic_load(flag)) n++; return n; }
long until_zero(int *a) { long i = 0; while (a[i] != 0) i++; return i; }
/* a loop that calls a function: not versioned */
void with_call(double *a, long n)
{
    for (long i = 0; i < n; i++) {
        a[i] = 1;
        unknown();
    }
}
/* two checks in one block: the second takes the window over */
void copy_one(double *a, double *b) { a[0] = b[0]; }
/* private memory: no check at all */
double priv(int k) { double v[8] = { 0 }; v[k & 7] = k; return v[(k + 1) & 7]; }
/* a struct copy: loads and stores, no call */
void copy_pt(struct pt *d, struct pt *s, long i) { d[i] = s[i * 3]; }
/* libc would read shared memory unchecked: libdsm's compare instead */
int same(const struct pt *a, const struct pt *b) { return memcmp(a, b, 24 * sizeof *a) == 0; }
CEOF

compile() { # OUT.ll [env...]
    out=$1
    shift
    env "$@" "$top/dsmcc" --dsm -O2 -S -emit-llvm "$tmp/p.c" -o "$out" 2> "$tmp/err" ||
        { cat "$tmp/err"; bad "dsmcc --dsm -S -emit-llvm failed"; exit 1; }
}
compile "$tmp/opt.ll"
compile "$tmp/noopt.ll" DSMCHECK_OPT=0
compile "$tmp/noloops.ll" DSMCHECK_LOOPS=0

# fn FILE NAME: the IR of one function
fn() { awk -v f="@$2(" 'index($0, "define") && index($0, f) { p = 1 } p { print } /^}/ { p = 0 }' "$1"; }
# count FILE NAME WHAT: how many lines of the function match
count() {
    case $3 in
    globals) re='load .*@__dsm_blk, i32 0, i32' ;;   # reads of base, size, shift, table
    misses) re='call void @__dsm_blk_miss(' ;;       # one per check
    rmisses) re='call void @__dsm_blk_miss_ranges(' ;; # one per check in a fast copy
    opens) re='store volatile i64 %.*@__dsm_blk_window, i32 0, i32 0)' ;;
    closes) re='store volatile i64 0, .*@__dsm_blk_window, i32 0, i32 0)' ;;
    ranges) re='store volatile i64 %.*@__dsm_blk_window, i32 0, i32 1)' ;;
    memcpy) re='call void @__dsm_blk_memcpy' ;;
    memcmp) re='call i32 @__dsm_blk_memcmp' ;;
    libcmp) re='call i32 @\(memcmp\|bcmp\)(' ;;
    esac
    fn "$1" "$2" | grep -c "$re"
}
expect() { # FILE NAME WHAT OP N WHY
    n=$(count "$1" "$2" "$3")
    if [ "$n" "$4" "$5" ]; then
        ok "$2: $3 = $n ($6)"
    else
        bad "$2: $3 = $n, expected $4 $5 ($6)"
    fi
}

# the globals
expect "$tmp/opt.ll" three misses -eq 3 "three checks"
expect "$tmp/opt.ll" three globals -eq 4 "read once at entry"
expect "$tmp/noopt.ll" three globals -ge 6 "DSMCHECK_OPT=0: read at every check"
expect "$tmp/opt.ll" after_unknown globals -eq 8 "read again after a call that may reach dsm_init"
expect "$tmp/opt.ll" after_barrier globals -eq 4 "dsm_barrier does not change them"
# loops
expect "$tmp/opt.ll" scale ranges -eq 1 "versioned: one range window"
expect "$tmp/opt.ll" scale misses -eq 1 "the checked copy keeps its check"
expect "$tmp/noloops.ll" scale ranges -eq 0 "DSMCHECK_LOOPS=0"
fast=$(fn "$tmp/opt.ll" scale | awk '/^[0-9a-z.]*:/ { b = $1 } /fmul/ { n++ } END { print n + 0 }')
[ "$fast" -eq 2 ] && ok "scale: two copies of the loop body" || bad "scale: $fast copies of the loop body"
expect "$tmp/opt.ll" scatter ranges -eq 1 "versioned: range windows for src and to"
expect "$tmp/opt.ll" scatter misses -eq 3 "the checked copy keeps its checks"
expect "$tmp/opt.ll" scatter rmisses -eq 1 "the fast copy checks the store to dst, and only it"
expect "$tmp/noloops.ll" scatter rmisses -eq 0 "DSMCHECK_LOOPS=0: no fast copy"
for f in spin spin_atomic until_zero with_call; do
    expect "$tmp/opt.ll" $f ranges -eq 0 "no range window over this loop"
done
expect "$tmp/opt.ll" spin globals -ge 8 "a volatile load is synchronisation: globals read again"
# windows
expect "$tmp/opt.ll" copy_one opens -eq 2 "two checks"
expect "$tmp/opt.ll" copy_one closes -eq 1 "the window handed over, closed once"
expect "$tmp/noopt.ll" copy_one closes -eq 2 "DSMCHECK_OPT=0: each check closes"
expect "$tmp/opt.ll" priv opens -eq 0 "private: no window"
expect "$tmp/opt.ll" copy_pt memcpy -eq 0 "a struct copy is not a call"
expect "$tmp/opt.ll" copy_pt misses -eq 2 "a struct copy: one check per side"
expect "$tmp/opt.ll" same memcmp -eq 1 "memcmp of shared memory: libdsm's compare"
expect "$tmp/opt.ll" same libcmp -eq 0 "no libc compare left"

# A tiled nest (lu's interior update): at 64-byte blocks its 16 rows of 128
# bytes lie in a 48 KB hull, sparse for the outer loop's 16 iterations but
# dense for the 4096 of the whole nest, so the outer loop runs its fast copy
# (one range check per tile, not one per row and k); counted by
# DSMCHECK_COUNT, run natively on one node.
cat > "$tmp/tile.c" <<'CEOF'
#include <dsm.h>
#include <stdio.h>
enum { N = 384, B = 16 };
__attribute__((noinline)) void tile(double *a, long i0, long k0, long j0)
{
    for (long i = i0; i < i0 + B; i++)
        for (long k = k0; k < k0 + B; k++) {
            double l = a[i * N + k];
            for (long j = j0; j < j0 + B; j++)
                a[i * N + j] -= l * a[k * N + j];
        }
}
int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    double *a = dsm_alloc(sizeof(double) * N * N, "a");
    for (long i = 0; i < N * N; i++)
        a[i] = (double)(i % 7);
    for (int r = 0; r < 10; r++)
        tile(a, 32, 0, 64);
    printf("tile: %g\n", a[40 * N + 70]);
    dsm_finalize();
    return 0;
}
CEOF
if ! env DSMCHECK_COUNT=1 "$top/dsmcc" --dsm -O2 "$tmp/tile.c" -o "$tmp/tile" 2> "$tmp/err"; then
    cat "$tmp/err"; bad "dsmcc --dsm tile.c failed"
else
    DSM_BLOCK_SIZE=64 DSM_PROFILE=off DSM_ASLR=keep timeout 60 "$tmp/tile" > "$tmp/tile.out" 2>&1
    line=$(grep "dsmcheck-count: tile: loop at depth 1 " "$tmp/tile.out")
    case $line in
    *" fast=10 checked=0") ok "tile: the outer loop of the nest ran its fast copy ($line)" ;;
    *) cat "$tmp/tile.out"; bad "tile: the outer loop of the nest did not run its fast copy: $line" ;;
    esac
fi
exit $st
