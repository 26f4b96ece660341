#pragma once
// A header of a folder with two targets may include what either links: side (through top_extra).
#include "base/base.hpp"
#include "mid/mid.hpp"
#include "side/side.hpp"

int top();
