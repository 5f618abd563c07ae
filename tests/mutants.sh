#!/bin/sh
# mutants.sh - mutation testing of the coherence engine: plants each bug of
# tests/mutants.list in a copy of protocol/ (one at a time), builds
# tests/explore against the mutated engine, runs it (explore --mutation:
# small runs first, then the suite's, then the table coverage, up to the
# first violation) and, if the exploration misses the bug, builds and runs
# the unit tests (proto_unit, pattern_unit, adapt_unit) against it.  Every mutant must be
# caught; a mutant whose list entry names its catcher ("= CHECK") must be
# caught by that check.  Prints a table mutant -> caught by.
#
#   tests/mutants.sh             the sample (the mutants with a named catcher,
#                                one per check they show can fail), after
#                                checking that every mutation still applies
#                                (make check)
#   tests/mutants.sh --all       every mutant (make check-mutants)
#   tests/mutants.sh NAME...     these mutants
#   tests/mutants.sh --list      the mutants' names
# Options: -j N (N mutants at a time, default 1), --keep (keep the work
# directory).  Run from the build directory; the environment gives the
# sources and the compiler (make check sets them):
#   srcdir                 the source directory (default .)
#   MUTANT_CC, MUTANT_CFLAGS               compiler and flags (cc, -O2)
#   MUTANT_CHECK_CFLAGS, MUTANT_CHECK_LIBS the Check library; empty: the unit
#                          tests are not built, and a mutant only they catch
#                          counts as skipped (exit 77 if nothing failed)
# Exit status: 0 all caught, 1 a mutant missed, caught by another check
# than its entry names, not applying or not compiling, 77 skipped, 99 error.
set -u

srcdir=${srcdir:-.}
list=$srcdir/tests/mutants.list
cc=${MUTANT_CC:-cc}
cflags=${MUTANT_CFLAGS:--O2}
check_cflags=${MUTANT_CHECK_CFLAGS:-}
check_libs=${MUTANT_CHECK_LIBS:-}
# the engine: libdsmproto's C sources (protocol/local.mk)
engine_srcs="sharers.c engine.c table.c names.c augment.c counters.c"

mode=sample
jobs=1
keep=0
names=
while [ $# -gt 0 ]; do
    case $1 in
        --all) mode=all ;;
        --list) mode=list ;;
        --keep) keep=1 ;;
        -j) [ $# -ge 2 ] || { echo "mutants.sh: -j needs a number" >&2; exit 99; }
            jobs=$2; shift ;;
        -*) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 99 ;;
        *) names="$names $1"; mode=named ;;
    esac
    shift
done
case $jobs in ''|*[!0-9]*|0) echo "mutants.sh: -j $jobs is not a count" >&2; exit 99 ;; esac
if [ ! -r "$list" ]; then
    echo "mutants.sh: cannot read $list" >&2
    exit 99
fi

all=$(awk '$1 == "mutant" { print $2 }' "$list")
if [ "$mode" = list ]; then
    echo "$all"
    exit 0
fi
if [ -z "$all" ] || [ "$(echo "$all" | sort | uniq -d)" != "" ]; then
    echo "mutants.sh: $list names no mutant, or one twice" >&2
    exit 99
fi

# The entry of one mutant: its FILE, and its expected catcher ("" if none).
field_file() { awk -v m="$1" '$1 == "mutant" && $2 == m { print $3 }' "$list"; }
field_expect() {
    awk -v m="$1" '$1 == "mutant" { cur = $2; next }
                   cur == m && /^= / { print substr($0, 3); exit }' "$list"
}

case $mode in
    all) selected=$all ;;
    named)
        selected=
        for n in $names; do
            echo "$all" | grep -qx -- "$n" || { echo "mutants.sh: no mutant $n in $list" >&2; exit 99; }
            selected="$selected $n"
        done ;;
    sample)
        selected=
        for n in $all; do
            [ -n "$(field_expect "$n")" ] && selected="$selected $n"
        done ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/mutants.XXXXXX") || exit 99
if [ "$keep" = 0 ]; then
    trap 'rm -rf "$work"' EXIT
    trap 'exit 130' INT TERM
else
    echo "mutants.sh: work directory $work"
fi

