/* sched.c - the simulated processors and their deterministic scheduler.
 *
 * The P processors of a simulated run are user-level contexts of one
 * process and one thread: processor 0 is the thread that called dsm_init,
 * the others are contexts with their own stacks that start in main.  Only
 * one runs at a time, so the program's real loads and stores happen in the
 * order the simulation decides, and data values are real.
 *
 * The rule: the runnable processor with the smallest simulated clock runs
 * next (ties: the lowest id).  Before it runs, the machine's events due by
 * its clock are delivered, one time step at a time, so a miss completion
 * that makes a waiting processor runnable again is seen in time order.  The
 * running processor asks for a decision (dsm_sim_schedule) at every
 * synchronisation, at every miss (it cannot go on until the miss
 * completes) and every K references (the quantum, simfront/hooks.c); a decision
 * that picks the running processor costs no switch.
 *
 * Contexts are switched with a small assembly routine on x86-64 (callee-
 * saved registers and the stack pointer only: no signal-mask system call)
 * and with swapcontext elsewhere; tests/sim_frontend_unit measures it.
 *
 * A crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) on a simulated
 * processor would otherwise kill the process without saying which
 * processor it was: a handler, on an alternate stack (the processor's own
 * stack may be what overflowed), prints one line naming the processor and
 * the function, then lets the default action end the process. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <ucontext.h>
#include <unistd.h>

#include "error.h"
#include "simfront.h"

sim_machine *dsm_sim_machine;

/* --- contexts ---------------------------------------------------------------- */

#if defined(__x86_64__)
/* sim_ctx_switch(&save_sp, new_sp): push the callee-saved registers (and
 * the x87/SSE control words, callee-saved in the SysV ABI), save the stack
 * pointer, load the other one, pop its registers, return into it. */
void dsm_sim_ctx_switch(void **save_sp, void *new_sp);
__asm__(".text\n"
        ".globl dsm_sim_ctx_switch\n"
        ".hidden dsm_sim_ctx_switch\n"
        ".type dsm_sim_ctx_switch,@function\n"
        "dsm_sim_ctx_switch:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  subq $16, %rsp\n"
        "  stmxcsr 8(%rsp)\n"
        "  fnstcw (%rsp)\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  fldcw (%rsp)\n"
        "  ldmxcsr 8(%rsp)\n"
        "  addq $16, %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size dsm_sim_ctx_switch, .-dsm_sim_ctx_switch\n");
#define OWN_SWITCH 1
#else
#define OWN_SWITCH 0
#endif

typedef struct sproc {
    int state;               /* enum dsm_sim_pstate */
    const char *waits_in;    /* the call it is blocked in */
#if OWN_SWITCH
    void *sp;                /* saved stack pointer */
#else
    ucontext_t uc;
#endif
    void *stack;
    size_t stack_len;
} sproc;

static sproc *procs;
static sim_fast **fast;     /* each processor's clock and stall flag (sim.h), read directly */
static int nprocs;
static void (*entry_fn)(int proc);
static uint64_t switches;

static noreturn void start_context(int proc)
{
    entry_fn(proc);
    dsm_sim_exit_current();
}

#if OWN_SWITCH
/* The first switch into a new context "returns" into this, with the
 * processor number found in the running state. */
static noreturn void first_entry(void)
{
    start_context(dsm_sim_hot_state.cur);
}
#else
static void uc_entry(int proc) { start_context(proc); }
#endif

