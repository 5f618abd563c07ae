/* pschema.c - the loader and the schema validator (pschema.h). */
#include "pschema.h"
#include "pfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- messages ---- */

/* A value from the document for a message: at most 60 bytes, anything but
 * printable ASCII as \xNN (the line goes to a terminal). */
static const char *quote(const char *s, char *buf, size_t len)
{
    size_t o = 0, i = 0;
    for (; s[i] && i < 60 && o + 5 < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\')
            buf[o++] = (char)c;
        else
            o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
    }
    if (s[i] && o + 4 < len)
        o += (size_t)snprintf(buf + o, len - o, "...");
    buf[o < len ? o : len - 1] = '\0';
    return buf;
}

/* The path of the value being checked, with indices: structures[2].name */
typedef struct where {
    char s[320];
    size_t len;
} where;

static size_t where_push(where *w, const char *fmt, const char *text, size_t index)
{
    size_t mark = w->len;
    if (w->len < sizeof w->s) {
        int k = text ? snprintf(w->s + w->len, sizeof w->s - w->len, fmt, text)
                     : snprintf(w->s + w->len, sizeof w->s - w->len, fmt, index);
        if (k > 0)
            w->len += (size_t)k;
        if (w->len >= sizeof w->s)
            w->len = sizeof w->s - 1;
    }
    return mark;
}

static void where_pop(where *w, size_t mark)
{
    w->len = mark;
    w->s[mark] = '\0';
}

static unsigned type_bit(json_object *v)
{
    switch (json_object_get_type(v)) {
    case json_type_null: return PS_NULL;
    case json_type_boolean: return PS_BOOL;
    case json_type_int: return PS_INT;
    case json_type_double: return PS_DOUBLE;
    case json_type_string: return PS_STRING;
    case json_type_array: return PS_ARRAY;
    case json_type_object: return PS_OBJECT;
    }
    return 0;
}

static void expected(unsigned types, char *buf, size_t len)
{
    static const struct {
        unsigned bits;
        const char *name;
    } names[] = {
        { PS_NUMBER, "a number" }, { PS_INT, "an integer" }, { PS_DOUBLE, "a number" },
        { PS_STRING, "a string" }, { PS_BOOL, "true or false" }, { PS_ARRAY, "an array" },
        { PS_OBJECT, "an object" }, { PS_NULL, "null" },
    };
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if ((types & names[i].bits) != names[i].bits)
            continue;
        types &= ~names[i].bits;
        o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s", o ? " or " : "",
                              names[i].name);
        if (o >= len)
            break;
    }
}

static void got(json_object *v, char *buf, size_t len)
{
    char q[256];
    switch (json_object_get_type(v)) {
    case json_type_null: snprintf(buf, len, "null"); break;
    case json_type_boolean: snprintf(buf, len, "%s", json_object_get_boolean(v) ? "true" : "false"); break;
    case json_type_int:
    case json_type_double:
        snprintf(buf, len, "the number %s", quote(json_object_get_string(v), q, sizeof q));
        break;
    case json_type_string:
        snprintf(buf, len, "the string \"%s\"", quote(json_object_get_string(v), q, sizeof q));
        break;
    case json_type_array: snprintf(buf, len, "an array"); break;
    case json_type_object: snprintf(buf, len, "an object"); break;
    }
}

/* ---- validation ---- */

