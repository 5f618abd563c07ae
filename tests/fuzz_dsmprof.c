/* fuzz_dsmprof.c - libFuzzer target for dsmprof: arbitrary bytes are a
 * file every command reads (report, report --structure, csv, diff, html,
 * advice, memspy, memspy --bin, flashpoint), through the loader, the
 * schema check and the renderers.  Whatever the bytes, no command may read
 * out of bounds, leak (AddressSanitizer), hang (libFuzzer's -timeout) or
 * end with a status other than 0 (rendered) or 2 (bad input, one line):
 * anything else aborts, which libFuzzer reports with the input.
 * Built and run by tests/fuzz_dsmprof.sh (make fuzz: 60 s; make check: a
 * short smoke). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsmprof.h"

static char dir[] = "/tmp/fuzz_dsmprof.XXXXXX";
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!mkdtemp(dir) || !freopen("/dev/null", "w", stdout))
        abort();
    snprintf(path, sizeof path, "%s/input.json", dir);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f))
        abort();
    static const char *const lines[][5] = {
        { "report", path },
        { "report", path, "--structure", "part" },
        { "csv", path },
        { "diff", path, path },
        { "html", path },
        { "advice", path },
        { "memspy", path },
        { "memspy", path, "--bin", "Y" },
        { "flashpoint", path, path },
        { "origin", path },
        { "origin", path, "--dump" },
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char *argv[7] = { "dsmprof" };
        int argc = 1;
        while (argc < 6 && lines[i][argc - 1])
            argv[argc] = (char *)lines[i][argc - 1], argc++;
        argv[argc] = NULL;
        int rc = dsmprof_run(argc, argv);
        fflush(stdout);
        clearerr(stdout);
        if (rc != 0 && rc != 2) {
            fprintf(stderr, "fuzz_dsmprof: dsmprof %s exited %d\n", argv[1], rc);
            abort();
        }
    }
    return 0;
}
