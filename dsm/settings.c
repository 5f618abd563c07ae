/* settings.c - reads and checks the DSM_* environment variables as the table
 * (settings_table.c) describes them, says what each accepts, checks that the
 * files node 0 will write can be written, and turns the must-agree settings
 * into the values dsm_init compares across nodes. */
#include "settings.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int dsm_parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s)
        return -1;
    unsigned long long mul = 1;
    switch (toupper((unsigned char)*end)) {
    case 'K': mul = 1ULL << 10; end++; break;
    case 'M': mul = 1ULL << 20; end++; break;
    case 'G': mul = 1ULL << 30; end++; break;
    case 'T': mul = 1ULL << 40; end++; break;
    default: break;
    }
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end != '\0')
        return -1;
    if (v > ~0ULL / mul)
        return -1;
#if SIZE_MAX < ULLONG_MAX
    if (v * mul > SIZE_MAX)
        return -1;
#endif
    *out = (size_t)(v * mul);
    return 0;
}

/* Decimal digits only: a count is never written in octal by accident. */
static int parse_decimal(const char *s, uint64_t *out)
{
    if (!s || !isdigit((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

const dsm_setting *dsm_setting_find(const char *name)
{
    for (size_t i = 0; i < dsm_nsettings; i++)
        if (!strcmp(dsm_settings[i].name, name))
            return &dsm_settings[i];
    return NULL;
}

const char *dsm_setting_raw(const char *name)
{
    if (!dsm_setting_find(name)) {
        fprintf(stderr, "dsm: internal error: %s is not in the settings table "
                        "(dsm/settings_table.c)\n", name);
        return NULL;
    }
    const char *s = getenv(name);
    return s && *s ? s : NULL;
}

/* ---- words and sizes as the user writes them ---- */

static void fmt_size(uint64_t v, char *buf, size_t n)
{
    static const char unit[] = "KMGT";
    int u = -1;
    while (u < 3 && v >= 1024 && v % 1024 == 0) {
        v /= 1024;
        u++;
    }
    if (u < 0)
        snprintf(buf, n, "%llu", (unsigned long long)v);
    else
        snprintf(buf, n, "%llu%c", (unsigned long long)v, unit[u]);
}

/* Index of word s in "a|b|c", or -1. */
static int word_index(const char *words, const char *s)
{
    size_t len = strlen(s);
    int i = 0;
    for (const char *w = words; w; i++) {
        const char *bar = strchr(w, '|');
        size_t wl = bar ? (size_t)(bar - w) : strlen(w);
        if (wl == len && !strncmp(w, s, len))
            return i;
        w = bar ? bar + 1 : NULL;
    }
    return -1;
}

/* Word i of "a|b|c" into buf; 0, or -1 when there is none. */
static int word_at(const char *words, int i, char *buf, size_t n)
{
    const char *w = words;
    for (; w && i > 0; i--) {
        w = strchr(w, '|');
        if (w)
            w++;
    }
    if (!w || i < 0)
        return -1;
    const char *bar = strchr(w, '|');
    int wl = bar ? (int)(bar - w) : (int)strlen(w);
    snprintf(buf, n, "%.*s", wl, w);
    return 0;
}

static int word_count(const char *words)
{
    int k = 1;
    for (const char *p = words; *p; p++)
        k += *p == '|';
    return k;
}

/* a switch is its index here: off 0, on 1 */
static const char *switch_words = "off|on";

/* "`a` or `b`", "`a`, `b` or `c`" (quote is ` or empty; last is the
 * separator before the last word) */
static void word_list(const char *words, const char *quote, const char *last, char *buf,
                      size_t n)
{
    int k = word_count(words);
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < k && len < n; i++) {
        char w[64];
        word_at(words, i, w, sizeof w);
        const char *sep = i == 0 ? "" : i == k - 1 ? last : ", ";
        int m = snprintf(buf + len, n - len, "%s%s%s%s", sep, quote, w, quote);
        if (m < 0)
            break;
        len += (size_t)m;
    }
}

static const char *kind_noun(dsm_setting_kind k)
{
    switch (k) {
    case DSM_SET_MICROS: return "a number of microseconds";
    case DSM_SET_MILLIS: return "a number of milliseconds";
    default: return "a number";
    }
}

/* The region is mapped and protected in pages and shared in blocks: its
 * size and address are multiples of the larger (block mode has blocks
 * smaller than a page). */
static size_t region_unit(const dsm_config *cfg)
{
    return cfg->block_size > cfg->page_size ? cfg->block_size : cfg->page_size;
}

void dsm_setting_accepts(const dsm_setting *s, const dsm_config *cfg, int markup, char *buf,
                         size_t n)
{
    const char *q = markup ? "`" : "";
    char lo[64], hi[64];
    switch (s->kind) {
    case DSM_SET_SIZE:
        if (s->flags & DSM_SET_MIN_BLOCK) {
            if (cfg)
                snprintf(lo, sizeof lo, "one block (%zu)", cfg->block_size);
            else
                snprintf(lo, sizeof lo, "one block");
        } else {
            fmt_size(s->min, lo, sizeof lo);
        }
        fmt_size(s->max, hi, sizeof hi);
        if ((s->flags & DSM_SET_POW2) && (s->flags & DSM_SET_PAGE_MODE)) {
            char pg[64] = "the page size";
            if (cfg)
                snprintf(pg, sizeof pg, "the page size (%zu)", cfg->page_size);
            snprintf(buf, n, "a power of two from %s to %s; below %s only in block mode "
                     "(dsmcc --dsm)", lo, hi, pg);
        } else if (s->flags & DSM_SET_POW2)
            snprintf(buf, n, "a power of two from %s to %s", lo, hi);
        else
            snprintf(buf, n, "a size from %s to %s", lo, hi);
        break;
    case DSM_SET_ADDRESS:
        if (cfg)
            snprintf(buf, n, "an address aligned to the block size and the page size (%zu)",
                     region_unit(cfg));
        else
            snprintf(buf, n, "an address aligned to the block size and the page size; the region must lie "
                             "between %svm.mmap_min_addr%s and the end of user space", q, q);
        break;
    case DSM_SET_COUNT:
    case DSM_SET_MICROS:
    case DSM_SET_MILLIS:
        if (s->flags & DSM_SET_POW2)
            snprintf(buf, n, "a power of two from %llu to %llu", (unsigned long long)s->min,
                     (unsigned long long)s->max);
        else
            snprintf(buf, n, "%s from %llu to %llu%s%s%s%s", kind_noun(s->kind),
                     (unsigned long long)s->min, (unsigned long long)s->max,
                     s->flags & DSM_SET_AUTO ? ", or " : "", s->flags & DSM_SET_AUTO ? q : "",
                     s->flags & DSM_SET_AUTO ? "auto" : "", s->flags & DSM_SET_AUTO ? q : "");
        break;
    case DSM_SET_SWITCH:
        snprintf(buf, n, "%son%s or %soff%s", q, q, q, q);
        break;
    case DSM_SET_WORDS:
        word_list(s->words, q, " or ", buf, n);
        break;
    case DSM_SET_PATH:
        snprintf(buf, n, "a file name%s%s%s%s", s->flags & DSM_SET_OFF ? " or " : "",
                 s->flags & DSM_SET_OFF ? q : "", s->flags & DSM_SET_OFF ? "off" : "",
                 s->flags & DSM_SET_OFF ? q : "");
        break;
    case DSM_SET_TEXT:
        snprintf(buf, n, "%s", s->accepts_doc ? s->accepts_doc : "text");
        break;
    case DSM_SET_PERCENT:
        snprintf(buf, n, "a percentage from %llu to %llu", (unsigned long long)s->min,
                 (unsigned long long)s->max);
        break;
    case DSM_SET_INTERNAL:
        snprintf(buf, n, "set by %sdsmrun%s", q, q);
        break;
    }
}

/* The one line for a value the setting does not accept. */
static int refuse(const char *prefix, const dsm_setting *s, const char *text,
                  const dsm_config *cfg)
{
    const char *words = s->kind == DSM_SET_SWITCH ? "on|off" : s->words;
    if ((s->kind == DSM_SET_SWITCH || s->kind == DSM_SET_WORDS) && word_count(words) == 2) {
        char a[64], b[64];
        word_at(words, 0, a, sizeof a);
        word_at(words, 1, b, sizeof b);
        fprintf(stderr, "%s: %s=%s is neither '%s' nor '%s'\n", prefix, s->name, text, a, b);
    } else if (s->kind == DSM_SET_WORDS) {
        char list[256];
        word_list(words, "", ", ", list, sizeof list);
        fprintf(stderr, "%s: %s=%s is not one of %s\n", prefix, s->name, text, list);
    } else {
        char acc[256];
        dsm_setting_accepts(s, cfg, 0, acc, sizeof acc);
        fprintf(stderr, "%s: %s=%s is not %s\n", prefix, s->name, text, acc);
    }
    return -1;
}

static void *field_of(dsm_config *cfg, const dsm_setting *s)
{
    return s->field == DSM_SET_NOFIELD ? NULL : (char *)cfg + s->field;
}

static const void *cfield_of(const dsm_config *cfg, const dsm_setting *s)
{
    return s->field == DSM_SET_NOFIELD ? NULL : (const char *)cfg + s->field;
}

/* One row: text is the user's value or the table's default. */
static int load_one(dsm_config *cfg, const dsm_setting *s, const char *text, const char *prefix)
{
    void *f = field_of(cfg, s);
    uint64_t v = 0;
    switch (s->kind) {
    case DSM_SET_SIZE:
    case DSM_SET_ADDRESS:
    case DSM_SET_COUNT:
    case DSM_SET_MICROS:
    case DSM_SET_MILLIS: {
        if (s->kind == DSM_SET_SIZE || s->kind == DSM_SET_ADDRESS) {
            size_t z;
            if (dsm_parse_size(text, &z))
                return refuse(prefix, s, text, cfg);
            v = z;
        } else if ((s->flags & DSM_SET_AUTO) && !strcmp(text, "auto")) {
            if (f)
                *(unsigned *)f = DSM_SET_AUTO_VALUE;
            return 0;
        } else if (parse_decimal(text, &v)) {
            return refuse(prefix, s, text, cfg);
        }
        uint64_t lo = s->flags & DSM_SET_MIN_BLOCK ? cfg->block_size : s->min;
        if (v < lo || v > s->max || ((s->flags & DSM_SET_POW2) && !is_pow2(v)) ||
            ((s->flags & DSM_SET_ALIGN_BLOCK) && v % region_unit(cfg)))
            return refuse(prefix, s, text, cfg);
        if (!f)
            return 0;
        if (s->kind == DSM_SET_SIZE)
            *(size_t *)f = (size_t)v;
        else if (s->kind == DSM_SET_ADDRESS)
            *(uintptr_t *)f = (uintptr_t)v;
        else
            *(unsigned *)f = (unsigned)v;
        return 0;
    }
    case DSM_SET_SWITCH:
    case DSM_SET_WORDS: {
        int i = word_index(s->kind == DSM_SET_SWITCH ? switch_words : s->words, text);
        if (i < 0)
            return refuse(prefix, s, text, cfg);
        if (f)
            *(int *)f = i;
        return 0;
    }
    case DSM_SET_PATH:
    case DSM_SET_TEXT:
        if (f)
            *(const char **)f = (s->flags & DSM_SET_OFF) && !strcmp(text, "off") ? NULL : text;
        return 0;
    case DSM_SET_PERCENT:
    case DSM_SET_INTERNAL:
        break;
    }
    return 0;
}

/* ---- the region's place in the address space ---- */

/* The lowest address a program may map (vm.mmap_min_addr; the kernel's
 * usual value when it cannot be read), never below one page: a region at 0
 * would make the first dsm_alloc return NULL. */
static uint64_t lowest_mappable(size_t page)
{
    unsigned long long v = 65536;
    FILE *f = fopen("/proc/sys/vm/mmap_min_addr", "r");
    if (f) {
        if (fscanf(f, "%llu", &v) != 1)
            v = 65536;
        fclose(f);
    }
    return v < page ? page : v;
}

/* The end of the user part of the address space: above it (or in the
 * non-canonical hole before it) lies the kernel. */
static uint64_t user_space_end(void)
{
#if defined(__x86_64__)
    /* TASK_SIZE_MAX with 4-level paging: the last page is a guard; with
     * 5-level paging the kernel maps above only on request */
    return ((uint64_t)1 << 47) - 4096;
#elif defined(__aarch64__)
    return (uint64_t)1 << 48;
#else
    return (uint64_t)UINTPTR_MAX / 2 + 1;
#endif
}

static int check_region(const dsm_config *cfg, const char *prefix)
{
    const dsm_setting *sa = dsm_setting_find("DSM_REGION_ADDR");
    const dsm_setting *ss = dsm_setting_find("DSM_REGION_SIZE");
    const char *a = getenv(sa->name), *z = getenv(ss->name);
    const char *a_note = a && *a ? "" : " (the default)";
    const char *z_note = z && *z ? "" : ", the default";
    if (!a || !*a)
        a = sa->dflt;
    if (!z || !*z)
        z = ss->dflt;
    uint64_t addr = cfg->region_addr, size = cfg->region_size;
    uint64_t lowest = lowest_mappable(cfg->page_size), end = user_space_end();
    if (addr < lowest) {
        fprintf(stderr, "%s: DSM_REGION_ADDR=%s%s is below %#llx, the lowest address a program "
                        "may map (vm.mmap_min_addr, at least a page)\n",
                prefix, a, a_note, (unsigned long long)lowest);
        return -1;
    }
    if (addr >= end || size > end - addr) {
        fprintf(stderr, "%s: DSM_REGION_ADDR=%s%s with DSM_REGION_SIZE=%s (%#llx bytes%s) "
                        "reaches past %#llx, the end of user space\n",
                prefix, a, a_note, z, (unsigned long long)size, z_note,
                (unsigned long long)end);
        return -1;
    }
    return 0;
}

/* Settings that do nothing without another: refused, naming both, rather
 * than run a job that silently lacks what was asked for. */
static int check_dependencies(const dsm_config *cfg, const char *prefix)
{
    if (cfg->prefetch > 1 && !cfg->adapt) {
        fprintf(stderr, "%s: DSM_PREFETCH=%u needs DSM_ADAPT=on (the prefetch is the adaptive "
                        "protocol's bulk fetch; DSM_ADAPT is off): set DSM_ADAPT=on, or leave "
                        "DSM_PREFETCH unset\n",
                prefix, cfg->prefetch);
        return -1;
    }
    if (cfg->adapt && !cfg->patterns) {
        fprintf(stderr, "%s: DSM_ADAPT=on needs DSM_PATTERNS=on (the adaptive protocol acts on "
                        "the sharing patterns the detection finds; DSM_PATTERNS is off)\n",
                prefix);
        return -1;
    }
    return 0;
}

int dsm_config_load(dsm_config *cfg, const char *prefix)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->page_size = (size_t)sysconf(_SC_PAGESIZE);
    for (size_t i = 0; i < dsm_nsettings; i++) {
        const dsm_setting *s = &dsm_settings[i];
        if (s->kind == DSM_SET_INTERNAL || s->kind == DSM_SET_PERCENT)
            continue;
        const char *raw = getenv(s->name);
        if (raw && !*raw)
            raw = NULL; /* set but empty reads as unset */
        if (s->flags & DSM_SET_NOLOAD) {
            void *f = field_of(cfg, s);
            if (f && (s->kind == DSM_SET_TEXT || s->kind == DSM_SET_PATH))
                *(const char **)f = raw;
            continue;
        }
        const char *text = raw ? raw : s->dflt;
        if (!text) {
            if ((s->flags & DSM_SET_PAGE_MODE) && s->kind == DSM_SET_SIZE && field_of(cfg, s))
                *(size_t *)field_of(cfg, s) = cfg->page_size; /* the block size */
            continue;
        }
        if (load_one(cfg, s, text, prefix))
            return -1;
        if (!strcmp(s->name, "DSM_REGION_SIZE")) { /* whole blocks and pages, before the address is checked */
            size_t unit = region_unit(cfg);
            cfg->region_size = (cfg->region_size + unit - 1) / unit * unit;
        }
    }
    if (check_dependencies(cfg, prefix))
        return -1;
    return check_region(cfg, prefix);
}

/* ---- the files node 0 writes ---- */

/* Could path be created or overwritten?  Checks without creating it: the
 * writers create a temporary name beside it and rename, so the directory
 * must be writable.  0, or -1 with the reason in why. */
static int path_check(const char *path, char *why, size_t whylen)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(why, whylen, "it is a directory");
            return -1;
        }
    } else if (errno != ENOENT && errno != ENOTDIR) { /* ENOTDIR: said of the directory below */
        snprintf(why, whylen, "%s", strerror(errno));
        return -1;
    }
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    char dname[480]; /* how the messages name the directory */
    if (strcmp(dir, "."))
        snprintf(dname, sizeof dname, "directory %.400s", dir);
    else
        snprintf(dname, sizeof dname, "the current directory");
    if (stat(dir, &st)) {
        if (errno == ENOENT)
            snprintf(why, whylen, "%s does not exist", dname);
        else
            snprintf(why, whylen, "%s: %s", dname, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, whylen, "%.400s is not a directory", dir);
        return -1;
    }
    if (access(dir, W_OK | X_OK)) {
        snprintf(why, whylen, "%s is not writable (%s)", dname, strerror(errno));
        return -1;
    }
    return 0;
}

