/* mn_globals.c - a thread-model program whose shared state lives in plain
 * file-scope globals, as SPLASH's FMM and VOLREND keep theirs: built with
 * `dsmcc --shared-globals` every global is shared and the counts add up on
 * any number of nodes; built without, each node counts in its own copy and
 * the check fails (tests/sim_tasks.sh runs both).
 *   mn_globals TASKS   prints "mn_globals: TASKS tasks on N nodes: OK" */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "dsm.h"

#define ROUNDS 20

long counter;              /* bss */
long per_task[64] = { 1 }; /* data: per_task[0] stays 1 */
int ntasks = 3;            /* data, written by the master before the creates */

static void body(void *arg)
{
    long id = (long)(intptr_t)arg;
    for (int i = 0; i < ROUNDS; i++) {
        dsm_lock(0);
        counter++;
        per_task[id]++;
        dsm_unlock(0);
    }
}

int main(int argc, char **argv)
{
    if (dsm_init_master(&argc, &argv))
        return 1;
    ntasks = argc > 1 ? atoi(argv[1]) : 3;
    if (ntasks < 1 || ntasks > 63)
        return 2;
    for (long t = 1; t <= ntasks; t++)
        dsm_create(body, (void *)(intptr_t)t);
    dsm_wait_for_end(ntasks);
    dsm_lock(0);
    int ok = counter == (long)ntasks * ROUNDS && per_task[0] == 1;
    for (int t = 1; t <= ntasks; t++)
        ok &= per_task[t] == ROUNDS;
    long c = counter;
    dsm_unlock(0);
    printf("mn_globals: %d tasks on %d nodes, counter %ld: %s\n", ntasks, dsm_nodes(), c,
           ok ? "OK" : "FAILED");
    dsm_finalize();
    return !ok;
}
