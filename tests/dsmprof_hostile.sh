#!/bin/sh
# dsmprof_hostile.sh - dsmprof on hostile input and output, through the
# binary, one case per fault it used to have:
#   csv and report --structure on a field of the wrong type (json-c assert),
#   html on numbers near the double range (its axes looped forever),
#   flashpoint on null strings (NULL dereferenced),
#   report on /dev/zero (read forever), a FIFO and a directory,
#   every command writing to /dev/full or a closed stdout (exit 0),
#   names with control bytes and invalid UTF-8 (sent to the terminal),
#   html -o over a symbolic link or a FIFO (followed / replaced) and on a
#   write error (half a page).
# Each must end at once with exit status 2 (bad input) or 1 (output), one
# line on stderr naming the file (and the field), and nothing left behind.
top=${top_builddir:-.}
src=${srcdir:-.}
prog=$top/dsmprof
data=$src/tests/data
[ -x "$prog" ] || { echo "dsmprof_hostile.sh: $prog is not built" >&2; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dsmprof_hostile.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
# a hang is a failure, not a stuck test
limit() { timeout -k 2 20 "$@"; }

# expect STATUS PATTERN WHAT CMD...: that status, one line on stderr matching PATTERN
expect() {
    want=$1 pat=$2 what=$3
    shift 3
    limit "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    n=$(wc -l < "$tmp/err")
    if [ "$rc" -eq "$want" ] && [ "$n" -eq 1 ] && grep -q -- "$pat" "$tmp/err"; then
        ok "$what: exit $rc, $(cat "$tmp/err")"
    else
        bad "$what: exit $rc (want $want), $n line(s) on stderr (want 1 matching '$pat'):"
        cat "$tmp/err"
    fi
}

# hostile variants of the samples, written with python's json module
python3 - "$data" "$tmp" <<'EOF' || { echo "FAIL: cannot write the hostile files"; exit 1; }
import json, sys
data, tmp = sys.argv[1], sys.argv[2]
def load(name):
    return json.load(open(data + "/" + name))
def save(doc, name):
    with open(tmp + "/" + name, "w") as f:
        json.dump(doc, f)
p = load("advice_sample.json")
for s in p["structures"]:
    if s["false_sharing"]["top_blocks"]:
        s["false_sharing"]["top_blocks"][0]["writers"][0]["ranges"] = [5]
        save(p, "range_number.json")
        break
p = load("advice_sample.json")
p["structures"][0]["metrics"]["memoryBlockTime"] = "lots"
save(p, "count_string.json")
p = load("html_timeslices.json")
p["wall_seconds"] = 1.7e308
save(p, "wall_huge.json")
p = load("html_timeslices.json")
p["per_node"][0]["memoryBlockTime"] = 1.7976931348623157e308
save(p, "mbt_huge.json")
p = load("html_timeslices.json")
p["timeslices"]["interval_seconds"] = 1e308
save(p, "interval_huge.json")
for what, path in (("mode", ("flashpoint", "mode")), ("schema", ("flashpoint", "schema")),
                   ("program", ("program",))):
    r = load("fp_run.json")
    o = r
    for k in path[:-1]:
        o = o[k]
    o[path[-1]] = None
    save(r, "fp_null_%s.json" % what)
r = load("fp_run.json")
r["flashpoint"]["bins"][0]["name"] = None
save(r, "fp_null_bin.json")
# names that would drive a terminal
evil = "evil\u001b[2J\u001b]0;pwned\u0007\u0001\u009b31m"
p = load("advice_sample.json")
old = p["structures"][0]["name"]
p["structures"][0]["name"] = evil
for x in p["pairs"]:
    if x["structure"] == old:
        x["structure"] = evil
p["procedures"][0]["name"] = evil
save(p, "evil_profile.json")
m = load("memspy_sample.json")
for t in ("by_bin", "pairs", "replacements"):
    for x in m[t]:
        for k in ("name", "bin_name", "procedure_name"):
            if k in x:
                x[k] = evil
m["program"] = evil
save(m, "evil_sim.json")
r = load("fp_run.json")
c = load("fp_control.json")
for d in (r, c):
    d["flashpoint"]["bins"][0]["name"] = evil
save(r, "evil_run.json")
save(c, "evil_control.json")
EOF

# 1. wrong types: csv and report --structure used to abort in json-c
expect 2 'range_number.json: structures\[[0-9]*\]\.false_sharing\.top_blocks\[0\]\.writers\[0\]\.ranges\[0\]: expected an array' \
    "csv, a range that is a number" "$prog" csv "$tmp/range_number.json"
expect 2 'ranges\[0\]: expected an array' "report --structure, a range that is a number" \
    "$prog" report "$tmp/range_number.json" --structure part
expect 2 'structures\[0\]\.metrics\.memoryBlockTime: expected an integer, got the string "lots"' \
    "report, a count that is a string" "$prog" report "$tmp/count_string.json"
# 2. numbers near the double range: html's axes looped forever
expect 2 'wall_seconds: 1.7e+308 is out of range' "html, wall_seconds 1.7e308" \
    "$prog" html "$tmp/wall_huge.json"
expect 2 'per_node\[0\]\.memoryBlockTime: expected an integer' "html, a time of 1.8e308" \
    "$prog" html "$tmp/mbt_huge.json"
expect 2 'timeslices\.interval_seconds: 1e+308 is out of range' "html, an interval of 1e308" \
    "$prog" html "$tmp/interval_huge.json"
# 3. null strings: flashpoint dereferenced them
expect 2 'flashpoint\.mode: expected a string, got null' "flashpoint, mode null" \
    "$prog" flashpoint "$tmp/fp_null_mode.json" "$data/fp_control.json"
expect 2 'flashpoint\.schema: expected a string, got null' "flashpoint, schema null" \
    "$prog" flashpoint "$tmp/fp_null_schema.json" "$data/fp_control.json"
expect 2 'program: expected a string, got null' "flashpoint, program null" \
    "$prog" flashpoint "$data/fp_run.json" "$tmp/fp_null_program.json"
expect 2 'flashpoint\.bins\[0\]\.name: expected a string, got null' "flashpoint, a bin name null" \
    "$prog" flashpoint "$tmp/fp_null_bin.json" "$data/fp_control.json"
# 4. what is not a file: /dev/zero was read forever
expect 2 '/dev/zero: is a character device, not a regular file' "report /dev/zero" \
    "$prog" report /dev/zero
mkfifo "$tmp/fifo.json"
expect 2 'fifo.json: is a FIFO, not a regular file' "memspy on a FIFO nobody writes" \
    "$prog" memspy "$tmp/fifo.json"
expect 2 ': is a directory, not a regular file' "csv on a directory" "$prog" csv "$tmp"
# a sparse file of 300 MB: refused by its size, not read
dd if=/dev/null of="$tmp/huge.json" bs=1 seek=300000000 2>/dev/null
expect 2 'more than the 268435456 bytes dsmprof reads' "advice on a 300 MB file" \
    "$prog" advice "$tmp/huge.json"

# 5. output that cannot be written: every command, /dev/full and a closed stdout
p=$data/advice_sample.json
for cmd in "report $p" "memspy $data/memspy_sample.json"; do
    # shellcheck disable=SC2086
    limit "$prog" $cmd >&- 2> "$tmp/err"
    rc=$?
    [ $rc -eq 1 ] && grep -q 'write error' "$tmp/err" && ok "dsmprof $cmd >&-: exit 1" \
        || { bad "dsmprof $cmd >&-: exit $rc"; cat "$tmp/err"; }
done
for cmd in "report $p" "report $p --structure part" "csv $p" "diff $p $p" "html $p" "advice $p" \
        "memspy $data/memspy_sample.json" "flashpoint $data/fp_run.json $data/fp_control.json" \
        "--help" "--version" "report --help"; do
    # shellcheck disable=SC2086
    limit "$prog" $cmd > /dev/full 2> "$tmp/err"
    rc=$?
    [ $rc -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q 'write error' "$tmp/err" \
        && ok "dsmprof $cmd > /dev/full: exit 1, $(cat "$tmp/err")" \
        || { bad "dsmprof $cmd > /dev/full: exit $rc"; cat "$tmp/err"; }
done

# 6. names with control bytes and invalid UTF-8: a clean terminal
clean() { # clean WHAT FILE: no control byte but newline, no C1 control, valid UTF-8
    if python3 - "$2" <<'EOF'
import sys
b = open(sys.argv[1], "rb").read()
t = b.decode("utf-8")              # raises on invalid UTF-8
bad = [c for c in t if (ord(c) < 32 and c != "\n") or 0x7f <= ord(c) < 0xa0]
sys.exit(1 if bad else 0)
EOF
    then ok "$1: clean output"; else bad "$1: control bytes or invalid UTF-8 in the output"; od -c "$2" | head -5; fi
}
evil=$(printf 'evil\033[2J\033]0;pwned\007\001\302\23331m')
for cmd in report csv advice html; do
    limit "$prog" $cmd "$tmp/evil_profile.json" > "$tmp/o" 2>&1 || bad "$cmd on hostile names: exit $?"
    clean "$cmd, hostile names" "$tmp/o"
done
grep -q 'evil\\x1b\[2J\\x1b\]0;pwned\\x07\\x01\\xc2\\x9b31m' "$tmp/o" \
    && ok "html: the name shown with its bytes as \\xNN" || bad "html: the escaped name is not in the page"
limit "$prog" report "$tmp/evil_profile.json" --structure "$evil" > "$tmp/o" 2>&1 \
    || bad "report --structure on a hostile name: exit $?"
clean "report --structure, hostile name" "$tmp/o"
grep -q '^Structure evil\\x1b\[2J' "$tmp/o" && ok "report --structure finds the hostile name" \
    || bad "report --structure did not find the hostile name"
limit "$prog" diff "$tmp/evil_profile.json" "$data/advice_sample.json" > "$tmp/o" 2>&1 \
    || bad "diff on hostile names: exit $?"
clean "diff, hostile names" "$tmp/o"
limit "$prog" memspy "$tmp/evil_sim.json" > "$tmp/o" 2>&1 || bad "memspy on hostile names: exit $?"
clean "memspy, hostile names" "$tmp/o"
limit "$prog" memspy "$tmp/evil_sim.json" --bin "$evil" > "$tmp/o" 2>&1 \
    || bad "memspy --bin on a hostile name: exit $?"
clean "memspy --bin, hostile name" "$tmp/o"
limit "$prog" flashpoint "$tmp/evil_run.json" "$tmp/evil_control.json" > "$tmp/o" 2>&1 \
    || bad "flashpoint on hostile names: exit $?"
clean "flashpoint, hostile names" "$tmp/o"
limit "$prog" report "$tmp/evil_profile.json" --structure "nope$evil" > "$tmp/o" 2>&1
clean "report --structure, unknown hostile name in the error line" "$tmp/o"
# the writer's own hostile names (invalid UTF-8 too): valid JSON, clean reports
if "$top/tests/pschema_unit" hostile-profile "$tmp/written.json"; then
    python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' \
        "$tmp/written.json" && ok "writer: hostile names give valid UTF-8 JSON" \
        || bad "writer: the file is not valid UTF-8 JSON"
    for cmd in report csv advice; do
        limit "$prog" $cmd "$tmp/written.json" > "$tmp/o" 2>&1 || bad "$cmd on the written file: exit $?"
        clean "$cmd on the writer's hostile names" "$tmp/o"
    done
else
    bad "pschema_unit hostile-profile failed"
fi

# 7. html -o: never through a link, never over a FIFO, never half a page
echo victim > "$tmp/victim"
ln -s "$tmp/victim" "$tmp/link.html"
expect 1 'link.html: is a symbolic link, not a regular file: refusing' "html -o over a symbolic link" \
    "$prog" html "$p" -o "$tmp/link.html"
[ "$(cat "$tmp/victim")" = victim ] && [ -L "$tmp/link.html" ] && ok "the link and its target untouched" \
    || bad "html -o changed the link or its target"
mkfifo "$tmp/page.html"
expect 1 'page.html: is a FIFO, not a regular file: refusing' "html -o over a FIFO" \
    "$prog" html "$p" -o "$tmp/page.html"
[ -p "$tmp/page.html" ] && ok "the FIFO is still a FIFO" || bad "html -o replaced the FIFO"
echo old > "$tmp/old.html"
( trap '' XFSZ; ulimit -f 8; limit "$prog" html "$p" -o "$tmp/old.html" ) > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q 'old.html: write error: File too large' "$tmp/err" &&
        [ "$(cat "$tmp/old.html")" = old ] && [ -z "$(find "$tmp" -name '.old.html.*')" ]; then
    ok "html -o on a write error: exit 1, old page kept, no temporary file"
else
    bad "html -o on a write error: exit $rc, old page '$(cat "$tmp/old.html")':"; cat "$tmp/err"
fi
limit "$prog" html "$p" -o "$tmp/old.html" && grep -q '</html>' "$tmp/old.html" \
    && ok "html -o replaces a regular file" || bad "html -o over a regular file"
exit $fail
