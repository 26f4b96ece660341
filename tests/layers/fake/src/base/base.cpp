#include "base/base.hpp"

int base() { return 1; }
