/* origin_html.h - the HTML page of `dsmprof origin --html`: the Origin
 * profiler's traces over simulated time as inline SVG (origin_html.c). */
#ifndef DSM_ORIGIN_HTML_H
#define DSM_ORIGIN_HTML_H

#include <json.h>
#include <stdio.h>

/* Write the page for a dsm-sim/1 document with an "origin" section (already
 * checked against the schema); name labels it.  0, or -1 on a write error. */
int origin_html_write(json_object *root, const char *name, FILE *f);

#endif
