/* fuzz_records.c - libFuzzer target for the profile records' reader
 * (profile/records.c) and the aggregation (profile/aggregate.c) of what it
 * accepts: arbitrary bytes are a job (the first 4 bytes: nodes, blocks)
 * and one node's records (the rest, shipped by each node in turn).
 * Whatever the bytes, the reader must not read out of bounds
 * (AddressSanitizer), and input it accepts must aggregate without failing
 * or touching memory it does not own.  Built and run by
 * tests/fuzz_records.sh (make fuzz-records: 60 s; make check: a smoke). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "records.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    int nn = 1 + data[0] % 4;
    int shipper = data[1] % nn;
    uint32_t nblocks = 1 + (uint32_t)(data[2] | data[3] << 8) % 20000;
    data += 4;
    size -= 4;
    /* node 0 hands the reader a private copy of exactly what arrived */
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    profile_node_records r[4];
    memset(r, 0, sizeof r);
    char err[128];
    int rc = profile_records_parse(buf, size, nn, &r[shipper], err, sizeof err);
    free(buf);
    if (rc) {
        static const profile_node_records zero;
        if (memcmp(&r[shipper], &zero, sizeof zero))
            abort(); /* refused input leaves nothing behind */
        return 0;
    }
    for (int n = 0; n < nn; n++)
        r[n].symbolized = 1;
    profile_stats st = { nblocks, 1, 1, (const counters *const[4]){ NULL }, NULL, 0 };
    profile_job job = { nn, 64, 1.0, 0 };
    profile_input in;
    if (profile_aggregate(&job, &st, r, &in, err, sizeof err))
        abort(); /* only memory can fail, and the input is small */
    profile_input_free(&in);
    profile_node_records_free(&r[shipper]);
    return 0;
}
