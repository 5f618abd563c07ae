/* check_main.c - the main of every Check unit test (tests/NAME_unit.c): it runs
 * the suite the test file gives through unit_suite() (check_main.h), the same
 * way for all of them, so a unit test is only its tests.
 *   NAME_unit            every test case of the suite
 *   NAME_unit TCASE      the test case TCASE alone (tcase_create's name)
 * Check's own variables apply: CK_VERBOSITY (silent, minimal, normal,
 * verbose), CK_FORK=no (run in one process, for a debugger), CK_RUN_CASE,
 * CK_DEFAULT_TIMEOUT.  Check's time limits are multiplied by
 * CK_TIMEOUT_MULTIPLIER, 4 unless set: the limits in the test files are
 * meant for a quiet machine and the suite must pass on a loaded 2-core one
 * (tests/run-test.sh still bounds the whole run).
 * Exit status: 0 when every test passed, 1 when one failed, 99 on a bad
 * command line or an unknown test case. */
#include "check_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *tcase = argc == 2 ? argv[1] : NULL;
    if (argc > 2 || (tcase && (tcase[0] == '-' || !tcase[0]))) {
        int help = tcase && (!strcmp(tcase, "--help") || !strcmp(tcase, "-h"));
        fprintf(help ? stdout : stderr, "usage: %s [TCASE]   (every test case, or TCASE alone)\n", argv[0]);
        return help ? 0 : 99;
    }
    /* read when the suite's test cases are created */
    if (!getenv("CK_TIMEOUT_MULTIPLIER"))
        setenv("CK_TIMEOUT_MULTIPLIER", "4", 1);

    SRunner *sr = srunner_create(unit_suite());
    srunner_run(sr, NULL, tcase, CK_ENV);
    int ran = srunner_ntests_run(sr), failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (tcase && ran == 0) {
        fprintf(stderr, "%s: no test case named '%s' in this suite\n", argv[0], tcase);
        return 99;
    }
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
