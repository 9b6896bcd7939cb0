#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-args: --port-prop vlan_insert=off
#
# vlan.sh on a model without wqe_vlan_insert: our driver inlines the
# tagged Ethernet header itself, and the model (which fails a WQE asking
# for an insertion it does not announce) sees none asking.

VLAN_INSERT=off
# shellcheck source-path=SCRIPTDIR source=vlan.sh
source "$(dirname "$0")/vlan.sh"