# apply NAME DIR: plants mutant NAME in the copy of the sources under DIR.
# Literal texts (index/substr, no patterns); fails, saying why, when a text
# is not found exactly once or the anchor is not one line.
apply() {
    f=$2/$(field_file "$1")
    [ -f "$f" ] || { echo "no file $(field_file "$1")"; return 1; }
    awk -v m="$1" '$1 == "mutant" { cur = $2; next }
                   cur == m && /^[@+-] / { print }' "$list" > "$2/ops" || return 1
    awk -v opsfile="$2/ops" '
        function count(s, t,   n, i, k) {
            n = 0
            while ((i = index(s, t)) > 0) { n++; s = substr(s, i + length(t)) }
            return n
        }
        { line[NR] = $0 }
        END {
            n = NR; from = 1; anchored = 0; nops = 0; pending = ""
            while ((getline op < opsfile) > 0) {
                kind = substr(op, 1, 1); text = substr(op, 3)
                if (kind == "@") {
                    hits = 0
                    for (i = 1; i <= n; i++) if (index(line[i], text)) { hits++; from = i }
                    if (hits != 1) { print "anchor \"" text "\" is on " hits " lines"; exit 1 }
                    anchored = 1
                } else if (kind == "-") {
                    if (pending != "") { print "\"- " pending "\" has no \"+\" line"; exit 1 }
                    pending = text
                } else {
                    if (pending == "") { print "a \"+\" line without a \"-\" line"; exit 1 }
                    at = 0
                    if (anchored) {
                        for (i = from; i <= n && !at; i++) if (index(line[i], pending)) at = i
                        if (!at) { print "\"" pending "\" not found after its anchor"; exit 1 }
                    } else {
                        hits = 0
                        for (i = 1; i <= n; i++) {
                            c = count(line[i], pending)
                            if (c) { hits += c; at = i }
                        }
                        if (hits != 1) { print "\"" pending "\" found " hits " times"; exit 1 }
                    }
                    k = index(line[at], pending)
                    line[at] = substr(line[at], 1, k - 1) text substr(line[at], k + length(pending))
                    pending = ""; anchored = 0; from = 1; nops++
                }
            }
            if (pending != "" || !nops) { print "no complete \"-\"/\"+\" pair"; exit 1 }
            for (i = 1; i <= n; i++) print line[i] > (FILENAME ".new")
        }' "$f" > "$2/apply.err" || { cat "$2/apply.err"; return 1; }
    mv "$f.new" "$f"
}

# A copy of the engine and of the tests that drive it.
copy_sources() {
    mkdir -p "$1/protocol" "$1/tests" || return 1
    cp "$srcdir"/protocol/*.c "$srcdir"/protocol/*.h "$1/protocol/" &&
    cp "$srcdir/tests/explore.c" "$srcdir/tests/proto_unit.c" "$srcdir/tests/pattern_unit.c" \
        "$srcdir/tests/adapt_unit.c" "$srcdir/tests/check_main.c" "$srcdir/tests/check_main.h" "$srcdir/tests/engine_sys.h" "$1/tests/"
}

# Every mutation must still apply, also those this run does not build.
bad=0
for n in $all; do
    d=$work/apply/$n
    copy_sources "$d" || exit 99
    if ! why=$(apply "$n" "$d"); then
        echo "mutants.sh: mutant $n no longer applies to $(field_file "$n"): $why" >&2
        bad=1
    fi
done
[ "$bad" = 0 ] || exit 1
rm -rf "$work/apply"

# --foreground: the program stays in this script's process group, so that
# the test harness's time limit (tests/run-test.sh) ends it with the script
timeout_cmd=
timeout --foreground 5 true 2>/dev/null && timeout_cmd="timeout --foreground 1200"

# The unmutated engine and test programs are compiled once (about 3 CPU-s
# an engine, 9 with the unit tests); a mutant then compiles only the file
# it changes, or everything when that is a header.
base=$work/base
mkdir -p "$base/obj" && copy_sources "$base" || exit 99
compile_base() { # compile_base OBJ SRC [FLAGS...]
    o=$1 src=$2
    shift 2
    # shellcheck disable=SC2086
    $cc $cflags "$@" -std=gnu11 -I"$base/protocol" -I"$base/tests" -c "$src" -o "$base/obj/$o" \
        > "$base/build.log" 2>&1 || { cat "$base/build.log" >&2; echo "mutants.sh: the unmutated $src does not compile" >&2; exit 99; }
}
for s in $engine_srcs; do compile_base "${s%.c}.o" "$base/protocol/$s"; done
compile_base explore.o "$base/tests/explore.c"
if [ -n "$check_libs" ]; then
    for t in proto_unit pattern_unit adapt_unit check_main; do
        # shellcheck disable=SC2086
        compile_base "$t.o" "$base/tests/$t.c" $check_cflags
    done
fi

# engine_objs DIR NAME: the engine's objects for mutant NAME planted in DIR
# (its own object of the file it changes, the unmutated others), or "" when
# the mutant changes a header (everything must then be compiled from DIR).
engine_objs() {
    mf=$(field_file "$2")
    case $mf in
        protocol/*.c) ;;
        *) return 0 ;;
    esac
    objs=
    for s in $engine_srcs; do
        if [ "protocol/$s" = "$mf" ]; then
            # shellcheck disable=SC2086
            $cc $cflags -std=gnu11 -I"$1/protocol" -c "$1/protocol/$s" -o "$1/${s%.c}.o" \
                > "$1/build-engine.log" 2>&1 || return 1
            objs="$objs $1/${s%.c}.o"
        else
            objs="$objs $base/obj/${s%.c}.o"
        fi
    done
    echo "$objs"
}

# run_one NAME: writes DIR/result: "explore: CHECK", "proto_unit: TEST",
# "MISSED", "SKIPPED ..." or "ERROR ...".  A mutant whose entry names a unit
# test as its catcher skips the exploration (a whole suite's run, missing).
run_one() {
    n=$1
    d=$work/$n
    copy_sources "$d" || { echo "ERROR cannot copy the sources" > "$d/result"; return; }
    apply "$n" "$d" > /dev/null || { echo "ERROR does not apply" > "$d/result"; return; }
    if ! objs=$(engine_objs "$d" "$n"); then
        echo "ERROR does not compile (see $d/build-engine.log)" > "$d/result"
        return
    fi
    srcs=
    for s in $engine_srcs; do srcs="$srcs $d/protocol/$s"; done
    case $(field_expect "$n") in
        explore:*|'')
            # shellcheck disable=SC2086 # flags and source lists are word lists
            if [ -n "$objs" ]; then
                $cc $cflags "$base/obj/explore.o" $objs -o "$d/explore" > "$d/build.log" 2>&1
            else
                $cc $cflags -std=gnu11 -I"$d/protocol" "$d/tests/explore.c" $srcs \
                    -o "$d/explore" > "$d/build.log" 2>&1
            fi
            if [ $? != 0 ]; then
                echo "ERROR does not compile (see $d/build.log)" > "$d/result"
                return
            fi
            $timeout_cmd "$d/explore" --mutation > "$d/explore.log" 2>&1
            rc=$?
            caught=$(sed -n 's/^caught by: //p' "$d/explore.log" | tail -n 1)
            if [ "$rc" = 1 ] && [ -n "$caught" ] && [ "$caught" != nothing ]; then
                echo "explore: $caught" > "$d/result"
                return
            elif [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
                echo "explore: exit status $rc (crash or time limit)" > "$d/result"
                return
            fi ;;
    esac
    if [ -z "$check_libs" ]; then
        echo "SKIPPED (missed by explore; the unit tests need Check)" > "$d/result"
        return
    fi
    for t in proto_unit pattern_unit adapt_unit; do
        # shellcheck disable=SC2086
        if [ -n "$objs" ]; then
            $cc $cflags "$base/obj/$t.o" "$base/obj/check_main.o" $objs $check_libs \
                -o "$d/$t" > "$d/build-$t.log" 2>&1
        else
            $cc $cflags $check_cflags -std=gnu11 -I"$d/protocol" -I"$d/tests" "$d/tests/$t.c" \
                "$d/tests/check_main.c" $srcs $check_libs -o "$d/$t" > "$d/build-$t.log" 2>&1
        fi
        if [ $? != 0 ]; then
            echo "ERROR $t does not compile (see $d/build-$t.log)" > "$d/result"
            return
        fi
        (cd "$d" && $timeout_cmd "./$t") > "$d/$t.log" 2>&1
        rc=$?
        [ "$rc" = 0 ] && continue
        # Check's lines: file:line:F:tcase:test:iteration: message
        failed=$(sed -n 's/^[^:]*:[0-9]*:[FE]:[^:]*:\([^:]*\):.*/\1/p' "$d/$t.log" | head -n 1)
        echo "$t: ${failed:-exit status $rc}" > "$d/result"
        return
    done
    echo "MISSED" > "$d/result"
}

