// SPDX-License-Identifier: GPL-2.0
/* names_kunit.c built at 4.11 (tests/CMakeLists.txt): ARM's
 * __copy_from_user_inatomic() of that era zeroes the tail */
#include "names_kunit.c"
