#include "top/top.hpp"

#include "base/base.hpp"  // through mid: allowed
#include "side/side.hpp"  // top.cpp is in cuzk_top, which does not link side (expected: top/top.cpp:4)

int top() { return mid() + side(); }