static int check_value(json_object *v, const pschema_field *f, const where *w, char *err,
                       size_t errlen)
{
    const char *at = w->len ? w->s : "(the document)";
    unsigned t = type_bit(v);
    char a[160], b[300];
    if (!(t & f->types)) {
        expected(f->types, a, sizeof a);
        got(v, b, sizeof b);
        snprintf(err, errlen, "%s: expected %s, got %s", at, a, b);
        return -1;
    }
    if (t & PS_NUMBER) {
        double d;
        if (t == PS_INT) {
            int64_t i = json_object_get_int64(v);
            d = i < 0 ? (double)i : (double)json_object_get_uint64(v);
        } else {
            d = json_object_get_double(v);
        }
        if (!isfinite(d)) {
            snprintf(err, errlen, "%s: %s is not a finite number", at,
                     quote(json_object_get_string(v), b, sizeof b));
            return -1;
        }
        if ((f->flags & PS_RANGE) && !(d >= f->min && d <= f->max)) {
            snprintf(err, errlen, "%s: %s is out of range [%.15g, %.15g]", at,
                     quote(json_object_get_string(v), b, sizeof b), f->min, f->max);
            return -1;
        }
    }
    if (t == PS_ARRAY && (f->flags & PS_RANGE)) {
        size_t n = json_object_array_length(v);
        if (!((double)n >= f->min && (double)n <= f->max)) {
            snprintf(err, errlen, "%s: %zu elements, expected %.15g to %.15g", at, n, f->min,
                     f->max);
            return -1;
        }
    }
    if (t == PS_STRING && f->equals && strcmp(json_object_get_string(v), f->equals)) {
        snprintf(err, errlen, "%s is \"%s\", expected \"%s\"", at,
                 quote(json_object_get_string(v), b, sizeof b), f->equals);
        return -1;
    }
    return 0;
}

static int excepted(const char *list, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = list; p && *p;) {
        size_t k = strcspn(p, ",");
        if (k == n && !strncmp(p, key, n))
            return 1;
        p += k + (p[k] == ',');
    }
    return 0;
}

/* Check f on every value at `rest` below v (w: the path to v). */
static int walk(json_object *v, const char *rest, const pschema_field *f, where *w, char *err,
                size_t errlen)
{
    if (!*rest)
        return check_value(v, f, w, err, errlen);
    if (rest[0] == '[' && rest[1] == ']') {
        /* a parent of the wrong type is its own entry's error */
        if (!json_object_is_type(v, json_type_array))
            return 0;
        size_t n = json_object_array_length(v);
        for (size_t i = 0; i < n; i++) {
            size_t mark = where_push(w, "[%zu]", NULL, i);
            int rc = walk(json_object_array_get_idx(v, i), rest + 2, f, w, err, errlen);
            where_pop(w, mark);
            if (rc)
                return rc;
        }
        return 0;
    }
    if (*rest == '.')
        rest++;
    size_t klen = strcspn(rest, ".[");
    const char *next = rest + klen;
    if (!json_object_is_type(v, json_type_object))
        return 0;
    if (klen == 1 && *rest == '*') {
        json_object_object_foreach(v, key, member)
        {
            if (excepted(f->except, key))
                continue;
            char q[256];
            size_t mark = where_push(w, w->len ? ".%s" : "%s", quote(key, q, sizeof q), 0);
            int rc = walk(member, next, f, w, err, errlen);
            where_pop(w, mark);
            if (rc)
                return rc;
        }
        return 0;
    }
    char key[128];
    snprintf(key, sizeof key, "%.*s", (int)(klen < sizeof key ? klen : sizeof key - 1), rest);
    json_object *member;
    if (!json_object_object_get_ex(v, key, &member)) {
        if (!*next && (f->flags & PS_REQUIRED)) {
            snprintf(err, errlen, "%s%s%s: missing", w->s, w->len ? "." : "", key);
            return -1;
        }
        return 0;
    }
    size_t mark = where_push(w, w->len ? ".%s" : "%s", key, 0);
    int rc = walk(member, next, f, w, err, errlen);
    where_pop(w, mark);
    return rc;
}

int pschema_validate(json_object *doc, const pschema *s, char *err, size_t errlen)
{
    where w = { "", 0 };
    for (size_t i = 0; i < s->nfields; i++)
        if (walk(doc, s->fields[i].path, &s->fields[i], &w, err, errlen))
            return -1;
    return 0;
}

/* ---- parsing and loading ---- */

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static size_t parse_end(json_tokener *tok)
{
#if JSON_C_VERSION_NUM >= ((0 << 16) | (15 << 8))
    return json_tokener_get_parse_end(tok);
#else
    return (size_t)tok->char_offset;
#endif
}

static int has(json_object *doc, const char *path)
{
    char key[128];
    while (*path) {
        size_t k = strcspn(path, ".");
        snprintf(key, sizeof key, "%.*s", (int)(k < sizeof key ? k : sizeof key - 1), path);
        if (!json_object_is_type(doc, json_type_object) ||
            !json_object_object_get_ex(doc, key, &doc))
            return 0;
        path += k + (path[k] == '.');
    }
    return 1;
}

