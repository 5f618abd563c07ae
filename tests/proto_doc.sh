#!/bin/sh
# proto_doc.sh - doc/protocol.md carries the transition tables of
# protocol/table.c as printed by tests/proto_table_doc, between the lines
#   <!-- BEGIN GENERATED TABLES: tests/proto_table_doc -->
#   <!-- END GENERATED TABLES -->
# This test fails if they differ (the tables changed and the document was
# not regenerated).  Run from the build directory, as make check does
# ($srcdir is the source directory, exported by the test harness):
#   tests/proto_doc.sh            check
#   tests/proto_doc.sh --update   rewrite the generated part of doc/protocol.md
set -u

srcdir=${srcdir:-.}
doc=$srcdir/doc/protocol.md
gen=./tests/proto_table_doc
begin='<!-- BEGIN GENERATED TABLES: tests/proto_table_doc -->'
end='<!-- END GENERATED TABLES -->'

if [ ! -x "$gen" ]; then
    echo "proto_doc.sh: $gen not built (make check builds it)" >&2
    exit 99
fi
if [ ! -r "$doc" ]; then
    echo "proto_doc.sh: cannot read $doc" >&2
    exit 99
fi
if [ "$(grep -cxF "$begin" "$doc")" != 1 ] || [ "$(grep -cxF "$end" "$doc")" != 1 ]; then
    echo "proto_doc.sh: $doc must hold each marker line exactly once:" >&2
    echo "  $begin" >&2
    echo "  $end" >&2
    exit 1
fi

tmp=${TMPDIR:-/tmp}/proto_doc.$$
trap 'rm -f "$tmp".*' EXIT INT TERM
"$gen" > "$tmp.gen" || { echo "proto_doc.sh: $gen failed" >&2; exit 99; }
# The current generated part: the lines strictly between the markers.
awk -v b="$begin" -v e="$end" '$0 == e { in_ = 0 } in_ { print } $0 == b { in_ = 1 }' \
    "$doc" > "$tmp.doc"

if [ "${1:-}" = --update ]; then
    awk -v b="$begin" -v e="$end" -v g="$tmp.gen" '
        $0 == b { print; while ((getline l < g) > 0) print l; skip = 1; next }
        $0 == e { skip = 0 }
        !skip { print }' "$doc" > "$tmp.new" && cat "$tmp.new" > "$doc"
    echo "proto_doc.sh: updated the tables in $doc"
    exit 0
fi

if diff -u "$tmp.doc" "$tmp.gen"; then
    echo "proto_doc.sh: the tables in $doc match protocol/table.c"
    exit 0
fi
echo "proto_doc.sh: the tables in $doc differ from protocol/table.c (diff above:" >&2
echo "  - document, + generated); regenerate them from the build directory with" >&2
echo "  srcdir=<source dir> sh <source dir>/tests/proto_doc.sh --update" >&2
exit 1