static int make_context(int k, size_t stack_bytes)
{
    long pg = sysconf(_SC_PAGESIZE);
    size_t len = (stack_bytes + (size_t)pg - 1) / (size_t)pg * (size_t)pg + (size_t)pg;
    void *s = mmap(NULL, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (s == MAP_FAILED)
        return -1;
    mprotect(s, (size_t)pg, PROT_NONE); /* a guard page: overflow faults, not corrupts */
    procs[k].stack = s;
    procs[k].stack_len = len;
#if OWN_SWITCH
    /* The frame dsm_sim_ctx_switch pops: control words, six registers, and
     * the return address first_entry, placed so that first_entry starts
     * with the stack aligned as after a call (rsp+8 a multiple of 16). */
    uintptr_t top = ((uintptr_t)s + len) & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)top;
    *--sp = 0;                          /* padding: first_entry's "return address" */
    *--sp = (uint64_t)(uintptr_t)first_entry;
    for (int i = 0; i < 6; i++)
        *--sp = 0;                      /* rbp rbx r12-r15 */
    uint32_t mxcsr;
    uint16_t fcw;
    __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
    __asm__ volatile("fnstcw %0" : "=m"(fcw));
    *--sp = mxcsr;
    *--sp = fcw;
    procs[k].sp = sp;
#else
    if (getcontext(&procs[k].uc))
        return -1;
    procs[k].uc.uc_stack.ss_sp = s;
    procs[k].uc.uc_stack.ss_size = len;
    procs[k].uc.uc_link = NULL;
    makecontext(&procs[k].uc, (void (*)(void))uc_entry, 1, k);
#endif
    return 0;
}

/* Switch from processor `from` (NULL save when it ended) to `to`. */
static void switch_to(int from, int to, int save)
{
    switches++;
    dsm_sim_hot_state.cur = to;
    dsm_sim_hot_state.fast = fast[to];
    dsm_error_node = to;
#if OWN_SWITCH
    static void *discard;
    dsm_sim_ctx_switch(save ? &procs[from].sp : &discard, procs[to].sp);
#else
    if (save)
        swapcontext(&procs[from].uc, &procs[to].uc);
    else
        setcontext(&procs[to].uc);
#endif
}

/* --- crashes ------------------------------------------------------------------ */

/* The executable's symbol table, mapped before any crash: the handler only
 * reads it (the symbolizer of the statistics, libdw, allocates memory and
 * may not run in a signal handler, which may have interrupted malloc). */
static struct {
    const ElfW(Sym) *syms;
    size_t nsyms;
    const char *strs;
    size_t strs_len;
    uintptr_t bias;           /* load address of the executable */
} exe_syms;

static int exe_bias(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    *(uintptr_t *)arg = (uintptr_t)info->dlpi_addr; /* the first object is the executable */
    return 1;
}

/* Map /proc/self/exe and find its .symtab (or .dynsym) with its strings;
 * quietly nothing when that fails (the crash line then has no function). */
static void map_exe_symbols(void)
{
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    void *map = MAP_FAILED;
    if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(ElfW(Ehdr)))
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return;
    size_t size = (size_t)st.st_size;
    const unsigned char *base = map;
    const ElfW(Ehdr) *eh = map;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_shentsize != sizeof(ElfW(Shdr)) ||
        eh->e_shoff > size || eh->e_shnum > (size - eh->e_shoff) / sizeof(ElfW(Shdr)))
        goto unusable;
    const ElfW(Shdr) *sh = (const ElfW(Shdr) *)(base + eh->e_shoff);
    const ElfW(Shdr) *tab = NULL;
    for (int i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_type == SHT_SYMTAB || (sh[i].sh_type == SHT_DYNSYM && !tab))
            tab = &sh[i];
    if (!tab || tab->sh_link >= eh->e_shnum || tab->sh_offset > size ||
        tab->sh_size > size - tab->sh_offset)
        goto unusable;
    const ElfW(Shdr) *str = &sh[tab->sh_link];
    if (str->sh_offset > size || str->sh_size > size - str->sh_offset)
        goto unusable;
    exe_syms.syms = (const ElfW(Sym) *)(base + tab->sh_offset);
    exe_syms.nsyms = tab->sh_size / sizeof(ElfW(Sym));
    exe_syms.strs = (const char *)(base + str->sh_offset);
    exe_syms.strs_len = str->sh_size;
    dl_iterate_phdr(exe_bias, &exe_syms.bias);
    return;
