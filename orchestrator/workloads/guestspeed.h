/* guestspeed.h: how fast a guest runs a fixed job, measured in the guest
 * once the measure phase is over.
 *
 * The host's speed probe (hostside/speed.h) times a fixed zlib job on the
 * host; a guest under emulation (TCG) can run faster or slower from one run
 * to the next while the host's job does not move: in the quickstart here the
 * untuned guests' zlib ran 14 % faster per page than tuned_memory's in one
 * run and 23 % slower in another, at the same host speed, and the
 * prediction carries the untuned guest's figures over to a tuned arm at
 * whatever speed each ran. So every guest times a fixed job of its own:
 * gzip -1 of GUESTSPEED_BYTES of mariadbd's binary (read into the page
 * cache first, and gzip run once on an eighth of it: its code's first run
 * under emulation is mostly translation), timed by its own CPU clock (the
 * shell's cutime + cstime, 1/100 s ticks: about 1 % of a job of a second
 * here), at the same moment in
 * every guest of the run (each target's thread), while the others do the
 * same. What it cannot tell apart: the guest's clock runs on while its vCPU
 * thread waits for a host CPU, and a tick goes to whatever runs at it, so a
 * guest still flushing through its virtual disk (an emulator thread taking
 * the vCPU's core, interrupts) reads slower -- in one run the cache=none
 * guests took 710 and 840 ms, the untuned ones 530 and 550, tuned_memory's
 * 590 and 640. Sample guest_speed_unit_ms. A probe that fails is said and records
 * nothing: it never fails the run. */
#ifndef VBED_WORKLOADS_GUESTSPEED_H
#define VBED_WORKLOADS_GUESTSPEED_H

struct wl_job;

#define GUESTSPEED_BYTES 8388608

/* Run it on the job's target (a guest; others record nothing). Always 0. */
int guestspeed_probe(struct wl_job *j);

#endif
