/* dsmprof_main.c - dsmprof's main: the command line (dsmprof.c), then the
 * check that standard output was really written.  Apart from dsmprof.c so
 * that the tests can run command lines in their own process. */
#include "dsmprof.h"

int main(int argc, char **argv)
{
    return dsmprof_close_stdout(dsmprof_run(argc, argv));
}
