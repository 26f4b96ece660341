#include "side/side.hpp"  // extra.cpp is in cuzk_top_extra, which links side: allowed

int extra() { return side(); }