int pschema_parse(const char *buf, size_t len, const pschema *s, const pschema_need *need,
                  json_object **out, char *err, size_t errlen)
{
    *out = NULL;
    if (len > INT_MAX) {
        snprintf(err, errlen, "too large to parse (%zu bytes)", len);
        return -1;
    }
    json_tokener *tok = json_tokener_new_ex(PSCHEMA_MAX_DEPTH);
    if (!tok) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    json_object *doc = json_tokener_parse_ex(tok, buf, (int)len);
    enum json_tokener_error e = json_tokener_get_error(tok);
    size_t end = parse_end(tok);
    json_tokener_free(tok);
    if (e != json_tokener_success) {
        size_t i = 0;
        while (i < len && is_space(buf[i]))
            i++;
        if (i == len)
            snprintf(err, errlen, "empty: no JSON in it");
        else if (e == json_tokener_continue && buf[i] == '{')
            snprintf(err, errlen, "truncated JSON: the document ends early (at byte %zu)", len);
        else if (e == json_tokener_continue)
            snprintf(err, errlen, "not a JSON object: not %s (%s)", s->what, s->name);
        else
            snprintf(err, errlen, "not valid JSON: %s at byte %zu", json_tokener_error_desc(e),
                     end);
        json_object_put(doc);
        return -1;
    }
    for (size_t i = end; i < len; i++)
        if (!is_space(buf[i])) {
            snprintf(err, errlen, "not valid JSON: data after the document at byte %zu", i);
            json_object_put(doc);
            return -1;
        }
    json_object *schema;
    char q[256];
    if (!json_object_is_type(doc, json_type_object))
        snprintf(err, errlen, "not a JSON object: not %s (%s)", s->what, s->name);
    else if (!json_object_object_get_ex(doc, "schema", &schema))
        snprintf(err, errlen, "no \"schema\" member: not %s (%s)", s->what, s->name);
    else if (!json_object_is_type(schema, json_type_string))
        snprintf(err, errlen, "\"schema\" is not a string: not %s (%s)", s->what, s->name);
    else if (strcmp(json_object_get_string(schema), s->name)) {
        /* the same format at another version: say which one this reads */
        const char *got = json_object_get_string(schema), *slash = strchr(s->name, '/');
        size_t stem = slash ? (size_t)(slash - s->name) + 1 : 0;
        if (stem && !strncmp(got, s->name, stem))
            snprintf(err, errlen,
                     "schema is \"%s\", expected \"%s\": %s of another version, which this "
                     "dsmprof does not read (run the program again with this libdsm to write "
                     "one it reads)",
                     quote(got, q, sizeof q), s->name, s->what);
        else
            snprintf(err, errlen, "schema is \"%s\", expected \"%s\" (%s)", quote(got, q, sizeof q),
                     s->name, s->what);
    }
    else if (pschema_validate(doc, s, err, errlen) == 0) {
        for (; need && need->path; need++)
            if (!has(doc, need->path)) {
                snprintf(err, errlen, "%s", need->why);
                json_object_put(doc);
                return -1;
            }
        *out = doc;
        return 0;
    }
    json_object_put(doc);
    return -1;
}

/* The size limit: PSCHEMA_MAX_BYTES or DSMPROF_MAX_BYTES; 0 after a
 * message for a bad value. */
static size_t size_limit(char *err, size_t errlen)
{
    const char *v = getenv("DSMPROF_MAX_BYTES");
    if (!v || !*v)
        return PSCHEMA_MAX_BYTES;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (errno || *end || end == v || n < 1 || n > PSCHEMA_HARD_MAX_BYTES || *v == '-') {
        snprintf(err, errlen, "DSMPROF_MAX_BYTES=%.40s is not a number of bytes from 1 to %zu", v,
                 PSCHEMA_HARD_MAX_BYTES);
        return 0;
    }
    return (size_t)n;
}

