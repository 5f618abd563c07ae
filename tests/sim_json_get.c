/* sim_json_get.c - reads values out of a JSON file for the shell tests of
 * the simulation front end (no jq or python on a fresh Debian):
 *   sim_json_get FILE PATH...     prints each value, one per line
 *   sim_json_get --strip KEY FILE prints the document without top-level
 *                                 member KEY, canonically (compare two runs)
 * PATH is members separated by dots; a member that is an array may be
 * followed by [N] (index) or [name=VALUE] (the element whose "name" member
 * is VALUE), e.g. by_bin[name=token].invalidation or cycles.max.
 * A missing value prints "missing" and makes the exit status 1. */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_object *select_elem(json_object *arr, const char *sel)
{
    if (!json_object_is_type(arr, json_type_array))
        return NULL;
    const char *eq = strchr(sel, '=');
    size_t n = json_object_array_length(arr);
    if (!eq) {
        char *end;
        long i = strtol(sel, &end, 10);
        if (*end || i < 0 || (size_t)i >= n)
            return NULL;
        return json_object_array_get_idx(arr, (size_t)i);
    }
    char key[128];
    size_t kl = (size_t)(eq - sel);
    if (kl >= sizeof key)
        return NULL;
    memcpy(key, sel, kl);
    key[kl] = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(arr, i), *v;
        if (json_object_object_get_ex(e, key, &v) && json_object_is_type(v, json_type_string) &&
            !strcmp(json_object_get_string(v), eq + 1))
            return e;
    }
    return NULL;
}

static json_object *lookup(json_object *o, const char *path)
{
    char buf[512];
    if (strlen(path) >= sizeof buf)
        return NULL;
    strcpy(buf, path);
    for (char *part = strtok(buf, "."); part && o; part = strtok(NULL, ".")) {
        char *br = strchr(part, '[');
        if (br) {
            *br = 0;
            char *close = strchr(br + 1, ']');
            if (!close)
                return NULL;
            *close = 0;
            if (*part && !json_object_object_get_ex(o, part, &o))
                return NULL;
            o = select_elem(o, br + 1);
        } else if (!json_object_object_get_ex(o, part, &o)) {
            return NULL;
        }
    }
    return o;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--strip")) {
        json_object *root = json_object_from_file(argv[3]);
        if (!root) {
            fprintf(stderr, "sim_json_get: cannot read %s as JSON\n", argv[3]);
            return 2;
        }
        json_object_object_del(root, argv[2]);
        puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN));
        return 0;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: sim_json_get FILE PATH... | sim_json_get --strip KEY FILE\n");
        return 2;
    }
    json_object *root = json_object_from_file(argv[1]);
    if (!root) {
        fprintf(stderr, "sim_json_get: cannot read %s as JSON\n", argv[1]);
        return 2;
    }
    int rc = 0;
    for (int i = 2; i < argc; i++) {
        json_object *v = lookup(root, argv[i]);
        if (!v) {
            puts("missing");
            rc = 1;
        } else if (json_object_is_type(v, json_type_string)) {
            puts(json_object_get_string(v));
        } else {
            puts(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
        }
    }
    return rc;
}
