#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# xdp_meta.sh on the distribution's mlx5_core: its XDP metadata kfuncs
# give each flow's Toeplitz hash (the symmetric one it asks for), the
# timestamps and VLAN tags, as ours do.

DRIVER=distro
# shellcheck source-path=SCRIPTDIR source=xdp_meta.sh
source "$(dirname "$0")/xdp_meta.sh"
