#!/bin/sh
# block_dsmcc.sh - the compiler side of block mode and its edges:
#   dsmcc --dsm --help documents the flag, --showme loads the pass;
#   the pass skips private accesses and groups neighbours (DSMCHECK_STATS);
#   a checked program runs natively, without dsmrun (dsm_init makes it a
#   one-node job at the default block size) and with 32-byte blocks;
#   an unchecked program is refused sub-page blocks with a clear line.
. "${srcdir:-.}/tests/block_env.sh"
src=${srcdir:-.}
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
tmp=$(mktemp -d "${TMPDIR:-/tmp}/block_dsmcc.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
st=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; st=1; }

"$top/dsmcc" --help > "$tmp/help" 2>&1
grep -q -- '--dsm' "$tmp/help" && ok "dsmcc --help documents --dsm" || bad "--help: $(cat "$tmp/help")"
DSMCC_PLUGIN=/p/dsmcheck.so "$top/dsmcc" --showme --dsm -O2 x.c -o x > "$tmp/show" 2>&1
grep -q -- "-fpass-plugin=/p/dsmcheck.so" "$tmp/show" && ok "--showme --dsm loads the pass" \
    || bad "--showme --dsm: $(cat "$tmp/show")"

# the pass's counts on a small file: a stack array is private, the three
# fields of one struct share one check, memcpy goes to the runtime
cat > "$tmp/t.c" <<'CEOF'
#include <string.h>
struct p { double x, y, z; };
void upd(struct p *q) { q->x += 1; q->y += 2; q->z = q->x + q->y; }
int priv(int k) { int v[8]; for (int i = 0; i < 8; i++) v[i] = i * k; return v[k & 7]; }
void cp(char *d, const char *s, long n) { memcpy(d, s, n); }
CEOF
DSMCHECK_STATS=1 DSMCC_INCLUDEDIR=$abs_top_srcdir/include DSMCC_LIBDIR=$abs_top_builddir/.libs \
    DSMCC_PLUGIN=$abs_top_builddir/dsm/tools/checkpass/dsmcheck.so \
    "$top/dsmcc" --dsm -O0 -c "$tmp/t.c" -o "$tmp/t.o" 2> "$tmp/stats" || bad "dsmcc --dsm -c failed: $(cat "$tmp/stats")"
cat "$tmp/stats"
grep -q 'checks=[1-9]' "$tmp/stats" && grep -q 'private=[1-9]' "$tmp/stats" \
    && grep -q 'grouped=[1-9]' "$tmp/stats" && grep -q 'memops=1' "$tmp/stats" \
    && ok "the pass checks, skips private accesses, groups, rewrites memcpy" \
    || bad "pass counts: $(cat "$tmp/stats")"

# natively, no job at all (no dsmrun, no DSM_* variables)
out=$(env -u DSM_TRANSPORT -u DSM_NODES $to 60 "$top/tests/blk_stress" -t 1 -i 1000 -s 0 2>&1)
echo "$out" | grep -q "blk_stress: .*OK" && ok "checked program, native run" || bad "native run: $out"
out=$(DSM_BLOCK_SIZE=32 $to 60 "$top/tests/blk_stress" -t 3 -i 1000 -s 0 2>&1)
echo "$out" | grep -q "block 32 B.*OK" && ok "checked program, 32-byte blocks, one node" \
    || bad "32-byte run: $out"

# page mode keeps its page-multiple rule
out=$(DSM_BLOCK_SIZE=64 $to 60 "$DSMRUN" -n 2 "$top/tests/blk_unchecked" -t 1 -i 10 -s 0 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "DSM_BLOCK_SIZE=64 is below the page size.*dsmcc --dsm"; then
    ok "unchecked program refused 64-byte blocks"
else
    bad "unchecked program with 64-byte blocks: rc=$rc: $out"
fi
exit $st
