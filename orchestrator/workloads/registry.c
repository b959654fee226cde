/* registry.c: the workloads linked in, each registered by its own file at
 * start-up, and the one behind a `workload` value (see workload.h). */
#include "workloads/workload.h"

#include "scenario/keys.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>

#define WORKLOADS_MAX 32

static const struct workload_ops *registered[WORKLOADS_MAX];
static size_t n_registered;

void workload_register(const struct workload_ops *ops)
{
    if (n_registered == WORKLOADS_MAX) {
        log_error("More than %d workloads: raise WORKLOADS_MAX (workloads/registry.c).", WORKLOADS_MAX);
        abort();
    }
    registered[n_registered++] = ops;
}

size_t workload_count(void) { return n_registered; }
const struct workload_ops *workload_at(size_t i) { return i < n_registered ? registered[i] : NULL; }

const struct workload_ops *workload_ops_for(int workload)
{
    const char *value = key_choice("workload", workload);
    for (size_t i = 0; value && i < n_registered; i++)
        for (const char *const *v = registered[i]->values; *v; v++)
            if (strcmp(*v, value) == 0)
                return registered[i];
    log_error("No workload implements workload = %s (is its file linked in?).", value ? value : "?");
    abort();
}
