/* cache.c - creation of a processor's cache model (cache.h). */
#include "sim/cache.h"

#include <stdlib.h>

int sim_cache_init(sim_cache *c, uint32_t nsets, uint32_t assoc, uint32_t line_size)
{
    c->lines = malloc((size_t)nsets * assoc * sizeof *c->lines);
    if (!c->lines)
        return -1;
    for (size_t i = 0; i < (size_t)nsets * assoc; i++) {
        c->lines[i].block = SIM_LINE_EMPTY;
        c->lines[i].perm = PROTO_ACCESS_NONE;
        c->lines[i].bin = -1;
        c->lines[i].lru = 0;
        c->lines[i].touched[0] = c->lines[i].touched[1] = 0;
    }
    c->nsets = nsets;
    c->assoc = assoc;
    c->set_mask = nsets - 1;
    c->lru_clock = 0;
    c->touch_shift = 0;
    while ((line_size >> c->touch_shift) > 128)
        c->touch_shift++;
    return 0;
}

void sim_cache_free(sim_cache *c)
{
    free(c->lines);
    c->lines = NULL;
}
