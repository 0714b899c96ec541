/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim: the same as host/sframe's. */
#include "../../../sframe/include/linux/bsearch.h"
