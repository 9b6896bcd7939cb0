# SPDX-License-Identifier: GPL-2.0
#
# Makefile for the NVIDIA ConnectX-5+ core driver, mlx5_core.
#
# This file is both the Kbuild file and the out-of-tree wrapper (plain
# `make`).  Kbuild is told apart by what it really does before reading it:
# its Makefile.build, Makefile.clean and Makefile.modpost assign `src` (a
# file variable there, undefined here).  KERNELRELEASE says nothing: DKMS
# passes it on the wrapper's command line.

ifeq ($(origin src),file)

ifneq ($(KBUILD_EXTMOD),)
obj-m += mlx5_core.o
# Out of tree the installed kernel's CONFIG_MLX5_CORE_EN describes its own
# driver, not this one: the module always carries the Ethernet side.
mlx5_en := y
else
obj-$(CONFIG_MLX5_CORE) += mlx5_core.o
mlx5_en := $(CONFIG_MLX5_CORE_EN)
endif

ccflags-y += -I$(src)/include

mlx5_core-y := core/main.o core/iseg.o core/cmd.o core/fw.o core/pagealloc.o \
		core/uar.o core/eq.o core/health.o core/devlink.o core/dev.o \
		core/clock.o

# The Ethernet netdev (mlx5e) and the helpers only it uses.
mlx5_en_objs := en_main.o en_tx.o en_rx.o \
		en/params.o en/params_rx.o en/common.o en/port.o en/fs.o \
		en/fs_ethtool.o en/rss.o en/stats.o en/ethtool.o en/reporter_tx.o \
		en/reporter_rx.o en/health.o en/devlink.o en/xdp.o en/xsk.o lib/wq.o \
		lib/vxlan.o
ccflags-$(mlx5_en) += -DMLX5_CORE_EN
mlx5_core-$(mlx5_en) += $(mlx5_en_objs)
mlx5_core-$(CONFIG_MLX5_EN_PARAMS_KUNIT_TEST) += en/params_rx_test.o
# The Ethernet side knows the core only by include/mlx5_core.h: core/priv.h
# fails its build.
$(foreach o,$(mlx5_en_objs) en/params_rx_test.o,$(eval CFLAGS_$(o) += -DMLX5_EN_SIDE))

else # out-of-tree wrapper

SRCDIR := $(patsubst %/,%,$(dir $(realpath $(lastword $(MAKEFILE_LIST)))))

# The running kernel's build tree when it has one, as users expect; else the
# newest installed Debian 6.12 headers, which the VM tests always use.
DEB_KDIR := $(lastword $(sort $(wildcard /usr/src/linux-headers-6.12.*+deb12-amd64)))
RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
KDIR ?= $(if $(wildcard $(RUNNING_KDIR)/Makefile),$(RUNNING_KDIR),$(DEB_KDIR))

CXSIM_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/mlx5cx
CHECKPATCH ?= $(CXSIM_CACHE)/checkpatch/checkpatch.pl

# Every C source and header of the driver (the model and tests excluded).
DRIVER_SRCS = $(sort $(filter-out %.mod.c,$(wildcard $(SRCDIR)/*.[ch] $(SRCDIR)/core/*.[ch] \
	$(SRCDIR)/en/*.[ch] $(SRCDIR)/lib/*.[ch] $(SRCDIR)/include/*.h)))

.PHONY: all modules clean install checkpatch doc-check check check-full check-mutants run deps

all: modules

modules:
	@test -n "$(KDIR)" -a -f "$(KDIR)/Makefile" || \
		{ echo "No kernel build tree: set KDIR= or run tools/testing/install-deps" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(SRCDIR) modules

clean:
	@if [ -n "$(KDIR)" ] && [ -f "$(KDIR)/Makefile" ]; then \
		$(MAKE) -C $(KDIR) M=$(SRCDIR) clean; fi
	$(MAKE) -C $(SRCDIR)/tools/testing/cxsim clean
	$(MAKE) -C $(SRCDIR)/tools/testing/unit clean

install: modules
	$(MAKE) -C $(KDIR) M=$(SRCDIR) INSTALL_MOD_DIR=updates modules_install
	depmod -a $$(cat $(KDIR)/include/config/kernel.release)

# In a kernel tree checkpatch knows the CamelCase names the kernel's
# include/ declares, such as ethtool's IEEE 802.3 counters
# (FramesTransmittedOK, ...), and lets a driver use them; with --no-tree it
# cannot see them.  Its reports of a name <linux/ethtool.h> declares are
# dropped; every other report stands and fails the target.
ETHTOOL_H = $(firstword $(wildcard $(KDIR)/include/linux/ethtool.h \
	$(patsubst %-amd64,%-common,$(realpath $(KDIR)))/include/linux/ethtool.h))

checkpatch:
	@test -f "$(CHECKPATCH)" || $(SRCDIR)/tools/testing/install-deps
	@test -f "$(ETHTOOL_H)" || { echo "no <linux/ethtool.h> under KDIR=$(KDIR)" >&2; exit 1; }
	@names=$$(grep -ohwE '[A-Za-z0-9_]*([A-Z][a-z]|[a-z][A-Z])[A-Za-z0-9_]*' \
		$(ETHTOOL_H) | sort -u | tr '\n' ' '); \
	perl $(CHECKPATCH) --strict --no-tree --quiet --show-types -f $(DRIVER_SRCS) | \
	awk -v names=" $$names " 'BEGIN { RS = ""; ORS = "\n\n" } \
		/^total: / { next } \
		match($$0, /^CHECK:CAMELCASE: Avoid CamelCase: <[^>]*>/) { \
			w = substr($$0, RSTART + 35, RLENGTH - 36); \
			if (index(names, " " w " ")) next } \
		{ print; bad = 1 } END { exit bad }'

# kernel-doc over the sources, the .rst pages, every counter and flag
# documented (TAP).
doc-check:
	$(SRCDIR)/tools/testing/doc-check

deps:
	$(SRCDIR)/tools/testing/install-deps

check:
	$(SRCDIR)/tools/testing/check

# make check, the debug kernel's tier with every selftest of our driver.
check-full:
	KERNEL=both CHECK_FULL=1 $(SRCDIR)/tools/testing/check

# The mutation tier: each planted bug of tools/testing/mutants must fail a
# selftest (MUTANTS="a b" picks some; MUTANTS_ARGS="--quick" the quick ones).
check-mutants:
	MUTANTS="$(MUTANTS)" $(SRCDIR)/tools/testing/mutants/run $(MUTANTS_ARGS)

run:
	$(SRCDIR)/tools/testing/run-demo

endif
