/* procs.c - procedures of a simulated run: every function the
 * -finstrument-functions hooks see gets a small id (the index into the
 * procedure names the statistics file carries), and every simulated
 * processor keeps a stack of them, so each reference is charged to the
 * procedure running it (MemSpy's code-oriented view).  Names are found at
 * the end with libdw (dsm/symbols.c, shared with dsm/prof/prof.c's profile).
 *
 * Stacks are kept from the moment the library is loaded when DSM_MACHINE is
 * set (processor 0 entered main before dsm_init). */
#include <config.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "growable.h"
#include "simfront.h"
#include "symbols.h"

typedef struct proc_stack {
    int *ids;
    int depth, cap;
} proc_stack;

static proc_stack stacks[SIM_MAX_PROCS];

/* function address -> id: open addressing, power-of-two capacity */
typedef struct fn_slot {
    uintptr_t fn; /* 0: empty */
    int id;
} fn_slot;
static fn_slot *fn_table;
static size_t fn_cap, fn_count;
static uintptr_t *fn_of_id; /* id -> address */
static size_t fn_of_id_cap;
static char **names;        /* symbolized once, then fixed */
static int names_count;

static void out_of_memory(void)
{
    dsm_fatal("dsmcc instrumentation", "out of memory for the procedure table");
}

static size_t hash_fn(uintptr_t fn) { return (size_t)((fn >> 4) * 0x9E3779B97F4A7C15ull); }

static void fn_grow(void)
{
    size_t cap = fn_cap ? fn_cap * 2 : 1024;
    fn_slot *t = calloc(cap, sizeof *t);
    if (!t)
        out_of_memory();
    for (size_t i = 0; i < fn_cap; i++)
        if (fn_table[i].fn) {
            size_t j = hash_fn(fn_table[i].fn) & (cap - 1);
            while (t[j].fn)
                j = (j + 1) & (cap - 1);
            t[j] = fn_table[i];
        }
    free(fn_table);
    fn_table = t;
    fn_cap = cap;
}

static int fn_id(uintptr_t fn)
{
    if (fn_count * 2 >= fn_cap)
        fn_grow();
    size_t j = hash_fn(fn) & (fn_cap - 1);
    while (fn_table[j].fn) {
        if (fn_table[j].fn == fn)
            return fn_table[j].id;
        j = (j + 1) & (fn_cap - 1);
    }
    if (fn_count == fn_of_id_cap && GROWABLE_RESERVE(fn_of_id, fn_of_id_cap, fn_count + 1))
        out_of_memory();
    int id = (int)fn_count++;
    fn_of_id[id] = fn;
    fn_table[j].fn = fn;
    fn_table[j].id = id;
    return id;
}

void dsm_sim_proc_enter(int proc, void *fn)
{
    proc_stack *s = &stacks[proc];
    if (s->depth == s->cap) {
        int c = s->cap ? s->cap * 2 : 64;
        int *v = realloc(s->ids, (size_t)c * sizeof *v);
        if (!v)
            out_of_memory();
        s->ids = v;
        s->cap = c;
    }
    int id = fn_id((uintptr_t)fn);
    s->ids[s->depth++] = id;
    if (dsm_sim_hot_state.proc_switch) { /* FP-Proc: the model charges the switch */
        dsm_sim_fence(); /* the command's fence drains the write buffer */
        dsm_sim_in_clock_order(); /* as a miss (dsm_sim_access) */
        sim_procedure_switch(dsm_sim_machine, proc, id);
    }
}

void dsm_sim_proc_exit(int proc)
{
    /* an exit without its entry (longjmp, a hook turned on mid-call) is
     * ignored rather than underflowing */
    if (stacks[proc].depth > 0)
        stacks[proc].depth--;
    if (dsm_sim_hot_state.proc_switch) {
        dsm_sim_fence();
        dsm_sim_in_clock_order();
        sim_procedure_switch(dsm_sim_machine, proc, dsm_sim_proc_current(proc));
    }
}

int dsm_sim_proc_current(int proc)
{
    const proc_stack *s = &stacks[proc];
    return s->depth ? s->ids[s->depth - 1] : -1;
}

void dsm_sim_proc_reset(int proc) { stacks[proc].depth = 0; }

int dsm_sim_proc_count(void) { return (int)fn_count; }

uintptr_t dsm_sim_proc_address(int id)
{
    return id >= 0 && (size_t)id < fn_count ? fn_of_id[id] : 0;
}

/* --- names ------------------------------------------------------------------ */

/* with_line: "func (file:line)" for an allocation site, else "func"
 * (dsm/symbols.c finds them, as for the DSM's profile). */
static char *name_of(uintptr_t ip, int with_line)
{
    dsm_code_location loc;
    dsm_symbols_lookup(ip, &loc);
    char *r = NULL;
    int n;
    if (with_line && loc.file && loc.function)
        n = asprintf(&r, "%s (%s:%d)", loc.function, loc.file, loc.line);
    else if (loc.function)
        n = asprintf(&r, "%s", loc.function);
    else
        n = asprintf(&r, "0x%lx", (unsigned long)ip);
    if (n < 0)
        out_of_memory();
    return r;
}

char *dsm_sim_symbolize(uintptr_t ip)
{
    /* a return address: the call is the byte before it */
    return name_of(ip ? ip - 1 : ip, 1);
}

const char *const *dsm_sim_proc_names(void)
{
    if (names && names_count == (int)fn_count)
        return (const char *const *)names;
    char **v = realloc(names, (fn_count ? fn_count : 1) * sizeof *v);
    if (!v)
        out_of_memory();
    names = v;
    for (int i = names_count; i < (int)fn_count; i++)
        names[i] = name_of(fn_of_id[i], 0);
    names_count = (int)fn_count;
    return (const char *const *)names;
}

/* --- finding main --------------------------------------------------------------- */
/* The other processors start in the program's main.  An executable rarely
 * exports it (no -rdynamic), so it is looked up in the symbol tables. */
static int find_main_in(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr start,
                        void *arg)
{
    (void)userdata;
    (void)name;
    (void)start;
    uintptr_t *found = arg;
    int n = dwfl_module_getsymtab(mod);
    for (int i = 1; i < n; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        const char *s = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL, NULL, NULL);
        if (s && !strcmp(s, "main") && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
            sym.st_shndx != SHN_UNDEF && addr) {
            *found = (uintptr_t)addr;
            return DWARF_CB_ABORT;
        }
    }
    return DWARF_CB_OK;
}

uintptr_t dsm_sim_find_main(void)
{
    void *p = dlsym(RTLD_DEFAULT, "main");
    if (p)
        return (uintptr_t)p;
    uintptr_t found = 0;
    Dwfl *d = dsm_symbols_self();
    if (d)
        dwfl_getmodules(d, find_main_in, &found, 0);
    return found;
}
