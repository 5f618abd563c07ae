/* idmap.c - open-addressing map from ids to pointers (idmap.h). */
#include "idmap.h"

#include <stdlib.h>

static size_t slot_of(uint32_t id, size_t cap)
{
    /* Fibonacci hashing: ids differ in their low bits by the node count */
    return (size_t)(((uint64_t)id * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

void *dsm_idmap_get(const dsm_idmap *m, uint32_t id)
{
    if (!m->cap)
        return NULL;
    for (size_t i = slot_of(id, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (!m->vals[i])
            return NULL;
        if (m->keys[i] == id)
            return m->vals[i];
    }
}

static int grow(dsm_idmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    uint32_t *keys = calloc(cap, sizeof *keys);
    void **vals = calloc(cap, sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    for (size_t j = 0; j < m->cap; j++) {
        if (!m->vals[j])
            continue;
        size_t i = slot_of(m->keys[j], cap);
        while (vals[i])
            i = (i + 1) & (cap - 1);
        keys[i] = m->keys[j];
        vals[i] = m->vals[j];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

int dsm_idmap_put(dsm_idmap *m, uint32_t id, void *val)
{
    if ((m->used + 1) * 2 > m->cap && grow(m))
        return -1;
    size_t i = slot_of(id, m->cap);
    while (m->vals[i] && m->keys[i] != id)
        i = (i + 1) & (m->cap - 1);
    if (!m->vals[i])
        m->used++;
    m->keys[i] = id;
    m->vals[i] = val;
    return 0;
}

void dsm_idmap_del(dsm_idmap *m, uint32_t id)
{
    if (!m->cap)
        return;
    size_t i = slot_of(id, m->cap);
    while (m->vals[i] && m->keys[i] != id)
        i = (i + 1) & (m->cap - 1);
    if (!m->vals[i])
        return;
    m->vals[i] = NULL;
    m->used--;
    /* re-place the rest of the run, so no lookup stops early at the hole */
    for (size_t j = (i + 1) & (m->cap - 1); m->vals[j]; j = (j + 1) & (m->cap - 1)) {
        uint32_t k = m->keys[j];
        void *v = m->vals[j];
        m->vals[j] = NULL;
        size_t t = slot_of(k, m->cap);
        while (m->vals[t])
            t = (t + 1) & (m->cap - 1);
        m->keys[t] = k;
        m->vals[t] = v;
    }
}

void dsm_idmap_free(dsm_idmap *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->used = 0;
}
