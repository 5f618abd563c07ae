/* pfile.h - how profile/ writes its files (the dsm-profile/2 file at
 * dsm_finalize, the dsm-sim/1 file of a simulated run, dsmprof html -o):
 * all or nothing, and never through something planted at the path.
 *
 *   - The data goes to a new temporary file in the target's directory,
 *     created with O_CREAT|O_EXCL|O_NOFOLLOW under an unpredictable name
 *     (never a symbolic link followed, never an existing file reused), then
 *     flushed, fsync'ed, closed and renamed over the target: a reader sees
 *     the old file or the new one, never half of one.
 *   - Only a regular file is replaced.  A path naming anything else (a
 *     symbolic link, a FIFO, a character or block device such as /dev/full
 *     or /dev/stdout, a directory, a socket) is refused with a line saying
 *     what it is: the rename would replace it with a regular file, and the
 *     runtime reads the profile back after writing it (which would block
 *     on a FIFO or a terminal).
 *   - Any error (open, write, ENOSPC, EIO, fsync, close, rename) is reported,
 *     the temporary file removed and the old file left as it was.
 * A new file gets mode 0666 less the umask; a replaced file keeps its
 * permission bits (not set-user-id, set-group-id or sticky).
 * Error messages do not repeat the path: callers put it in front. */
#ifndef DSM_PFILE_H
#define DSM_PFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

typedef struct pfile {
    FILE *f;    /* write here between pfile_open and pfile_commit/abort */
    char *path; /* the target */
    char *tmp;  /* the temporary file */
} pfile;

/* Start writing path: 0 with w->f open, or -1 with a reason in err. */
int pfile_open(pfile *w, const char *path, char *err, size_t errlen);
/* Finish: flush, fsync and close the temporary file and rename it over the
 * target.  0, or -1 with a reason in err (the temporary file removed, the
 * target untouched).  Frees w either way. */
int pfile_commit(pfile *w, char *err, size_t errlen);
/* Give up: close and remove the temporary file, free w. */
void pfile_abort(pfile *w);

/* pfile_open, one write of len bytes, pfile_commit. */
int pfile_write(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* Could path be written by pfile_open now, without creating anything?
 * 0, or -1 with a reason in why: the path is empty, names a directory or
 * something else that is not a regular file, its directory is missing or
 * not a directory, or files cannot be created in it.  For a check at start
 * (dsm_init) so that a run does not end by failing to write its profile. */
int profile_path_check(const char *path, char *why, size_t whylen);

/* What a file that is not a regular one is, in words ("a FIFO", "a
 * directory", ...), for the lines that refuse it. */
const char *pfile_kind_name(mode_t m);

#endif
