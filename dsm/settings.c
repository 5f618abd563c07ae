/* settings.c - reads and checks the DSM_* environment variables. */
#include "settings.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    default: break;
    }
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end != '\0')
        return -1;
    if (v > ~0ULL / mul)
        return -1;
    *out = (size_t)(v * mul);
    return 0;
}

static int is_pow2(size_t v) { return v && !(v & (v - 1)); }

int dsm_config_load(dsm_config *cfg, const char *prefix)
{
    const char *s;
    memset(cfg, 0, sizeof *cfg);
    cfg->page_size = (size_t)sysconf(_SC_PAGESIZE);
    cfg->block_size = cfg->page_size;
    cfg->region_size = (size_t)1 << 30;
    cfg->region_addr = (uintptr_t)0x5a0000000000ULL;
    cfg->locks = 1024;
    cfg->spin_us = 50;
    cfg->hold_us = 5;
    cfg->homes_cyclic = 0;
    cfg->timeslice_ms = 100;

    if ((s = getenv("DSM_BLOCK_SIZE")) && *s) {
        size_t v;
        /* below the page size only in block mode (dsm_init checks that) */
        if (dsm_parse_size(s, &v) || !is_pow2(v) || v < 32 || v > ((size_t)1 << 24)) {
            fprintf(stderr, "%s: DSM_BLOCK_SIZE=%s is not a power of two from 32 up to 16M "
                            "(page mode: a multiple of the page size, %zu)\n", prefix, s,
                    cfg->page_size);
            return -1;
        }
        cfg->block_size = v;
    }
    if ((s = getenv("DSM_REGION_SIZE")) && *s) {
        size_t v;
        if (dsm_parse_size(s, &v) || v < cfg->block_size || v > ((size_t)1 << 40)) {
            fprintf(stderr, "%s: DSM_REGION_SIZE=%s is not a size between one block and 1T\n",
                    prefix, s);
            return -1;
        }
        cfg->region_size = v;
    }
    size_t unit = cfg->block_size > cfg->page_size ? cfg->block_size : cfg->page_size;
    cfg->region_size = (cfg->region_size + unit - 1) / unit * unit;
    if ((s = getenv("DSM_REGION_ADDR")) && *s) {
        size_t v;
        if (dsm_parse_size(s, &v) || v % unit) {
            fprintf(stderr, "%s: DSM_REGION_ADDR=%s is not an address aligned to the block and page size\n",
                    prefix, s);
            return -1;
        }
        cfg->region_addr = v;
    }
    if ((s = getenv("DSM_LOCKS")) && *s) {
        size_t v;
        if (dsm_parse_size(s, &v) || v == 0 || v > (1u << 20)) {
            fprintf(stderr, "%s: DSM_LOCKS=%s is not a number between 1 and 1048576\n", prefix, s);
            return -1;
        }
        cfg->locks = (unsigned)v;
    }
    if ((s = getenv("DSM_SPIN_US")) && *s) {
        size_t v;
        if (dsm_parse_size(s, &v) || v > 1000000) {
            fprintf(stderr, "%s: DSM_SPIN_US=%s is not a number of microseconds up to 1000000\n",
                    prefix, s);
            return -1;
        }
        cfg->spin_us = (unsigned)v;
    }
    if ((s = getenv("DSM_HOLD_US")) && *s) {
        size_t v;
        if (dsm_parse_size(s, &v) || v > 1000000) {
            fprintf(stderr, "%s: DSM_HOLD_US=%s is not a number of microseconds up to 1000000\n",
                    prefix, s);
            return -1;
        }
        cfg->hold_us = (unsigned)v;
    }
    cfg->patterns = 1;
    if ((s = getenv("DSM_PATTERNS")) && *s) {
        if (!strcmp(s, "off"))
            cfg->patterns = 0;
        else if (strcmp(s, "on")) {
            fprintf(stderr, "%s: DSM_PATTERNS=%s is neither 'on' nor 'off'\n", prefix, s);
            return -1;
        }
    }
    cfg->counters = 1;
    if ((s = getenv("DSM_COUNTERS")) && *s) {
        if (!strcmp(s, "off"))
            cfg->counters = 0;
        else if (strcmp(s, "on")) {
            fprintf(stderr, "%s: DSM_COUNTERS=%s is neither 'on' nor 'off'\n", prefix, s);
            return -1;
        }
    }
    if ((s = getenv("DSM_TIMESLICE_MS")) && *s) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (errno || *end || *s == '-' || v < 1 || v > 3600000) {
            fprintf(stderr, "%s: DSM_TIMESLICE_MS=%s is not a number of milliseconds from 1 to "
                            "3600000\n", prefix, s);
            return -1;
        }
        cfg->timeslice_ms = (unsigned)v;
    }
    /* the file is opened (and a bad path reported) by node 0 at dsm_init */
    if ((s = getenv("DSM_STATS")) && *s)
        cfg->stats_path = s;
    if ((s = getenv("DSM_HOMES")) && *s) {
        if (!strcmp(s, "cyclic"))
            cfg->homes_cyclic = 1;
        else if (strcmp(s, "blocked")) {
            fprintf(stderr, "%s: DSM_HOMES=%s is neither 'blocked' nor 'cyclic'\n", prefix, s);
            return -1;
        }
    }
    return 0;
}
