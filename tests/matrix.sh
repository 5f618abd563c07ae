#!/bin/sh
# matrix.sh - the multi-node test matrix of tests/matrix.list: each test
# there, once per combination of the axes' values (transport shm, mpi,
# verbs; mode page, block), is a test of make check: tests/matrix/NAME.VALUE[.VALUE...].mn.
#   matrix.sh --names LIST          prints those test names, one a line
#                                   (make's TESTS, tests/matrix.mk)
#   matrix.sh --generate LIST DIR MK
#                                   writes DIR/NAME.VALUE....mn for each: the
#                                   axis values and the steps of that run,
#                                   which make needs as files to make their
#                                   logs from (and which say what runs); and
#                                   the make fragment MK that adds them to
#                                   TESTS (tests/matrix.mk includes it)
#   matrix.sh [--built "VALUES"] DIR/NAME.VALUE....mn
#                                   runs one: exports DSM_TEST_<AXIS>=VALUE,
#                                   sources tests/VALUE_env.sh where it
#                                   exists, then makes each step, each under
#                                   tests/run-test.sh (DSM_TEST_TIMEOUT)
# make check runs the last form (MN_LOG_COMPILER, tests/matrix.mk).
# --built lists the transports configure built: a run on another one is
# skipped (77), as the _env.sh files skip a run the machine cannot make
# (no mpirun, no RDMA device), saying why.
# A step is a script of the source tree (tests/X.sh ARGS), run with sh, or
# tests/run_mn.sh's options, program and arguments; VAR=value words before
# it are set for that step alone.  Exit status: 0 when every step passed
# (or was skipped while another passed), 77 when all were skipped, 99 on a
# hard error (bad list, a program not built), else 1.
# Run from the build directory with srcdir set, as the harness does.
set -u
srcdir=${srcdir:-.}