# shellcheck disable=SC2086 # a list of names
set -- $selected
total=$#
echo "mutants.sh: $total mutant(s) of $(echo "$all" | wc -l) in $list ($mode), $jobs at a time"
while [ $# -gt 0 ]; do
    k=0
    while [ $# -gt 0 ] && [ "$k" -lt "$jobs" ]; do
        mkdir -p "$work/$1"
        (t0=$(date +%s); run_one "$1"; echo $(($(date +%s) - t0)) > "$work/$1/seconds") &
        shift
        k=$((k + 1))
    done
    wait
done

printf '%-36s %5s  %s\n' mutant secs "caught by"
missed=0
skipped=0
for n in $selected; do
    r=$(cat "$work/$n/result" 2>/dev/null || echo "ERROR no result")
    expect=$(field_expect "$n")
    note=
    case $r in
        MISSED|ERROR*) missed=$((missed + 1)) ;;
        SKIPPED*) skipped=$((skipped + 1)) ;;
        *) if [ -n "$expect" ] && [ "$r" != "$expect" ]; then
               note="   <-- expected: $expect"
               missed=$((missed + 1))
           fi ;;
    esac
    printf '%-36s %5s  %s%s\n' "$n" "$(cat "$work/$n/seconds" 2>/dev/null)" "$r" "$note"
done
if [ "$missed" != 0 ]; then
    echo "mutants.sh: FAIL: $missed of $total mutant(s) missed or not caught as expected"
    exit 1
fi
if [ "$skipped" != 0 ]; then
    echo "mutants.sh: $skipped of $total mutant(s) skipped (no Check), the others caught"
    exit 77
fi
echo "mutants.sh: PASS: all $total mutant(s) caught"
exit 0