int dsm_config_check_paths(const dsm_config *cfg, int sim, const char *prefix)
{
    for (size_t i = 0; i < dsm_nsettings; i++) {
        const dsm_setting *s = &dsm_settings[i];
        if (s->kind != DSM_SET_PATH || s->field == DSM_SET_NOFIELD ||
            sim != (s->group == DSM_GROUP_SIM))
            continue;
        const char *path = *(const char *const *)cfield_of(cfg, s);
        if (!path)
            continue;
        char why[512];
        if (path_check(path, why, sizeof why)) {
            const char *raw = getenv(s->name);
            fprintf(stderr, "%s: %s=%s%s cannot be written: %s (set %s to a writable file%s)\n",
                    prefix, s->name, path, raw && *raw ? "" : " (the default)", why, s->name,
                    s->flags & DSM_SET_OFF ? ", or to off" : "");
            return -1;
        }
    }
    return 0;
}

/* ---- the settings every node must agree on ---- */

uint64_t dsm_setting_agree_value(const dsm_setting *s, const dsm_config *cfg)
{
    const void *f = cfield_of(cfg, s);
    if (!(s->flags & DSM_SET_AGREE) || !f)
        return 0;
    switch (s->kind) {
    case DSM_SET_SIZE: return *(const size_t *)f;
    case DSM_SET_ADDRESS: return *(const uintptr_t *)f;
    case DSM_SET_COUNT:
    case DSM_SET_MICROS:
    case DSM_SET_MILLIS:
    case DSM_SET_PERCENT: return *(const unsigned *)f;
    case DSM_SET_SWITCH:
    case DSM_SET_WORDS: return (uint64_t)*(const int *)f;
    case DSM_SET_PATH: /* only node 0 writes the file: the nodes agree on on or off */
    case DSM_SET_TEXT: return *(const char *const *)f != NULL;
    case DSM_SET_INTERNAL: break;
    }
    return 0;
}

