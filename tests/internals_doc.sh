#!/bin/sh
# internals_doc.sh - doc/internals.md and the tree agree: every source file
# of protocol/, dsm/ and profile/ (C, headers, build fragments, the dsmcc
# template, the symbol list) is named in the map, and every file the map
# names exists.  Run from the build tree by make check; reads the sources.
src=${srcdir:-.}
doc=$src/doc/internals.md
[ -f "$doc" ] || { echo "internals_doc.sh: $doc is missing" >&2; exit 99; }
status=0
files=$(cd "$src" && find protocol dsm profile -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.cpp' -o -name '*.mk' \
       -o -name '*.in' -o -name '*.symbols' \) \
    ! -name '*_la-*' ! -path '*/.deps/*' | LC_ALL=C sort)
for f in $files; do
    if ! grep -q "\`$f\`" "$doc"; then
        echo "internals_doc.sh: $f is not in doc/internals.md" >&2
        status=1
    fi
done
for f in $(grep -o '`\(protocol\|dsm\|profile\)/[A-Za-z0-9_./-]*`' "$doc" | tr -d '`' | LC_ALL=C sort -u); do
    case $f in */) continue ;; esac
    if [ ! -e "$src/$f" ]; then
        echo "internals_doc.sh: doc/internals.md names $f, which does not exist" >&2
        status=1
    fi
done
[ $status = 0 ] && echo "internals_doc.sh: $(echo "$files" | wc -l) files, all in the map"
exit $status
