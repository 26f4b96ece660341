#include "local.hpp"      // the app's own folder: not a layer
#include "mid/mid.hpp"    // linked
#include "base/base.hpp"  // through mid
#include "top/top.hpp"    // not linked (expected: apps/tool/main.cpp:4)

int main() { return mid() + top(); }
