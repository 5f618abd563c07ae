/* net.c - helpers the timing models share (timing.h): the 2-D mesh layout
 * of the nodes and its hop distances, message sizes on the wire, and the
 * parsing of numeric options.  Pure. */
#include "sim/timing.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

void sim_mesh_dims(int nnodes, int *width, int *height)
{
    if (nnodes < 1)
        nnodes = 1;
    int w = 1;
    while (w * w < nnodes) /* ceil(sqrt(n)) without floating point */
        w++;
    *width = w;
    *height = (nnodes + w - 1) / w;
}

int sim_mesh_hops(int nnodes, int a, int b)
{
    int w, h;
    sim_mesh_dims(nnodes, &w, &h);
    int dx = a % w - b % w, dy = a / w - b / w;
    return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
}

uint32_t sim_msg_bytes(int type, uint32_t line_size)
{
    return SIM_MSG_HEADER_BYTES + (proto_msg_has_data(type) ? line_size : 0);
}

/* "out of range" when the digits are a number too large for 64 bits */
static int parse_u64(const char *key, const char *value, uint64_t *out, int *too_large, char *err,
                     size_t errlen)
{
    *too_large = 0;
    if (!value || !*value || *value == '-' || *value == '+') {
        snprintf(err, errlen, "option '%s' needs a non-negative integer, got '%s'", key,
                 value ? value : "");
        return -1;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    unsigned shift = 0;
    if (*end == 'k' || *end == 'K')
        shift = 10, end++;
    else if (*end == 'm' || *end == 'M')
        shift = 20, end++;
    if (end == value || *end || (errno && errno != ERANGE)) {
        snprintf(err, errlen, "option '%s' needs a non-negative integer, got '%s'", key, value);
        return -1;
    }
    if (errno == ERANGE || (shift && v > (UINT64_MAX >> shift))) {
        *too_large = 1;
        snprintf(err, errlen, "option '%s': %s is out of range (more than 2^64 - 1)", key, value);
        return -1;
    }
    *out = (uint64_t)v << shift;
    return 0;
}

int sim_parse_u64(const char *key, const char *value, uint64_t *out, char *err, size_t errlen)
{
    int too_large;
    return parse_u64(key, value, out, &too_large, err, errlen);
}

int sim_parse_bounded(const char *key, const char *value, uint64_t min, uint64_t max,
                      uint64_t *out, char *err, size_t errlen)
{
    uint64_t v = 0;
    int too_large;
    if (parse_u64(key, value, &v, &too_large, err, errlen) && !too_large)
        return -1;
    if (too_large || v < min || v > max) {
        snprintf(err, errlen, "option '%s': %s is out of range %llu .. %llu", key, value,
                 (unsigned long long)min, (unsigned long long)max);
        return -1;
    }
    *out = v;
    return 0;
}
