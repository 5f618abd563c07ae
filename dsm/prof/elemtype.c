/* elemtype.c - an allocation's element type from DWARF (elemtype.h): the
 * scopes around the call (dwarf_getscopes), innermost first, are searched
 * for a variable declared on the call's line; its type, through typedefs
 * and qualifiers, must be a pointer to a structure (or union), whose
 * members are the fields. */
#define _GNU_SOURCE 1
#include "elemtype.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

/* Through typedefs and qualifiers; the last typedef's name is kept for an
 * anonymous structure. */
static Dwarf_Die *peel(Dwarf_Die *die, Dwarf_Die *mem, const char **tdname)
{
    for (int guard = 0; die && guard < 16; guard++) {
        int tag = dwarf_tag(die);
        if (tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
            tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type)
            return die;
        if (tag == DW_TAG_typedef && tdname)
            *tdname = dwarf_diename(die);
        Dwarf_Attribute a;
        if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, mem))
            return NULL;
        die = mem;
    }
    return NULL;
}

static Dwarf_Die *type_of(Dwarf_Die *die, Dwarf_Die *mem)
{
    Dwarf_Attribute a;
    if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, mem))
        return NULL;
    return mem;
}

/* The structure a pointer-typed DIE's type points to, into out. */
static int pointee_struct(Dwarf_Die *var, profile_type *out)
{
    Dwarf_Die m1, m2, m3, m4;
    Dwarf_Die *t = peel(type_of(var, &m1), &m2, NULL);
    if (!t || dwarf_tag(t) != DW_TAG_pointer_type)
        return 0;
    const char *tdname = NULL;
    Dwarf_Die *st = peel(type_of(t, &m3), &m4, &tdname);
    if (!st || (dwarf_tag(st) != DW_TAG_structure_type && dwarf_tag(st) != DW_TAG_union_type))
        return 0;
    Dwarf_Word size;
    if (dwarf_aggregate_size(st, &size) != 0 || !size)
        return 0;
    const char *name = dwarf_diename(st) ? dwarf_diename(st) : tdname;
    memset(out, 0, sizeof *out);
    out->name = strdup(name ? name : "(anonymous)");
    out->size = size;
    Dwarf_Die child;
    uint32_t cap = 0;
    if (out->name && dwarf_child(st, &child) == 0) {
        do {
            if (dwarf_tag(&child) != DW_TAG_member)
                continue;
            Dwarf_Attribute a;
            Dwarf_Word off = 0, fsz = 0;
            if (dwarf_attr_integrate(&child, DW_AT_data_member_location, &a) &&
                dwarf_formudata(&a, &off) != 0)
                continue; /* a location expression: not a plain offset */
            Dwarf_Die fm;
            Dwarf_Die *ft = type_of(&child, &fm);
            if (!ft || dwarf_aggregate_size(ft, &fsz) != 0)
                fsz = 0;
            if (out->nfields == cap) {
                uint32_t nc = cap ? cap * 2 : 8;
                profile_field *f = realloc(out->fields, nc * sizeof *f);
                if (!f)
                    break;
                out->fields = f;
                cap = nc;
            }
            const char *fn = dwarf_diename(&child);
            char *fname = strdup(fn ? fn : "(anonymous)");
            if (!fname)
                break;
            out->fields[out->nfields++] = (profile_field){ fname, off, fsz };
        } while (dwarf_siblingof(&child, &child) == 0);
    }
    if (!out->name) {
        profile_type_free(out);
        return 0;
    }
    return 1;
}

int prof_element_type(Dwfl *d, uintptr_t ra, profile_type *out)
{
    if (!d || !ra)
        return 0;
    Dwarf_Addr pc = (Dwarf_Addr)(ra - 1), bias;
    Dwfl_Module *mod = dwfl_addrmodule(d, pc);
    Dwarf_Die *cu = mod ? dwfl_module_addrdie(mod, pc, &bias) : NULL;
    Dwfl_Line *l = mod ? dwfl_module_getsrc(mod, pc) : NULL;
    int line = 0;
    if (!cu || !l || !dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) || line <= 0)
        return 0;
    Dwarf_Die *scopes = NULL;
    int n = dwarf_getscopes(cu, pc - bias, &scopes);
    int found = 0;
    for (int i = 0; i < n && !found; i++) {
        Dwarf_Die child;
        if (dwarf_child(&scopes[i], &child) != 0)
            continue;
        do {
            int dl = 0;
            if ((dwarf_tag(&child) == DW_TAG_variable ||
                 dwarf_tag(&child) == DW_TAG_formal_parameter) &&
                dwarf_decl_line(&child, &dl) == 0 && dl == line && pointee_struct(&child, out))
                found = 1;
        } while (!found && dwarf_siblingof(&child, &child) == 0);
    }
    free(scopes);
    return found;
}
