/* mn_syscall.c - system calls given shared memory as their buffer: the
 * kernel's own access to the buffer does not fault into the runtime, so
 * read()/write() on blocks the node's copy does not allow fail with
 * EFAULT (doc/dsm.3, NOTES).  Checks that documented behaviour and both
 * workarounds: a copy through a private buffer, and touching every block
 * with the access the call needs while no other node can take it away.
 * Node 1 does the calls on blocks node 0 wrote; exit 0 only if every
 * case behaves as documented.  Run by tests/mn_syscall.sh. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsm.h"

#define NBLOCKS 4

static int bad;

static void expect(int cond, const char *what)
{
    if (!cond) {
        fprintf(stderr, "mn_syscall: %s (errno %d: %s)\n", what, errno, strerror(errno));
        bad = 1;
    }
}

static int pattern_ok(const unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)(i * 7 + seed))
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    if (dsm_init(&argc, &argv))
        return 1;
    size_t bs = dsm_block_size(), n = NBLOCKS * bs;
    unsigned char *src = dsm_alloc(n, "src"), *dst = dsm_alloc(n, "dst");
    if (dsm_node() == 0) {
        for (size_t i = 0; i < n; i++)
            src[i] = (unsigned char)(i * 7 + 1), dst[i] = 0;
    }
    dsm_barrier();
    if (dsm_node() == 1) {
        unsigned char *priv = malloc(n);
        int fd[2];
        if (!priv || pipe(fd))
            return 1;
        /* 1. the documented failure: node 1 holds no copy of src or dst */
        errno = 0;
        expect(write(fd[1], src, n) == -1 && errno == EFAULT,
               "write() from absent blocks did not fail with EFAULT");
        /* 2. workaround: copy through a private buffer (its loads fault normally) */
        memcpy(priv, src, n);
        expect(write(fd[1], priv, n) == (ssize_t)n, "write() of the private copy failed");
        memset(priv, 0, n);
        expect(read(fd[0], priv, n) == (ssize_t)n && pattern_ok(priv, n, 1),
               "the private copy came back wrong");
        /* 3. read() into absent blocks fails the same way; the data stays in the pipe */
        expect(write(fd[1], priv, n) == (ssize_t)n, "write() of the private copy failed");
        errno = 0;
        expect(read(fd[0], dst, n) == -1 && errno == EFAULT,
               "read() into absent blocks did not fail with EFAULT");
        expect(read(fd[0], priv, n) == (ssize_t)n && pattern_ok(priv, n, 1),
               "the pipe lost the data of the failed read()");
        memcpy(dst, priv, n); /* workaround: read privately, then copy in */
        expect(pattern_ok(dst, n, 1), "dst is wrong after the private copy");
        /* 4. workaround: touch every block with the access the call needs
         * (node 0 waits at the barrier, so nothing takes them away) */
        for (size_t b = 0; b < NBLOCKS; b++)
            dst[b * bs] = dst[b * bs]; /* a store: write access for read() */
        memset(priv, 0, n);
        for (size_t i = 0; i < n; i++)
            priv[i] = (unsigned char)(i * 7 + 3);
        expect(write(fd[1], priv, n) == (ssize_t)n, "write() of the private buffer failed");
        expect(read(fd[0], dst, n) == (ssize_t)n, "read() into touched blocks failed");
        expect(pattern_ok(dst, n, 3), "dst is wrong after read() into touched blocks");
        expect(write(fd[1], dst, n) == (ssize_t)n, "write() from touched blocks failed");
        expect(read(fd[0], priv, n) == (ssize_t)n && pattern_ok(priv, n, 3),
               "write() from touched blocks sent wrong data");
        volatile unsigned char sink = 0;
        for (size_t b = 0; b < NBLOCKS; b++)
            sink ^= src[b * bs]; /* a load: read access for write() */
        (void)sink;
        expect(write(fd[1], src, n) == (ssize_t)n, "write() from read-touched blocks failed");
        expect(read(fd[0], priv, n) == (ssize_t)n && pattern_ok(priv, n, 1),
               "write() from read-touched blocks sent wrong data");
        printf("mn_syscall: node 1: %s\n", bad ? "FAILED" : "OK");
        free(priv);
    }
    dsm_barrier();
    /* what node 1 wrote through its workarounds is everyone's */
    if (dsm_node() == 0 && !pattern_ok(dst, n, 3)) {
        fprintf(stderr, "mn_syscall: node 0 does not see node 1's data\n");
        bad = 1;
    }
    dsm_barrier();
    dsm_finalize();
    return bad;
}
