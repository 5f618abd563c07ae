/* html.h - `dsmprof html`: one self-contained HTML page from a dsm-profile/2
 * file (inline CSS, inline SVG charts, a little inline JavaScript for the
 * block map's selection; nothing fetched from the network), so the page can
 * be mailed or archived with the run.  The charts are those of the paper's
 * Figures 6-9 (Xu, Larus and Miller, "Shared-Memory Performance Profiling");
 * doc/user-guide.md describes them.  The profile must have been validated
 * against dsm-profile/2 (pschema.h): the charts rely on its ranges. */
#ifndef DSM_HTML_H
#define DSM_HTML_H

#include <json.h>
#include <stddef.h>
#include <stdio.h>

#include "advice.h"

/* Write the page for a parsed profile, with the advisor's findings under
 * the default thresholds and the DSM_ADVICE_* variables.  title (may be
 * NULL) names the profile in the heading.  0, or -1 with a one-line reason
 * in err (not a dsm-profile/2 object, a bad DSM_ADVICE_* value, a write
 * error). */
int html_write(json_object *profile, FILE *out, char *err, size_t errlen);
/* The same with explicit thresholds and title. */
int html_write_with(json_object *profile, const advice_thresholds *t, const char *title, FILE *out,
                    char *err, size_t errlen);

#endif
