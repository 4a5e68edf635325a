// SPDX-License-Identifier: GPL-2.0
/*
 * The mirror stopped, started and unloaded under real kernel traffic
 * (docs/design.rst, "The mirror"): the probes come and go while the
 * kernel's timers are busy, nothing is lost and the books balance after
 * each change.
 *
 * Built, not run by default (docs/testing.rst): every start and stop
 * patches the kernel's timer code while other CPUs run it, which under
 * QEMU's multi-threaded TCG can wedge the guest. Run it with
 * SW_SELFTESTS=sw_mirror_toggle_test SW_VM_ACCEL=tcg,thread=single
 * scripts/selftests.sh K.
 */

#include <string.h>

#include "kselftest_harness.h"
#include "lib/swt_test.h"
#include "lib/swt_mirror_test.h"

TEST_F_TIMEOUT(mirror, stops_starts_and_unloads_under_traffic, 120)
{
	struct swt_traffic t;
	struct swt_mirror mr;
	unsigned int round;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, swt_tcp_traffic_start(&t, 4000)) TH_LOG("%s", swt_error());
	for (round = 0; round < 20; round++) {
		ASSERT_EQ(0, swt_mirror_enable(round & 1)) TH_LOG("%s", swt_error());
		swt_sleep_ms(50);
		swt_expect_mirror(_metadata, &mr, round & 1);
		/*
		 * A start under traffic may meet a timer's expire_entry after its
		 * cancel was settled (the grace passed while the CPUs were
		 * being patched) and its next start: counted as an anomaly
		 */
		if (mr.anomalies)
			swt_msg("round %u: %llu anomalies", round, mr.anomalies);
	}
	swt_msg("20 stops and starts under traffic");
	/* Twice the same is no change */
	ASSERT_EQ(0, swt_mirror_enable(true)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_mirror_enable(true)) TH_LOG("%s", swt_error());
	swt_sleep_ms(200);
	swt_expect_mirror(_metadata, &mr, true);

	/* rmmod with the probes registered and the kernel's timers busy */
	ASSERT_EQ(0, swt_unload()) TH_LOG("%s", swt_error());
	swt_msg("unloaded under traffic");
	EXPECT_FALSE(swt_module_loaded());
	swt_tcp_traffic_stop(&t);
	ASSERT_EQ(0, swt_load("mirror=1")) TH_LOG("%s", swt_error());
	swt_sleep_ms(200);
	swt_expect_mirror(_metadata, &mr, true);
}

TEST_HARNESS_MAIN
