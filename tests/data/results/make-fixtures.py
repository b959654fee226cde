#!/usr/bin/env python3
"""make-fixtures.py: write the two results-directory fixtures of the report
tests, following results/README.md (samples.jsonl, meta.json, scenario.ini).

Not run by the tests: the fixtures are checked in. Rerun it (python3
tests/data/results/make-fixtures.py from the source tree) only to change
them, then regenerate the golden files (VBED_UPDATE_GOLDEN=1) and review.

  quickstart-cache/             quickstart with the guest arm's cache mode as
                                an axis (writeback, writethrough): 2 variants,
                                host + guest (2 guests) + tuned, 3 repeats,
                                TCG, complete. Run 6 drifts (guest 1 still
                                warming up), run 8 starts its guests 3.5 s
                                apart.
  quickstart-trx2-interrupted/  the same with flush_log_at_trx_commit = 2,
                                interrupted (SIGKILL) while writing run 7:
                                the last line of samples.jsonl is cut short.
                                As vbed writes it: meta.json lists the runs
                                that started (run 7 "interrupted"); runs 8 to
                                12 never started and are not in it.
  quickstart-guests/            guests as a variant axis (guest arm: guests =
                                1, 2), host + guest + tuned, 2 repeats, arms
                                in a shuffled order, with every sample of
                                issue 9 (working set, warm-up, steady state,
                                noise) and the placement in meta.json, as
                                vbed writes them: the tuned arm's data fits
                                in its buffer pool, one host run was stolen
                                from, one warm-up hit its cap, a host figure
                                is not available (null).

  quickstart-layers/            quickstart with compression as an axis
                                (row-zlib, none), host + guest (2 guests) +
                                tuned, 2 repeats, with the per-layer
                                counters of issue 10 (labels.layer: workload,
                                innodb, guest, hypervisor, host): where a
                                transaction's time goes. Variant 2's guest
                                arm is not explained by the model (a large
                                residual) and its guest block reads exceed
                                InnoDB's; its tuned arm lacks the flush
                                counters (absent, never 0).
  quickstart-layers-b/          the same run again, its guest arm waiting
                                less for reads and its tuned arm spending
                                less CPU (variant 1): B of vbed compare.
                                Both also hold the foreground chain's states
                                and performance_schema's per-thread sums of
                                issue 20 (labels.layer workload and innodb:
                                chain_*, ps_*): the budget of each arm.
                                Variant 2's guest arm does not close (other
                                19 % of its time); its tuned arm has no
                                commit-stage sum (commit I/O n/a).

The figures are sized as measured under TCG on the development machines
(results/README.md, /work/shared/DESIGN.md): a guest does tens of TPS, the
private host mariadbd hundreds.
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

SCENARIO = """; quickstart-cache.ini: quickstart.ini with the guest arm's disk cache mode as
; an axis: writeback (the paper's untuned guest) and writethrough.

[global]
workload     = oltp_read_write
tables       = 1
table_size   = 10000
threads      = 1
warmup       = 10s
duration     = 30s
compression  = row-zlib
buffer_pool  = 64M
memory       = 1G
vcpus        = 1
disk_size    = 1G
drop_caches  = yes
repeats      = 3
{extra}
[host]
arm          = host
flush_method = fsync

[guest]
arm          = guest
guests       = 2
disk_cache   = writeback, writethrough
flush_method = fsync

[tuned]
arm          = guest
disk_cache   = none
disk_io      = native
disk_format  = raw
flush_method = O_DIRECT
"""

# the specs in plan order: (arm, kind, guests, variants, disk_cache, flush_method)
SPECS = [
    ("host", "host", 1, [1, 2], None, "fsync"),
    ("guest", "guest", 2, [1], "writeback", "fsync"),
    ("tuned", "guest", 1, [1, 2], "none", "O_DIRECT"),
    ("guest", "guest", 2, [2], "writethrough", "fsync"),
]


def config_of(spec, trx, repeats=3):
    arm, kind, guests, _, cache, flush = spec
    c = {"workload": "oltp_read_write", "tables": "1", "table_size": "10000", "threads": "1",
         "duration": "30s", "warmup": "10s", "report_interval": "1s", "compression": "row-zlib",
         "key_block_size": "8", "buffer_pool": "64M", "flush_method": flush,
         "flush_log_at_trx_commit": str(trx), "vcpus": "1", "memory": "1G",
         "repeats": str(repeats), "repeats_max": "10", "cv_target": "5"}
    if kind == "guest":
        c.update({"guests": str(guests), "disk_cache": cache,
                  "disk_format": "raw" if cache == "none" else "qcow2",
                  "disk_io": "native" if cache == "none" else "threads", "disk_size": "1G",
                  "filesystem": "ext4", "virt_type": "auto"})
    else:
        c["host_match"] = "guest"
    return c


class Writer:
    def __init__(self, name, rnd):
        self.name, self.rnd, self.lines = name, rnd, []

    def add(self, labels, metric, value, unit, guest, source, ts, **extra):
        lab = dict(labels)
        lab["guest"] = guest
        lab.update(extra)
        sample = {"metric": metric, "value": value, "unit": unit, "labels": lab,
                  "timestamp": round(ts, 3)}
        if source:  # figures not read from a log (mincore, /proc/meminfo) have none
            sample["source"] = source
        self.lines.append(json.dumps(sample, separators=(",", ":")))


def slope(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def one_run(w, scn, session, seq, rep, spec, level, t0, skew=0.4, drift_guest=0, new=None,
            compressed=True, cmp_ms=None):
    """All samples of one run; returns the time the run ended. new: the
    samples of issue 9 (working set, warm-up, noise) with their own random
    numbers, so that the older fixtures stay as they were. compressed:
    False for compression = none (no compression figures, the table's
    allocated size is its logical size). cmp_ms: the compression CPU per
    transaction (ms) of the INNODB_CMP times, instead of the old fixtures'
    fixed 1 ms."""
    arm, kind, guests, variants, cache, _ = spec
    rnd = w.rnd
    run = "%s-%03d" % (session, seq)
    rdir = "runs/%03d-%s" % (seq, arm)
    accel = "none" if new and kind == "host" else "tcg"
    labels = {"scenario": scn, "run": run, "seq": seq, "repeat": rep, "arm": arm,
              "arm_kind": kind, "variants": variants, "accel": accel}
    logical = new["logical"] if new else 10485760
    boot = 0.0 if kind == "host" else 55.0 + rnd.uniform(-4, 4)
    starts = [0.0] if kind == "host" else [rnd.uniform(0, skew) for _ in range(guests)]
    starts[0] = 0.0
    if kind == "guest" and guests > 1:
        starts[-1] = skew
    t_measure = t0 + boot + 25.0 + 10.2  # boot, prepare, warm-up
    arm_tps, window_lo, window_hi = 0.0, max(starts), 30.0 + min(starts)
    for g in range(1, guests + 1):
        gnum = 0 if kind == "host" else g
        gdir = "%s/%s" % (rdir, "host" if kind == "host" else "guest-%d" % g)
        own = level * rnd.uniform(0.97, 1.03)
        ts0 = t_measure + starts[g - 1]
        for k in range(1, 11):  # warm-up: the buffer pool fills
            t = -10.2 + k
            v = own * (0.35 + 0.06 * k) * rnd.uniform(0.92, 1.08)
            w.add(labels, "tps_interval", round(v, 2), "tx/s", gnum, gdir + "/sysbench-warmup.out",
                  ts0 + t, phase="warmup", t=round(t, 1))
        xs, ys = [], []
        for k in range(1, 31):
            trend = 1.0 + (0.16 * (k - 15.5) / 29 if g == drift_guest else 0.0)
            v = round(own * trend * rnd.uniform(0.93, 1.07), 2)
            xs.append(k)
            ys.append(v)
            w.add(labels, "tps_interval", v, "tx/s", gnum, gdir + "/sysbench-measure.out", ts0 + k,
                  phase="measure", t=float(k))
        mean = sum(ys) / len(ys)
        common = [y for x, y in zip(xs, ys) if starts[g - 1] + x > window_lo and
                  starts[g - 1] + x <= window_hi + 1e-9]
        arm_tps += sum(common) / len(common)
        src = gdir + "/sysbench-measure.out"
        tend = ts0 + 30.0
        ml = dict(labels, phase="measure")
        tps = round(mean, 2)
        w.add(ml, "tps", tps, "tx/s", gnum, src, tend)
        for metric, q in (("qps", 20), ("qps_read", 14), ("qps_write", 4), ("qps_other", 2)):
            w.add(ml, metric, round(tps * q, 2), "q/s", gnum, src, tend)
        lat = 1000.0 / tps
        w.add(ml, "latency_avg_ms", round(lat, 2), "ms", gnum, src, tend)
        w.add(ml, "latency_p95_ms", round(lat * rnd.uniform(1.3, 1.5), 2), "ms", gnum, src, tend)
        w.add(ml, "latency_max_ms", round(lat * rnd.uniform(3, 6), 2), "ms", gnum, src, tend)
        w.add(ml, "errors_per_s", 0.0, "1/s", gnum, src, tend)
        w.add(ml, "reconnects_per_s", 0.0, "1/s", gnum, src, tend)
        drift = slope(xs, ys) * (xs[-1] - xs[0]) / mean
        if new:
            w.add(ml, "steady_state_drift", round(drift, 4), "ratio", gnum, src, tend,
                  steady="yes" if abs(drift) <= 0.1 else "no")
        else:
            w.add(ml, "steady_state_drift", round(drift, 4), "ratio", gnum, src, tend)
        alloc = (logical // 2 if compressed else logical) + 16384 * rnd.randint(0, 8)
        w.add(dict(labels, phase="prepare"), "table_bytes_allocated", alloc, "bytes", gnum,
              gdir + "/sysbench-prepare.out", t_measure - 10.2)
        w.add(dict(labels, phase="prepare"), "table_bytes_logical", logical, "bytes", gnum,
              gdir + "/sysbench-prepare.out", t_measure - 10.2)
        if compressed:
            w.add(ml, "compression_ratio", round(logical / alloc, 4), "ratio", gnum,
                  gdir + "/sysbench-prepare.out", tend)
        if new:
            nr = new["rnd"]
            pl = dict(labels, phase="prepare")
            w.add(dict(pl, fits=new["fits"], basis="on_disk"), "working_set_bytes", alloc, "bytes",
                  gnum, gdir + "/sysbench-prepare.out", t_measure - 10.2)
            w.add(pl, "buffer_pool_bytes", new["buffer_pool"], "bytes", gnum, None,
                  t_measure - 10.2)
            if kind == "guest":
                w.add(pl, "guest_memory_bytes", 1073741824, "bytes", gnum, None, t_measure - 10.2)
            else:
                w.add(pl, "host_memory_bytes", 8589934592, "bytes", gnum, None, t_measure - 10.2)
            capped = (seq, g) == new.get("warmup_cap")
            warm = 120.0 if capped else 10.0 * nr.randint(2, 4)
            w.add(dict(labels, phase="warmup", steady="no" if capped else "yes", mode="auto"),
                  "warmup_s", warm, "s", gnum, gdir + "/sysbench-warmup.out", t_measure)
            if kind == "guest":
                w.add(ml, "guest_steal_pct", round(nr.uniform(0.1, 1.5), 2), "%", gnum, None,
                      tend)
        ops = int(tps * 30 * 4.1)
        if compressed:
            w.add(ml, "cmp_compress_ops", ops, "count", gnum, src, tend)
            w.add(ml, "cmp_compress_ops_ok", int(ops * 0.81), "count", gnum, src, tend)
            c_s, u_s = ops * 0.00021, ops * 0.00004
            if cmp_ms is not None:
                c_s, u_s = tps * 30 * cmp_ms * 0.8 / 1000, tps * 30 * cmp_ms * 0.2 / 1000
            w.add(ml, "cmp_compress_time_s", round(c_s, 3), "s", gnum, src, tend)
            w.add(ml, "cmp_uncompress_ops", int(ops * 0.3), "count", gnum, src, tend)
            w.add(ml, "cmp_uncompress_time_s", round(u_s, 3), "s", gnum, src, tend)
        req = int(tps * 30 * 182)
        reads = int(req * rnd.uniform(0.001, 0.004) * (1 if kind == "host" else 6))
        w.add(ml, "bp_read_requests", req, "count", gnum, src, tend)
        w.add(ml, "bp_reads", reads, "count", gnum, src, tend)
        w.add(ml, "bp_hit_ratio", round(1 - reads / req, 5), "ratio", gnum, src, tend)
        if kind == "guest":
            resident = {"writeback": 20.6, "writethrough": 19.2, "none": 0.0}[cache] * 2 ** 20
            before = int(resident * 0.88 * rnd.uniform(0.97, 1.03)) // 4096 * 4096
            after = int(resident * rnd.uniform(0.97, 1.03)) // 4096 * 4096
            w.add(labels, "host_cache_data_bytes", before, "bytes", gnum, None, ts0, when="before")
            w.add(labels, "host_cache_data_bytes", after, "bytes", gnum, None, tend, when="after")
            w.add(dict(labels, phase="boot"), "boot_to_ready_s", round(boot, 1), "s", gnum,
                  gdir + "/console.log", t0 + boot)
    tend = t_measure + 30.0 + skew
    window = window_hi - window_lo
    w.add(dict(labels, phase="measure"), "tps_arm", round(arm_tps, 3), "tx/s", 0, rdir, tend)
    w.add(dict(labels, phase="measure"), "measure_window_s",
          round(window, 3), "s", 0, rdir, tend)
    w.add(dict(labels, phase="measure"), "measure_start_skew_s",
          round(0.0 if kind == "host" else window_lo, 3), "s", 0, rdir, tend)
    for when, ts in (("before", t_measure), ("after", tend)):
        w.add(labels, "host_cached_bytes", int(2.1e9 + rnd.uniform(0, 2e8)), "bytes", 0, None, ts,
              when=when)
        w.add(labels, "host_dirty_bytes", int(rnd.uniform(1e6, 4e7)), "bytes", 0, None, ts,
              when=when)
    w.add(dict(labels, phase="measure"), "vbed_cpu_s", round(rnd.uniform(0.4, 1.2), 2), "s", 0,
          None, tend)
    if new:
        nr = new["rnd"]
        ml = dict(labels, phase="measure")
        steal = new["host_steal"].get(seq, round(nr.uniform(0.2, 1.8), 2))
        other = new["host_other"].get(seq, round(nr.uniform(1.0, 4.0), 2))
        w.add(ml, "host_steal_pct", steal, "%", 0, None, tend)
        w.add(ml, "host_other_cpu_pct", other, "%", 0, None, tend)
    return tend + 20.0


def fixture(name, scn, trx, session, levels, stop_after=None, cut_run=None, seed=1):
    rnd = random.Random(seed)
    w = Writer(name, rnd)
    d = os.path.join(HERE, name)
    os.makedirs(d, exist_ok=True)
    t0 = 1796000400.0  # 2026-11-30T01:00:00Z
    t = t0 + 150.0     # the image was cached
    runs, seq, cut_at = [], 0, None
    for rep in (1, 2, 3):
        for spec in SPECS:
            seq += 1
            status = "ok"
            if stop_after is not None and seq > stop_after:
                status = "interrupted" if seq == cut_run else "pending"
            if status == "pending":
                continue  # vbed adds a run to meta.json when it starts
            before = len(w.lines)
            t = one_run(w, scn, session, seq, rep, spec, levels[SPECS.index(spec)], t,
                        skew=3.5 if seq == 8 else 0.4, drift_guest=1 if seq == 6 else 0)
            if status == "interrupted":
                # killed while writing: half of guest 1's intervals, then a cut line
                cut_at = before + 17
            runs.append({"seq": seq, "run": "%s-%03d" % (session, seq), "arm": spec[0],
                         "arm_kind": spec[1], "repeat": rep, "variants": spec[3],
                         "status": status, "dir": "runs/%03d-%s" % (seq, spec[0]),
                         "config": config_of(spec, trx)})
    lines = w.lines
    tail = ""
    if cut_at is not None:
        tail = lines[cut_at][:97]
        lines = lines[:cut_at]
    with open(os.path.join(d, "samples.jsonl"), "w") as f:
        f.write("".join(line + "\n" for line in lines) + tail)
    extra = "flush_log_at_trx_commit = %d\n" % trx if trx != 1 else ""
    text = SCENARIO.format(extra=extra)
    if trx != 1:
        text = text.replace("quickstart-cache.ini", "quickstart-trx2.ini", 1)
    with open(os.path.join(d, "scenario.ini"), "w") as f:
        f.write(text)
    import hashlib
    import time
    iso = lambda x: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(x))
    meta = {
        "vbed_version": "0.1-12-g3f2c9d1", "git_describe": "v0.1-12-g3f2c9d1",
        "status": "complete" if stop_after is None else "interrupted",
        "scenario": {"name": scn, "sha256": hashlib.sha256(text.encode()).hexdigest()},
        "host": {"hostname": "bench1", "kernel": "6.1.0-28-amd64",
                 "cpu_model": "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", "cpus": 2,
                 "memory_bytes": 8589934592},
        "accel": "tcg",
        "accel_reason": "/dev/kvm is absent: libvirt offers only domain type qemu",
        "libvirt": {"uri": "qemu:///system", "version": "9.0.0", "qemu_version": "7.2.19"},
        "versions": {"mariadb_host": "10.11.14-MariaDB-0+deb12u2",
                     "mariadb_guest": "10.11.14-MariaDB-0+deb12u2", "sysbench": "1.0.20"},
        "image": {"id": "debian-mariadb-651051847e90",
                  "hash": "651051847e90c4b1f8a2d3e5b7c9a0f1e2d3c4b5a6978877665544332211ffee"},
        "vbed_cpu_s": 11.2 if stop_after is None else 6.4,
        "started_at": iso(t0), "ended_at": iso(t),
        "variants": [{"index": 1, "label": "guest.disk_cache=writeback"},
                     {"index": 2, "label": "guest.disk_cache=writethrough"}],
        "arms": [{"name": "host", "kind": "host"}, {"name": "guest", "kind": "guest"},
                 {"name": "tuned", "kind": "guest"}],
        "runs": runs,
    }
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")


GUESTS_SCENARIO = """; quickstart-guests.ini: quickstart.ini with the guest arm's number of guests
; as an axis: how does throughput scale when guests share the host?

[global]
workload     = oltp_read_write
tables       = 1
table_size   = 200000
threads      = 1
warmup       = auto
duration     = 30s
compression  = row-zlib
buffer_pool  = 16M
memory       = 1G
vcpus        = 1
disk_size    = 2G
drop_caches  = yes
repeats      = 2
order        = shuffle
pin          = auto

[host]
arm          = host
flush_method = fsync

[guest]
arm          = guest
guests       = 1, 2
disk_cache   = writeback
flush_method = fsync

[tuned]
arm          = guest
disk_cache   = none
disk_io      = native
disk_format  = raw
flush_method = O_DIRECT
buffer_pool  = 256M
"""

# (arm, kind, guests, variants, disk_cache, flush_method), in plan order
GUESTS_SPECS = [
    ("host", "host", 1, [1, 2], None, "fsync"),
    ("guest", "guest", 1, [1], "writeback", "fsync"),
    ("tuned", "guest", 1, [1, 2], "none", "O_DIRECT"),
    ("guest", "guest", 2, [2], "writeback", "fsync"),
]


def guests_fixture():
    name, scn, session, seed = "quickstart-guests", "quickstart-guests", "g5m2wd", 7
    rnd = random.Random(seed)
    new_rnd = random.Random(seed + 100)
    w = Writer(name, rnd)
    d = os.path.join(HERE, name)
    os.makedirs(d, exist_ok=True)
    t0 = 1796000400.0
    t = t0 + 150.0
    order = random.Random(4242)
    # per-guest TPS: one guest alone 15, two guests together 10.5 each (the
    # shared disk and CPUs): a consolidation efficiency of about 0.7
    levels = {0: 600.0, 1: 15.0, 2: 24.0, 3: 10.5}
    runs, seq = [], 0
    for rep in (1, 2):
        specs = list(range(len(GUESTS_SPECS)))
        order.shuffle(specs)
        for k in specs:
            spec = GUESTS_SPECS[k]
            seq += 1
            arm, kind, guests, variants, cache, flush = spec
            new = {"rnd": new_rnd, "logical": 50331648,
                   "fits": {"host": "host_page_cache", "guest": "guest_page_cache",
                            "tuned": "buffer_pool"}[arm],
                   "buffer_pool": 268435456 if arm == "tuned" else 16777216,
                   # the 2-guest run of repeat 2, its guest 2: never steady
                   "warmup_cap": (seq, 2) if (k, rep) == (3, 2) else None,
                   "host_steal": {3: 7.5},  # run 3: the host was stolen from
                   "host_other": {1: None}}  # run 1: not available
            t = one_run(w, scn, session, seq, rep, spec, levels[k], t, new=new)
            cfg = config_of(spec, 1, repeats=2)
            cfg.update({"table_size": "200000", "warmup": "auto", "warmup_max": "2m",
                        "buffer_pool": "256M" if arm == "tuned" else "16M",
                        "order": "shuffle", "pin": "auto", "drop_caches": "yes",
                        "log_file_size": "96M", "doublewrite": "yes", "timeout_db": "5m",
                        "timeout_prepare": "1h", "pool": "vbed", "pool_dir": "/var/lib/vbed/pool"})
            if kind == "guest":
                cfg.update({"disk_size": "2G", "qcow2_cluster_size": "64K",
                            "qcow2_preallocation": "off", "timeout_boot": "5m",
                            "timeout_setup": "5m", "image": "debian-mariadb"})
            if kind == "host":
                placement = {"pin": "auto", "applied": True, "host_cpus": "1",
                             "reason": "the host arm on CPU 1, vbed on CPU 0", "guests": []}
            elif guests == 1:
                placement = {"pin": "auto", "applied": True, "host_cpus": "",
                             "reason": "guest 1 on CPU 1, vbed on CPU 0",
                             "guests": [{"guest": 1, "vcpus": "1", "emulator": "1"}]}
            else:
                placement = {"pin": "auto", "applied": False, "host_cpus": "",
                             "reason": "2 guests need 2 CPUs besides vbed's; the host has 2",
                             "guests": []}
            runs.append({"seq": seq, "run": "%s-%03d" % (session, seq), "arm": arm,
                         "arm_kind": kind, "repeat": rep, "variants": variants, "status": "ok",
                         "dir": "runs/%03d-%s" % (seq, arm), "config": cfg,
                         "placement": placement})
    with open(os.path.join(d, "samples.jsonl"), "w") as f:
        f.write("".join(line + "\n" for line in w.lines))
    with open(os.path.join(d, "scenario.ini"), "w") as f:
        f.write(GUESTS_SCENARIO)
    import hashlib
    import time
    iso = lambda x: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(x))
    meta = {
        "vbed_version": "0.2-3-g1a2b3c4", "git_describe": "0.2-3-g1a2b3c4", "status": "complete",
        "scenario": {"name": scn, "path": "/tmp/quickstart-guests.ini",
                     "sha256": hashlib.sha256(GUESTS_SCENARIO.encode()).hexdigest()},
        "host": {"hostname": "vm", "kernel": "Linux 6.1.0-28-amd64 x86_64", "cpu_model": "AMD EPYC",
                 "cpus": 2, "memory_bytes": 8589934592},
        "started_at": iso(t0),
        "libvirt": {"uri": "qemu:///system", "hostname": "vm", "version": "9.0.0",
                    "qemu_version": "7.2.22"},
        "versions": {"sysbench_host": "sysbench 1.0.20", "sysbench_guest": "1.0.20+ds-5",
                     "mariadb_host": "10.11.19-MariaDB-0+deb12u1",
                     "mariadb_guest": "10.11.19-MariaDB-0+deb12u1"},
        "image": {"id": "debian-mariadb-e499e3939528",
                  "hash": "e499e39395284fb396521837b98c84c00d3138d534981ab696a1491b9d940a65"},
        "order": {"mode": "shuffle", "seed": 4242},
        "variants": [{"index": 1, "label": "guest.guests=1"},
                     {"index": 2, "label": "guest.guests=2"}],
        "arms": [{"name": "host", "kind": "host"}, {"name": "guest", "kind": "guest"},
                 {"name": "tuned", "kind": "guest"}],
        "runs": runs,
        "accel": "tcg",
        "accel_reason": "/dev/kvm is absent: libvirt offers only domain type qemu",
        "vbed_cpu_measure_s": 0.42, "ended_at": iso(t),
    }
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")


LAYERS_SCENARIO = """; quickstart-layers.ini: quickstart.ini with compression as an axis (row-zlib,
; none), to see where a transaction's time goes in each arm.

[global]
workload     = oltp_read_write
tables       = 1
table_size   = 100000
threads      = 1
warmup       = auto
warmup_max   = 90s
duration     = 30s
compression  = row-zlib, none
buffer_pool  = 8M
memory       = 1G
vcpus        = 1
disk_size    = 1G
drop_caches  = yes
repeats      = 2

[host]
arm          = host
flush_method = fsync

[guest]
arm          = guest
guests       = 2
disk_cache   = writeback
flush_method = fsync

[tuned]
arm          = guest
disk_cache   = none
disk_io      = native
disk_format  = raw
flush_method = O_DIRECT
"""

# (arm, kind, guests, variants, disk_cache, flush_method), in plan order;
# variant 1 is compression = row-zlib, variant 2 compression = none
LAYERS_SPECS = [
    ("host", "host", 1, [1], None, "fsync"),
    ("host", "host", 1, [2], None, "fsync"),
    ("guest", "guest", 2, [1], "writeback", "fsync"),
    ("guest", "guest", 2, [2], "writeback", "fsync"),
    ("tuned", "guest", 1, [1], "none", "O_DIRECT"),
    ("tuned", "guest", 1, [2], "none", "O_DIRECT"),
]

# Per target and transaction, as TCG gives them here: TPS per guest, CPU
# (QEMU's process; the host arm's mariadbd + sysbench), of which compression,
# read wait and write + flush wait, in ms; the hit ratio of the guest page
# cache and of the host page cache. The rest of a thread's time (1/TPS) is
# "other". Variant 2's guest arm waits on something else (row locks,
# scheduling between its two guests): the model does not explain it.
LAYERS_PROFILE = {
    ("host", 1): dict(tps=250.0, cpu=3.1, cmp=0.35, rd=0.30, wr=0.20, ghit=None, hhit=0.80),
    ("host", 2): dict(tps=270.0, cpu=2.85, cmp=0.0, rd=0.30, wr=0.20, ghit=None, hhit=0.80),
    ("guest", 1): dict(tps=12.0, cpu=68.0, cmp=3.1, rd=6.5, wr=3.0, ghit=0.60, hhit=0.85),
    ("guest", 2): dict(tps=13.0, cpu=55.0, cmp=0.0, rd=5.0, wr=2.5, ghit=-0.45, hhit=0.85),
    ("tuned", 1): dict(tps=20.0, cpu=40.0, cmp=3.0, rd=4.0, wr=2.0, ghit=0.0, hhit=-0.05),
    ("tuned", 2): dict(tps=22.0, cpu=38.0, cmp=0.0, rd=3.8, wr=1.9, ghit=0.0, hhit=-0.05),
}

# The budget of each arm (issue 20), ms per transaction at the profile's TPS
# (w = 1000 / tps with one thread): the transaction's CPU, CPU contention,
# foreground reads, commit I/O, locks, the client's turn; the rest is
# "other". Each target's figures scale with its own w.
LAYERS_BUDGET = {
    ("host", 1): dict(cpu=2.2, cont=0.3, reads=0.25, commit=0.6, locks=0.05, client=0.45),
    ("host", 2): dict(cpu=2.0, cont=0.3, reads=0.25, commit=0.55, locks=0.05, client=0.42),
    ("guest", 1): dict(cpu=60.0, cont=6.0, reads=4.0, commit=3.0, locks=0.5, client=7.0),
    ("guest", 2): dict(cpu=45.0, cont=5.0, reads=3.0, commit=2.5, locks=0.4, client=6.0),
    ("tuned", 1): dict(cpu=35.0, cont=3.0, reads=4.5, commit=2.0, locks=0.3, client=4.0),
    ("tuned", 2): dict(cpu=32.0, cont=3.0, reads=4.0, commit=2.0, locks=0.3, client=3.5),
}


def chain_samples(add, br, arm, kind, variant, T, measure_s, vcpu, delay, innodb_reads, budget,
                  profile):
    """The chain's and performance_schema's samples of one target (what the
    chain and perfschema probes write, issue 20), from its budget in ms per
    transaction: over a 20 s interval, each part's share of the thread's
    time. Variant 2's tuned guest: no commit-stage sum (absent, never 0)."""
    b = budget[(arm, variant)]
    tps = profile[(arm, variant)]["tps"]
    w = measure_s / T * 1000             # this target's ms per transaction
    scale = w / (1000.0 / tps)           # its figures scale with it
    part = {k: v * scale for k, v in b.items()}
    p = delay / (vcpu + delay) if kind == "guest" else 0.0
    oncpu = part["cpu"] / (1 - p)
    runq = part["cont"] - oncpu * p
    io = part["reads"] + part["commit"]
    ci = round(20.0 + br.uniform(0.0, 0.02), 3)
    pi = round(ci + br.uniform(-0.005, 0.005), 4)
    sec = lambda ms, interval: round(ms / w * interval, 4)   # share of w, over the interval
    add("workload", "chain_interval_s", ci, "s")
    add("workload", "chain_read_spread_s", 0.01 if kind == "host" else 0.03, "s")
    add("workload", "chain_client_threads", 1, "count")
    add("workload", "chain_server_threads", 1, "count")
    add("workload", "chain_client_cpu_s", sec(part["client"] * 0.6, ci), "s")
    add("workload", "chain_client_runq_s", sec(part["client"] * 0.3, ci), "s")
    add("workload", "chain_client_blkio_s", 0.0, "s")
    add("workload", "chain_server_cpu_s", sec(oncpu, ci), "s")
    add("workload", "chain_server_runq_s", sec(runq, ci), "s")
    add("workload", "chain_server_blkio_s", round(sec(io, ci), 2), "s")
    add("innodb", "ps_interval_s", pi, "s")
    add("innodb", "ps_threads", 1, "count")
    add("innodb", "ps_statement_s", sec(w - part["client"], pi), "s")
    add("innodb", "ps_statements", int(T / measure_s * pi * 20), "count")
    add("innodb", "ps_transaction_s", sec(w - part["client"] * 0.5, pi), "s")
    add("innodb", "ps_transactions", int(T / measure_s * pi), "count")
    add("innodb", "ps_read_wait_s", sec(part["reads"] * 1.3, pi), "s")
    add("innodb", "ps_reads", int(innodb_reads / measure_s * pi), "count")
    if (arm, variant) != ("tuned", 2):
        add("innodb", "ps_commit_s", sec(part["commit"], pi), "s")
        add("innodb", "ps_commits", int(T / measure_s * pi * 19), "count")
    add("innodb", "ps_synch_wait_s", sec(part["locks"], pi), "s")
    add("innodb", "ps_synch_waits", int(T / measure_s * pi * 300), "count")


HYPERVISOR_FIELDS = ("block.1.name,block.1.rd.reqs,block.1.rd.bytes,block.1.rd.times,"
                     "block.1.wr.reqs,block.1.wr.bytes,block.1.wr.times,block.1.fl.reqs,"
                     "block.1.fl.times,cpu.time,cpu.user,cpu.system,vcpu.0.time,vcpu.0.wait,"
                     "vcpu.0.delay")


def layer_samples(w, lr, seq, spec, variant, tend, profile, br, budget):
    """The per-layer counters of every target of run seq (as vbed run writes
    them, results/README.md), from the run's own tps and bp_reads samples.
    Variant 2's tuned guest: a kernel without flush counters and a QEMU
    without flush times (absent, never 0)."""
    arm, kind, guests, variants, cache, _ = spec
    p = profile[(arm, variant)]
    mine = [json.loads(line) for line in w.lines]
    mine = [x for x in mine if x["labels"].get("seq") == seq]
    got = {(x["metric"], x["labels"]["guest"]): x for x in mine}
    base = dict(mine[0]["labels"])
    for k in ("guest", "phase", "t", "when"):
        base.pop(k, None)
    targets = [0] if kind == "host" else list(range(1, guests + 1))
    no_flush = (arm, variant) == ("tuned", 2)
    ws = got[("working_set_bytes", targets[0])]["value"]
    rows = {}
    for g in targets:
        tps = got[("tps", g)]["value"]
        measure_s = round(30.0 + lr.uniform(0.0, 0.03), 3)
        T = int(round(tps * measure_s))
        j = lambda: lr.uniform(0.95, 1.05)
        innodb_reads = int(got[("bp_reads", g)]["value"] * 1.02)
        r = {"T": T, "measure_s": measure_s, "innodb_reads": innodb_reads}
        r["cpu"] = p["cpu"] * j() * T / 1000
        r["rd_ms"] = p["rd"] * j() * T
        r["wr_ms"] = p["wr"] * j() * T
        if kind == "guest":
            r["guest_reads"] = int(innodb_reads * (1 - p["ghit"]) * lr.uniform(0.98, 1.02))
            r["qemu_reads"] = int(r["guest_reads"] * lr.uniform(0.98, 1.03))
            r["host_reads"] = int(r["qemu_reads"] * (1 - p["hhit"]))
        else:
            r["host_reads"] = int(innodb_reads * (1 - p["hhit"]) * lr.uniform(0.98, 1.02))
        rows[g] = r
    # the host device under the guests' disks is shared: each guest reads
    # the whole device's counters
    dev_reads = sum(r["host_reads"] for r in rows.values())
    dev_writes = sum(int(r["T"] * 2.1) for r in rows.values())
    dev_flushes = sum(int(r["T"] * 1.2) for r in rows.values())
    for g in targets:
        r, T = rows[g], rows[g]["T"]

        def add(layer, metric, value, unit, **extra):
            w.add(dict(base, phase="measure", layer=layer, **extra), metric, value, unit, g, None,
                  tend)
        add("workload", "transactions", T, "count")
        add("workload", "measure_s", r["measure_s"], "s")
        add("workload", "server_cpu_s", round(r["cpu"], 3), "s")
        add("innodb", "innodb_pages_read", int(r["innodb_reads"] * 1.1), "count")
        add("innodb", "innodb_pages_written", int(T * 3.4), "count")
        add("innodb", "innodb_data_reads", r["innodb_reads"], "count")
        add("innodb", "innodb_data_writes", int(T * 3.1), "count")
        add("innodb", "innodb_data_read_bytes", r["innodb_reads"] * 16384, "bytes")
        add("innodb", "innodb_data_written_bytes", int(T * 3.1) * 16384, "bytes")
        add("innodb", "innodb_data_fsyncs", int(T * 1.1), "count")
        add("innodb", "innodb_row_lock_time_ms", int(T * 0.02), "ms")
        if kind == "guest":
            ms = 0.4 if not no_flush else 1.0
            add("guest", "guest_disk_reads", r["guest_reads"], "count")
            add("guest", "guest_disk_read_bytes", r["guest_reads"] * 16384, "bytes")
            add("guest", "guest_disk_read_ms", int(r["rd_ms"]), "ms")
            add("guest", "guest_disk_writes", int(T * 4.0), "count")
            add("guest", "guest_disk_write_bytes", int(T * 4.0) * 12288, "bytes")
            add("guest", "guest_disk_write_ms", int(r["wr_ms"] * ms), "ms")
            if not no_flush:
                add("guest", "guest_disk_flushes", int(T * 1.2), "count")
                add("guest", "guest_disk_flush_ms", int(r["wr_ms"] * 0.6), "ms")
            W = r["measure_s"]
            add("guest", "guest_cpu_user_s", round(W * 0.55 * lr.uniform(0.95, 1.05), 2), "s")
            add("guest", "guest_cpu_system_s", round(W * 0.30 * lr.uniform(0.95, 1.05), 2), "s")
            add("guest", "guest_cpu_iowait_s", round(r["rd_ms"] / 1000 * 0.5, 2), "s")
            add("guest", "guest_cpu_steal_s", round(W * 0.01, 2), "s")
            add("guest", "guest_cached_bytes", int(lr.uniform(2.8e8, 3.2e8)) // 4096 * 4096,
                "bytes")
            add("guest", "guest_dirty_bytes", int(lr.uniform(1e6, 3e6)) // 4096 * 4096, "bytes")
            held = 0.9 if cache == "writeback" else 0.05
            add("guest", "guest_datadir_cached_bytes", int(ws * held) // 4096 * 4096, "bytes")
            add("hypervisor", "qemu_rd_reqs", r["qemu_reads"], "count")
            add("hypervisor", "qemu_rd_bytes", r["qemu_reads"] * 16384, "bytes")
            add("hypervisor", "qemu_rd_time_s", round(r["rd_ms"] * 0.8 / 1000, 3), "s")
            add("hypervisor", "qemu_wr_reqs", int(T * 4.0 * lr.uniform(0.99, 1.01)), "count")
            add("hypervisor", "qemu_wr_bytes", int(T * 4.0) * 12288, "bytes")
            add("hypervisor", "qemu_wr_time_s", round(r["wr_ms"] * 0.35 / 1000, 3), "s")
            add("hypervisor", "qemu_fl_reqs", int(T * 1.2), "count")
            if not no_flush:
                add("hypervisor", "qemu_fl_time_s", round(r["wr_ms"] * 0.5 / 1000, 3), "s")
            add("hypervisor", "qemu_cpu_s", round(r["cpu"], 3), "s")
            vcpu, delay = round(r["cpu"] * 0.9, 3), round(W * 0.02, 3)
            add("hypervisor", "qemu_vcpu_s", vcpu, "s")
            add("hypervisor", "qemu_vcpu_delay_s", delay, "s")
            if cache == "writeback":
                add("hypervisor", "balloon_disk_caches_bytes",
                    int(lr.uniform(2.8e8, 3.2e8)) // 4096 * 4096, "bytes")
            hr, hw, hf = dev_reads, dev_writes, dev_flushes
        else:
            hr, hw, hf = r["host_reads"], int(T * 2.1), int(T * 1.2)
        dev = dict(device="vda1")
        add("host", "hostdev_reads", hr, "count", **dev)
        add("host", "hostdev_read_bytes", hr * 16384, "bytes", **dev)
        add("host", "hostdev_read_ms", int(r["rd_ms"] if kind == "host" else hr * 0.5), "ms",
            **dev)
        add("host", "hostdev_writes", hw, "count", **dev)
        add("host", "hostdev_write_bytes", hw * 16384, "bytes", **dev)
        add("host", "hostdev_write_ms", int(r["wr_ms"] * 0.4 if kind == "host" else hw * 0.3),
            "ms", **dev)
        add("host", "hostdev_flushes", hf, "count", **dev)
        add("host", "hostdev_flush_ms", int(r["wr_ms"] * 0.6 if kind == "host" else hf * 0.4),
            "ms", **dev)
        chain_samples(add, br, arm, kind, variant, T, r["measure_s"],
                      vcpu if kind == "guest" else 0, delay if kind == "guest" else 0,
                      r["innodb_reads"], budget, profile)
        if kind == "host":
            add("host", "hostarm_read_bytes", hr * 16384, "bytes")
            add("host", "hostarm_write_bytes", int(T * 3.1) * 16384, "bytes")
            w.add(dict(base, when="after"), "host_cache_data_bytes",
                  int(ws * 0.95) // 4096 * 4096, "bytes", g, None, tend)


def layers_fixture(name="quickstart-layers", session="h8n4lq", seed=11, changes=None,
                   budget_changes=None):
    scn = "quickstart-layers"
    profile = {k: dict(v) for k, v in LAYERS_PROFILE.items()}
    for k, v in (changes or {}).items():
        profile[k].update(v)
    budget = {k: dict(v) for k, v in LAYERS_BUDGET.items()}
    for k, v in (budget_changes or {}).items():
        budget[k].update(v)
    br = random.Random(seed + 300)
    rnd = random.Random(seed)
    new_rnd = random.Random(seed + 100)
    lr = random.Random(seed + 200)
    w = Writer(name, rnd)
    d = os.path.join(HERE, name)
    os.makedirs(d, exist_ok=True)
    t0 = 1796000400.0
    t = t0 + 150.0
    runs, seq = [], 0
    for rep in (1, 2):
        for spec in LAYERS_SPECS:
            seq += 1
            arm, kind, guests, variants, cache, flush = spec
            variant = variants[0]
            p = profile[(arm, variant)]
            new = {"rnd": new_rnd, "logical": 33554432,
                   "fits": "guest_page_cache" if arm == "guest" else "host_page_cache"
                   if arm == "host" else "none",
                   "buffer_pool": 8388608, "host_steal": {}, "host_other": {}}
            before = len(w.lines)
            tend = one_run(w, scn, session, seq, rep, spec, p["tps"], t, new=new,
                           compressed=variant == 1, cmp_ms=p["cmp"]) - 20.0
            layer_samples(w, lr, seq, spec, variant, tend, profile, br, budget)
            t = tend + 20.0
            assert len(w.lines) > before
            cfg = config_of(spec, 1, repeats=2)
            cfg.update({"table_size": "100000", "warmup": "auto", "warmup_max": "90s",
                        "buffer_pool": "8M", "compression": "row-zlib" if variant == 1 else "none",
                        "drop_caches": "yes"})
            if variant == 2:
                del cfg["key_block_size"]
            run = {"seq": seq, "run": "%s-%03d" % (session, seq), "arm": arm, "arm_kind": kind,
                   "repeat": rep, "variants": variants, "status": "ok",
                   "dir": "runs/%03d-%s" % (seq, arm), "config": cfg}
            if kind == "guest":
                fields = HYPERVISOR_FIELDS
                if (arm, variant) == ("tuned", 2):
                    fields = fields.replace("block.1.fl.times,", "")
                run["hypervisor_fields"] = fields
            runs.append(run)
    with open(os.path.join(d, "samples.jsonl"), "w") as f:
        f.write("".join(line + "\n" for line in w.lines))
    with open(os.path.join(d, "scenario.ini"), "w") as f:
        f.write(LAYERS_SCENARIO)
    import hashlib
    import time
    iso = lambda x: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(x))
    meta = {
        "vbed_version": "0.3-1-g7d8e9f0", "git_describe": "0.3-1-g7d8e9f0", "status": "complete",
        "scenario": {"name": scn,
                     "sha256": hashlib.sha256(LAYERS_SCENARIO.encode()).hexdigest()},
        "host": {"hostname": "vm", "kernel": "Linux 6.1.0-28-amd64 x86_64", "cpu_model": "AMD EPYC",
                 "cpus": 2, "memory_bytes": 8589934592},
        "started_at": iso(t0),
        "libvirt": {"uri": "qemu:///system", "version": "9.0.0", "qemu_version": "7.2.22"},
        "versions": {"mariadb_host": "10.11.19-MariaDB-0+deb12u1",
                     "mariadb_guest": "10.11.19-MariaDB-0+deb12u1", "sysbench": "1.0.20"},
        "image": {"id": "debian-mariadb-e499e3939528",
                  "hash": "e499e39395284fb396521837b98c84c00d3138d534981ab696a1491b9d940a65"},
        "order": {"mode": "fixed"},
        "variants": [{"index": 1, "label": "compression=row-zlib"},
                     {"index": 2, "label": "compression=none"}],
        "arms": [{"name": "host", "kind": "host"}, {"name": "guest", "kind": "guest"},
                 {"name": "tuned", "kind": "guest"}],
        "runs": runs,
        "accel": "tcg",
        "accel_reason": "/dev/kvm is absent: libvirt offers only domain type qemu",
        "vbed_cpu_measure_s": 0.61, "ended_at": iso(t),
    }
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")


# tps_arm levels per spec: host, guest writeback (per guest), tuned, guest writethrough
fixture("quickstart-cache", "quickstart-cache", 1, "k3x9ab", [612.0, 14.8, 24.0, 9.1], seed=1)
fixture("quickstart-trx2-interrupted", "quickstart-trx2", 2, "p7q2rt", [606.0, 17.2, 24.6, 9.6],
        stop_after=6, cut_run=7, seed=2)
guests_fixture()
layers_fixture()
# B for vbed compare: the guest arm waits less for reads (say, a larger guest
# page cache), the tuned arm spends less CPU per transaction
layers_fixture("quickstart-layers-b", "m2k7zv", 12,
               {("guest", 1): dict(tps=12.8, rd=3.0), ("tuned", 1): dict(tps=21.5, cpu=36.0)},
               {("guest", 1): dict(reads=1.5, cpu=57.3), ("tuned", 1): dict(cpu=31.5)})
