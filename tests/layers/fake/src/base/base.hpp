#pragma once
// Upward: base links nothing of ours, and top sits above it (expected: base/base.hpp:5).
// #include "top/top.hpp" in a comment is not an include.

#include "top/top.hpp"

int base();
