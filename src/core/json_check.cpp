#include "core/json_check.hpp"

#include <deque>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"

namespace cuzk {
namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
std::string describe(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x20 && u < 0x7f ? fmt::format("'{}'", c) : fmt::format("byte 0x{:02x}", u);
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

// One open object or array. Frames above the top are kept (not destroyed) so their key lists
// keep their memory: a C1 opens ~10^6 small objects.
struct Frame {
  bool object = false;
  size_t index = 0;      // array: the current element
  std::string_view key;  // object: the current member's key, unescaped
  std::vector<std::pair<std::string_view, size_t>> keys;  // unescaped key, its byte offset
  std::unordered_map<std::string_view, size_t> many;      // the same, once an object has many keys
};

// Past this many keys an object's duplicate check goes through a hash map (a linear search
// would make a hostile document with 10^6 keys quadratic).
constexpr size_t kLinearKeys = 16;

class Scanner {
 public:
  Scanner(std::string_view text, std::string_view source) : t_(text), source_(source) {}

  Expected<JsonCheck> run() {
    if (auto ok = document(); !ok) return ok.error();
    JsonCheck out;
    if (!rewrites_.empty()) {
      std::string& copy = out.unescaped_keys.emplace();
      copy.reserve(t_.size());
      size_t from = 0;
      for (const Rewrite& r : rewrites_) {
        copy.append(t_.substr(from, r.begin - from));
        copy.push_back('"');
        for (const char c : owned_[r.owned]) {
          if (c == '"' || c == '\\') copy.append(1, '\\').append(1, c);
          else if (static_cast<unsigned char>(c) < 0x20) copy.append(fmt::format("\\u{:04x}", static_cast<unsigned>(c)));
          else copy.push_back(c);
        }
        copy.push_back('"');
        from = r.end;
      }
      copy.append(t_.substr(from));
    }
    return out;
  }

 private:
  struct Rewrite {
    size_t begin, end, owned;  // the raw key [begin, end) with its quotes; owned_[owned] unescaped
  };

  std::string_view t_;
  std::string_view source_;
  size_t p_ = 0;
  std::vector<Frame> frames_;
  size_t depth_ = 0;
  std::deque<std::string> owned_;  // keys that had escapes, unescaped (stable addresses)
  std::vector<Rewrite> rewrites_;

  Error syntax(size_t at, std::string_view what) const {
    return invalid_argument(fmt::format("{}: not valid JSON at byte {}: {}", source_, at, what));
  }
  bool at_end() const { return p_ >= t_.size(); }
  void skip_space() {
    while (p_ < t_.size() && is_space(t_[p_])) ++p_;
  }

  // A string at p_ (on its '"'); p_ ends after the closing quote. `escaped` says whether it had
  // an escape (escapes and control characters are checked here).
  Expected<void> string(bool& escaped) {
    const size_t open = p_++;
    escaped = false;
    for (;;) {
      if (at_end()) return syntax(open, "string not closed before the text ends");
      const char c = t_[p_];
      if (c == '"') {
        ++p_;
        return {};
      }
      if (static_cast<unsigned char>(c) < 0x20) return syntax(p_, fmt::format("control character {} in a string", describe(c)));
      if (c != '\\') {
        ++p_;
        continue;
      }
      escaped = true;
      if (p_ + 1 >= t_.size()) return syntax(p_, "escape not finished before the text ends");
      const char e = t_[p_ + 1];
      if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
        p_ += 2;
        continue;
      }
      if (e != 'u') return syntax(p_, fmt::format("bad escape \\{}", t_[p_ + 1]));
      uint32_t unit = 0;
      if (auto ok = hex4(p_, unit); !ok) return ok;
      p_ += 6;
      if (unit >= 0xdc00 && unit <= 0xdfff) return syntax(p_ - 6, "lone low surrogate \\u escape");
      if (unit >= 0xd800 && unit <= 0xdbff) {
        uint32_t low = 0;
        if (p_ + 1 >= t_.size() || t_[p_] != '\\' || t_[p_ + 1] != 'u') return syntax(p_ - 6, "high surrogate \\u escape not followed by a low one");
        if (auto ok = hex4(p_, low); !ok) return ok;
        if (low < 0xdc00 || low > 0xdfff) return syntax(p_, "high surrogate \\u escape not followed by a low one");
        p_ += 6;
      }
    }
  }
  // The 4 hex digits of the \u escape at `at`.
  Expected<void> hex4(size_t at, uint32_t& out) const {
    out = 0;
    for (size_t i = 0; i < 4; ++i) {
      if (at + 2 + i >= t_.size()) return syntax(at, "\\u escape not finished before the text ends");
      const int v = hex_value(t_[at + 2 + i]);
      if (v < 0) return syntax(at + 2 + i, "\\u escape needs 4 hex digits");
      out = out << 4 | static_cast<uint32_t>(v);
    }
    return {};
  }
  // The unescaped text of the (checked) string raw = its text between the quotes.
  static std::string unescape(std::string_view raw) {
    std::string out;
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '\\') {
        out.push_back(raw[i]);
        continue;
      }
      const char e = raw[++i];
      switch (e) {
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          const auto unit = [&](size_t at) {
            uint32_t v = 0;
            for (size_t k = 0; k < 4; ++k) v = v << 4 | static_cast<uint32_t>(hex_value(raw[at + k]));
            return v;
          };
          uint32_t cp = unit(i + 1);
          i += 4;
          if (cp >= 0xd800 && cp <= 0xdbff) {  // the low half follows (checked)
            cp = 0x10000 + ((cp - 0xd800) << 10) + (unit(i + 3) - 0xdc00);
            i += 6;
          }
          append_utf8(out, cp);
          break;
        }
        default: out.push_back(e);  // " \ /
      }
    }
    return out;
  }

  // "<path>: duplicate key ..." with the path of the key (frames 0..depth_).
  Error duplicate(size_t at, size_t first) const {
    std::string path;
    for (size_t d = 0; d < depth_; ++d) {
      const Frame& f = frames_[d];
      if (f.object) {
        if (!path.empty()) path.push_back('.');
        path.append(f.key);
      } else {
        path.append(fmt::format("[{}]", f.index));
      }
    }
    return invalid_argument(fmt::format("{}: {}: duplicate key (at byte {}; first at byte {})", source_, path, at, first));
  }

  // A member's key and its ':' (p_ after the ':').
  Expected<void> member_key(Frame& f) {
    skip_space();
    if (at_end()) return syntax(p_, "expected a key string, the text ends");
    if (t_[p_] != '"') return syntax(p_, fmt::format("expected a key string, got {}", describe(t_[p_])));
    const size_t begin = p_;
    bool escaped = false;
    if (auto ok = string(escaped); !ok) return ok;
    std::string_view key = t_.substr(begin + 1, p_ - begin - 2);
    if (escaped) {
      owned_.push_back(unescape(key));
      key = owned_.back();
      rewrites_.push_back({begin, p_, owned_.size() - 1});
    }
    f.key = key;
    // serde_json refuses a repeated field; so do we, naming it.
    if (f.keys.size() < kLinearKeys) {
      for (const auto& [k, at] : f.keys) {
        if (k == key) return duplicate(begin, at);
      }
      f.keys.emplace_back(key, begin);
      if (f.keys.size() == kLinearKeys) f.many.insert(f.keys.begin(), f.keys.end());
    } else {
      const auto [it, inserted] = f.many.emplace(key, begin);
      if (!inserted) return duplicate(begin, it->second);
    }
    skip_space();
    if (at_end()) return syntax(p_, "expected ':' after a key, the text ends");
    if (t_[p_] != ':') return syntax(p_, fmt::format("expected ':' after a key, got {}", describe(t_[p_])));
    ++p_;
    return {};
  }

  Expected<void> number() {
    const size_t begin = p_;
    if (t_[p_] == '-') ++p_;
    if (at_end() || !is_digit(t_[p_])) return syntax(begin, "bad number: no digit");
    if (t_[p_] == '0') {
      ++p_;
      if (!at_end() && is_digit(t_[p_])) return syntax(begin, "bad number: leading zero");
    } else {
      while (!at_end() && is_digit(t_[p_])) ++p_;
    }
    if (!at_end() && t_[p_] == '.') {
      ++p_;
      if (at_end() || !is_digit(t_[p_])) return syntax(p_, "bad number: no digit after '.'");
      while (!at_end() && is_digit(t_[p_])) ++p_;
    }
    if (!at_end() && (t_[p_] == 'e' || t_[p_] == 'E')) {
      ++p_;
      if (!at_end() && (t_[p_] == '+' || t_[p_] == '-')) ++p_;
      if (at_end() || !is_digit(t_[p_])) return syntax(p_, "bad number: no digit in the exponent");
      while (!at_end() && is_digit(t_[p_])) ++p_;
    }
    return {};
  }

  Frame& push(bool object) {
    if (frames_.size() == depth_) frames_.emplace_back();
    Frame& f = frames_[depth_++];
    f.object = object;
    f.index = 0;
    f.key = {};
    f.keys.clear();
    if (!f.many.empty()) f.many = {};  // frees the buckets: clear() would walk them every time
    return f;
  }

  // The whole text: one value, whitespace around it.
  Expected<void> document() {
    for (;;) {
      // A value at p_ (after whitespace).
      skip_space();
      if (at_end()) return syntax(p_, "expected a value, the text ends");
      const char c = t_[p_];
      bool closed = true;  // the value ended here (not a container just opened)
      if (c == '{' || c == '[') {
        if (depth_ == kJsonMaxDepth) return syntax(p_, fmt::format("nested deeper than {}", kJsonMaxDepth));
        Frame& f = push(c == '{');
        ++p_;
        skip_space();
        if (!at_end() && t_[p_] == (c == '{' ? '}' : ']')) {
          ++p_;
          --depth_;
        } else if (c == '{') {
          if (auto ok = member_key(f); !ok) return ok;
          closed = false;
        } else {
          closed = false;
        }
      } else if (c == '"') {
        bool escaped = false;
        if (auto ok = string(escaped); !ok) return ok;
      } else if (c == '-' || is_digit(c)) {
        if (auto ok = number(); !ok) return ok;
      } else if (t_.substr(p_, 4) == "true" || t_.substr(p_, 4) == "null") {
        p_ += 4;
      } else if (t_.substr(p_, 5) == "false") {
        p_ += 5;
      } else {
        return syntax(p_, fmt::format("expected a value, got {}", describe(c)));
      }
      if (!closed) continue;

      // After a value: ',' and the next member or element, or the containers' ends.
      for (;;) {
        skip_space();
        if (depth_ == 0) {
          if (!at_end()) return syntax(p_, fmt::format("content after the JSON document ({})", describe(t_[p_])));
          return {};
        }
        Frame& f = frames_[depth_ - 1];
        const char close = f.object ? '}' : ']';
        if (at_end()) return syntax(p_, fmt::format("expected ',' or '{}', the text ends", close));
        if (t_[p_] == close) {
          ++p_;
          --depth_;
          continue;
        }
        if (t_[p_] != ',') {
          return syntax(p_, fmt::format("expected ',' or '{}' after {}, got {}", close, f.object ? "an object member" : "an array element",
                                        describe(t_[p_])));
        }
        ++p_;
        if (f.object) {
          if (auto ok = member_key(f); !ok) return ok;
        } else {
          ++f.index;
        }
        break;
      }
    }
  }
};

}  // namespace

Expected<JsonCheck> check_json(std::string_view text, std::string_view source) { return Scanner(text, source).run(); }

}  // namespace cuzk
