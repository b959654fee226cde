/* aptsources.c: read deb and deb822 apt sources (see aptsources.h). */
#include "image/aptsources.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

static int wanted_suite(const char *suite, const char *want)
{
    size_t n = strlen(want);
    return strncmp(suite, want, n) == 0 && (suite[n] == '\0' || suite[n] == '-');
}

static void add(struct apt_sources *s, const char *uri, const char *suite, const char *comps,
                const char *want)
{
    if (!wanted_suite(suite, want) || s->n >= APT_MAX_ENTRIES)
        return;
    char u[512];
    snprintf(u, sizeof(u), "%s", uri);
    size_t ul = strlen(u);
    while (ul > 1 && u[ul - 1] == '/')
        u[--ul] = '\0';
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->e[i].uri, u) == 0 && strcmp(s->e[i].suite, suite) == 0)
            return;
    struct apt_entry *e = &s->e[s->n++];
    snprintf(e->uri, sizeof(e->uri), "%s", u);
    snprintf(e->suite, sizeof(e->suite), "%s", suite);
    snprintf(e->components, sizeof(e->components), "%s", comps);
}

/* "deb [opts] uri suite comp..." */
static void read_list(FILE *f, struct apt_sources *s, const char *want)
{
    char line[2048];
    while (fgets(line, sizeof(line), f)) {
        char *p = trim(line);
        if (strncmp(p, "deb", 3) != 0 || !isspace((unsigned char)p[3]))
            continue;
        p = trim(p + 3);
        if (*p == '[') {
            char *close = strchr(p, ']');
            if (!close)
                continue;
            p = trim(close + 1);
        }
        char *save = NULL;
        char *uri = strtok_r(p, " \t", &save);
        char *suite = uri ? strtok_r(NULL, " \t", &save) : NULL;
        char *comps = suite ? trim(save) : NULL;
        if (uri && suite && comps && *comps)
            add(s, uri, suite, comps, want);
    }
}

/* deb822 stanzas: Types/URIs/Suites/Components, blank-line separated */
static void read_sources(FILE *f, struct apt_sources *s, const char *want)
{
    char line[2048], types[256] = "", uris[1024] = "", suites[512] = "", comps[256] = "";
    int enabled = 1;
    for (;;) {
        char *got = fgets(line, sizeof(line), f);
        char *p = got ? trim(line) : NULL;
        if (!got || !*p) {
            if (enabled && *uris && *suites && strcmp(types, "deb") == 0) {
                char ucopy[1024], scopy[512];
                snprintf(ucopy, sizeof(ucopy), "%s", uris);
                char *us = NULL;
                for (char *u = strtok_r(ucopy, " \t", &us); u; u = strtok_r(NULL, " \t", &us)) {
                    snprintf(scopy, sizeof(scopy), "%s", suites);
                    char *ss = NULL;
                    for (char *su = strtok_r(scopy, " \t", &ss); su; su = strtok_r(NULL, " \t", &ss))
                        add(s, u, su, comps, want);
                }
            }
            types[0] = uris[0] = suites[0] = comps[0] = '\0';
            enabled = 1;
            if (!got)
                break;
            continue;
        }
        if (*p == '#')
            continue;
        char *colon = strchr(p, ':');
        if (!colon)
            continue;
        *colon = '\0';
        char *val = trim(colon + 1);
        if (!strcasecmp(p, "Types")) {
            /* "deb deb-src": only binary entries matter */
            char tcopy[256];
            snprintf(tcopy, sizeof(tcopy), "%s", val);
            types[0] = '\0';
            char *ts = NULL;
            for (char *t = strtok_r(tcopy, " \t", &ts); t; t = strtok_r(NULL, " \t", &ts))
                if (strcmp(t, "deb") == 0)
                    snprintf(types, sizeof(types), "deb");
        } else if (!strcasecmp(p, "URIs"))
            snprintf(uris, sizeof(uris), "%s", val);
        else if (!strcasecmp(p, "Suites"))
            snprintf(suites, sizeof(suites), "%s", val);
        else if (!strcasecmp(p, "Components"))
            snprintf(comps, sizeof(comps), "%s", val);
        else if (!strcasecmp(p, "Enabled"))
            enabled = strcasecmp(val, "no") != 0;
    }
}

static int by_suite(const void *a, const void *b)
{
    const struct apt_entry *x = a, *y = b;
    int c = strcmp(x->suite, y->suite);
    return c ? c : strcmp(x->uri, y->uri);
}

int apt_sources_parse(const char *text, size_t len, bool deb822, const char *suite,
                      struct apt_sources *out)
{
    memset(out, 0, sizeof(*out));
    FILE *f = len ? fmemopen((void *)text, len, "r") : NULL;
    if (f) {
        if (deb822)
            read_sources(f, out, suite);
        else
            read_list(f, out, suite);
        fclose(f);
    }
    qsort(out->e, out->n, sizeof(out->e[0]), by_suite);
    return (int)out->n;
}

int apt_sources_read(const char *root, const char *suite, struct apt_sources *out)
{
    memset(out, 0, sizeof(*out));
    char path[4096];
    snprintf(path, sizeof(path), "%s/etc/apt/sources.list", root);
    FILE *f = fopen(path, "r");
    if (f) {
        read_list(f, out, suite);
        fclose(f);
    }
    snprintf(path, sizeof(path), "%s/etc/apt/sources.list.d", root);
    DIR *d = opendir(path);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d))) {
            size_t n = strlen(de->d_name);
            int is_list = n > 5 && strcmp(de->d_name + n - 5, ".list") == 0;
            int is_sources = n > 8 && strcmp(de->d_name + n - 8, ".sources") == 0;
            if (!is_list && !is_sources)
                continue;
            char file[4600];
            snprintf(file, sizeof(file), "%s/%s", path, de->d_name);
            f = fopen(file, "r");
            if (!f)
                continue;
            if (is_list)
                read_list(f, out, suite);
            else
                read_sources(f, out, suite);
            fclose(f);
        }
        closedir(d);
    }
    qsort(out->e, out->n, sizeof(out->e[0]), by_suite);
    return (int)out->n;
}

const char *apt_sources_mirror(const struct apt_sources *s, const char *suite)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->e[i].suite, suite) == 0)
            return s->e[i].uri;
    return NULL;
}

void apt_sources_override_mirror(struct apt_sources *s, const char *suite, const char *uri)
{
    const char *old = apt_sources_mirror(s, suite);
    char was[512];
    snprintf(was, sizeof(was), "%s", old ? old : "");
    for (size_t i = 0; i < s->n; i++)
        if (!old || strcmp(s->e[i].uri, was) == 0)
            snprintf(s->e[i].uri, sizeof(s->e[i].uri), "%s", uri);
    if (!old && s->n < APT_MAX_ENTRIES) {
        struct apt_entry *e = &s->e[s->n++];
        snprintf(e->uri, sizeof(e->uri), "%s", uri);
        snprintf(e->suite, sizeof(e->suite), "%s", suite);
        snprintf(e->components, sizeof(e->components), "main");
        qsort(s->e, s->n, sizeof(s->e[0]), by_suite);
    }
}

void apt_sources_format(const struct apt_sources *s, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < s->n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "deb %s %s %s\n", s->e[i].uri,
                                 s->e[i].suite, s->e[i].components);
}
