/* settings_doc.c - prints the documentation of the DSM_* environment
 * variables from the settings table (dsm/settings_table.c), so that the
 * tables of README.md, doc/user-guide.md (--markdown) and doc/dsm.3 (--man)
 * are generated, never written by hand; tests/settings_doc.sh compares them
 * with the documents and rewrites them with --update.
 *   settings_doc --markdown | --man | --names */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "settings.h"

static const char *const group_lead_md[DSM_NGROUPS] = {
    [DSM_GROUP_RUNTIME] = "**The runtime.** Every node reads them at `dsm_init`; `dsmrun` checks "
                          "them before it starts the nodes.",
    [DSM_GROUP_OUTPUT] = "**What the run writes.** Node 0 writes the files; `dsmrun` and "
                         "`dsm_init` check that they can be written before the program runs.",
    [DSM_GROUP_LAUNCH] = "**The launcher and the transports.**",
    [DSM_GROUP_SIM] = "**Simulated machines** (`dsmrun --machine`, doc/simulation.md).",
    [DSM_GROUP_INTERNAL] = "**Set by `dsmrun` for each node** (internal: do not set them).",
};

static const char *const group_title_man[DSM_NGROUPS] = {
    [DSM_GROUP_RUNTIME] = "The runtime",
    [DSM_GROUP_OUTPUT] = "What the run writes",
    [DSM_GROUP_LAUNCH] = "The launcher and the transports",
    [DSM_GROUP_SIM] = "Simulated machines",
    [DSM_GROUP_INTERNAL] = "Set by dsmrun for each node",
};

static const char *const group_lead_man[DSM_NGROUPS] = {
    [DSM_GROUP_RUNTIME] = "Every node reads them at `dsm_init`; `dsmrun` checks them before it "
                          "starts the nodes.",
    [DSM_GROUP_OUTPUT] = "Node 0 writes the files; `dsmrun` and `dsm_init` check that they can "
                         "be written before the program runs.",
    [DSM_GROUP_LAUNCH] = NULL,
    [DSM_GROUP_SIM] = "Read when the program runs on a simulated machine "
                      "(`dsmrun --machine`).",
    [DSM_GROUP_INTERNAL] = "Internal: do not set them.",
};

/* ---- markdown ---- */

static void md_default(const dsm_setting *s, char *buf, size_t n)
{
    if (s->dflt)
        snprintf(buf, n, "`%s`", s->dflt);
    else
        snprintf(buf, n, "%s", s->dflt_doc ? s->dflt_doc : "");
}

/* Does a setting of group g have to agree across nodes? */
static int group_agrees(int g)
{
    for (size_t i = 0; i < dsm_nsettings; i++)
        if ((int)dsm_settings[i].group == g && (dsm_settings[i].flags & DSM_SET_AGREE))
            return 1;
    return 0;
}

/* The "same on every node" column: a file's name is node 0's business,
 * whether there is one is everybody's. */
static const char *agree_md(const dsm_setting *s)
{
    if (!(s->flags & DSM_SET_AGREE))
        return " no |";
    if (s->kind == DSM_SET_PATH)
        return s->flags & DSM_SET_OFF ? " `off` or not |" : " set or not |";
    return " yes |";
}

static void markdown(void)
{
    for (int g = 0; g < DSM_NGROUPS; g++) {
        int agree = group_agrees(g);
        printf("%s%s\n\n", g ? "\n" : "", group_lead_md[g]);
        if (g == DSM_GROUP_INTERNAL)
            printf("| variable | meaning |\n|---|---|\n");
        else if (agree)
            printf("| variable | accepts | default | same on every node | meaning |\n"
                   "|---|---|---|---|---|\n");
        else
            printf("| variable | accepts | default | meaning |\n|---|---|---|---|\n");
        for (size_t i = 0; i < dsm_nsettings; i++) {
            const dsm_setting *s = &dsm_settings[i];
            if ((int)s->group != g)
                continue;
            if (g == DSM_GROUP_INTERNAL) {
                printf("| `%s` | %s |\n", s->name, s->doc);
                continue;
            }
            char acc[256], dflt[128];
            dsm_setting_accepts(s, NULL, 1, acc, sizeof acc);
            md_default(s, dflt, sizeof dflt);
            printf("| `%s` | %s | %s |%s %s |\n", s->name, acc, dflt, !agree ? "" : agree_md(s),
                   s->doc);
        }
    }
}

/* ---- man (roff) ---- */

/* Text with `code` in bold, escaped for roff: backslash, a dot or quote
 * at the start of a line, and minus signs in code (options). */
static void roff(const char *t)
{
    int code = 0;
    for (const char *p = t; *p; p++) {
        if (*p == '`') {
            fputs(code ? "\\fR" : "\\fB", stdout);
            code = !code;
        } else if (*p == '\\') {
            fputs("\\e", stdout);
        } else if (*p == '-' && code) {
            fputs("\\-", stdout);
        } else {
            putchar(*p);
        }
    }
    if (code)
        fputs("\\fR", stdout);
}

static void man(void)
{
    for (int g = 0; g < DSM_NGROUPS; g++) {
        printf(".SS %s\n", group_title_man[g]);
        if (group_lead_man[g]) {
            fputs("\\&", stdout);
            roff(group_lead_man[g]);
            putchar('\n');
        }
        for (size_t i = 0; i < dsm_nsettings; i++) {
            const dsm_setting *s = &dsm_settings[i];
            if ((int)s->group != g)
                continue;
            char doc[512]; /* a sentence in the man page */
            snprintf(doc, sizeof doc, "%s", s->doc);
            doc[0] = (char)toupper((unsigned char)doc[0]);
            printf(".TP\n.B %s\n\\&", s->name);
            roff(doc);
            if (g == DSM_GROUP_INTERNAL) {
                puts(".");
                continue;
            }
            char acc[256], dflt[128];
            dsm_setting_accepts(s, NULL, 1, acc, sizeof acc);
            if (s->dflt)
                snprintf(dflt, sizeof dflt, "`%s`", s->dflt);
            else
                snprintf(dflt, sizeof dflt, "%s", s->dflt_doc ? s->dflt_doc : "none");
            fputs(".\n\\&Accepts ", stdout);
            roff(acc);
            fputs("; default ", stdout);
            roff(dflt);
            puts(".");
            if ((s->flags & DSM_SET_AGREE) && s->kind == DSM_SET_PATH)
                printf("Whether it is %s must be the same on every node (compared at\n"
                       ".BR dsm_init );\nthe file name is node 0's.\n",
                       s->flags & DSM_SET_OFF ? "off" : "set");
            else if (s->flags & DSM_SET_AGREE)
                puts("Must be the same on every node (compared at\n.BR dsm_init ).");
        }
    }
}

int main(int argc, char **argv)
{
    const char *what = argc == 2 ? argv[1] : "";
    if (!strcmp(what, "--markdown")) {
        markdown();
    } else if (!strcmp(what, "--man")) {
        man();
    } else if (!strcmp(what, "--names")) {
        for (size_t i = 0; i < dsm_nsettings; i++)
            puts(dsm_settings[i].name);
    } else {
        fprintf(stderr, "usage: settings_doc --markdown | --man | --names\n");
        return 2;
    }
    return ferror(stdout) ? 1 : 0;
}
