# SPDX-License-Identifier: GPL-2.0
#
# The KUnit suites, each source named once here, relative to kunit/: Kbuild
# builds them into a kernel for kunit.py, kunit/user/Makefile into the
# user-space runner. A new suite is one more name here.

sw_kunit_suites := sw_test_common.c sw_wheel_test.c sw_model_test.c sw_classic_test.c \
		   sw_hz_test.c sw_mirror_test.c sw_mirror_model_test.c sw_next_test.c \
		   sw_mirror_top_test.c sw_softirq_test.c sw_order_test.c sw_spec_test.c \
		   sw_logmerge_test.c sw_heap_test.c sw_tree_test.c
