/* check_main.h - how a Check unit test (tests/NAME_unit.c) plugs into the one
 * main they all share (tests/check_main.c, linked in as tests/libcheckmain.la
 * through $(CHECK_MAIN), tests/local.mk): the test file defines
 * unit_suite(), the main runs it. */
#ifndef DSM_TESTS_CHECK_MAIN_H
#define DSM_TESTS_CHECK_MAIN_H

#include <check.h>

/* This unit test's suite: its test cases, each with its tests. */
Suite *unit_suite(void);

#endif
