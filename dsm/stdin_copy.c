/* stdin_copy.c - standard input as in one process: each node reads all of
 * it from its own offset.  Without this the nodes that dsmrun starts share
 * one open file (what one node reads the others miss) and mpirun gives
 * stdin to rank 0 only.
 *
 * At the end of dsm_init (DSM_STDIN=copy, or auto when stdin is not fed by
 * a terminal) node 0 reads fd 0 to its end and sends it to every node in
 * block-size pieces (RT_STDIN_DATA, then RT_STDIN_END with the length);
 * every node, node 0 too, puts its copy in a memfd and makes that its
 * fd 0.  Node 0 decides; RT_STDIN_END says when it did not copy.  Under
 * mpirun rank 0's stdin is a pipe from mpirun even when mpirun reads a
 * terminal, and reading that to its end would wait for the user's end of
 * input: auto then looks at mpirun's own fd 0 (mpirun being the parent, a
 * local launch) and copies only when it is no terminal. */
#define _GNU_SOURCE 1
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "error.h"
#include "tasks.h"

enum { STDIN_AUTO, STDIN_COPY, STDIN_KEEP };

static pthread_mutex_t in_lock = PTHREAD_MUTEX_INITIALIZER;
static char *in_buf;
static size_t in_len, in_cap;
static int in_done, in_skipped;

static void append(const void *p, size_t n)
{
    if (in_len + n > in_cap) {
        size_t c = in_cap ? in_cap : 65536;
        while (c < in_len + n)
            c *= 2;
        char *b = realloc(in_buf, c);
        if (!b)
            dsm_fatal("dsm_init", "out of memory for a copy of stdin (%zu bytes)", in_len + n);
        in_buf = b;
        in_cap = c;
    }
    memcpy(in_buf + in_len, p, n);
    in_len += n;
}

void dsm_stdin_handle(dsm_rt *rt, const dsm_msg_hdr *h, const void *payload)
{
    pthread_mutex_lock(&in_lock);
    if (h->type == RT_STDIN_DATA)
        append(payload, h->len);
    else {
        if (!h->arg[1] && h->arg[0] != in_len)
            dsm_fatal("transport", "stdin from node 0: %llu bytes announced, %zu came",
                      (unsigned long long)h->arg[0], in_len);
        in_skipped = h->arg[1] != 0;
        in_done = 1;
    }
    pthread_mutex_unlock(&in_lock);
    dsm_rt_signal(rt);
}

static int arrived(dsm_rt *rt, void *arg)
{
    (void)rt, (void)arg;
    pthread_mutex_lock(&in_lock);
    int d = in_done;
    pthread_mutex_unlock(&in_lock);
    return d;
}

/* This node's fd 0 becomes a memfd holding the copy. */
static void install(void)
{
    int fd = memfd_create("dsm-stdin", 0);
    size_t off = 0;
    while (fd >= 0 && off < in_len) {
        ssize_t w = write(fd, in_buf + off, in_len - off);
        if (w <= 0)
            dsm_fatal("dsm_init", "cannot keep a copy of stdin: %s", strerror(errno));
        off += (size_t)w;
    }
    if (fd < 0 || lseek(fd, 0, SEEK_SET) < 0 || dup2(fd, 0) < 0)
        dsm_fatal("dsm_init", "cannot keep a copy of stdin: %s", strerror(errno));
    if (fd != 0)
        close(fd);
    clearerr(stdin);
    free(in_buf);
    in_buf = NULL;
    in_len = in_cap = 0;
}

/* auto: is stdin a terminal's, or can it not be told?  Under dsmrun fd 0
 * is the launcher's own.  Under mpirun rank 0 reads a pipe from mpirun;
 * mpirun's own fd 0 says what feeds it, when mpirun is our parent (a local
 * launch). */
static int stdin_interactive(dsm_rt *rt)
{
    if (!strcmp(rt->tp->name, "shm"))
        return isatty(0);
    char path[64], comm[64] = "", target[256];
    pid_t pp = getppid();
    snprintf(path, sizeof path, "/proc/%d/comm", (int)pp);
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(comm, sizeof comm, f))
            comm[0] = 0;
        fclose(f);
    }
    comm[strcspn(comm, "\n")] = 0;
    if (strcmp(comm, "mpirun") && strcmp(comm, "mpiexec") && strcmp(comm, "orterun") &&
        strcmp(comm, "prterun"))
        return 1;
    snprintf(path, sizeof path, "/proc/%d/fd/0", (int)pp);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n <= 0)
        return 1;
    target[n] = 0;
    return !strncmp(target, "/dev/pts/", 9) || !strncmp(target, "/dev/tty", 8) ||
           !strcmp(target, "/dev/console");
}

void dsm_stdin_copy(dsm_rt *rt)
{
    int mode = rt->cfg.stdin_mode;
    if (rt->nnodes < 2 || mode == STDIN_KEEP)
        return;
    if (rt->self != 0) {
        dsm_rt_wait(rt, arrived, NULL);
        if (!in_skipped)
            install();
        return;
    }
    int skip = mode == STDIN_AUTO && stdin_interactive(rt);
    if (!skip) {
        char buf[65536];
        for (;;) {
            ssize_t n = read(0, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && errno != EBADF)
                dsm_fatal("dsm_init", "cannot read stdin to copy it to every node: %s (set "
                                      "DSM_STDIN=keep)",
                          strerror(errno));
            if (n <= 0)
                break;
            append(buf, (size_t)n);
        }
    }
    size_t piece = rt->region.block_size;
    for (int k = 1; k < rt->nnodes; k++) {
        for (size_t off = 0; !skip && off < in_len; off += piece) {
            dsm_msg_hdr h = { 0 };
            h.type = RT_STDIN_DATA;
            size_t n = in_len - off < piece ? in_len - off : piece;
            dsm_rt_send_data(rt, k, &h, in_buf + off, (uint32_t)n);
        }
        dsm_msg_hdr e = { 0 };
        e.type = RT_STDIN_END;
        e.arg[0] = skip ? 0 : in_len;
        e.arg[1] = (uint64_t)skip;
        dsm_rt_send(rt, k, &e);
    }
    if (!skip)
        install();
}
