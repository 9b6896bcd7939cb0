#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gre.sh on the distribution's mlx5_core: it reads the model's
# tunnel_stateless_gre and tunnel_stateless_ip_over_ip as a ConnectX-5's,
# and the model checksums and segments its GRE and IPIP frames.

DRIVER=distro
# shellcheck source-path=SCRIPTDIR source=gre.sh
source "$(dirname "$0")/gre.sh"
