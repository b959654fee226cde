/* readcost.h: what a read and a page write through a guest's virtual disk
 * cost beyond the same through its page cache, measured in the guest once
 * the measure phase is over.
 *
 * The untuned guest's buffer-pool misses never reach its virtual disk: the
 * guest page cache serves them, and its page writes land there too. A
 * tuned guest (O_DIRECT) sends every miss and every page write through the
 * virtual disk -- under emulation that is the guest kernel's block layer,
 * the virtio request and QEMU's side of it, CPU on the guest's vCPUs.
 * Nothing the untuned guest records prices that path, so the prediction
 * (model/predict.h) cannot carry its misses and writes over. This probe,
 * with fio in the guest, READCOST_IOS requests of READCOST_BS bytes (an
 * InnoDB page) each time, the same offsets each time:
 *
 *   cached reads   the table's own file through the page cache (--direct=0,
 *                  the cache not invalidated): where the untuned guest
 *                  holds the table, page-cache hits
 *   direct reads   the same with O_DIRECT: through the virtual disk to the
 *                  host (its page cache or its device: the arm's disk_cache)
 *   direct writes  random writes with O_DIRECT into READCOST_WRITE_FILE
 *                  (READCOST_WRITE_SIZE bytes laid out first, beside the
 *                  tables, on their filesystem), no fsync
 *   cached writes  the same through the page cache (what a page write costs
 *                  its writer there; the guest kernel's writeback later is
 *                  in the untuned guest's own budget); the file is removed
 *
 * and records each one's mean latency (fio's lat, submission to
 * completion), its thread's CPU per request (fio's usr_cpu + sys_cpu over
 * the job: under emulation the guest kernel's block layer and the virtio
 * request's exit into QEMU run on the submitting thread's vCPU; what the
 * completion's interrupt takes while the thread sleeps is not in it), and
 * the guest's whole QEMU process's CPU on the host per request
 * (target_cpu_s around the job: everything the request costs the host,
 * interrupts, wake-ups and QEMU's I/O threads too, and fio's start and
 * exit, which cost both jobs of a pair alike). A warm-up job of
 * READCOST_WARM_IOS direct reads runs first: under emulation a code path's
 * first run is mostly its translation (20 cached reads took 0.9 ms of CPU
 * each, later ones 0.09). The guest's whole busy CPU (/proc/stat) around
 * each job was tried first: it was fio's start and exit (0.8 s of CPU
 * under TCG) and the other guest's background, the two guests of one run
 * parting by 0.3 ms a request.
 * Only guests have a virtual disk: the host arm records nothing. A probe
 * that fails is said and records nothing more (the reads' figures stay
 * where only the writes fail): it never fails the run. */
#ifndef VBED_WORKLOADS_READCOST_H
#define VBED_WORKLOADS_READCOST_H

struct wl_job;

/* requests per job, at most (fio stops at the file's end: a table smaller
 * than 1000 pages is read once through): its thread's first ones run code
 * translated anew under emulation (20 cached reads took 0.9 ms of CPU
 * each, later ones 0.09), a few hundredths of a millisecond a request over
 * 1000 */
#define READCOST_IOS 1000
/* the warm-up job's, before the first pair */
#define READCOST_WARM_IOS 20
#define READCOST_BS 16384
#define READCOST_FILE "/var/lib/mysql/sbtest/sbtest1.ibd"
#define READCOST_WRITE_FILE "/var/lib/mysql/vbed-write-probe"
#define READCOST_WRITE_SIZE (16LL << 20)

/* Run it on the job's target (a guest whose sysbench tables exist) and
 * record read_probe_cached_ms, read_probe_direct_ms, read_probe_ios,
 * write_probe_cached_ms, write_probe_direct_ms; where fio reported its CPU,
 * {read,write}_probe_{cached,direct}_cpu_ms; where the host's CPU of the
 * guest could be read, {read,write}_probe_{cached,direct}_host_ms. Always
 * 0. */
int readcost_probe(struct wl_job *j);

#endif
