// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the tracepoints of sw_trace.h, defined here and nowhere
 * else; sw_cpu.c fires them.
 */
#define CREATE_TRACE_POINTS
#include "sw_trace.h"