uint64_t dsm_config_digest(const dsm_config *cfg)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (size_t i = 0; i < dsm_nsettings; i++) {
        const dsm_setting *s = &dsm_settings[i];
        if (!(s->flags & DSM_SET_AGREE))
            continue;
        for (const char *p = s->name;; p++) {
            h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
            if (!*p)
                break;
        }
        uint64_t v = dsm_setting_agree_value(s, cfg);
        for (int b = 0; b < 8; b++)
            h = (h ^ ((v >> (8 * b)) & 0xff)) * 0x100000001b3ULL;
    }
    return h;
}

static void agree_value_text(const dsm_setting *s, uint64_t v, char *buf, size_t n)
{
    switch (s->kind) {
    case DSM_SET_SIZE: fmt_size(v, buf, n); return;
    case DSM_SET_ADDRESS: snprintf(buf, n, "%#llx", (unsigned long long)v); return;
    case DSM_SET_SWITCH: snprintf(buf, n, "'%s'", v ? "on" : "off"); return;
    case DSM_SET_WORDS: {
        char w[48];
        if (v > 64 || word_at(s->words, (int)v, w, sizeof w))
            snprintf(buf, n, "word #%llu", (unsigned long long)v);
        else
            snprintf(buf, n, "'%s'", w);
        return;
    }
    case DSM_SET_PATH:
        snprintf(buf, n, "%s", v ? "a file" : s->flags & DSM_SET_OFF ? "'off'" : "unset");
        return;
    default: snprintf(buf, n, "%llu", (unsigned long long)v); return;
    }
}

