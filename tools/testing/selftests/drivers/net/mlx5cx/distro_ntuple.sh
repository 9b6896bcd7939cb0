#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ntuple.sh on the distribution's mlx5_core: its ethtool steering, written
# for the hardware, steers and drops on the model as ours does.
# vm-args: --smp 4

DRIVER=distro
# shellcheck source-path=SCRIPTDIR source=ntuple.sh
source "$(dirname "$0")/ntuple.sh"