unusable:
    munmap(map, size);
}

/* The function of the executable that contains address a; NULL: unknown. */
static const char *function_at(uintptr_t a)
{
    if (!a || a < exe_syms.bias)
        return NULL;
    uintptr_t v = a - exe_syms.bias;
    for (size_t i = 0; i < exe_syms.nsyms; i++) {
        const ElfW(Sym) *y = &exe_syms.syms[i];
        if (ELF64_ST_TYPE(y->st_info) != STT_FUNC || y->st_shndx == SHN_UNDEF ||
            y->st_name >= exe_syms.strs_len)
            continue;
        if (v == y->st_value || (v > y->st_value && v - y->st_value < y->st_size))
            return exe_syms.strs + y->st_name;
    }
    return NULL;
}

static uintptr_t crash_pc(const void *uctx)
{
    const ucontext_t *uc = uctx;
    (void)uc;
#if defined(__x86_64__)
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)uc->uc_mcontext.pc;
#else
    return 0;
#endif
}

/* async-signal-safe formatting into a fixed buffer */
typedef struct line_buf {
    char s[320];
    size_t n;
} line_buf;

static void put_str(line_buf *b, const char *t)
{
    while (*t && b->n < sizeof b->s - 1)
        b->s[b->n++] = *t++;
}

static void put_num(line_buf *b, uintptr_t v, unsigned radix)
{
    char d[24];
    int k = 0;
    do {
        d[k++] = "0123456789abcdef"[v % radix];
        v /= radix;
    } while (v && k < (int)sizeof d);
    while (k > 0 && b->n < sizeof b->s - 1)
        b->s[b->n++] = d[--k];
}

static const char *crash_signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    default: return "SIGABRT";
    }
}

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

/* "dsm: simulated processor P (in FUNC): SIGSEGV at ADDR", then the default
 * action: the signal is raised again and ends the process when the handler
 * returns (a fault would also recur at the faulting instruction).  FUNC is
 * the function that faulted when it is the program's, else the procedure
 * the processor was in (abort, a fault inside a library). */
static void crash_handler(int sig, siginfo_t *si, void *uctx)
{
    int saved_errno = errno;
    int p = dsm_sim_hot_state.cur;
    const char *fn = function_at(crash_pc(uctx));
    if (!fn) {
        int id = dsm_sim_proc_current(p);
        fn = id >= 0 ? function_at(dsm_sim_proc_address(id)) : NULL;
    }
    line_buf b = {.n = 0};
    put_str(&b, "dsm: simulated processor ");
    put_num(&b, (uintptr_t)p, 10);
    if (fn) {
        put_str(&b, " (in ");
        put_str(&b, fn);
        put_str(&b, ")");
    }
    put_str(&b, ": ");
    put_str(&b, crash_signal_name(sig));
    if (sig != SIGABRT && si) {
        put_str(&b, " at 0x");
        put_num(&b, (uintptr_t)si->si_addr, 16);
    }
    b.s[b.n++] = '\n';
    ssize_t w = write(STDERR_FILENO, b.s, b.n);
    (void)w;
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
    errno = saved_errno;
}

static void install_crash_handlers(void)
{
    size_t len = 64 * 1024;
    void *alt = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (alt == MAP_FAILED)
        return; /* no line on a crash, the run itself is not affected */
    stack_t ss = {.ss_sp = alt, .ss_size = len, .ss_flags = 0};
    if (sigaltstack(&ss, NULL)) {
        munmap(alt, len);
        return;
    }
    map_exe_symbols();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = crash_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
        sigaction(crash_signals[i], &sa, NULL);
}

