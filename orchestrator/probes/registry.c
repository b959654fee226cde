/* registry.c: the probes a measure phase reads, in order (see probe.h). */
#include "probes/probe.h"

#include <stdlib.h>

static const struct probe *const registry[] = {
    &probe_innodb, &probe_guest, &probe_hypervisor, &probe_hostdev, &probe_process,
    &probe_chain,  &probe_perfschema, &probe_tasks,
};
#define N_PROBES (sizeof(registry) / sizeof(registry[0]))
_Static_assert(N_PROBES <= PROBES_MAX, "PROBES_MAX is too small for the registry");

int probes_before(struct probe_target *pt)
{
    pt->when = 0;
    pt->read_ahead = false;
    int rc = 0;
    for (size_t i = 0; i < N_PROBES; i++)
        if (registry[i]->before(pt, &pt->state[i]) < 0)
            rc = -1;
    return rc;
}

int probes_after(struct probe_target *pt)
{
    pt->when = 1;
    int rc = 0;
    for (size_t i = 0; i < N_PROBES; i++)
        if (registry[i]->after(pt, pt->state[i]) < 0)
            rc = -1;
    pt->after_ok = rc == 0;
    return rc;
}

size_t probes_during_index(int k, size_t i, size_t n)
{
    return k == 0 ? n - 1 - i : i;
}

/* nested (probe.h) */
void probes_during(struct probe_target *pt, int k)
{
    for (size_t j = 0; j < N_PROBES; j++) {
        size_t i = probes_during_index(k, j, N_PROBES);
        if (registry[i]->during && !(k == 0 && registry[i]->ahead && pt->read_ahead))
            registry[i]->during(pt, pt->state[i], k);
    }
}

void probes_during_ahead(struct probe_target *pt)
{
    for (size_t j = 0; j < N_PROBES; j++) {
        size_t i = probes_during_index(0, j, N_PROBES);
        if (registry[i]->during && registry[i]->ahead)
            registry[i]->during(pt, pt->state[i], 0);
    }
    pt->read_ahead = true;
}

const char *probes_name(size_t i) { return i < N_PROBES ? registry[i]->name : NULL; }

void probes_record(struct probe_target *pt, struct samples *s, bool layers)
{
    for (size_t i = 0; i < N_PROBES; i++)
        registry[i]->record(pt, pt->state[i], s, layers && pt->after_ok);
}

void probes_free(struct probe_target *pt)
{
    for (size_t i = 0; i < N_PROBES; i++) {
        registry[i]->free(pt->state[i]);
        pt->state[i] = NULL;
    }
}
