/* bufferpool.h: the memory a target leaves InnoDB -- what buffer_pool =
 * auto gives it, and what every target states for the prediction of a
 * tuned arm (model/predict.h).
 *
 * Measured once the server answers and before sysbench loads its tables:
 * the target's memory resident outside the buffer pool -- a guest's memory
 * - MemAvailable - the pool's pages in use (its kernel, its processes,
 * mariadbd outside its pool); a host arm's mariadbd's resident memory - the
 * pool's pages in use. scenario/workingset.h's ws_pool_auto turns it into
 * the pool (less sysbench's memory and a margin). bufferpool_resize sets
 * the pool online (SET GLOBAL innodb_buffer_pool_size) and waits for
 * InnoDB to finish. */
#ifndef VBED_BUFFERPOOL_H
#define VBED_BUFFERPOOL_H

#include "scenario/keys.h"
#include "scenario/workingset.h"
#include "targets/target.h"

/* What cfg's target t leaves InnoDB (above; out->pool is what auto gives
 * it). 0, or -1 if its memory outside the pool cannot be read (said why in
 * why). */
int bufferpool_measure(struct target *t, const struct run_config *cfg, struct ws_pool *out,
                       char *why, size_t len);
/* Set t's pool to bytes online; *actual: the size InnoDB settled on. 0, or
 * -1 reported (timeout: seconds). */
int bufferpool_resize(struct target *t, long long bytes, long timeout, long long *actual);
/* The pool's size now (@@innodb_buffer_pool_size); -1 if unknown. */
long long bufferpool_size(struct target *t);

#endif
