/* park.c - a node's application thread parked inside the runtime, and the
 * census that says it is the only thread that can run the program (park.h
 * says why and when a call may then send before it protects). */
#include "park.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sig_gate.h"

static pid_t my_tid(void)
{
    static __thread pid_t tid;
    if (!tid)
        tid = (pid_t)syscall(SYS_gettid);
    return tid;
}

static int cmp_tid(const void *a, const void *b)
{
    pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
    return (x > y) - (x < y);
}

/* Calls fn for every thread of the process; -1 when /proc cannot tell. */
static int each_thread(int (*fn)(dsm_park *p, pid_t tid), dsm_park *p)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)))
        if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
            rc = fn(p, (pid_t)atoi(e->d_name));
    closedir(d);
    return rc;
}

static int count_one(dsm_park *p, pid_t tid)
{
    (void)tid;
    p->nknown++;
    return 0;
}

void dsm_park_begin(dsm_park *p, int enabled)
{
    memset(p, 0, sizeof *p);
    /* one thread now? (nknown counts them here; the seal refills it) */
    int one = enabled && each_thread(count_one, p) == 0 && p->nknown == 1;
    p->nknown = 0;
    /* a handler of the program may run on the parked thread (the ones
     * MPI installs inside dsm_init are not the program's) */
    p->eligible = one && !dsm_sig_any_handler();
    p->app_tid = my_tid();
}

static int add_known(dsm_park *p, pid_t tid)
{
    if (tid == p->app_tid)
        return 0;
    pid_t *k = realloc(p->known, (size_t)(p->nknown + 1) * sizeof *k);
    if (!k)
        return -1;
    p->known = k;
    p->known[p->nknown++] = tid;
    return 0;
}

void dsm_park_seal(dsm_park *p)
{
    if (!p->eligible)
        return;
    if (my_tid() != p->app_tid || each_thread(add_known, p)) {
        p->eligible = 0;
        return;
    }
    qsort(p->known, (size_t)p->nknown, sizeof *p->known, cmp_tid);
    p->installs = dsm_sig_installs();
}

void dsm_park_enter(dsm_park *p)
{
    if (!p->eligible || my_tid() != p->app_tid)
        return;
    atomic_fetch_add(&p->epoch, 1);
    atomic_store(&p->parked, 1);
}

void dsm_park_leave(dsm_park *p, pthread_mutex_t *eng_lock)
{
    if (!atomic_load_explicit(&p->parked, memory_order_relaxed))
        return;
    atomic_store(&p->parked, 0);
    /* a call that saw the thread parked makes its protections before it
     * lets the engine lock go: wait for it */
    if (atomic_load(&p->busy)) {
        pthread_mutex_lock(eng_lock);
        pthread_mutex_unlock(eng_lock);
    }
}

static int is_known(dsm_park *p, pid_t tid)
{
    if (tid == p->app_tid ||
        bsearch(&tid, p->known, (size_t)p->nknown, sizeof *p->known, cmp_tid))
        return 0;
    return 1; /* a thread the runtime does not know: it may run the program */
}

int dsm_park_defer(dsm_park *p)
{
    /* while the program runs (the common case) no fence per message: a
     * thread seen running cannot be hurt; only a parked one is checked
     * again in the sequentially consistent pair with dsm_park_leave */
    if (!p->eligible || !atomic_load_explicit(&p->parked, memory_order_relaxed))
        return 0;
    atomic_store(&p->busy, 1);
    if (!atomic_load(&p->parked) || dsm_sig_installs() != p->installs)
        return 0;
    /* Only the parked thread could have made a thread of the program, so
     * the census holds until it leaves; another park takes another. */
    uint32_t epoch = atomic_load(&p->epoch);
    if (p->census_epoch != epoch) {
        p->census_epoch = epoch;
        p->census_ok = each_thread(is_known, p) == 0;
    }
    if (p->census_ok)
        p->deferred++;
    return p->census_ok;
}

void dsm_park_done(dsm_park *p)
{
    /* busy is written only under the engine lock, which we hold */
    if (atomic_load_explicit(&p->busy, memory_order_relaxed))
        atomic_store(&p->busy, 0);
}

void dsm_park_free(dsm_park *p)
{
    free(p->known);
    p->known = NULL;
    p->nknown = 0;
    p->eligible = 0;
}