int dsm_config_differences(const dsm_config *cfg, const uint64_t *theirs,
                           const unsigned char *have, int other_node, char *buf, size_t n)
{
    static const char hint[] = " (every node needs the same value: forward DSM_* settings to "
                               "every node, e.g. mpirun%s)";
    int ndiff = 0, shown = 0;
    size_t len = 0;
    char names[256] = "";
    size_t nlen = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < dsm_nsettings; i++) {
        const dsm_setting *s = &dsm_settings[i];
        if (!(s->flags & DSM_SET_AGREE) || !have[i])
            continue;
        uint64_t mine = dsm_setting_agree_value(s, cfg);
        if (mine == theirs[i])
            continue;
        ndiff++;
        char a[64], b[64], item[200];
        agree_value_text(s, mine, a, sizeof a);
        agree_value_text(s, theirs[i], b, sizeof b);
        snprintf(item, sizeof item, "%s%s is %s here but %s on node %d", ndiff > 1 ? "; " : "",
                 s->name, a, b, other_node);
        /* the line must fit dsm_fatal's: past a budget, only a count */
        if (len + strlen(item) + sizeof hint + nlen + strlen(s->name) + 24 < n &&
            nlen + strlen(s->name) + 4 < sizeof names) {
            len += (size_t)snprintf(buf + len, n - len, "%s", item);
            nlen += (size_t)snprintf(names + nlen, sizeof names - nlen, " -x %s", s->name);
            shown++;
        }
    }
    if (!ndiff)
        return 0;
    if (shown < ndiff)
        len += (size_t)snprintf(buf + len, n - len, "; and %d more", ndiff - shown);
    snprintf(buf + len, n - len, hint, names);
    return ndiff;
}
