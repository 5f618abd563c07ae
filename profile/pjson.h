/* pjson.h - getters over a parsed profile file (json-c) that never assert.
 *
 * The reports read the files, never the runtime's structures, so that
 * every report can be rendered from a file alone.  The files are validated
 * once, when loaded (pschema.h): then every field has its type and range.
 * These getters stay tolerant all the same, so that a renderer handed an
 * unvalidated document still cannot crash: a missing key or a value of
 * the wrong type reads as 0, "" or NULL, and a profile written by an older
 * writer renders what it has. */
#ifndef DSM_PJSON_H
#define DSM_PJSON_H

#include <json.h>
#include <stdint.h>

#include "formats.h"
#include <stdio.h>
#include <string.h>

static inline json_object *pj_get(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
        return NULL;
    return v;
}

static inline int pj_is_number(json_object *v)
{
    return v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double));
}

static inline double pj_double(json_object *o, const char *key)
{
    json_object *v = pj_get(o, key);
    return pj_is_number(v) ? json_object_get_double(v) : 0.0;
}

static inline uint64_t pj_u64(json_object *o, const char *key)
{
    json_object *v = pj_get(o, key);
    if (!v)
        return 0;
    if (json_object_is_type(v, json_type_int))
        return json_object_get_uint64(v);
    if (json_object_is_type(v, json_type_double)) {
        double d = json_object_get_double(v);
        return d > 0 ? (uint64_t)d : 0;
    }
    return 0;
}

/* An integer that may be absent: returns 1 and sets *out when present. */
static inline int pj_int_opt(json_object *o, const char *key, int64_t *out)
{
    json_object *v = pj_get(o, key);
    if (!v || !json_object_is_type(v, json_type_int))
        return 0;
    *out = json_object_get_int64(v);
    return 1;
}

static inline const char *pj_str(json_object *o, const char *key)
{
    json_object *v = pj_get(o, key);
    return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

static inline json_object *pj_arr(json_object *o, const char *key)
{
    json_object *v = pj_get(o, key);
    return v && json_object_is_type(v, json_type_array) ? v : NULL;
}

static inline size_t pj_len(json_object *a)
{
    return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

static inline json_object *pj_at(json_object *a, size_t i)
{
    return i < pj_len(a) ? json_object_array_get_idx(a, i) : NULL;
}

/* The renderers' cheap sanity check of their argument (the full check is
 * the loader's, pschema.h): a dsm-profile/2 object with its required
 * members.  0, or -1 with a one-line reason in err. */
static inline int pjson_check(json_object *p, char *err, size_t errlen)
{
    if (!p || !json_object_is_type(p, json_type_object)) {
        snprintf(err, errlen, "not a JSON object");
        return -1;
    }
    json_object *s = pj_get(p, "schema");
    if (!s || !json_object_is_type(s, json_type_string)) {
        snprintf(err, errlen, "no \"schema\" key: not a dsm profile");
        return -1;
    }
    if (strcmp(json_object_get_string(s), PROFILE_SCHEMA) != 0) {
        snprintf(err, errlen, "schema \"%.64s\" is not \"" PROFILE_SCHEMA "\"",
                 json_object_get_string(s));
        return -1;
    }
    if (!pj_is_number(pj_get(p, "nodes")) || json_object_get_int(pj_get(p, "nodes")) < 1) {
        snprintf(err, errlen, "\"nodes\" missing or not a positive number");
        return -1;
    }
    if (!pj_is_number(pj_get(p, "wall_seconds"))) {
        snprintf(err, errlen, "\"wall_seconds\" missing or not a number");
        return -1;
    }
    if (!pj_arr(p, "structures")) {
        snprintf(err, errlen, "\"structures\" missing or not a list");
        return -1;
    }
    return 0;
}

#endif
