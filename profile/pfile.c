/* pfile.c - safe, all-or-nothing file writing (pfile.h). */
#include "pfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *pfile_kind_name(mode_t m)
{
    if (S_ISLNK(m))
        return "a symbolic link";
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a regular file";
}

/* The directory part of path ("." when it has none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* May path be written (created, or a regular file replaced)?  0 with
 * *exists and *st set and *dir malloc'd; -1 with a reason in why (and
 * *dir NULL). */
static int classify(const char *path, struct stat *st, int *exists, char **dir, char *why,
                    size_t whylen)
{
    *dir = NULL;
    if (!path || !*path) {
        snprintf(why, whylen, "empty path");
        return -1;
    }
    const char *slash = strrchr(path, '/');
    if (slash && !slash[1]) {
        snprintf(why, whylen, "names a directory (ends with '/'), not a file");
        return -1;
    }
    if (lstat(path, st) == 0) {
        *exists = 1;
        if (S_ISREG(st->st_mode)) {
            if (!(*dir = dir_of(path))) {
                snprintf(why, whylen, "out of memory");
                return -1;
            }
            return 0;
        }
        if (S_ISDIR(st->st_mode))
            snprintf(why, whylen, "is a directory");
        else
            /* a rename would put a regular file in its place: a device
             * node, a FIFO a reader waits on, or the target of a link
             * someone planted; writing through it is no better (the
             * runtime reads the profile back) */
            snprintf(why, whylen, "is %s, not a regular file: refusing to replace it%s",
                     pfile_kind_name(st->st_mode),
                     S_ISLNK(st->st_mode) ? " (name the file it points to)"
                                           : " (give the path of a regular file)");
        return -1;
    }
    if (errno != ENOENT) {
        snprintf(why, whylen, "%s", strerror(errno));
        return -1;
    }
    *exists = 0;
    if (!(*dir = dir_of(path))) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    struct stat ds;
    if (stat(*dir, &ds) != 0) {
        if (errno == ENOENT)
            snprintf(why, whylen, "directory %s does not exist", *dir);
        else
            snprintf(why, whylen, "directory %s: %s", *dir, strerror(errno));
    } else if (!S_ISDIR(ds.st_mode)) {
        snprintf(why, whylen, "%s is not a directory", *dir);
    } else {
        return 0;
    }
    free(*dir);
    *dir = NULL;
    return -1;
}

/* Ten characters for a temporary name.  Unpredictability only keeps
 * others from squatting on the names (O_EXCL is what makes the creation
 * safe), so a mix of clock, pid and a counter is enough. */
static void random_suffix(char out[11])
{
    static uint64_t counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
                 ((uint64_t)getpid() << 16) ^ (++counter * 0x9e3779b97f4a7c15ull) ^
                 (uint64_t)(uintptr_t)&ts;
    /* splitmix64's finaliser */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz012345";
    for (int i = 0; i < 10; i++, x >>= 5)
        out[i] = alphabet[x & 31];
    out[10] = '\0';
}

static void release(pfile *w)
{
    free(w->path);
    free(w->tmp);
    w->path = w->tmp = NULL;
    w->f = NULL;
}

int pfile_open(pfile *w, const char *path, char *err, size_t errlen)
{
    memset(w, 0, sizeof *w);
    struct stat st;
    int exists;
    char *dir;
    if (classify(path, &st, &exists, &dir, err, errlen))
        return -1;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    /* a long name is shortened so that the temporary name stays a legal one */
    size_t n = strlen(dir) + strlen(base) + 32;
    w->path = strdup(path);
    w->tmp = malloc(n);
    if (!w->path || !w->tmp) {
        free(dir);
        release(w);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        char suffix[11];
        random_suffix(suffix);
        snprintf(w->tmp, n, "%s/.%.200s.%s.tmp", dir, base, suffix);
        fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a temporary file in %s: %s", dir,
                 strerror(errno == EEXIST ? EAGAIN : errno));
        free(dir);
        release(w);
        return -1;
    }
    free(dir);
    /* a replaced file keeps its permissions, but never set-id bits (the
     * new file is ours, not its owner's); a failure only leaves the new
     * file with 0666 less the umask, as a new file gets */
    if (exists)
        (void)fchmod(fd, st.st_mode & 0777);
    if (!(w->f = fdopen(fd, "w"))) {
        snprintf(err, errlen, "%s", strerror(errno));
        close(fd);
        unlink(w->tmp);
        release(w);
        return -1;
    }
    return 0;
}

/* Make the rename itself durable; a failure loses nothing already
 * written, so it is not an error. */
static void sync_dir(const char *path)
{
    char *dir = dir_of(path);
    if (!dir)
        return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

int pfile_commit(pfile *w, char *err, size_t errlen)
{
    int rc = 0;
    errno = 0;
    if (fflush(w->f) != 0) {
        snprintf(err, errlen, "write error: %s", strerror(errno ? errno : EIO));
        rc = -1;
    } else if (ferror(w->f)) {
        /* an earlier write failed; its errno is gone */
        snprintf(err, errlen, "write error");
        rc = -1;
    } else if (fsync(fileno(w->f)) != 0 && errno != EINVAL) {
        /* EINVAL: a file system that cannot sync; anything else (EIO,
         * ENOSPC on a delayed allocation) means the data may not be there */
        snprintf(err, errlen, "fsync: %s", strerror(errno));
        rc = -1;
    }
    if (fclose(w->f) != 0 && !rc) {
        snprintf(err, errlen, "close: %s", strerror(errno));
        rc = -1;
    }
    w->f = NULL;
    if (!rc) {
        /* the target may have been replaced since pfile_open */
        struct stat st;
        if (lstat(w->path, &st) == 0 && !S_ISREG(st.st_mode)) {
            snprintf(err, errlen, "is %s, not a regular file: refusing to replace it",
                     pfile_kind_name(st.st_mode));
            rc = -1;
        } else if (rename(w->tmp, w->path) != 0) {
            snprintf(err, errlen, "cannot rename %s over it: %s", w->tmp, strerror(errno));
            rc = -1;
        }
    }
    if (rc)
        unlink(w->tmp);
    else
        sync_dir(w->path);
    release(w);
    return rc;
}

void pfile_abort(pfile *w)
{
    if (w->f)
        fclose(w->f);
    if (w->tmp)
        unlink(w->tmp);
    release(w);
}

int pfile_write(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    pfile w;
    if (pfile_open(&w, path, err, errlen))
        return -1;
    if (len && fwrite(data, 1, len, w.f) != len) {
        snprintf(err, errlen, "write error: %s", strerror(errno ? errno : EIO));
        pfile_abort(&w);
        return -1;
    }
    return pfile_commit(&w, err, errlen);
}

int profile_path_check(const char *path, char *why, size_t whylen)
{
    struct stat st;
    int exists;
    char *dir;
    if (classify(path, &st, &exists, &dir, why, whylen))
        return -1;
    /* creating the temporary file and renaming it need write and search
     * permission on the directory, whether or not the file exists */
    int rc = 0;
    if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0) {
        snprintf(why, whylen, "cannot create files in directory %s: %s", dir, strerror(errno));
        rc = -1;
    }
    free(dir);
    return rc;
}
