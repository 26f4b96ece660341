#include "core/process_memory.hpp"

#include <unistd.h>

#include <fstream>

namespace cuzk {

size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;  // statm: size resident shared text lib data dt, in pages
  if (!(statm >> pages >> resident)) return 0;
  return resident * size_t(sysconf(_SC_PAGESIZE));
}

size_t physical_memory_bytes() { return size_t(sysconf(_SC_PHYS_PAGES)) * size_t(sysconf(_SC_PAGESIZE)); }

}  // namespace cuzk
