/* symbols.c - code address -> function, file, line for this process
 * (symbols.h).  One libdwfl session for the process, opened at the first
 * lookup: the profile and the simulation front end both symbolize at the
 * end of a run, and reporting the modules again for every caller would only
 * repeat the same work. */
#include <config.h>

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "symbols.h"

Dwfl *dsm_symbols_self(void)
{
    static int tried;
    static Dwfl *self;
    static char *debuginfo_path;
    static const Dwfl_Callbacks callbacks = {
        .find_elf = dwfl_linux_proc_find_elf,
        .find_debuginfo = dwfl_standard_find_debuginfo,
        .debuginfo_path = &debuginfo_path,
    };
    if (tried)
        return self;
    tried = 1;
    Dwfl *d = dwfl_begin(&callbacks);
    if (!d)
        return NULL;
    dwfl_report_begin(d);
    if (dwfl_linux_proc_report(d, getpid()) != 0) {
        dwfl_end(d);
        return NULL;
    }
    dwfl_report_end(d, NULL, NULL);
    self = d;
    return d;
}

void dsm_symbols_lookup(uintptr_t addr, dsm_code_location *out)
{
    Dwfl *d = dsm_symbols_self();
    Dwarf_Addr a = (Dwarf_Addr)addr;
    Dwfl_Module *mod = d ? dwfl_addrmodule(d, a) : NULL;
    out->function = mod ? dwfl_module_addrname(mod, a) : NULL;
    Dwfl_Line *l = mod ? dwfl_module_getsrc(mod, a) : NULL;
    int line = 0;
    const char *src = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
    /* a symbol libdw did not find (a module without a symbol table it
     * reads) may still be exported to the dynamic loader */
    Dl_info di;
    if (!out->function && dladdr((void *)addr, &di) && di.dli_sname)
        out->function = di.dli_sname;
    const char *base = src ? strrchr(src, '/') : NULL;
    out->file = base ? base + 1 : src;
    out->line = src && line > 0 ? line : 0;
}
