/* backend.c - the public calls of dsm.h, each one indirect call to the
 * backend chosen at dsm_init (backend.h), the registry of backends, and the
 * stand-ins that answer before dsm_init and after dsm_finalize with the
 * API's one-line errors. */
#include <config.h>

#include <errno.h>
#include <stdio.h>

#include "backend.h"
#include "dsm.h"
#include "error.h"

/* In the order dsm_init asks them; the last one is taken when no other
 * wants the process. */
static const dsm_backend *const backends[] = {
    &dsm_backend_sim,
    &dsm_backend_runtime,
};
#define NBACKENDS (sizeof backends / sizeof backends[0])

/* --- before dsm_init --------------------------------------------------------- */

static int before_init(int *argc, char ***argv)
{
    const dsm_backend *b = backends[NBACKENDS - 1];
    for (size_t i = 0; i + 1 < NBACKENDS; i++)
        if (backends[i]->wanted()) {
            b = backends[i];
            break;
        }
    int rc = b->init(argc, argv);
    if (rc == 0)
        dsm_backend_now = b;
    return rc;
}

static const dsm_backend not_started;

static int before_init_master(int *argc, char ***argv)
{
    const dsm_backend *b = backends[NBACKENDS - 1];
    for (size_t i = 0; i + 1 < NBACKENDS; i++)
        if (backends[i]->wanted()) {
            b = backends[i];
            break;
        }
    /* chosen before the call: the workers serve tasks inside it and never
     * return, so their calls must already go to the backend */
    dsm_backend_now = b;
    int rc = b->init_master(argc, argv);
    if (rc)
        dsm_backend_now = &not_started;
    return rc;
}

static int before_create(void (*fn)(void *), void *arg)
{
    (void)fn, (void)arg;
    dsm_fatal("dsm_create", "called before dsm_init_master");
}
static int before_join(int task)
{
    (void)task;
    dsm_fatal("dsm_join", "called before dsm_init_master");
}
static void before_wait_for_end(int ntasks)
{
    (void)ntasks;
    dsm_fatal("dsm_wait_for_end", "called before dsm_init_master");
}
static int before_task(void) { dsm_fatal("dsm_task", "called before dsm_init"); }


static void before_finalize(void) { dsm_fatal("dsm_finalize", "called before dsm_init"); }
static int before_node(void) { dsm_fatal("dsm_node", "called before dsm_init"); }
static int before_nodes(void) { dsm_fatal("dsm_nodes", "called before dsm_init"); }
static void *before_alloc(size_t size, const char *name, uintptr_t site)
{
    (void)size, (void)name, (void)site;
    dsm_fatal("dsm_alloc", "called before dsm_init");
}
static void *before_malloc(size_t size, const char *name, uintptr_t site)
{
    (void)size, (void)name, (void)site;
    dsm_fatal("dsm_malloc", "called before dsm_init");
}
static void before_free(void *p)
{
    (void)p;
    dsm_fatal("dsm_free", "called before dsm_init");
}
static void before_barrier(void) { dsm_fatal("dsm_barrier", "called before dsm_init"); }
static void before_lock(unsigned id)
{
    (void)id;
    dsm_fatal("dsm_lock", "called before dsm_init");
}
static void before_unlock(unsigned id)
{
    (void)id;
    dsm_fatal("dsm_unlock", "called before dsm_init");
}
static double before_wtime(void) { dsm_fatal("dsm_wtime", "called before dsm_init"); }
static size_t before_block_size(void) { dsm_fatal("dsm_block_size", "called before dsm_init"); }
static unsigned before_lock_count(void) { dsm_fatal("dsm_lock_count", "called before dsm_init"); }
static int before_home_of(const void *p)
{
    (void)p;
    dsm_fatal("dsm_home_of", "called before dsm_init");
}
static long before_block_index(const void *p)
{
    (void)p;
    dsm_fatal("dsm_block_index", "called before dsm_init");
}
/* natively (no dsm_init at all) and on the DSM the measured section is nothing */
static void no_section(void) {}
/* ... and so is a checkpoint (QuickStep's, counted on the simulated Alewife) */
static void no_checkpoint(int id) { (void)id; }

static unsigned before_sync_new(const char *call) { dsm_fatal(call, "called before dsm_init"); }
static void before_barrier_n(unsigned id, unsigned count)
{
    (void)id, (void)count;
    dsm_fatal("dsm_barrier_n", "called before dsm_init");
}
static long before_atomic_add(unsigned id, long delta)
{
    (void)id, (void)delta;
    dsm_fatal("dsm_atomic_add", "called before dsm_init");
}
static void before_cond_wait(unsigned cond, unsigned lock)
{
    (void)cond, (void)lock;
    dsm_fatal("dsm_cond_wait", "called before dsm_init");
}
static void before_cond_signal(unsigned cond, int all)
{
    (void)cond;
    dsm_fatal(all ? "dsm_cond_broadcast" : "dsm_cond_signal", "called before dsm_init");
}

