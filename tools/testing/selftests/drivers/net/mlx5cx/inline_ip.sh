#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-args: --port-prop inline=ip
#
# inline.sh on a device requiring the IP headers inline (inline=ip).

INLINE=ip
# shellcheck source-path=SCRIPTDIR source=inline.sh
source "$(dirname "$0")/inline.sh"
