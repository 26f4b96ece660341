#pragma once
// The process's and the machine's memory, as Linux reports it: for the engine's memory budget
// (engine/engine.hpp), the daemon's default budget and its metrics.

#include <cstddef>

namespace cuzk {

// Resident set size now (/proc/self/statm); 0 where it cannot be read.
size_t resident_bytes();
// Physical memory of the machine (sysconf).
size_t physical_memory_bytes();

}  // namespace cuzk
