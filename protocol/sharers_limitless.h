/* sharers_limitless.h - Alewife's LimitLESS directory (QuickStep, section 1;
 * protocol/sim/alewife.c) behind dsm_sharers_ops: a few hardware pointers
 * per directory entry and, past them, a software-extended bit vector.
 * Select it with proto_config.sharers_ops = &dsm_sharers_limitless. */
#ifndef DSM_SHARERS_LIMITLESS_H
#define DSM_SHARERS_LIMITLESS_H

#include <stdint.h>

#include "sharers.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hardware pointers per directory entry in Alewife's CMMU. */
#define DSM_LIMITLESS_POINTERS 5

extern const dsm_sharers_ops dsm_sharers_limitless;

/* Software traps this set has taken: adds that found every hardware
 * pointer in use (the set must use dsm_sharers_limitless). */
uint64_t dsm_sharers_limitless_traps(const dsm_sharers *s);
/* Members held in hardware pointers now (the others are in software). */
int dsm_sharers_limitless_hardware(const dsm_sharers *s);

#ifdef __cplusplus
}
#endif
#endif
