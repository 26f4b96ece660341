#pragma once
// A layer's subfolder is checked as the layer (expected: mid/detail/deep.hpp:4).

#include "top/top.hpp"
