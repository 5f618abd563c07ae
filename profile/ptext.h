/* ptext.h - text hygiene for the profile files and their reports.
 *
 * Names in the files come from the profiled program (dsm_alloc names,
 * symbols, file names) and can hold any bytes.  The writers must still
 * produce valid JSON, which is UTF-8 (json-c escapes control bytes but
 * passes invalid UTF-8 through), and dsmprof must not hand a name's escape
 * sequences to the user's terminal. */
#ifndef DSM_PTEXT_H
#define DSM_PTEXT_H

#include <stddef.h>

/* 1 when s is valid UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF). */
int ptext_utf8_valid(const char *s);

/* A malloc'd copy of s with each byte that does not start a valid UTF-8
 * sequence replaced by U+FFFD; NULL when out of memory. */
char *ptext_utf8_repair(const char *s);

/* A json-c string of s (NULL: ""), repaired as by ptext_utf8_repair when
 * it is not valid UTF-8: what the writers put in their files.  NULL when
 * out of memory. */
struct json_object *ptext_json_string(const char *s);

/* s made safe for a terminal: s itself when it is valid UTF-8 without
 * control characters, else a copy in which every control byte (C0, DEL),
 * C1 control (U+0080-U+009F) and byte of an invalid sequence reads \xNN.
 * A copy lives until ptext_release(). */
const char *ptext_term(const char *s);

/* Free the copies ptext_term made; ptext_release_to frees only those
 * made after ptext_mark returned mark, for a function that needs its
 * copies no longer than its own call.  Not thread-safe: dsmprof and the
 * runtime's exit summary use them from one thread. */
void ptext_release(void);
void *ptext_mark(void);
void ptext_release_to(void *mark);

#endif
