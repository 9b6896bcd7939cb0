# SPDX-License-Identifier: GPL-2.0
#
# kselftest's lib.mk for the targets of this repository. The kernel's own
# lib.mk does the work: Debian's linux-source-6.12 copy, which
# tools/testing/install-deps extracts into the cache with the rest of
# kselftest's runner. This file only finds it and points its run_tests at
# this tree. Dropped into a kernel tree, drivers/net/mlx5cx/ includes the
# kernel's lib.mk instead and this file is not used.
#
# KSFT_SRC: a kernel's tools/testing/selftests (default: the cached copy).

CXSIM_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/mlx5cx
KSFT_SRC ?= $(CXSIM_CACHE)/kselftest
ifeq ($(wildcard $(KSFT_SRC)/lib.mk),)
$(error no kselftest lib.mk in $(KSFT_SRC): run tools/testing/install-deps, or set KSFT_SRC to a kernel's tools/testing/selftests)
endif

ksft_base := $(realpath $(dir $(lastword $(MAKEFILE_LIST))))
ksft_src := $(realpath $(KSFT_SRC))
# Shell tests only: no kernel headers to point at.
KHDR_INCLUDES ?= -isystem /usr/include

include $(ksft_src)/lib.mk

# lib.mk takes its directory from the lib.mk files it was read through,
# two here: the kernel's is the one that holds kselftest/.
selfdir := $(ksft_src)

# run_tests: kselftest's runner with this tree as its base, so that the
# tests are named drivers/net/... and their settings file is read; its
# output filter (prefix.pl) is the kernel's, beside the runner.
define RUN_TESTS
	BASE_DIR="$(ksft_base)";					\
	. $(ksft_src)/kselftest/runner.sh;				\
	tap_prefix() {							\
		if [ -x /usr/bin/perl ]; then				\
			$(ksft_src)/kselftest/prefix.pl;		\
		else							\
			sed -e 's/^/# /';				\
		fi;							\
	};								\
	if [ "X$(summary)" != "X" ]; then				\
		per_test_logging=1;					\
	fi;								\
	run_many $(1)
endef