# The list in awk: "names" prints the test names, "generate" writes them.
list_awk='
function fail(msg) { printf "%s:%d: %s\n", list, FNR, msg > "/dev/stderr"; bad = 1; exit 1 }
function matches(w, a, k, n, has, ok, i) {
    if (w == "*") return 1
    n = split(w, k, ",")
    for (a = 1; a <= naxes; a++) {
        has = ok = 0
        for (i = 1; i <= n; i++)
            if (axisof[k[i]] == a) { has = 1; if (k[i] == val[a, idx[a]]) ok = 1 }
        if (has && !ok) return 0
    }
    return 1
}
/^[ \t]*(#|$)/ { next }
$1 == "axis" {
    if (NF < 3) fail("an axis needs a name and at least one value")
    if ($2 !~ /^[a-z][a-z0-9_]*$/) fail("axis name " $2 ": [a-z][a-z0-9_]* expected")
    if (nlines) fail("the axis lines come before the tests")
    naxes++; axname[naxes] = $2; nval[naxes] = NF - 2
    for (i = 3; i <= NF; i++) {
        if ($i in axisof) fail("value " $i " is on two axes (a WHERE names values alone)")
        if ($i !~ /^[a-z0-9_]+$/) fail("value " $i ": [a-z0-9_]+ expected")
        val[naxes, i - 2] = $i; axisof[$i] = naxes
    }
    next
}
{
    if ($1 !~ /^[a-z0-9_]+$/) fail("test name " $1 ": [a-z0-9_]+ expected")
    if (NF < 3) fail("test " $1 ": a WHERE and a step expected")
    if ($2 != "*") {
        n = split($2, k, ",")
        for (i = 1; i <= n; i++)
            if (!(k[i] in axisof)) fail("test " $1 ": " k[i] " is the value of no axis")
    }
    step = $0
    sub(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", step)
    if (!($1 in seen)) { seen[$1] = 1; order[++ntests] = $1 }
    nlines++; lname[nlines] = $1; lwhere[nlines] = $2; lstep[nlines] = step; lno[nlines] = FNR
}
END {
    if (bad) exit 1
    if (!naxes) { printf "%s: no axis line\n", list > "/dev/stderr"; exit 1 }
    total = 1
    for (a = 1; a <= naxes; a++) total *= nval[a]
    for (t = 1; t <= ntests; t++) {
        for (c = 0; c < total; c++) {
            r = c
            for (a = naxes; a >= 1; a--) { idx[a] = r % nval[a] + 1; r = int(r / nval[a]) }
            steps = lines = ""
            for (l = 1; l <= nlines; l++)
                if (lname[l] == order[t] && matches(lwhere[l])) {
                    steps = steps "step " lstep[l] "\n"
                    lines = lines (lines == "" ? "" : ", ") lno[l]
                }
            if (steps == "") continue
            name = order[t]
            for (a = 1; a <= naxes; a++) name = name "." val[a, idx[a]]
            file = dir "/" name ".mn"
            print file
            if (mode == "names") continue
            printf "# %s - generated from tests/matrix.list (%s %s) by\n", file, lines ~ /,/ ? "lines" : "line", lines > file
            printf "# tests/matrix.sh, which runs it: make check runs it as a test.\n" > file
            for (a = 1; a <= naxes; a++) printf "axis %s %s\n", axname[a], val[a, idx[a]] > file
            printf "%s", steps > file
            close(file)
        }
    }
}'

case ${1:-} in
    --names)
        [ $# -eq 2 ] || { echo "usage: matrix.sh --names LIST" >&2; exit 99; }
        exec awk -v mode=names -v list="$2" -v dir=tests/matrix "$list_awk" "$2" ;;
    --generate)
        [ $# -eq 4 ] || { echo "usage: matrix.sh --generate LIST DIR MK" >&2; exit 99; }
        mkdir -p "$3" && rm -f "$3"/*.mn "$4" || exit 99
        names=$(awk -v mode=generate -v list="$2" -v dir="$3" "$list_awk" "$2") || exit 99
        {
            echo "# $4 - generated from $2 by tests/matrix.sh: the tests of the matrix"
            printf 'MATRIX_TESTS ='
            for t in $names; do printf ' \\\n\t%s' "$t"; done
            echo
            echo 'TESTS += $(MATRIX_TESTS)'
            echo "\$(MATRIX_TESTS): $4"
        } > "$4.tmp" && mv "$4.tmp" "$4" || exit 99
        exit 0 ;;
esac

built=
if [ "${1:-}" = --built ]; then
    [ $# -ge 2 ] || { echo "usage: matrix.sh [--built VALUES] TEST.mn" >&2; exit 99; }
    built=$2
    shift 2
fi
if [ $# -ne 1 ] || [ ! -r "$1" ]; then
    echo "usage: matrix.sh [--built VALUES] TEST.mn  (a file made by matrix.sh --generate)" >&2
    exit 99
fi
run=$1
name=$(basename "$run" .mn)

# axis NAME VALUE: the stub's first lines.
values=
axis() {
    var=DSM_TEST_$(printf '%s' "$1" | tr '[:lower:]' '[:upper:]')
    eval "$var=\$2"
    export "$var"
    values="$values $2"
    if [ "$1" = transport ] && [ -n "$built" ]; then
        case " $built " in
            *" $2 "*) ;;
            *)  case $2 in
                    mpi) why="configure found no MPI" ;;
                    verbs) why="configure found no libibverbs or no MPI" ;;
                    *) why="configure did not build it" ;;
                esac
                echo "$name: the $2 transport is not built ($why): skipped"
                exit 77 ;;
        esac
    fi
}

# The first step sources the _env.sh files of the run's values: they may
# skip the whole run.
ready=
prepare() {
    for v in $values; do
        if [ -r "$srcdir/tests/${v}_env.sh" ]; then
            # shellcheck disable=SC1090
            . "$srcdir/tests/${v}_env.sh"
        fi
    done
    ready=1
}

nsteps=0 passed=0 skipped=0 failed=0 hard=0
step() {
    [ -n "$ready" ] || prepare
    nsteps=$((nsteps + 1))
    echo "=== $name, step $nsteps: $*"
    (
        while [ $# -gt 0 ]; do
            case $1 in
                [A-Za-z_]*=*) export "${1?}"; shift ;;
                *) break ;;
            esac
        done
        [ $# -gt 0 ] || { echo "matrix.sh: $name: a step with no command" >&2; exit 99; }
        case $1 in
            *.sh) script=$1; shift; set -- "$srcdir/$script" "$@" ;;
            *) set -- "$srcdir/tests/run_mn.sh" "$@" ;;
        esac
        exec sh "$srcdir/tests/run-test.sh" "$@"
    )
    rc=$?
    case $rc in
        0) passed=$((passed + 1)) ;;
        77) skipped=$((skipped + 1)); echo "=== $name, step $nsteps: skipped" ;;
        99) hard=$((hard + 1)); echo "=== $name, step $nsteps: hard error (status 99)" ;;
        *) failed=$((failed + 1)); echo "=== $name, step $nsteps: FAIL (status $rc)" ;;
    esac
}

case $run in
    */*) ;;
    *) run=./$run ;; # ".": a name without a slash is looked up in PATH
esac
# shellcheck disable=SC1090
. "$run"
[ $nsteps -gt 0 ] || { echo "matrix.sh: $run has no step" >&2; exit 99; }
echo "=== $name: $passed passed, $failed failed, $skipped skipped, $hard hard errors of $nsteps steps"
[ $hard -eq 0 ] || exit 99
[ $failed -eq 0 ] || exit 1
[ $passed -gt 0 ] || exit 77
exit 0