static const dsm_backend not_started = {
    .name = "before dsm_init",
    .init = before_init,
    .finalize = before_finalize,
    .node = before_node,
    .nodes = before_nodes,
    .alloc = before_alloc,
    .malloc = before_malloc,
    .free = before_free,
    .barrier = before_barrier,
    .lock = before_lock,
    .unlock = before_unlock,
    .wtime = before_wtime,
    .block_size = before_block_size,
    .lock_count = before_lock_count,
    .home_of = before_home_of,
    .block_index = before_block_index,
    .section_begin = no_section,
    .section_end = no_section,
    .checkpoint = no_checkpoint,
    .sync_new = before_sync_new,
    .barrier_n = before_barrier_n,
    .cond_wait = before_cond_wait,
    .cond_signal = before_cond_signal,
    .atomic_add = before_atomic_add,
    .init_master = before_init_master,
    .create = before_create,
    .join = before_join,
    .wait_for_end = before_wait_for_end,
    .task = before_task,
};

/* --- after the runtime's dsm_finalize ---------------------------------------- */

static int after_init(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "dsm: node %d: dsm_init: called twice\n", dsm_error_node);
    errno = EALREADY;
    return -1;
}
static void after_finalize(void) { dsm_fatal("dsm_finalize", "called after dsm_finalize"); }
static int after_node(void) { dsm_fatal("dsm_node", "called after dsm_finalize"); }
static int after_nodes(void) { dsm_fatal("dsm_nodes", "called after dsm_finalize"); }
static void *after_alloc(size_t size, const char *name, uintptr_t site)
{
    (void)size, (void)name, (void)site;
    dsm_fatal("dsm_alloc", "called after dsm_finalize");
}
static void *after_malloc(size_t size, const char *name, uintptr_t site)
{
    (void)size, (void)name, (void)site;
    dsm_fatal("dsm_malloc", "called after dsm_finalize");
}
static void after_free(void *p)
{
    (void)p;
    dsm_fatal("dsm_free", "called after dsm_finalize");
}
static void after_barrier(void) { dsm_fatal("dsm_barrier", "called after dsm_finalize"); }
static void after_lock(unsigned id)
{
    (void)id;
    dsm_fatal("dsm_lock", "called after dsm_finalize");
}
static void after_unlock(unsigned id)
{
    (void)id;
    dsm_fatal("dsm_unlock", "called after dsm_finalize");
}
static double after_wtime(void) { dsm_fatal("dsm_wtime", "called after dsm_finalize"); }
static size_t after_block_size(void) { dsm_fatal("dsm_block_size", "called after dsm_finalize"); }
static unsigned after_lock_count(void) { dsm_fatal("dsm_lock_count", "called after dsm_finalize"); }
static int after_home_of(const void *p)
{
    (void)p;
    dsm_fatal("dsm_home_of", "called after dsm_finalize");
}
static long after_block_index(const void *p)
{
    (void)p;
    dsm_fatal("dsm_block_index", "called after dsm_finalize");
}

static unsigned after_sync_new(const char *call) { dsm_fatal(call, "called after dsm_finalize"); }
static void after_barrier_n(unsigned id, unsigned count)
{
    (void)id, (void)count;
    dsm_fatal("dsm_barrier_n", "called after dsm_finalize");
}
static long after_atomic_add(unsigned id, long delta)
{
    (void)id, (void)delta;
    dsm_fatal("dsm_atomic_add", "called after dsm_finalize");
}
static void after_cond_wait(unsigned cond, unsigned lock)
{
    (void)cond, (void)lock;
    dsm_fatal("dsm_cond_wait", "called after dsm_finalize");
}
static void after_cond_signal(unsigned cond, int all)
{
    (void)cond;
    dsm_fatal(all ? "dsm_cond_broadcast" : "dsm_cond_signal", "called after dsm_finalize");
}
static int after_init_master(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "dsm: node %d: dsm_init_master: called after dsm_finalize\n", dsm_error_node);
    errno = EALREADY;
    return -1;
}
static int after_create(void (*fn)(void *), void *arg)
{
    (void)fn, (void)arg;
    dsm_fatal("dsm_create", "called after dsm_finalize");
}
static int after_join(int task)
{
    (void)task;
    dsm_fatal("dsm_join", "called after dsm_finalize");
}
static void after_wait_for_end(int ntasks)
{
    (void)ntasks;
    dsm_fatal("dsm_wait_for_end", "called after dsm_finalize");
}
static int after_task(void) { dsm_fatal("dsm_task", "called after dsm_finalize"); }

