#pragma once
#include "base/base.hpp"

int mid();
