/* backend_calls.c - one call of dsm.h made when it is not allowed, for
 * tests/backend_api.sh (the calls go through dsm/backend.c's stand-ins):
 *   backend_calls before CALL   CALL without dsm_init
 *   backend_calls after CALL    CALL after dsm_init and dsm_finalize
 *   backend_calls twice         dsm_init twice: -1 with EALREADY
 * CALL is init (after only), finalize, node, nodes, alloc, malloc, free,
 * barrier, lock, unlock, wtime, block_size, lock_count, home_of,
 * block_index, create, join, wait_for_end, task or section
 * (dsm_sim_section_begin/end: nothing on the DSM).
 * A call that should have ended the program and did not exits 3. */
#include <dsm.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static void nothing(void *arg) { (void)arg; }

static int call(const char *c)
{
    static char local;
    if (!strcmp(c, "init")) {
        int rc = dsm_init(NULL, NULL);
        printf("backend_calls: dsm_init returned %d (%s)\n", rc,
               rc == -1 && errno == EALREADY ? "EALREADY" : "unexpected");
        return rc == -1 && errno == EALREADY ? 0 : 3;
    }
    if (!strcmp(c, "section")) {
        dsm_sim_section_begin();
        dsm_sim_section_end();
        printf("backend_calls: the measured section did nothing\n");
        return 0;
    }
    if (!strcmp(c, "finalize"))
        dsm_finalize();
    else if (!strcmp(c, "node"))
        printf("%d\n", dsm_node());
    else if (!strcmp(c, "nodes"))
        printf("%d\n", dsm_nodes());
    else if (!strcmp(c, "alloc"))
        printf("%p\n", dsm_alloc(64, "x"));
    else if (!strcmp(c, "malloc"))
        printf("%p\n", dsm_malloc(64, "x"));
    else if (!strcmp(c, "free"))
        dsm_free(&local);
    else if (!strcmp(c, "barrier"))
        dsm_barrier();
    else if (!strcmp(c, "lock"))
        dsm_lock(0);
    else if (!strcmp(c, "unlock"))
        dsm_unlock(0);
    else if (!strcmp(c, "wtime"))
        printf("%f\n", dsm_wtime());
    else if (!strcmp(c, "block_size"))
        printf("%zu\n", dsm_block_size());
    else if (!strcmp(c, "lock_count"))
        printf("%u\n", dsm_lock_count());
    else if (!strcmp(c, "home_of"))
        printf("%d\n", dsm_home_of(&local));
    else if (!strcmp(c, "block_index"))
        printf("%ld\n", dsm_block_index(&local));
    else if (!strcmp(c, "lock_new"))
        printf("%u\n", dsm_lock_new());
    else if (!strcmp(c, "barrier_new"))
        printf("%u\n", dsm_barrier_new());
    else if (!strcmp(c, "barrier_n"))
        dsm_barrier_n(0, 1);
    else if (!strcmp(c, "cond_new"))
        printf("%u\n", dsm_cond_new());
    else if (!strcmp(c, "cond_wait"))
        dsm_cond_wait(0, 0);
    else if (!strcmp(c, "cond_signal"))
        dsm_cond_signal(0);
    else if (!strcmp(c, "cond_broadcast"))
        dsm_cond_broadcast(0);
    else if (!strcmp(c, "create"))
        printf("%d\n", dsm_create(nothing, NULL));
    else if (!strcmp(c, "join"))
        printf("%d\n", dsm_join(1));
    else if (!strcmp(c, "wait_for_end"))
        dsm_wait_for_end(1);
    else if (!strcmp(c, "task"))
        printf("%d\n", dsm_task());
    else {
        fprintf(stderr, "backend_calls: unknown call %s\n", c);
        return 2;
    }
    printf("backend_calls: dsm_%s returned\n", c);
    return 3;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "twice")) {
        if (dsm_init(&argc, &argv))
            return 1;
        int rc = call("init");
        dsm_finalize();
        return rc;
    }
    if (argc != 3 || (strcmp(argv[1], "before") && strcmp(argv[1], "after"))) {
        fprintf(stderr, "usage: backend_calls before|after CALL | twice\n");
        return 2;
    }
    if (!strcmp(argv[1], "after")) {
        if (dsm_init(&argc, &argv))
            return 1;
        dsm_finalize();
    }
    return call(argv[2]);
}
