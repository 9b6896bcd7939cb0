#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tunnel.sh on the distribution's mlx5_core: it reads the model's
# tunnel_stateless_vxlan and VXLAN port table as a ConnectX-5's, programs
# its ports, and the model segments and checksums its VXLAN frames.

DRIVER=distro
# shellcheck source-path=SCRIPTDIR source=tunnel.sh
source "$(dirname "$0")/tunnel.sh"
