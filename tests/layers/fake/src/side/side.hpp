#pragma once
#include "base/base.hpp"

inline int side() { return base(); }
