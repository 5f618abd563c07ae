/* pschema.h - reading a profile file once, checked against its schema.
 *
 * dsmprof's renderers read the files through json-c, whose accessors
 * assert on a value of the wrong type, and compute with what they read (an
 * axis up to a maximum, an index from a count).  So every file is read by
 * one loader that refuses what is not a regular file or is too large,
 * parses it, and validates it against a declarative schema: for each field
 * its path, JSON type(s), numeric range (or array length) and whether it
 * must be there.  After pschema_load the renderers may assume every field
 * the schema names has its type and range; members it does not name are
 * ignored (adding members is a compatible change of a format).
 *
 * Paths: member names joined by '.', "[]" for every element of an array,
 * "*" for every member of an object (but those listed in `except`, which
 * have entries of their own).  "structures[].false_sharing.written[].ranges[][]"
 * is every number of every range of every writer of every structure.  A
 * field is checked wherever its parent exists; "required" means the parent
 * must have it.  Every parent of a field has an entry of its own, before
 * it (pschema_selfcheck verifies it; tests/pschema_unit.c runs it). */
#ifndef DSM_PSCHEMA_H
#define DSM_PSCHEMA_H

#include <json.h>
#include <stddef.h>

enum {
    PS_NULL = 1,
    PS_BOOL = 2,
    PS_INT = 4,      /* a JSON number without fraction or exponent */
    PS_DOUBLE = 8,   /* any other JSON number; must be finite */
    PS_STRING = 16,
    PS_ARRAY = 32,
    PS_OBJECT = 64,
    PS_NUMBER = PS_INT | PS_DOUBLE,
};

/* flags */
enum {
    PS_REQUIRED = 1, /* its parent must have it */
    PS_RANGE = 2,    /* numbers: min <= value <= max; arrays: elements */
};

typedef struct pschema_field {
    const char *path;
    unsigned types;     /* PS_* allowed */
    unsigned flags;
    double min, max;
    const char *equals; /* a string's only accepted value, or NULL */
    const char *except; /* for a ".*" path: member names (comma-separated) left to their own entries */
} pschema_field;

typedef struct pschema {
    const char *name; /* the "schema" string of the documents (formats.h) */
    const char *what; /* what such a file is, for messages */
    const pschema_field *fields;
    size_t nfields;
} pschema;

/* A part of the document one command needs, which the format leaves
 * optional (dsmprof flashpoint needs a dsm-sim/1 file's "flashpoint"). */
typedef struct pschema_need {
    const char *path; /* a member path without "[]" or "*" */
    const char *why;  /* the message when it is missing */
} pschema_need;

/* The formats: dsm-profile/2 (doc/profile-format.md) and dsm-sim/1 with
 * its flashpoint/1 section (doc/sim-format.md). */
extern const pschema pschema_profile;
extern const pschema pschema_sim;

/* Files larger than this are refused before reading (DSMPROF_MAX_BYTES
 * changes it, up to PSCHEMA_HARD_MAX_BYTES). */
#define PSCHEMA_MAX_BYTES (256ul << 20)
#define PSCHEMA_HARD_MAX_BYTES ((size_t)0x7fffff00)
/* JSON nesting accepted (the formats need about a dozen levels) */
#define PSCHEMA_MAX_DEPTH 32

/* Check a parsed document: 0, or -1 with one line in err naming the field
 * ("structures[2].false_sharing.share: 1.5 is out of range [0, 1]"). */
int pschema_validate(json_object *doc, const pschema *schema, char *err, size_t errlen);

/* Parse len bytes, then check that the document is an object whose
 * "schema" is schema->name, that it validates, and that every need (may be
 * NULL, else ended by a {NULL, NULL}) is present.  0 with *out (the
 * caller's), or -1 with one line in err. */
int pschema_parse(const char *buf, size_t len, const pschema *schema, const pschema_need *need,
                  json_object **out, char *err, size_t errlen);

/* pschema_parse of the file at path, which must be a regular file of at
 * most the size limit: a FIFO, a device (/dev/zero) or a directory is
 * refused before reading. */
int pschema_load(const char *path, const pschema *schema, const pschema_need *need,
                 json_object **out, char *err, size_t errlen);

/* Is the schema well formed (every parent declared before its children
 * with a container type, every `except` name declared)?  0, or -1 with the
 * first fault in err. */
int pschema_selfcheck(const pschema *schema, char *err, size_t errlen);

#endif
