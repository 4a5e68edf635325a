/* SPDX-License-Identifier: GPL-2.0 */
/* static_assert(), which C11 has under the same name */
#include <assert.h>
