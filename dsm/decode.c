/* decode.c - the faulting instruction's memory access, decoded (decode.h).
 * One Capstone handle and instruction buffer per thread (a handle is not
 * safe to share between threads, and faults happen on any thread), opened
 * at the thread's first decoded fault.  The instruction bytes are read from
 * the process's own code: at most 15 bytes, never across into a page that
 * may not be mapped (the decoder tries the bytes up to the page's end
 * first, and only if that is too short reads the rest with
 * process_vm_readv, which fails cleanly on an unmapped page).  Faults come
 * from the same few instructions again and again (a loop over a shared
 * array), so each thread keeps its last answers per instruction: a repeated
 * decode costs a lookup, not Capstone's half microsecond (code does not
 * change under a running program; a library unloaded and another loaded at
 * its addresses would be misread, and is not worth a check per fault). */
#define _GNU_SOURCE 1
#include "decode.h"

#include <capstone/capstone.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static __thread csh handle;
static __thread cs_insn *insn;
static __thread int state; /* 0: not opened, 1: ready, -1: Capstone unusable */

/* the answers of this thread, by instruction (and kind of fault) */
#define DECODE_CACHE 256
typedef struct decoded_entry {
    uintptr_t ip; /* 0: empty */
    int is_write;
    dsm_decoded_access d;
} decoded_entry;
static __thread decoded_entry cache[DECODE_CACHE];

static int open_decoder(void)
{
    if (state)
        return state > 0;
#if defined(__x86_64__)
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle) == CS_ERR_OK) {
        cs_option(handle, CS_OPT_DETAIL, CS_OPT_ON);
        insn = cs_malloc(handle);
        if (insn) {
            state = 1;
            return 1;
        }
        cs_close(&handle);
    }
#endif
    state = -1;
    return 0;
}

static int decode_bytes(const uint8_t *code, size_t n, uintptr_t ip)
{
    const uint8_t *p = code;
    size_t left = n;
    uint64_t addr = ip;
    return cs_disasm_iter(handle, &p, &left, &addr, insn);
}

static dsm_decoded_access decode(uintptr_t ip, int is_write);

dsm_decoded_access dsm_decode_access(uintptr_t ip, int is_write)
{
    decoded_entry *c = &cache[((ip >> 4) ^ (ip >> 12) ^ (uintptr_t)is_write) & (DECODE_CACHE - 1)];
    if (ip && c->ip == ip && c->is_write == is_write)
        return c->d;
    dsm_decoded_access d = decode(ip, is_write);
    if (ip)
        *c = (decoded_entry){ ip, is_write, d };
    return d;
}

static dsm_decoded_access decode(uintptr_t ip, int is_write)
{
    dsm_decoded_access d = { 0, 1, is_write, 1 };
    if (!ip || !open_decoder())
        return d;
#if defined(__x86_64__)
    uint8_t code[16];
    size_t in_page = 4096 - (ip & 4095);
    size_t n = in_page < 15 ? in_page : 15;
    memcpy(code, (const void *)ip, n);
    int ok = decode_bytes(code, n, ip);
    if (!ok && n < 15) {
        struct iovec local = { code, 15 }, remote = { (void *)ip, 15 };
        if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 15)
            ok = decode_bytes(code, 15, ip);
    }
    if (!ok || !insn->detail)
        return d;
    const cs_x86 *x = &insn->detail->x86;
    /* the memory operand the faulting access used: an instruction with two
     * (movs, cmps) faults on the one whose kind of access failed */
    int best = -1;
    for (int i = 0; i < x->op_count; i++) {
        if (x->operands[i].type != X86_OP_MEM)
            continue;
        uint8_t ac = x->operands[i].access;
        if (best < 0 || (is_write ? (ac & CS_AC_WRITE) : (ac & CS_AC_READ)))
            best = i;
        if (is_write ? (ac & CS_AC_WRITE) : (ac & CS_AC_READ))
            break;
    }
    if (best < 0)
        return d;
    const cs_x86_op *op = &x->operands[best];
    d.known = 1;
    /* a read fault reads; a write fault reads too when its operand is read */
    d.reads = !is_write || (op->access & CS_AC_READ) != 0;
    d.writes = is_write || (op->access & CS_AC_WRITE) != 0;
    d.size = op->size ? op->size : 1;
    /* an operand Capstone gives no access for: a write fault of an
     * instruction that only writes memory (mov, stos) says so by its
     * access; none at all is taken as the plain case of its fault */
    if (!op->access)
        d.reads = !is_write;
#else
    (void)is_write;
#endif
    return d;
}
