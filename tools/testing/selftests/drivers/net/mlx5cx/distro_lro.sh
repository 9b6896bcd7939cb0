#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lro.sh on the distribution's mlx5_core: it sees the model's LRO caps,
# offers large-receive-offload, and the model aggregates for it as for
# ours (fewer CQEs than frames, its headers rewritten from the CQE's
# fields: byte-exact, nothing for B to retransmit).

DRIVER=distro
# shellcheck source-path=SCRIPTDIR source=lro.sh
source "$(dirname "$0")/lro.sh"
