#!/bin/sh
# flash_quantum.sh - causality on the message-timed FLASH machine: a
# processor's miss is issued only when no runnable processor's clock is
# behind its own (dsm/simfront/run.c), so --quantum bounds only how far a
# processor runs ahead on hits.  LU's measured section must take the same
# simulated time at --quantum=1, 100 and 1000 (its hits never touch a line
# another processor writes meanwhile), and every app's within 5% (radix's
# histogram lines are hit by a processor running ahead while another
# processor's earlier write is on its way: the stated bound,
# doc/simulation.md "Scheduling").  Before the fix LU's section took 11.6%
# longer at 1000 than at 1 (4 processors), 54% on 16 at the paper's size.
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
get=$top/tests/sim_json_get
for f in "$dsmrun" "$get" "$top/apps/lu" "$top/apps/radix" "$top/apps/fft"; do
    [ -x "$f" ] || { echo "flash_quantum.sh: $f is not built" >&2; exit 99; }
done
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
dir=$(mktemp -d "${TMPDIR:-/tmp}/flash_quantum.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
export DSM_PROFILE=off
status=0

section() { # QUANTUM MODE APP ARGS...: prints the measured section's cycles
    q=$1 mode=$2 app=$3
    shift 3
    DSM_SIM_PROFILE=$dir/s.json ${to:+$to -k 5 120} "$dsmrun" \
        --machine=flash,fp_mode=$mode --quantum="$q" -n 4 "$top/apps/$app" "$@" \
        >"$dir/out" 2>&1 || { cat "$dir/out" >&2; echo missing; return; }
    "$get" "$dir/s.json" section.cycles
}

quantum() { # LIMIT_PCT MODE APP ARGS...
    limit=$1 mode=$2 app=$3
    shift 3
    c1=$(section 1 "$mode" "$app" "$@")
    for q in 100 1000; do
        cq=$(section "$q" "$mode" "$app" "$@")
        if ! awk -v a="$c1" -v b="$cq" -v l="$limit" 'BEGIN {
                if (a !~ /^[0-9]+$/ || b !~ /^[0-9]+$/ || a == 0) exit 1
                d = 100 * (b - a) / a; if (d < 0) d = -d; exit !(d <= l) }'; then
            echo "=== FAIL: $app ($mode): section $cq cycles at --quantum=$q against $c1 at 1" \
                "(limit $limit%)"
            status=1
        else
            echo "ok: $app ($mode): --quantum=$q $cq cycles, --quantum=1 $c1 (limit $limit%)"
        fi
    done
}

quantum 0 control lu --n=64 --b=16
quantum 0 proc lu --n=64 --b=16
quantum 5 control radix --keys=8192 --radix=64 --bits=12
quantum 5 proc fft --m=10
exit $status
