#include "mid/mid.hpp"

// Undeclared: side is no layer above mid, but mid does not link it (expected: mid/mid.cpp:6).
#include <vector>

#include "side/side.hpp"

int mid() { return base() + side(); }
