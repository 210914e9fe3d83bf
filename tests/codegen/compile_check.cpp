// SPDX-License-Identifier: BSD-3-Clause
// The same check as compile_check.c, as C++17.
#include "compile_check.c"
