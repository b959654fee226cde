/* layers.c: snapshots of layer counters and their samples (see layers.h). */
#include "probes/layers.h"


#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

void layers_set(struct layer_snapshot *s, const char *layer, const char *name, const char *unit,
                bool gauge, double v)
{
    if (isnan(v) || isinf(v))
        return;
    size_t i = 0;
    while (i < s->n && strcmp(s->v[i].name, name) != 0)
        i++;
    if (i == s->n) {
        if (s->n == LAYERS_MAX)
            return;
        s->n++;
    }
    struct layer_value *lv = &s->v[i];
    snprintf(lv->name, sizeof(lv->name), "%s", name);
    lv->layer = layer;
    lv->unit = unit;
    lv->gauge = gauge;
    lv->device[0] = '\0';
    lv->v = v;
}

double layers_get(const struct layer_snapshot *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i].name, name) == 0)
            return s->v[i].v;
    return NAN;
}

/* ---- parsers ---- */

int layers_parse_fincore(const char *text, double *bytes)
{
    double sum = 0;
    int numbers = 0;
    for (const char *line = text; line && *line;) {
        char *end;
        double v = strtod(line, &end);
        if (end != line && (*end == '\n' || *end == '\0' || *end == ' ') && v >= 0) {
            sum += v;
            numbers++;
        }
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    if (!numbers)
        return -1;
    *bytes = sum;
    return 0;
}

void layers_add_diskstat(struct layer_snapshot *s, const char *layer, const char *prefix,
                         const struct diskstat *d)
{
    char name[LAYERS_NAME_MAX];
#define ADD(suffix, unit, value)                                                                    \
    do {                                                                                           \
        snprintf(name, sizeof(name), "%s_%s", prefix, suffix);                                     \
        layers_set(s, layer, name, unit, false, value);                                            \
    } while (0)
    ADD("reads", "count", d->reads);
    ADD("read_bytes", "bytes", d->read_sectors * 512);
    ADD("read_ms", "ms", d->read_ms);
    ADD("writes", "count", d->writes);
    ADD("write_bytes", "bytes", d->write_sectors * 512);
    ADD("write_ms", "ms", d->write_ms);
    ADD("flushes", "count", d->flushes);
    ADD("flush_ms", "ms", d->flush_ms);
#undef ADD
    for (size_t i = 0; i < s->n; i++)
        if (strncmp(s->v[i].name, prefix, strlen(prefix)) == 0 && s->v[i].name[strlen(prefix)] == '_')
            snprintf(s->v[i].device, sizeof(s->v[i].device), "%s", d->name);
}

/* ---- samples ---- */

void layers_samples(const struct layer_snapshot *before, const struct layer_snapshot *after,
                    struct samples *samples, int guest)
{
    for (size_t i = 0; i < after->n; i++) {
        const struct layer_value *a = &after->v[i];
        double value = a->v;
        if (!a->gauge) {
            double b = layers_get(before, a->name);
            if (isnan(b))
                continue; /* read once only: no delta to give */
            value = a->v - b;
        }
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "layer", json_object_new_string(a->layer));
        if (a->device[0])
            json_object_object_add(extra, "device", json_object_new_string(a->device));
        samples_add(samples, a->name, value, a->unit, guest, NULL, 0, extra);
    }
}
