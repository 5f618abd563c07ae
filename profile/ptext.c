/* ptext.c - UTF-8 repair and terminal escaping (ptext.h). */
#include "ptext.h"

#include <json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1 to 4), 0 if s starts none. */
static size_t seq_len(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    /* second byte's range depends on the first: this is what excludes
     * overlong forms (C0, C1, E0 80-9F, F0 80-8F), surrogates (ED A0-BF)
     * and code points past U+10FFFF (F4 90-BF, F5-FF) */
    unsigned lo = 0x80, hi = 0xbf;
    size_t n;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return n;
}

int ptext_utf8_valid(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    while (*s) {
        size_t n = seq_len(s);
        if (!n)
            return 0;
        s += n;
    }
    return 1;
}

char *ptext_utf8_repair(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t len = strlen(str);
    /* each bad byte (1) becomes U+FFFD (3) */
    if (len > (SIZE_MAX - 1) / 3)
        return NULL;
    char *out = malloc(3 * len + 1), *o = out;
    if (!out)
        return NULL;
    while (*s) {
        size_t n = seq_len(s);
        if (n) {
            memcpy(o, s, n);
            o += n;
            s += n;
        } else {
            memcpy(o, "\xef\xbf\xbd", 3);
            o += 3;
            s++;
        }
    }
    *o = '\0';
    return out;
}

json_object *ptext_json_string(const char *s)
{
    if (!s)
        s = "";
    if (ptext_utf8_valid(s))
        return json_object_new_string(s);
    /* json-c escapes control bytes but copies other bytes as they are: an
     * invalid sequence would make the whole file invalid JSON */
    char *r = ptext_utf8_repair(s);
    json_object *o = r ? json_object_new_string(r) : NULL;
    free(r);
    return o;
}

/* Is the sequence of n bytes at s something a terminal would act on? */
static int is_control(const unsigned char *s, size_t n)
{
    if (n == 1)
        return s[0] < 0x20 || s[0] == 0x7f;
    return n == 2 && s[0] == 0xc2 && s[1] < 0xa0; /* U+0080-U+009F, C1 */
}

typedef struct copy {
    struct copy *next;
    char s[];
} copy;

static copy *copies;

const char *ptext_term(const char *str)
{
    if (!str)
        return "";
    const unsigned char *s = (const unsigned char *)str;
    size_t bad = 0, len = 0;
    for (const unsigned char *p = s; *p;) {
        size_t n = seq_len(p);
        if (!n || is_control(p, n))
            bad += n ? n : 1;
        p += n ? n : 1;
    }
    if (!bad)
        return str;
    len = strlen(str);
    copy *c = malloc(sizeof *c + len + 3 * bad + 1); /* a bad byte grows by 3 */
    if (!c)
        return "(out of memory)";
    char *o = c->s;
    for (const unsigned char *p = s; *p;) {
        size_t n = seq_len(p);
        if (n && !is_control(p, n)) {
            memcpy(o, p, n);
            o += n;
            p += n;
            continue;
        }
        for (size_t i = 0; i < (n ? n : 1); i++)
            o += sprintf(o, "\\x%02x", p[i]);
        p += n ? n : 1;
    }
    *o = '\0';
    c->next = copies;
    copies = c;
    return c->s;
}

void *ptext_mark(void) { return copies; }

void ptext_release_to(void *mark)
{
    while (copies && copies != mark) {
        copy *c = copies;
        copies = c->next;
        free(c);
    }
}

void ptext_release(void)
{
    while (copies) {
        copy *c = copies;
        copies = c->next;
        free(c);
    }
}
