/* proto_table_doc.c - prints the engine's transition tables (protocol/table.c)
 * as Markdown: every (state, event) pair of the cache side and of the
 * directory side, with its next state and action steps, or why it is
 * rejected, and the options an entry needs (an engine created without them
 * rejects it).  doc/protocol.md carries this output between two marker lines;
 * tests/proto_doc.sh checks that it is current (and rewrites it with
 * --update).
 *
 * usage: proto_table_doc > tables.md */
#include "proto.h"

#include <stdio.h>

/* Markdown table cells: no '|' and no newline. */
static void cell(const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", stdout);
        else if (*s == '\n')
            putchar(' ');
        else
            putchar(*s);
    }
}

static void entry(const char *state, const char *event, const char *next,
                  const proto_table_entry *t)
{
    printf("| %s | %s | ", state, event);
    if (!t->valid) {
        printf("- | rejected: ");
        cell(t->why ? t->why : "");
        printf(" |\n");
        return;
    }
    printf("%s | ", next);
    if (!t->steps[0])
        printf("(nothing)");
    for (int i = 0; i < PROTO_MAX_STEPS && t->steps[i]; i++) {
        if (i)
            printf("; ");
        cell(proto_step_name(t->steps[i]));
    }
    if (t->needs) {
        printf(" (only with ");
        cell(proto_needs_name(t->needs));
        if (t->or_needs) {
            printf(", or with ");
            cell(proto_needs_name(t->or_needs));
        }
        printf(")");
    }
    printf(" |\n");
}

int main(void)
{
    int valid = 0, total = 0;
    printf("### Cache side (every node, every block)\n\n");
    printf("| State | Event | Next | Actions |\n|---|---|---|---|\n");
    for (int s = 0; s < PC_NSTATES; s++)
        for (int e = 0; e < CE_NEVENTS; e++) {
            const proto_table_entry *t = &proto_cache_table[s][e];
            entry(proto_cache_state_name(s), proto_cache_event_name(e),
                  proto_cache_state_name(t->next), t);
            valid += t->valid;
            total++;
        }
    printf("\n### Directory side (at the home of each block)\n\n");
    printf("| State | Event | Next | Actions |\n|---|---|---|---|\n");
    for (int s = 0; s < PD_NSTATES; s++)
        for (int e = 0; e < DE_NEVENTS; e++) {
            const proto_table_entry *t = &proto_dir_table[s][e];
            entry(proto_dir_state_name(s), proto_dir_event_name(e), proto_dir_state_name(t->next),
                  t);
            valid += t->valid;
            total++;
        }
    printf("\n%d of %d (state, event) pairs are in the tables; the others are rejected "
           "(PROTO_EREJECT) with the reason shown, and so are those marked \"only with\" "
           "options by an engine created without these options (`proto_config`).\n",
           valid, total);
    return 0;
}
