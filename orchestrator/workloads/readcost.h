/* readcost.h: what a read through a guest's virtual disk costs beyond a
 * read from its page cache, measured in the guest once the measure phase
 * is over.
 *
 * The untuned guest's buffer-pool misses never reach its virtual disk: the
 * guest page cache serves them. A tuned guest (O_DIRECT) sends every miss
 * through the virtual disk -- under emulation that is the guest kernel's
 * block layer, the virtio request and QEMU's side of it, CPU on the same
 * vCPU as the transaction. Nothing the untuned guest records prices that
 * path, so the prediction (report/predict.h) cannot carry its misses over.
 * This probe reads the table's own file in the guest with fio, READCOST_IOS
 * random reads of READCOST_BS bytes (an InnoDB page), the same offsets
 * twice:
 *
 *   cached  through the page cache (--direct=0, the cache not invalidated):
 *           where the untuned guest holds the table, page-cache hits
 *   direct  O_DIRECT: through the virtual disk to the host (its page cache
 *           or its device: the arm's disk_cache)
 *
 * and records each one's mean latency (fio's lat, submission to
 * completion). direct - cached is what a read pays for the virtual disk.
 * Only guests have a virtual disk: the host arm records nothing. A probe
 * that fails is said and records nothing: it never fails the run. */
#ifndef VBED_WORKLOADS_READCOST_H
#define VBED_WORKLOADS_READCOST_H

struct wl_job;

#define READCOST_IOS 300
#define READCOST_BS 16384
#define READCOST_FILE "/var/lib/mysql/sbtest/sbtest1.ibd"

/* Run it on the job's target (a guest whose sysbench tables exist) and
 * record read_probe_cached_ms, read_probe_direct_ms and read_probe_ios.
 * Always 0. */
int readcost_probe(struct wl_job *j);

#endif
