/* flashpoint.c - the FlashPoint collector (see flashpoint.h): a table of
 * sim_fp_record indexed by (procedure + 1, bin + 1), grown as new ids show
 * up, so that the per-miss cost is an index and ten adds, as FlashPoint's
 * handlers do with the current procedure's bin array (section 3.1.3). */
#include "flashpoint.h"

#include <stdlib.h>
#include <string.h>

struct sim_flashpoint {
    const sim_machine *machine;
    sim_time start;
    int proc_slots;          /* rows: procedure ids -1 .. proc_slots-2 */
    int bin_slots;           /* columns: bins -1 .. bin_slots-2 */
    sim_fp_record **rows;    /* rows[procedure + 1]: bin_slots records, or NULL */
    unsigned char **used;    /* used[procedure + 1][bin + 1]: something was recorded */
    uint64_t dropped;
    struct sim_flashpoint *section; /* the misses issued inside the measured section */
};

static const char *const metric_keys[FPM_NMETRICS] = {
    "read_miss_local",  "read_latency_local",  "read_miss_remote",  "read_latency_remote",
    "write_miss_local", "write_latency_local", "write_miss_remote", "write_latency_remote",
    "cold_misses",      "invalidation_misses",
};

static const char *const metric_titles[FPM_NMETRICS] = {
    "Read Miss Local",  "Read Latency Local",  "Read Miss Remote",  "Read Latency Remote",
    "Write Miss Local", "Write Latency Local", "Write Miss Remote", "Write Latency Remote",
    "Cold Misses",      "Invalidation Misses",
};

const char *sim_flashpoint_metric_key(int metric)
{
    return metric >= 0 && metric < FPM_NMETRICS ? metric_keys[metric] : NULL;
}

const char *sim_flashpoint_metric_title(int metric)
{
    return metric >= 0 && metric < FPM_NMETRICS ? metric_titles[metric] : NULL;
}

int sim_flashpoint_metric_by_key(const char *key)
{
    for (int i = 0; i < FPM_NMETRICS; i++)
        if (!strcmp(key, metric_keys[i]))
            return i;
    return -1;
}

sim_flashpoint *sim_flashpoint_new(void)
{
    return calloc(1, sizeof(sim_flashpoint));
}

static void on_miss(void *arg, const sim_miss *miss)
{
    sim_flashpoint_record(arg, miss);
}

sim_flashpoint *sim_flashpoint_attach(sim_machine *m)
{
    sim_flashpoint *fp = sim_flashpoint_new();
    if (!fp)
        return NULL;
    fp->machine = m;
    const sim_params *p = sim_get_params(m);
    for (int i = 0; i < p->nprocs; i++)
        if (sim_clock(m, i) > fp->start)
            fp->start = sim_clock(m, i);
    if (sim_on_miss(m, on_miss, fp)) {
        free(fp);
        return NULL;
    }
    return fp;
}

void sim_flashpoint_free(sim_flashpoint *fp)
{
    if (!fp)
        return;
    for (int i = 0; i < fp->proc_slots; i++) {
        free(fp->rows[i]);
        free(fp->used[i]);
    }
    free(fp->rows);
    free(fp->used);
    sim_flashpoint_free(fp->section);
    free(fp);
}

/* Make room for row `r` and column `c` (0-based slots). */
static int grow(sim_flashpoint *fp, int r, int c)
{
    if (c >= fp->bin_slots) {
        int slots = fp->bin_slots ? fp->bin_slots : 8;
        while (slots <= c)
            slots *= 2;
        for (int i = 0; i < fp->proc_slots; i++) {
            if (!fp->rows[i])
                continue;
            sim_fp_record *row = realloc(fp->rows[i], (size_t)slots * sizeof *row);
            if (!row)
                return -1;
            fp->rows[i] = row;
            memset(row + fp->bin_slots, 0, (size_t)(slots - fp->bin_slots) * sizeof *row);
            unsigned char *used = realloc(fp->used[i], (size_t)slots);
            if (!used)
                return -1;
            fp->used[i] = used;
            memset(used + fp->bin_slots, 0, (size_t)(slots - fp->bin_slots));
        }
        fp->bin_slots = slots;
    }
    if (r >= fp->proc_slots) {
        int slots = fp->proc_slots ? fp->proc_slots : 8;
        while (slots <= r)
            slots *= 2;
        sim_fp_record **rows = realloc(fp->rows, (size_t)slots * sizeof *rows);
        if (!rows)
            return -1;
        fp->rows = rows;
        unsigned char **used = realloc(fp->used, (size_t)slots * sizeof *used);
        if (!used)
            return -1;
        fp->used = used;
        for (int i = fp->proc_slots; i < slots; i++) {
            fp->rows[i] = NULL;
            fp->used[i] = NULL;
        }
        fp->proc_slots = slots;
    }
    if (!fp->rows[r]) {
        fp->rows[r] = calloc((size_t)fp->bin_slots, sizeof(sim_fp_record));
        fp->used[r] = calloc((size_t)fp->bin_slots, 1);
        if (!fp->rows[r] || !fp->used[r])
            return -1;
    }
    return 0;
}