int pschema_load(const char *path, const pschema *s, const pschema_need *need, json_object **out,
                 char *err, size_t errlen)
{
    *out = NULL;
    size_t max = size_limit(err, errlen);
    if (!max)
        return -1;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer before we
     * can see it is one */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, errlen, "%s", strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s", strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "is %s, not a regular file: dsmprof reads files only", pfile_kind_name(st.st_mode));
        close(fd);
        return -1;
    }
    if ((unsigned long long)st.st_size > max) {
        snprintf(err, errlen, "%lld bytes, more than the %zu bytes dsmprof reads (DSMPROF_MAX_BYTES)",
                 (long long)st.st_size, max);
        close(fd);
        return -1;
    }
    /* the file may grow while it is read: read at most max + 1 bytes */
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap);
    int rc = -1;
    while (buf) {
        if (n == cap) {
            if (cap > max) {
                snprintf(err, errlen, "more than the %zu bytes dsmprof reads (DSMPROF_MAX_BYTES)",
                         max);
                goto out;
            }
            size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
            char *nb = realloc(buf, ncap);
            if (!nb)
                break;
            buf = nb;
            cap = ncap;
        }
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            snprintf(err, errlen, "%s", strerror(errno));
            goto out;
        }
        if (k == 0)
            break;
        n += (size_t)k;
    }
    if (!buf) {
        snprintf(err, errlen, "out of memory reading %zu bytes", cap);
        goto out;
    }
    if (n > max) {
        snprintf(err, errlen, "more than the %zu bytes dsmprof reads (DSMPROF_MAX_BYTES)", max);
        goto out;
    }
    rc = pschema_parse(buf, n, s, need, out, err, errlen);
out:
    free(buf);
    close(fd);
    return rc;
}

/* ---- the schemas' own check ---- */

static const pschema_field *find(const pschema *s, const char *path, size_t len, size_t before)
{
    for (size_t i = 0; i < before; i++)
        if (strlen(s->fields[i].path) == len && !strncmp(s->fields[i].path, path, len))
            return &s->fields[i];
    return NULL;
}

int pschema_selfcheck(const pschema *s, char *err, size_t errlen)
{
    for (size_t i = 0; i < s->nfields; i++) {
        const pschema_field *f = &s->fields[i];
        size_t len = strlen(f->path);
        if (!len || !f->types) {
            snprintf(err, errlen, "entry %zu: empty path or no type", i);
            return -1;
        }
        if ((f->flags & PS_RANGE) && !(f->min <= f->max)) {
            snprintf(err, errlen, "%s: empty range", f->path);
            return -1;
        }
        if (f->equals && f->types != PS_STRING) {
            snprintf(err, errlen, "%s: equals on a non-string", f->path);
            return -1;
        }
        /* the parent: "a[]" -> "a" (an array), "a.b" -> "a" (an object) */
        unsigned need;
        size_t plen;
        if (len >= 2 && !strcmp(f->path + len - 2, "[]")) {
            plen = len - 2;
            need = PS_ARRAY;
        } else {
            const char *dot = NULL;
            for (size_t k = len; k-- > 0;)
                if (f->path[k] == '.') {
                    dot = f->path + k;
                    break;
                }
            if (!dot) {
                if (strchr(f->path, '[')) {
                    snprintf(err, errlen, "%s: malformed path", f->path);
                    return -1;
                }
                continue; /* a member of the document */
            }
            plen = (size_t)(dot - f->path);
            need = PS_OBJECT;
        }
        const pschema_field *p = find(s, f->path, plen, i);
        if (!p || !(p->types & need)) {
            snprintf(err, errlen, "%s: its parent %.*s is not declared before it as %s", f->path,
                     (int)plen, f->path, need == PS_ARRAY ? "an array" : "an object");
            return -1;
        }
        if (f->except) {
            if (len < 2 || strcmp(f->path + len - 2, ".*")) {
                snprintf(err, errlen, "%s: except without .*", f->path);
                return -1;
            }
            for (const char *e = f->except; *e;) {
                size_t k = strcspn(e, ",");
                char sib[256];
                snprintf(sib, sizeof sib, "%.*s.%.*s", (int)(len - 2), f->path, (int)k, e);
                if (!find(s, sib, strlen(sib), s->nfields)) {
                    snprintf(err, errlen, "%s: excepted member %s has no entry", f->path, sib);
                    return -1;
                }
                e += k + (e[k] == ',');
            }
        }
    }
    return 0;
}
