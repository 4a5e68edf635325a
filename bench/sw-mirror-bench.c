// SPDX-License-Identifier: GPL-2.0
/*
 * sw-mirror-bench: what the mirror's core (core/mirror/sw_mirror.c, unchanged)
 * costs per real timer event, natively in user space, without the probe,
 * its lock or the kernel around it:
 *
 *   sw-mirror-bench [HZ]
 *
 * A timer_start and a timer_cancel of a fresh timer (mod_timer() then
 * del_timer() of an idle timer, the pair the in-kernel bench measures
 * with the mirror on) and a start, cancel and expire_entry (a timer that
 * runs), each for near expiries (level 0 and 1) and far ones (an hour
 * out), in ns per pair or triple over 65536 of them; and the near pair
 * again with %PENDING timers pending an hour out on the same CPU, jiffies
 * moving on every 8 pairs, so that the model's raises and recomputes look
 * at a base of thousands, and the times that run's model of the CPU was
 * reset, over the budget of an event, which leaves the CPU unmodelled.
 * Prints figures; it judges nothing (the 100 ns target is the bench
 * file's).
 *
 * The CPUs' softirq model is on, as in the replay and the module: one CPU,
 * 6.1's bases, every timer on it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sw_mirror.h"

#define NR	65536UL
#define PENDING	10000UL

static struct sw_mirror mirror;
static struct sw_mirror_rec recs[NR];
static struct sw_mirror_rec *slots[1];
static struct sw_sirq_cpu cpus[1];
static unsigned long timers[NR];
static struct sw_mirror_figures fig;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void event(enum sw_ev_type type, unsigned long i, unsigned long now,
		  unsigned long expires)
{
	struct sw_mirror_outcome out;
	struct sw_mirror_event ev = {
		.type = type,
		.timer = &timers[i],
		.now = now,
		.expires = expires,
		.baseclk = expires,	/* an EXPIRE's; a START says no bucket_expiry */
	};

	sw_mirror_handle_event(&mirror, &ev, &out);
}

/* ns per timer: start + cancel, and with @expire an expire_entry after them */
static double run(unsigned int hz, unsigned long delta, int expire, unsigned long pending)
{
	unsigned long j = 100000, i;
	double t0, t1;
	struct sw_mirror_config cfg = {
		.khz = hz, .now = j, .slots = slots, .nr_slots = 1, .recs = recs, .nr_recs = NR,
		.cpus = cpus, .nr_cpus = 1, .bases = SW_BASES_STD_DEF,
	};

	if (sw_mirror_setup(&mirror, &cfg)) {
		fprintf(stderr, "sw-mirror-bench: no geometry at HZ=%u\n", hz);
		exit(2);
	}
	/* The timers left pending, untimed: the last records */
	for (i = NR - pending; i < NR; i++)
		event(SW_EV_START, i, j, j + 3600UL * hz + (i & 1023));
	t0 = now_ns();
	for (i = 0; i < NR - pending; i++) {
		unsigned long expires = j + delta + (i & 7);

		if (pending && !(i & 7))
			j++;
		event(SW_EV_START, i, j, expires);
		if (expire) {
			/* jiffies reach the expiry: the cancel of the expiry, then its callback */
			j = expires + 1;
			event(SW_EV_CANCEL, i, j, expires);
			event(SW_EV_EXPIRE, i, j, j);
		} else {
			event(SW_EV_CANCEL, i, j, expires);
		}
	}
	t1 = now_ns();
	if (!sw_mirror_consistent(&mirror)) {
		fprintf(stderr, "sw-mirror-bench: the mirror's books do not balance\n");
		exit(1);
	}
	sw_mirror_read_figures(&mirror, &fig);
	return (t1 - t0) / (NR - pending);
}

int main(int argc, char **argv)
{
	unsigned int hz = argc > 1 ? atoi(argv[1]) : 250;
	double near, far, expire, crowded;

	run(hz, 10, 0, 0);		/* warm up */
	near = run(hz, 10, 0, 0);
	far = run(hz, 3600UL * hz, 0, 0);
	expire = run(hz, 10, 1, 0);
	crowded = run(hz, 10, 0, PENDING);
	printf("mirror hz=%u wheels=%u cpus=1 start_cancel_near=%.1f start_cancel_far=%.1f",
	       hz, sw_mirror_nr_wheels(&mirror), near, far);
	printf(" start_cancel_expire_near=%.1f start_cancel_near_pending_%lu=%.1f", expire,
	       PENDING, crowded);
	printf(" model_resets_pending_%lu=%lu\n", PENDING, fig.softirq_model_resets);
	return 0;
}
