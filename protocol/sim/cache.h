/* cache.h - the cache model of one simulated processor (internal to
 * protocol/sim): sets of `assoc` lines, LRU within a set.  It holds what a
 * hit needs without calling the engine (the access right of the line, as
 * the engine last set it) and what the statistics need when the line goes:
 * the bin whose miss filled it (MemSpy 4.2.8) and which bytes this processor
 * touched since the fill (true/false sharing, 4.2.7).
 *
 * Touched bytes are a 128-bit mask: one bit per byte for lines up to 128 B,
 * one bit per line_size/128 bytes for longer lines. */
#ifndef DSM_SIM_CACHE_H
#define DSM_SIM_CACHE_H

#include <stdint.h>

#include "proto.h"

#define SIM_LINE_EMPTY UINT32_MAX

typedef struct sim_line {
    uint32_t block;      /* engine block held, SIM_LINE_EMPTY: none */
    uint8_t perm;        /* PROTO_ACCESS_*; NONE with a block: fill in flight */
    uint8_t pad[3];
    int32_t bin;         /* bin of the fill, -1: none */
    uint32_t lru;        /* larger: used more recently */
    uint64_t touched[2]; /* bytes touched since the fill */
} sim_line;

typedef struct sim_cache {
    sim_line *lines;     /* nsets * assoc, set-major */
    uint32_t nsets, assoc, set_mask;
    uint32_t lru_clock;
    unsigned touch_shift; /* bytes per touched bit = 1 << touch_shift */
} sim_cache;

int sim_cache_init(sim_cache *c, uint32_t nsets, uint32_t assoc, uint32_t line_size);
void sim_cache_free(sim_cache *c);

static inline sim_line *sim_cache_find(sim_cache *c, uint32_t block)
{
    sim_line *set = &c->lines[(size_t)(block & c->set_mask) * c->assoc];
    for (uint32_t w = 0; w < c->assoc; w++)
        if (set[w].block == block)
            return &set[w];
    return NULL;
}

/* The way a fill of `block` takes: an empty way, else the least recently
 * used one (its current block is the victim). */
static inline sim_line *sim_cache_victim(sim_cache *c, uint32_t block)
{
    sim_line *set = &c->lines[(size_t)(block & c->set_mask) * c->assoc];
    sim_line *best = &set[0];
    for (uint32_t w = 0; w < c->assoc; w++) {
        if (set[w].block == SIM_LINE_EMPTY)
            return &set[w];
        if (set[w].lru < best->lru)
            best = &set[w];
    }
    return best;
}

static inline void sim_touch_mask(const sim_cache *c, uint32_t off, uint32_t len, uint64_t m[2])
{
    unsigned lo = off >> c->touch_shift, hi = (off + len - 1) >> c->touch_shift;
    m[0] = m[1] = 0;
    for (int w = 0; w < 2; w++) {
        unsigned a = lo > 64u * w ? lo - 64u * w : 0;
        if (hi < 64u * w || a > 63)
            continue;
        unsigned b = hi - 64u * w > 63 ? 63 : hi - 64u * w;
        uint64_t upto = b == 63 ? ~0ull : ((1ull << (b + 1)) - 1);
        m[w] = upto & ~((1ull << a) - 1);
    }
}

static inline void sim_line_use(sim_cache *c, sim_line *l) { l->lru = ++c->lru_clock; }

#endif
