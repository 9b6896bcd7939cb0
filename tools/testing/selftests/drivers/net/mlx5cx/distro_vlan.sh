#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vlan.sh on the distribution's mlx5_core: with wqe_vlan_insert announced
# it has the device insert the tag, and the model honours it.

DRIVER=distro
# shellcheck source-path=SCRIPTDIR source=vlan.sh
source "$(dirname "$0")/vlan.sh"
