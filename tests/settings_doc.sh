#!/bin/sh
# settings_doc.sh - the tables of DSM_* environment variables in README.md,
# doc/user-guide.md (markdown) and doc/dsm.3 (man) are what
# tests/settings_doc prints from the settings table (dsm/settings_table.c),
# between the lines
#   <!-- BEGIN GENERATED SETTINGS: tests/settings_doc --markdown -->
#   <!-- END GENERATED SETTINGS -->
# (in the man page: .\" BEGIN GENERATED SETTINGS: tests/settings_doc --man
# and .\" END GENERATED SETTINGS).  Fails if one differs (a setting changed
# and the documents were not regenerated), and if the sources name a DSM_*
# variable the table lacks (a setting read behind the table's back).
# Run from the build directory, as make check does ($srcdir is the source
# directory, exported by the test harness):
#   tests/settings_doc.sh            check
#   tests/settings_doc.sh --update   rewrite the generated parts
set -u

srcdir=${srcdir:-.}
gen=./tests/settings_doc
update=
[ "${1:-}" = --update ] && update=1

if [ ! -x "$gen" ]; then
    echo "settings_doc.sh: $gen not built (make check builds it)" >&2
    exit 99
fi
tmp=${TMPDIR:-/tmp}/settings_doc.$$
trap 'rm -f "$tmp".*' EXIT INT TERM
fail=0

# region DOC FORMAT BEGIN-LINE END-LINE
region() {
    doc=$1 format=$2 begin=$3 end=$4
    if [ ! -r "$doc" ]; then
        echo "settings_doc.sh: cannot read $doc" >&2
        exit 99
    fi
    if [ "$(grep -cxF "$begin" "$doc")" != 1 ] || [ "$(grep -cxF "$end" "$doc")" != 1 ]; then
        echo "settings_doc.sh: $doc must hold each marker line exactly once:" >&2
        echo "  $begin" >&2
        echo "  $end" >&2
        fail=1
        return
    fi
    "$gen" "$format" > "$tmp.gen" || { echo "settings_doc.sh: $gen $format failed" >&2; exit 99; }
    # the markers go through the environment: awk -v would read the man
    # page's \" as an escape
    B=$begin E=$end G=$tmp.gen
    export B E G
    awk '$0 == ENVIRON["E"] { in_ = 0 } in_ { print } $0 == ENVIRON["B"] { in_ = 1 }' \
        "$doc" > "$tmp.doc"
    if [ -n "$update" ]; then
        awk '$0 == ENVIRON["B"] { print; while ((getline l < ENVIRON["G"]) > 0) print l; skip = 1; next }
            $0 == ENVIRON["E"] { skip = 0 }
            !skip { print }' "$doc" > "$tmp.new" && cat "$tmp.new" > "$doc"
        echo "settings_doc.sh: updated the settings in $doc"
    elif diff -u "$tmp.doc" "$tmp.gen"; then
        echo "settings_doc.sh: the settings in $doc match the table"
    else
        echo "settings_doc.sh: the settings in $doc differ from dsm/settings_table.c (diff" >&2
        echo "  above: - document, + generated); regenerate them from the build directory with" >&2
        echo "  srcdir=<source dir> sh <source dir>/tests/settings_doc.sh --update" >&2
        fail=1
    fi
}

md_begin='<!-- BEGIN GENERATED SETTINGS: tests/settings_doc --markdown -->'
md_end='<!-- END GENERATED SETTINGS -->'
man_begin='.\" BEGIN GENERATED SETTINGS: tests/settings_doc --man'
man_end='.\" END GENERATED SETTINGS'
region "$srcdir/README.md" --markdown "$md_begin" "$md_end"
region "$srcdir/doc/user-guide.md" --markdown "$md_begin" "$md_end"
region "$srcdir/doc/dsm.3" --man "$man_begin" "$man_end"
[ -n "$update" ] && exit $fail

# Every DSM_* name the library and its tools spell out as a string is a row
# of the table ("DSM_ADVICE_" is the prefix of DSM_ADVICE_<NAME>).
"$gen" --names > "$tmp.names" || exit 99
names=$(find "$srcdir/dsm" "$srcdir/profile" -name '*.c' -exec cat {} + |
    grep -oE '"DSM_[A-Z0-9_]+"' | tr -d '"' | sort -u)
[ -n "$names" ] || { echo "settings_doc.sh: no DSM_* names found in the sources" >&2; exit 99; }
for n in $names; do
    case $n in
        *_) grep -q "^$n" "$tmp.names" ;;
        *) grep -qx "$n" "$tmp.names" ;;
    esac || { echo "settings_doc.sh: the sources read $n, which dsm/settings_table.c lacks" >&2; fail=1; }
done
[ $fail = 0 ] && echo "settings_doc.sh: every DSM_* name in dsm/ and profile/ is in the table"
exit $fail