static int record_one(sim_flashpoint *fp, const sim_miss *miss);

int sim_flashpoint_record(sim_flashpoint *fp, const sim_miss *miss)
{
    if (miss->in_section) {
        if (!fp->section && !(fp->section = sim_flashpoint_new())) {
            fp->dropped++;
            return -1;
        }
        if (record_one(fp->section, miss)) {
            fp->dropped++;
            return -1;
        }
    }
    return record_one(fp, miss);
}

const sim_flashpoint *sim_flashpoint_section(const sim_flashpoint *fp) { return fp->section; }

static int record_one(sim_flashpoint *fp, const sim_miss *miss)
{
    int r = (miss->procedure < -1 ? -1 : miss->procedure) + 1;
    int c = (miss->bin < -1 ? -1 : miss->bin) + 1;
    if ((r >= fp->proc_slots || c >= fp->bin_slots || !fp->rows[r]) && grow(fp, r, c)) {
        fp->dropped++;
        return -1;
    }
    sim_fp_record *rec = &fp->rows[r][c];
    fp->used[r][c] = 1;
    int write = miss->is_write || miss->is_upgrade;
    int metric = write ? (miss->remote ? FPM_WRITE_MISS_REMOTE : FPM_WRITE_MISS_LOCAL)
                       : (miss->remote ? FPM_READ_MISS_REMOTE : FPM_READ_MISS_LOCAL);
    rec->v[metric]++;
    rec->v[metric + 1] += miss->latency; /* the latency metric follows its count */
    if (!miss->warm)
        rec->v[FPM_COLD_MISSES]++;
    if (miss->is_upgrade)
        rec->upgrades++;
    if (miss->cause == SIM_CAUSE_INVALIDATION)
        rec->v[FPM_INVALIDATION_MISSES]++;
    rec->invalidations_sent += miss->invalidations;
    return 0;
}

uint64_t sim_flashpoint_dropped(const sim_flashpoint *fp) { return fp->dropped; }

const sim_machine *sim_flashpoint_machine(const sim_flashpoint *fp) { return fp->machine; }

sim_time sim_flashpoint_start(const sim_flashpoint *fp) { return fp->start; }

/* Highest slot in use + 1 along one dimension, as an id count. */
int sim_flashpoint_nprocedures(const sim_flashpoint *fp)
{
    for (int r = fp->proc_slots - 1; r >= 1; r--)
        if (fp->rows[r])
            return r;
    return 0;
}

int sim_flashpoint_nbins(const sim_flashpoint *fp)
{
    int n = 0;
    for (int r = 0; r < fp->proc_slots; r++) {
        if (!fp->used[r])
            continue;
        for (int c = fp->bin_slots - 1; c >= n + 1; c--)
            if (fp->used[r][c]) {
                n = c;
                break;
            }
    }
    return n;
}

const sim_fp_record *sim_flashpoint_get(const sim_flashpoint *fp, int procedure, int bin)
{
    int r = procedure + 1, c = bin + 1;
    if (r < 0 || c < 0 || r >= fp->proc_slots || c >= fp->bin_slots || !fp->rows[r] ||
        !fp->used[r][c])
        return NULL;
    return &fp->rows[r][c];
}

static void add_record(sim_fp_record *to, const sim_fp_record *from)
{
    for (int i = 0; i < FPM_NMETRICS; i++)
        to->v[i] += from->v[i];
    to->upgrades += from->upgrades;
    to->invalidations_sent += from->invalidations_sent;
}

void sim_flashpoint_bin_total(const sim_flashpoint *fp, int bin, sim_fp_record *out)
{
    memset(out, 0, sizeof *out);
    int c = bin + 1;
    if (c < 0 || c >= fp->bin_slots)
        return;
    for (int r = 0; r < fp->proc_slots; r++)
        if (fp->rows[r] && fp->used[r][c])
            add_record(out, &fp->rows[r][c]);
}

void sim_flashpoint_procedure_total(const sim_flashpoint *fp, int procedure, sim_fp_record *out)
{
    memset(out, 0, sizeof *out);
    int r = procedure + 1;
    if (r < 0 || r >= fp->proc_slots || !fp->rows[r])
        return;
    for (int c = 0; c < fp->bin_slots; c++)
        if (fp->used[r][c])
            add_record(out, &fp->rows[r][c]);
}

void sim_flashpoint_total(const sim_flashpoint *fp, sim_fp_record *out)
{
    memset(out, 0, sizeof *out);
    for (int r = 0; r < fp->proc_slots; r++)
        if (fp->rows[r])
            for (int c = 0; c < fp->bin_slots; c++)
                if (fp->used[r][c])
                    add_record(out, &fp->rows[r][c]);
}
