#!/bin/sh
# dsmrun_bind.sh - DSM_BIND, dsmrun's placement of the nodes: with `core`
# nodes that do not outnumber the cores dsmrun may use each get a share of
# them of their own (the shares disjoint, inside dsmrun's affinity); `auto`
# does that or leaves them unbound (it depends on what else runs); more
# nodes than cores, DSM_BIND=none or no DSM_BIND (the default) leave every
# node dsmrun's own affinity; a bad value is an error naming it.
# Run by `make check` from the build directory.
set -u
builddir=${top_builddir:-.}
DSMRUN=${DSMRUN:-$builddir/dsmrun}
to=${TIMEOUT:-timeout}
[ -n "$to" ] || to=timeout
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dsmrun_bind.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
command -v taskset >/dev/null 2>&1 || { echo "SKIP: no taskset"; exit 77; }

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# masks [ENV...] -- [TASKSET_CPUS] N: each node's allowed cores (a hex
# mask, one line "node mask"), sorted by node
masks() {
    cpus=$1 n=$2
    if [ -n "$cpus" ]; then set -- taskset -c "$cpus" "$DSMRUN"; else set -- "$DSMRUN"; fi
    "$to" 60 "$@" -p -n "$n" sh -c 'taskset -p $$' >"$tmp/out" 2>&1 || {
        bad "dsmrun -n $n (cpus '$cpus'): $(cat "$tmp/out")"; return 1; }
    sed -n 's/^\[\([0-9]*\)\] pid [0-9]*.s current affinity mask: \([0-9a-f]*\)$/\1 \2/p' \
        "$tmp/out" | sort -n
}
# check_bound N CPUS: N disjoint, non-empty masks inside CPUS' mask
check_bound() {
    n=$1 cpus=$2 what=$3
    all=$(taskset -c "$cpus" sh -c 'taskset -p $$' | sed 's/.*: //')
    m=$(masks "$cpus" "$n") || return
    [ "$(echo "$m" | wc -l)" = "$n" ] || { bad "$what, $n nodes on '$cpus': $m"; return; }
    union=0 err=
    for v in $(echo "$m" | cut -d' ' -f2); do
        [ $((0x$v)) != 0 ] || err="an empty mask"
        [ $((0x$v & union)) = 0 ] || err="shared cores"
        [ $((0x$v & ~0x$all)) = 0 ] || err="a core outside dsmrun's ($all)"
        union=$((union | 0x$v))
    done
    if [ -n "$err" ]; then bad "$what, $n nodes on cores '$cpus': $err: $(echo $m)"
    else ok "$what, $n nodes on cores '$cpus': $(echo $m)"; fi
}
# check_same N CPUS: every node keeps dsmrun's mask
check_same() {
    n=$1 cpus=$2 what=$3
    all=$(taskset -c "$cpus" sh -c 'taskset -p $$' | sed 's/.*: //')
    m=$(masks "$cpus" "$n") || return
    if [ "$(echo "$m" | cut -d' ' -f2 | sort -u)" = "$all" ] && [ "$(echo "$m" | wc -l)" = "$n" ]
    then ok "$what: $n nodes keep $all"
    else bad "$what: $n nodes on cores '$cpus' should keep $all: $(echo $m)"; fi
}

mine=$(taskset -pc $$ | sed 's/.*: //')
cores=$(nproc)
if [ "$cores" -ge 2 ]; then
    first=$(taskset -pc $$ | sed 's/.*: //' | tr ',' '\n' | head -1 | cut -d- -f1)
    DSM_BIND=core check_bound 2 "$mine" "DSM_BIND=core"
    [ "$cores" -ge 3 ] && DSM_BIND=core check_bound "$cores" "$mine" "DSM_BIND=core"
    # auto: bound as with core, or not at all
    m=$(DSM_BIND=auto masks "$mine" 2) && all=$(taskset -pc $$ >/dev/null; taskset -p $$ | sed 's/.*: //')
    if [ "$(echo "$m" | cut -d' ' -f2 | sort -u)" = "$all" ]; then
        ok "auto: unbound (other processes run)"
    else
        DSM_BIND=auto check_bound 2 "$mine" "auto"
    fi
    DSM_BIND=none check_same 2 "$mine" "DSM_BIND=none"
    unset DSM_BIND
    check_same 2 "$mine" "the default"
    check_same 2 "$first" "more nodes than cores"
else
    echo "one core: the binding itself is not tested"
fi
check_same 1 "$mine" "one node"

"$to" 60 env DSM_BIND=bogus "$DSMRUN" -n 2 true >"$tmp/out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q "DSM_BIND=bogus" "$tmp/out"; then ok "DSM_BIND=bogus -> 2"
else bad "DSM_BIND=bogus: status $rc: $(cat "$tmp/out")"; fi
exit $fail
