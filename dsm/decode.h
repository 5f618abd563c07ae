/* decode.h - what the instruction that faulted on shared memory does with
 * its memory operand, decoded with the Capstone disassembler: whether it
 * reads it (a write that also reads is a read-modify-write: the migratory
 * rule of doc/patterns.md needs the new owner's read) and how many bytes it
 * covers (the bytes a read fault takes from the previous writer: true
 * sharing, doc/profile-format.md).  Page mode only: block mode's checks say
 * both themselves (access.c). */
#ifndef DSM_DECODE_H
#define DSM_DECODE_H

#include <stdint.h>

typedef struct dsm_decoded_access {
    int known;      /* 0: the instruction could not be decoded (the rest is a guess) */
    int reads;      /* the access reads its memory operand */
    int writes;     /* the access writes it */
    uint32_t size;  /* bytes of the memory operand (1 when unknown) */
} dsm_decoded_access;

/* Decode the instruction at ip of this process (x86-64), which faulted
 * with a read (is_write 0) or a write (1).  Never fails: an instruction that
 * cannot be decoded gives known = 0, reads = 1 (a write fault is taken as a
 * read-modify-write, the rule before decoding existed), writes = is_write,
 * size 1.  Cheap enough for the fault path: no allocation after a thread's
 * first call. */
dsm_decoded_access dsm_decode_access(uintptr_t ip, int is_write);

#endif
