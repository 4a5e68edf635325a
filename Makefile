# SPDX-License-Identifier: GPL-2.0
#
# shadow-wheel, out of tree. The module builds against KDIR: by default the
# headers of Debian's current 6.1 kernel (make setup installs them).

KDIR ?= /usr/src/linux-headers-$(shell bash -c '. scripts/sw-lib.sh && sw_debian_kernel_release')

all: modules

modules:
	@test -d "$(KDIR)" || { echo "no kernel headers in '$(KDIR)': run 'make setup' or set KDIR"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	@test ! -d "$(KDIR)" || $(MAKE) -C $(KDIR) M=$(CURDIR) clean

# Into /lib/modules/$(KVER)/updates, for a test machine's own kernel: KVER
# is the release of KDIR's headers package (set it for a kernel of your own);
# INSTALL_MOD_PATH=DIR installs below DIR instead
KVER ?= $(patsubst linux-headers-%,%,$(notdir $(realpath $(KDIR))))

install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) KERNELRELEASE=$(KVER) INSTALL_MOD_DIR=updates \
		modules_install
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) -a $(KVER)

# dkms.conf built with dkms against Debian's 6.1 and 6.12 headers
dkms:
	scripts/dkms.sh

# Install what building, linting and testing need (Debian packages)
setup:
	bash -c '. scripts/sw-lib.sh && sw_need_module_build && sw_need_kernel_build'

# The KUnit suites in user space, under UML (HZ=100) from 6.1 and 6.12, and
# under QEMU x86_64 from 6.1 (HZ=250, HZ=1000)
kunit:
	scripts/kunit.sh all

lint:
	scripts/lint.sh

# The user-space benchmark: every wheel and a heap, the same workload
bench:
	scripts/bench.sh user

# Recorded kernel timer traffic replayed in user space (docs/replay.rst):
# TRACE=file for one trace's report; without, the test of the shipped ones
replay:
	$(if $(TRACE),scripts/replay.sh $(TRACE),scripts/replay.sh --check)

# The main job: a test kernel in QEMU (KERNEL=, default Debian's 6.1; any of
# scripts/vm.sh's), the module, ten seconds of traffic
KERNEL ?= debian
demo:
	scripts/demo.sh --kernel $(KERNEL)

# The same kernel's own timers, mirrored into every wheel at every HZ
demo-mirror:
	scripts/demo.sh --mirror --kernel $(KERNEL)

# The kernel's own timer events, recorded with trace-cmd in test kernels
# during each workload, into traces/ (docs/traces.rst), then checked
TRACE_KERNELS ?= debian debian-6.12
TRACE_WORKLOADS ?= idle tcp disk mix
record-trace:
	for k in $(TRACE_KERNELS); do for w in $(TRACE_WORKLOADS); do \
		scripts/record-trace.sh --kernel $$k $$w || exit 1; done; done
	scripts/record-trace.sh --check traces/*.dat

# Everything, from a fresh Debian 12 machine: what CI runs
check:
	scripts/check.sh

.PHONY: all modules clean install dkms setup kunit lint bench replay demo demo-mirror \
	record-trace check