static const dsm_backend finished = {
    .name = "after dsm_finalize",
    .init = after_init,
    .finalize = after_finalize,
    .node = after_node,
    .nodes = after_nodes,
    .alloc = after_alloc,
    .malloc = after_malloc,
    .free = after_free,
    .barrier = after_barrier,
    .lock = after_lock,
    .unlock = after_unlock,
    .wtime = after_wtime,
    .block_size = after_block_size,
    .lock_count = after_lock_count,
    .home_of = after_home_of,
    .block_index = after_block_index,
    .section_begin = no_section,
    .section_end = no_section,
    .checkpoint = no_checkpoint,
    .sync_new = after_sync_new,
    .barrier_n = after_barrier_n,
    .cond_wait = after_cond_wait,
    .cond_signal = after_cond_signal,
    .atomic_add = after_atomic_add,
    .init_master = after_init_master,
    .create = after_create,
    .join = after_join,
    .wait_for_end = after_wait_for_end,
    .task = after_task,
};

const dsm_backend *dsm_backend_now = &not_started;

void dsm_backend_finished(void) { dsm_backend_now = &finished; }

/* --- the API ------------------------------------------------------------------- */

int dsm_init(int *argc, char ***argv) { return dsm_backend_now->init(argc, argv); }
void dsm_finalize(void) { dsm_backend_now->finalize(); }
int dsm_node(void) { return dsm_backend_now->node(); }
int dsm_nodes(void) { return dsm_backend_now->nodes(); }
void *dsm_alloc(size_t size, const char *name)
{
    return dsm_backend_now->alloc(size, name, (uintptr_t)__builtin_return_address(0));
}
void *dsm_malloc(size_t size, const char *name)
{
    return dsm_backend_now->malloc(size, name, (uintptr_t)__builtin_return_address(0));
}
void dsm_free(void *p) { dsm_backend_now->free(p); }
void dsm_barrier(void) { dsm_backend_now->barrier(); }
void dsm_lock(unsigned id) { dsm_backend_now->lock(id); }
void dsm_unlock(unsigned id) { dsm_backend_now->unlock(id); }
double dsm_wtime(void) { return dsm_backend_now->wtime(); }
size_t dsm_block_size(void) { return dsm_backend_now->block_size(); }
unsigned dsm_lock_count(void) { return dsm_backend_now->lock_count(); }
int dsm_home_of(const void *p) { return dsm_backend_now->home_of(p); }
long dsm_block_index(const void *p) { return dsm_backend_now->block_index(p); }
void dsm_sim_section_begin(void) { dsm_backend_now->section_begin(); }
void dsm_sim_section_end(void) { dsm_backend_now->section_end(); }
void dsm_checkpoint(int id) { dsm_backend_now->checkpoint(id); }
const char *dsm_version(void) { return DSM_VERSION; }
unsigned dsm_lock_new(void) { return dsm_backend_now->sync_new("dsm_lock_new"); }
unsigned dsm_barrier_new(void) { return dsm_backend_now->sync_new("dsm_barrier_new"); }
unsigned dsm_cond_new(void) { return dsm_backend_now->sync_new("dsm_cond_new"); }
void dsm_barrier_n(unsigned id, unsigned count) { dsm_backend_now->barrier_n(id, count); }
void dsm_cond_wait(unsigned cond, unsigned lock) { dsm_backend_now->cond_wait(cond, lock); }
void dsm_cond_signal(unsigned cond) { dsm_backend_now->cond_signal(cond, 0); }
void dsm_cond_broadcast(unsigned cond) { dsm_backend_now->cond_signal(cond, 1); }
long dsm_atomic_add(unsigned id, long delta) { return dsm_backend_now->atomic_add(id, delta); }
long dsm_atomic_load(unsigned id) { return dsm_backend_now->atomic_add(id, 0); }
int dsm_init_master(int *argc, char ***argv) { return dsm_backend_now->init_master(argc, argv); }
int dsm_create(void (*fn)(void *), void *arg) { return dsm_backend_now->create(fn, arg); }
int dsm_join(int task) { return dsm_backend_now->join(task); }
void dsm_wait_for_end(int ntasks) { dsm_backend_now->wait_for_end(ntasks); }
int dsm_task(void) { return dsm_backend_now->task(); }
