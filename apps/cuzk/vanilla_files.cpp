#include "vanilla_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <string_view>

#include "command_support.hpp"
#include "core/base64.hpp"
#include "core/error.hpp"

namespace cuzk::app {

namespace fs = std::filesystem;

std::vector<std::string> vanilla_files(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  for (const std::string& a : args) {
    if (!fs::is_directory(a)) {
      files.push_back(a);
      continue;
    }
    for (const auto& e : fs::directory_iterator(a))
      if (e.path().string().ends_with(".vanilla.bin")) files.push_back(e.path().string());
  }
  if (files.empty()) throw Exception(invalid_argument("--vanilla: no vanilla proofs"));
  return files;
}

std::vector<VanillaFile> read_post_vanilla(const std::vector<std::string>& args) {
  std::vector<VanillaFile> out;
  for (const std::string& f : vanilla_files(args)) {
    const std::string text = slurp(f);
    VanillaFile v{f, std::vector<uint8_t>(text.begin(), text.end()), 0};
    for (size_t i = 0; i < 8 && i < v.bytes.size(); ++i) v.sector_id |= uint64_t(v.bytes[i]) << (8 * i);
    out.push_back(std::move(v));
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.sector_id < b.sector_id; });
  return out;
}

std::vector<std::pair<std::string, std::vector<uint8_t>>> read_partition_blobs(const std::vector<std::string>& files) {
  std::vector<std::pair<std::string, std::vector<uint8_t>>> out;
  for (const std::string& file : files) {
    const std::string text = slurp(file);
    if (file.ends_with(".json")) {
      size_t at = text.find('[');
      if (at == std::string::npos) throw Exception(corruption(file + ": expected a JSON array of base64 strings"));
      for (size_t i = 0;; ++i) {
        const size_t open = text.find('"', at + 1);
        if (open == std::string::npos) break;
        const size_t close = text.find('"', open + 1);
        if (close == std::string::npos) throw Exception(corruption(fmt::format("{}: [{}]: unterminated string", file, i)));
        Expected<std::vector<uint8_t>> blob = base64_decode(std::string_view(text).substr(open + 1, close - open - 1));
        if (!blob) throw Exception(corruption(fmt::format("{}: [{}]: {}", file, i, blob.error().message)));
        out.emplace_back(fmt::format("{}[{}]", file, i), std::move(*blob));
        at = close;
      }
    } else {
      out.emplace_back(file, std::vector<uint8_t>(text.begin(), text.end()));
    }
  }
  return out;
}

}  // namespace cuzk::app
