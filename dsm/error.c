/* error.c - the one-line fatal error of the runtime. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

int dsm_error_node = -1;
void (*dsm_fatal_exit)(int code);

noreturn void dsm_fatal(const char *call, const char *fmt, ...)
{
    char buf[512];
    int n;
    if (dsm_error_node >= 0)
        n = snprintf(buf, sizeof buf, "dsm: node %d: %s: ", dsm_error_node, call);
    else
        n = snprintf(buf, sizeof buf, "dsm: node ?: %s: ", call);
    if (n < 0 || n >= (int)sizeof buf)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (m < 0)
        m = 0;
    n += m;
    if (n > (int)sizeof buf - 2)
        n = (int)sizeof buf - 2;
    buf[n++] = '\n';
    /* flush what the program printed so far, so the error comes last */
    fflush(stdout);
    ssize_t w = write(STDERR_FILENO, buf, (size_t)n);
    (void)w;
    if (dsm_fatal_exit)
        dsm_fatal_exit(1);
    _exit(1);
}
