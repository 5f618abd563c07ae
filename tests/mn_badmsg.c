/* mn_badmsg.c - node 1 puts a malformed message on the wire (through the
 * transport, past dsm_rt_send's own checks): the receiver must report it
 * in one line and end the job, not act on it.  Modes:
 *   block  a GETS for a block past the region
 *   lock   a lock request for a lock id past DSM_LOCKS
 *   hw     a PUTX (an eviction: simulated machines only, never the DSM)
 *   len    an INV that carries a payload
 *   type   an unknown message type
 *   grant-manager  a lock grant from a node that does not manage the lock
 *   grant-unasked  a lock grant from the manager, to a thread that did not
 *                  ask for that lock
 * Run by tests/wire_bad.sh on shm and mpi. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dsm.h"
#include "node.h"

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    const char *mode = argc > 1 ? argv[1] : "block";
    dsm_barrier();
    if (dsm_node() == 1) {
        static char data[65536];
        dsm_msg_hdr h = { 0 };
        h.magic = DSM_MSG_MAGIC;
        h.src = 1;
        h.dst = 0;
        if (!strcmp(mode, "block")) {
            h.type = PM_GETS;
            h.block = dsm_g->region.nblocks + 7;
        } else if (!strcmp(mode, "lock")) {
            h.type = RT_LOCK_REQ;
            h.block = dsm_g->cfg.locks + 2; /* a multiple of 2 nodes: managed by node 0 */
            h.block += h.block % 2;
        } else if (!strcmp(mode, "len")) {
            h.type = PM_INV;
            h.len = 16;
        } else if (!strcmp(mode, "hw")) { /* an eviction: simulated machines only */
            h.type = PM_PUTX;
            h.len = (uint32_t)dsm_g->region.block_size;
        } else if (!strcmp(mode, "grant-manager")) {
            h.type = RT_LOCK_GRANT;
            h.block = 2; /* even: managed by node 0, not by us */
        } else if (!strcmp(mode, "flags")) { /* "also reads" is for write requests only */
            h.type = PM_GETS;
            h.flags = PROTO_MSG_READS;
        } else if (!strcmp(mode, "grant-unasked")) {
            h.type = RT_LOCK_GRANT;
            h.block = 1; /* odd: we manage it, but node 0's thread never asked */
        } else {
            h.type = 200;
        }
        dsm_g->tp->send(dsm_g->tp, 0, &h, h.len ? data : NULL);
    }
    dsm_barrier(); /* node 0 must have died before completing this */
    dsm_finalize();
    return 0;
}
