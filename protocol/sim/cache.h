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

/* sim_line and sim_cache are in sim.h: the front end's inline hit path
 * (sim_ref_fast) reads them. */
#include "sim/sim.h"

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

/* Do the bytes [off, off+len) overlap those touched in line l? */
static inline int sim_line_touched_any(const sim_cache *c, const sim_line *l, uint32_t off,
                                       uint32_t len)
{
    uint64_t m0, m1;
    sim_touch_bits(c->touch_shift, off, len, &m0, &m1);
    return ((m0 & l->touched[0]) | (m1 & l->touched[1])) != 0;
}

static inline void sim_line_use(sim_cache *c, sim_line *l) { l->lru = ++c->lru_clock; }

#endif
