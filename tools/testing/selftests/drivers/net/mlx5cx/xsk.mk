# SPDX-License-Identifier: GPL-2.0
#
# The kernel's AF_XDP selftest, xskxceiver, built out of the kernel's tree
# as tools/testing/selftests/bpf/Makefile builds it, for kernel_xsk.sh:
#
#	make -f xsk.mk KSRC=DIR OUTPUT=DIR
#
# KSRC holds the parts of Debian's linux-source-6.12 it needs (extracted by
# tools/testing/install-deps into the cache's kselftest-xsk/): the
# selftest (xskxceiver.c, xsk.c, network_helpers.c, the headers beside
# them and progs/xsk_xdp_progs.c), libbpf (tools/lib/bpf: the kernel's
# own, 1.5, whose XDP feature queries xskxceiver uses; Debian 12's 1.1 has
# none), tools/include and find_bit.c. The XDP programs are compiled with
# clang against the kernel's UAPI headers (no vmlinux.h: they need none)
# and embedded by bpftool's skeleton, as the kernel's Makefile does.

KSRC ?= $(error KSRC: the extracted kernel sources)
OUTPUT ?= .
CLANG ?= clang
BPFTOOL ?= bpftool
T := $(KSRC)/tools
SELF := $(T)/testing/selftests/bpf
LIBBPF := $(OUTPUT)/libbpf
INC := -I$(OUTPUT) -I$(SELF) -I$(LIBBPF)/include -I$(T)/include \
	-I$(T)/include/uapi -I$(T)/arch/x86/include -I$(T)/testing/selftests

all: $(OUTPUT)/xskxceiver $(OUTPUT)/xskxceiver-wait60 $(OUTPUT)/test_xsk.sh \
	$(OUTPUT)/xsk_prereqs.sh

$(LIBBPF)/libbpf.a:
	mkdir -p $(LIBBPF)/obj
	$(MAKE) -s -C $(T)/lib/bpf BUILD_STATIC_ONLY=1 OUTPUT=$(LIBBPF)/obj/ \
		DESTDIR=$(LIBBPF) prefix= install_headers $(LIBBPF)/obj/libbpf.a
	cp $(LIBBPF)/obj/libbpf.a $@

$(OUTPUT)/xsk_xdp_progs.bpf.o: $(SELF)/progs/xsk_xdp_progs.c $(LIBBPF)/libbpf.a
	$(CLANG) -O2 -g -target bpf $(INC) \
		-I/usr/include/$(shell uname -m)-linux-gnu -c $< -o $@

$(OUTPUT)/xsk_xdp_progs.skel.h: $(OUTPUT)/xsk_xdp_progs.bpf.o
	$(BPFTOOL) gen skeleton $< name xsk_xdp_progs > $@

# What xskxceiver.c is linked with, both builds of it.
LINK_SRC := $(SELF)/xsk.c $(SELF)/network_helpers.c $(T)/lib/find_bit.c
LINK_LIBS := $(LIBBPF)/libbpf.a -lelf -lz -lpthread

$(OUTPUT)/xskxceiver: $(SELF)/xskxceiver.c $(LINK_SRC) \
		$(OUTPUT)/xsk_xdp_progs.skel.h $(LIBBPF)/libbpf.a
	$(CC) -O2 -g $(INC) -o $@ $< $(LINK_SRC) $(LINK_LIBS)

# The same tool waiting 60 s, not 3, for all it sent (THREAD_TMOUT):
# kernel_xsk.sh runs a case with it when the tool's own wait ran out
# twice, which tells a slow guest from frames lost.
W60 := $(OUTPUT)/wait60
$(OUTPUT)/xskxceiver-wait60: $(SELF)/xskxceiver.c $(SELF)/xskxceiver.h \
		$(LINK_SRC) $(OUTPUT)/xsk_xdp_progs.skel.h $(LIBBPF)/libbpf.a
	mkdir -p $(W60)
	sed 's/^#define THREAD_TMOUT 3$$/#define THREAD_TMOUT 60/' \
		$(SELF)/xskxceiver.h >$(W60)/xskxceiver.h
	grep -q '^#define THREAD_TMOUT 60$$' $(W60)/xskxceiver.h
	cp $(SELF)/xskxceiver.c $(W60)/
	$(CC) -O2 -g $(INC) -o $@ $(W60)/xskxceiver.c $(LINK_SRC) $(LINK_LIBS)

$(OUTPUT)/%.sh: $(SELF)/%.sh
	cp $< $@

.PHONY: all