int dsm_sim_sched_start(int n, void (*entry)(int proc), size_t stack_bytes)
{
    procs = calloc((size_t)n, sizeof *procs);
    fast = calloc((size_t)n, sizeof *fast);
    if (!procs || !fast)
        return -1;
    for (int k = 0; k < n; k++)
        fast[k] = sim_fast_of(dsm_sim_machine, k);
    nprocs = n;
    entry_fn = entry;
    for (int k = 1; k < n; k++)
        if (make_context(k, stack_bytes)) {
            fprintf(stderr, "dsm: dsm_init: cannot create the stack of simulated processor %d "
                            "(%zu bytes): %s\n",
                    k, stack_bytes, strerror(errno));
            return -1;
        }
    dsm_sim_hot_state.cur = 0;
    install_crash_handlers();
    return 0;
}

int dsm_sim_sched_nprocs(void) { return nprocs; }
int dsm_sim_state(int proc) { return procs[proc].state; }
uint64_t dsm_sim_switches(void) { return switches; }

void dsm_sim_block(int proc, const char *call)
{
    procs[proc].state = SIMP_BLOCKED;
    procs[proc].waits_in = call;
}

void dsm_sim_wake(int proc)
{
    if (procs[proc].state == SIMP_BLOCKED) {
        procs[proc].state = SIMP_RUNNABLE;
        procs[proc].waits_in = NULL;
    }
}

/* Nothing can run and no event will come: say who waits where. */
static noreturn void deadlock(void)
{
    char buf[400];
    size_t n = 0;
    int shown = 0;
    for (int p = 0; p < nprocs && n < sizeof buf - 64; p++) {
        if (procs[p].state == SIMP_BLOCKED && shown < 8) {
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%sprocessor %d in %s",
                                  shown ? ", " : "", p, procs[p].waits_in);
            shown++;
        }
    }
    int ended = 0;
    for (int p = 0; p < nprocs; p++)
        ended += procs[p].state == SIMP_DONE;
    dsm_sim_fatal("scheduler", "deadlock: no simulated processor can ever run again (%s%s; %d "
                               "ended)",
                  n ? buf : "none waiting", shown >= 8 ? ", ..." : "", ended);
}

void dsm_sim_schedule(void)
{
    sim_machine *m = dsm_sim_machine;
    int me = dsm_sim_hot_state.cur;
    sim_fast_settle(fast[me]); /* its clock is compared below */
    for (;;) {
        int best = -1;
        sim_time bc = SIM_NEVER;
        for (int p = 0; p < nprocs; p++) {
            if (procs[p].state != SIMP_RUNNABLE || fast[p]->stalled)
                continue;
            sim_time c = fast[p]->clock;
            if (best < 0 || c < bc) {
                best = p;
                bc = c;
            }
        }
        sim_time te = sim_next_event(m);
        if (te != SIM_NEVER && (best < 0 || te <= bc)) {
            if (sim_run_until(m, te) < 0)
                dsm_sim_fatal("simulated machine", "%s", sim_error(m));
            continue;
        }
        if (best < 0)
            deadlock();
        if (sim_check_clock(m, best) < 0) /* hits alone may have taken it past the limit */
            dsm_sim_fatal("simulated machine", "%s", sim_error(m));
        if (best != me)
            switch_to(me, best, procs[me].state != SIMP_DONE);
        return;
    }
}

void dsm_sim_in_clock_order(void)
{
    if (procs[dsm_sim_hot_state.cur].state == SIMP_RUNNABLE)
        dsm_sim_schedule();
}

void dsm_sim_fence(void)
{
    int r = sim_fence(dsm_sim_machine, dsm_sim_hot_state.cur);
    if (r < 0)
        dsm_sim_fatal("simulated machine", "%s", sim_error(dsm_sim_machine));
    if (r == SIM_STALL)
        dsm_sim_schedule(); /* back when the write buffer has drained */
}

void dsm_sim_exit_current(void)
{
    int me = dsm_sim_hot_state.cur;
    procs[me].state = SIMP_DONE;
    dsm_sim_schedule(); /* never comes back: a done processor is never picked */
    abort();
}
