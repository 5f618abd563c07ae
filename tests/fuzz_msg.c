/* fuzz_msg.c - libFuzzer target for the wire decoder and validator
 * (dsm/msg.c): arbitrary bytes are a node's configuration (the first 16
 * bytes) and a received buffer (the rest).  Whatever the bytes, decoding
 * and validation must not read out of bounds (AddressSanitizer), and a
 * message they accept must satisfy what handle_msg relies on (checked here;
 * a violation aborts, which libFuzzer reports with the input).
 * Built and run by tests/fuzz_msg.sh (make fuzz: 60 s; make check: a short
 * smoke). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "node.h"
#include "syncid.h"

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 16)
        return 0;
    dsm_msg_limits lim;
    lim.nnodes = 1 + data[0] % 64;
    lim.self = data[1] % lim.nnodes;
    lim.nblocks = 1 + rd32(data + 2) % (1u << 20);
    lim.block_size = 4096u << (data[6] % 5);
    lim.locks = 1 + rd32(data + 7) % (1u << 20);
    lim.region_size = (uint64_t)lim.nblocks * lim.block_size;
    lim.downgrades = data[11] & 1;
    data += 16;
    size -= 16;
    /* the transport hands over a private copy of exactly what arrived */
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    dsm_msg_hdr h;
    const void *payload = NULL;
    char why[160];
    if (dsm_msg_decode(buf, size, &h, &payload, why, sizeof why) == 0) {
        if (sizeof h + h.len != size || (h.len && payload != buf + sizeof h))
            abort();
        if (dsm_msg_validate(&h, &lim, why, sizeof why) == 0) {
            if (h.src < 0 || h.src >= lim.nnodes || h.dst != lim.self || h.magic != DSM_MSG_MAGIC)
                abort();
            if (h.type >= PM_PUTS && h.type < PM_NTYPES &&
                !(h.type >= PM_RECALL_S && lim.downgrades))
                abort(); /* simulated machines only (but DSM_ADAPT's RECALL_S, PUSH, FLUSH,
                            PUSH_DATA) */
            if (h.type > 0 && h.type < PM_NTYPES) {
                if (h.block >= lim.nblocks)
                    abort();
                if (h.len != (proto_msg_has_data(h.type) ? lim.block_size : 0))
                    abort();
            } else if (h.type < RT_COLL_ENTER || h.len > lim.block_size) {
                abort();
            }
            /* a lock is a fixed one (below DSM_LOCKS) or one made on demand */
            if ((h.type == RT_LOCK_REQ || h.type == RT_UNLOCK || h.type == RT_LOCK_GRANT) &&
                h.block >= lim.locks && !dsm_sync_made(h.block))
                abort();
            if ((h.type == RT_LOCK_REQ || h.type == RT_UNLOCK || h.type == RT_SYNC_REQ) &&
                dsm_sync_manager(h.block, lim.nnodes) != lim.self)
                abort(); /* requests go to the object's manager */
            if ((h.type == RT_SYNC_REQ || h.type == RT_SYNC_WAKE) && h.arg[0] >= DSM_MAX_THREADS)
                abort();
            if (h.type == RT_SYNC_WAKE && dsm_sync_manager(h.block, lim.nnodes) != h.src)
                abort(); /* only the manager wakes */
            if ((h.type == RT_LOCK_REQ || h.type == RT_LOCK_GRANT) && h.arg[0] >= DSM_MAX_THREADS)
                abort();
            if (h.type == RT_LOCK_GRANT && dsm_sync_manager(h.block, lim.nnodes) != h.src)
                abort(); /* only the lock's manager grants it */
            if (h.type == RT_FREE && h.arg[0] >= lim.region_size)
                abort();
            /* touch the whole payload, as the handlers do */
            volatile uint8_t sink = 0;
            for (uint32_t i = 0; i < h.len; i++)
                sink ^= ((const uint8_t *)payload)[i];
            (void)sink;
        } else if (!memchr(why, 0, sizeof why)) {
            abort();
        }
    }
    free(buf);
    return 0;
}
