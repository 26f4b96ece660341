// iden3 .r1cs / .wtns reading and writing; the layout is documented in iden3.hpp.
#include "r1cs/iden3.hpp"

#include "core/byte_reader.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

namespace cuzk::r1cs::iden3 {
namespace {

using ff::Fr;

constexpr size_t kN8 = Fr::kBytes;  // 32: the field size iden3 stores for BLS12-381's r
constexpr uint32_t kR1csVersion = 1;
constexpr uint32_t kWtnsVersion = 2;  // what snarkjs writes (wtns_debug.js); it reads 1 and 2

// Section types (r1csfile.js; wtns_utils.js).
constexpr uint32_t kSectionHeader = 1;
constexpr uint32_t kSectionConstraints = 2;
constexpr uint32_t kSectionWireToLabel = 3;
constexpr uint32_t kSectionCustomGatesList = 4;
constexpr uint32_t kSectionCustomGatesUses = 5;
constexpr uint32_t kSectionWitness = 2;

// BN254's r, named in the error for the likeliest wrong file (circom's default prime).
constexpr ff::BigInt<4> kBn254R =
    ff::BigInt<4>::from_hex("30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001");

// Little-endian words, one load/store each on little-endian hosts (per-byte assembly was the
// largest cost of reading a file: a store-forwarding stall per byte).
uint64_t load_le(const uint8_t* p, size_t n) {
  uint64_t v = 0;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&v, p, n);
  } else {
    for (size_t i = n; i-- > 0;) v = (v << 8) | p[i];
  }
  return v;
}
void store_le(uint8_t* p, uint64_t v, size_t n) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(p, &v, n);
  } else {
    for (size_t i = 0; i < n; ++i) p[i] = uint8_t(v >> (8 * i));
  }
}
Fr::Int load_int(const uint8_t* p) {
  Fr::Int v;
  for (size_t i = 0; i < Fr::kLimbs; ++i) v.limbs[i] = load_le(p + 8 * i, 8);
  return v;
}

// A failure while parsing; converted to the returned Error at the API boundary.
[[noreturn]] void fail(Error error) { throw Exception(std::move(error)); }

std::string hex_le(std::span<const uint8_t> le) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out = "0x";
  for (size_t i = le.size(); i-- > 0;) {
    out += kDigits[le[i] >> 4];
    out += kDigits[le[i] & 15];
  }
  return out;
}

// The field a read is for, spelled out only when an error is reported (so a read costs no
// string building): "n_wires", "section 3 size", "constraint 7 B coefficient".
struct FieldName {
  FieldName(const char* what) : what(what) {}  // NOLINT: implicit, so plain fields read as in.u32("n_wires")
  FieldName(const char* what, const char* item, uint32_t index, char lc = 0)
      : what(what), item(item), index(index), lc(lc) {}

  const char* what;
  const char* item = nullptr;  // "section", "constraint", "witness": prefixed with its index
  uint32_t index = 0;
  char lc = 0;  // 'A', 'B', 'C' for a constraint's linear combination

  std::string str() const {
    if (!item) return what;
    std::string out = std::string(item) + " " + std::to_string(index) + " ";
    if (lc) out += std::string(1, lc) + " ";
    return out + what;
  }
};

// core's ByteReader over the whole file (so offsets are file offsets and messages read
// "<path>: offset <n>: <field>: <what>"), confined to one section at a time; a failure throws,
// and the API functions return it (see guarded()).
class Reader {
 public:
  Reader(std::span<const uint8_t> bytes, std::string path) : cursor_(bytes, std::move(path)), end_(bytes.size()) {}

  size_t offset() const { return cursor_.offset(); }
  size_t remaining() const { return end_ - offset(); }
  const std::string& path() const { return cursor_.source(); }

  // Restricts reads to [begin, end) (a section's payload, within the file).
  void limit(size_t begin, size_t end) {
    cursor_.seek(begin, "section").value();
    end_ = end;
  }
  void skip(size_t n, const FieldName& field) { bytes(n, field); }

  std::span<const uint8_t> bytes(size_t n, const FieldName& field) {
    need(n, field);
    return cursor_.take(n, "").value();  // cannot fail: end_ <= the file size
  }
  uint32_t u32(const FieldName& field) { return uint32_t(little_endian(4, field)); }
  uint64_t u64(const FieldName& field) { return little_endian(8, field); }

  // A canonical field element in standard form, from kN8 bytes at file offset `at`.
  Fr fr(const uint8_t* p, size_t at, const FieldName& field) const {
    const Fr::Int v = load_int(p);
    if (v >= Fr::kModulus) corrupt(at, field, "value " + hex_le({p, kN8}) + " is not below r");
    return Fr::from_int(v);
  }

  // "<path>: offset <at>: <field>: <what>"
  Error error(size_t at, ErrorCode code, const FieldName& field, const std::string& what) const {
    return cursor_.error_at(at, code, field.str(), what);
  }
  [[noreturn]] void corrupt(size_t at, const FieldName& field, const std::string& what) const {
    fail(error(at, ErrorCode::kCorruption, field, what));
  }
  [[noreturn]] void corrupt(size_t at, const char* field, const std::string& what) const {
    corrupt(at, FieldName{field}, what);
  }

 private:
  void need(size_t n, const FieldName& field) const {
    if (n > remaining()) {
      corrupt(offset(), field,
              "needs " + std::to_string(n) + " bytes, " + std::to_string(remaining()) +
                  (end_ == cursor_.offset() + cursor_.remaining() ? " left in the file (truncated?)"
                                                                  : " left in the section"));
    }
  }
  uint64_t little_endian(size_t n, const FieldName& field) { return load_le(bytes(n, field).data(), n); }

  ByteReader cursor_;
  size_t end_;  // end of the current section
};

struct Section {
  size_t begin = 0, end = 0;  // payload byte range
};

// The file header and the section table, after checking magic and version. Sections of one
// type may repeat in the binfile container; iden3's readers refuse duplicates of the ones they
// use, and so do we (recorded per type in `sections`, types we do not know are skipped).
template <size_t kTypes>
std::array<std::optional<Section>, kTypes> read_sections(Reader& in, const char (&magic)[5],
                                                         uint32_t min_version, uint32_t max_version) {
  const auto found = in.bytes(4, "magic");
  if (std::memcmp(found.data(), magic, 4) != 0) {
    fail(in.error(0, ErrorCode::kInvalidArgument, "magic",
                  std::string("expected \"") + magic + "\", found " + hex_le(found) + " (not an iden3 ." + magic +
                      " file)"));
  }
  const size_t version_at = in.offset();
  const uint32_t version = in.u32("version");
  if (version < min_version || version > max_version) {
    fail(in.error(version_at, ErrorCode::kInvalidArgument, "version",
                  "version " + std::to_string(version) + " is not supported (expected " +
                      (min_version == max_version ? "" : std::to_string(min_version) + " or ") +
                      std::to_string(max_version) + ")"));
  }
  const uint32_t n_sections = in.u32("number of sections");
  std::array<std::optional<Section>, kTypes> sections;
  for (uint32_t i = 0; i < n_sections; ++i) {
    const size_t at = in.offset();
    const uint32_t type = in.u32({"type", "section", i});
    const size_t size_at = in.offset();
    const uint64_t size = in.u64({"size", "section", i});
    if (size > in.remaining()) {
      in.corrupt(size_at, {"size", "section", i},
                 "section of " + std::to_string(size) + " bytes runs past the end of the file (" +
                     std::to_string(in.remaining()) + " bytes left)");
    }
    if (type < kTypes) {
      if (sections[type]) in.corrupt(at, {"type", "section", i}, "duplicate section of type " + std::to_string(type));
      sections[type] = Section{in.offset(), in.offset() + size_t(size)};
    }
    in.skip(size_t(size), {"payload", "section", i});
  }
  return sections;
}

// Reads the field size and prime that open both header sections; only BLS12-381's r passes.
void read_prime(Reader& in) {
  const size_t at = in.offset();
  const uint32_t n8 = in.u32("field size n8");
  const size_t prime_at = in.offset();
  if (n8 != kN8) {
    std::string prime;
    if (n8 <= in.remaining() && n8 <= 128) prime = ", prime " + hex_le(in.bytes(n8, "prime"));
    fail(in.error(at, ErrorCode::kInvalidArgument, "field size n8",
                  "field of " + std::to_string(n8) + " bytes" + prime +
                      ": only the BLS12-381 scalar field (32 bytes) is supported"));
  }
  const auto prime = in.bytes(kN8, "prime");
  if (load_int(prime.data()) != Fr::kModulus) {
    fail(in.error(prime_at, ErrorCode::kInvalidArgument, "prime",
                  "prime " + hex_le(prime) + (load_int(prime.data()) == kBn254R ? " (BN254's r)" : "") +
                      " is not the BLS12-381 scalar field modulus r; only BLS12-381 is supported"));
  }
}

void end_section(const Reader& in, const char* name) {
  if (in.remaining() != 0) {
    in.corrupt(in.offset(), name, std::to_string(in.remaining()) + " bytes left over at the end of the section");
  }
}

std::vector<uint8_t> read_whole_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) fail({ErrorCode::kIo, path.string() + ": cannot open for reading"});
  file.seekg(0, std::ios::end);
  const std::streamoff size = file.tellg();
  if (size < 0) fail({ErrorCode::kIo, path.string() + ": cannot determine the size"});
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  file.seekg(0, std::ios::beg);
  if (!file.read(reinterpret_cast<char*>(bytes.data()), size)) fail({ErrorCode::kIo, path.string() + ": read failed"});
  return bytes;
}

void write_whole_file(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) fail({ErrorCode::kIo, path.string() + ": cannot open for writing"});
  file.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  file.close();
  if (!file) fail({ErrorCode::kIo, path.string() + ": write failed"});
}

// Little-endian output with a section whose size is patched in when it ends (binfileutils'
// startWriteSection / endWriteSection).
class Writer {
 public:
  Writer(const char (&magic)[5], uint32_t version, uint32_t n_sections, size_t expected_size)
      : out_(expected_size) {
    little_endian(load_le(reinterpret_cast<const uint8_t*>(magic), 4), 4);
    u32(version);
    u32(n_sections);
  }
  void u32(uint32_t v) { little_endian(v, 4); }
  void u64(uint64_t v) { little_endian(v, 8); }
  void fr(const Fr& v) { fr_int(v.to_int()); }
  void prime() {
    u32(uint32_t(kN8));
    fr_int(Fr::kModulus);
  }
  void begin_section(uint32_t type) {
    u32(type);
    size_at_ = size_;
    u64(0);
  }
  void end_section() { store_le(out_.data() + size_at_, size_ - size_at_ - 8, 8); }
  std::span<const uint8_t> bytes() const { return std::span(out_).first(size_); }

 private:
  void little_endian(uint64_t v, size_t n) {
    if (size_ + n > out_.size()) out_.resize(std::max(2 * out_.size(), size_ + n));
    store_le(out_.data() + size_, v, n);
    size_ += n;
  }
  void fr_int(const Fr::Int& v) {
    for (uint64_t limb : v.limbs) little_endian(limb, 8);
  }
  std::vector<uint8_t> out_;  // sized up front to the expected file size
  size_t size_ = 0;
  size_t size_at_ = 0;
};

constexpr size_t kTermBytes = 4 + kN8;
constexpr size_t kR1csHeaderBytes = 4 + kN8 + 4 * 4 + 8 + 4;

R1csFile decode_r1cs(Reader& in) {
  const auto sections = read_sections<6>(in, "r1cs", kR1csVersion, kR1csVersion);
  if (sections[kSectionCustomGatesList] || sections[kSectionCustomGatesUses]) {
    fail({ErrorCode::kUnsupported, in.path() + ": uses PLONK custom gates (sections 4/5), not a plain R1CS"});
  }
  for (uint32_t type : {kSectionHeader, kSectionConstraints}) {
    if (!sections[type]) fail(corruption(in.path() + ": no section of type " + std::to_string(type)));
  }

  R1csFile file;
  const Section& header = *sections[kSectionHeader];
  in.limit(header.begin, header.end);
  read_prime(in);
  file.n_wires = in.u32("header n_wires");
  file.n_pub_out = in.u32("header n_pub_out");
  file.n_pub_in = in.u32("header n_pub_in");
  file.n_prv_in = in.u32("header n_prv_in");
  file.n_labels = in.u64("header n_labels");
  const size_t m_at = in.offset();
  const uint32_t n_constraints = in.u32("header n_constraints");
  end_section(in, "header");
  if (uint64_t(file.n_pub_out) + file.n_pub_in + file.n_prv_in + 1 > file.n_wires) {
    in.corrupt(header.begin + 4 + kN8, "header n_wires",
               std::to_string(file.n_wires) + " wires cannot hold ONE and " +
                   std::to_string(uint64_t(file.n_pub_out) + file.n_pub_in + file.n_prv_in) + " inputs/outputs");
  }

  const Section& body = *sections[kSectionConstraints];
  in.limit(body.begin, body.end);
  // Every constraint takes at least three term counts: check before allocating.
  if (uint64_t(n_constraints) * 12 > in.remaining()) {
    in.corrupt(m_at, "header n_constraints",
               std::to_string(n_constraints) + " constraints do not fit in a constraints section of " +
                   std::to_string(in.remaining()) + " bytes");
  }
  file.constraints.resize(n_constraints);
  static constexpr char kNames[3] = {'A', 'B', 'C'};
  for (uint32_t i = 0; i < n_constraints; ++i) {
    Constraint& constraint = file.constraints[i];
    std::vector<Term>* lcs[3] = {&constraint.a, &constraint.b, &constraint.c};
    for (int k = 0; k < 3; ++k) {
      const FieldName count_name{"term count", "constraint", i, kNames[k]};
      const FieldName wire_name{"wire", "constraint", i, kNames[k]};
      const FieldName coeff_name{"coefficient", "constraint", i, kNames[k]};
      const size_t count_at = in.offset();
      const uint32_t n_terms = in.u32(count_name);
      if (uint64_t(n_terms) * kTermBytes > in.remaining()) {
        in.corrupt(count_at, count_name,
                   std::to_string(n_terms) + " terms need " + std::to_string(uint64_t(n_terms) * kTermBytes) +
                       " bytes, " + std::to_string(in.remaining()) + " left in the section");
      }
      // The terms in one read (the per-read cost was a quarter of the parse).
      const size_t terms_at = in.offset();
      const uint8_t* p = in.bytes(n_terms * kTermBytes, count_name).data();
      lcs[k]->resize(n_terms);
      for (size_t t = 0; t < n_terms; ++t, p += kTermBytes) {
        const size_t at = terms_at + t * kTermBytes;
        Term& term = (*lcs[k])[t];
        term.wire = uint32_t(load_le(p, 4));
        if (term.wire >= file.n_wires) {
          in.corrupt(at, wire_name, "wire " + std::to_string(term.wire) + " >= n_wires " + std::to_string(file.n_wires));
        }
        term.coeff = in.fr(p + 4, at + 4, coeff_name);
      }
    }
  }
  end_section(in, "constraints");

  if (sections[kSectionWireToLabel]) {
    const Section& map = *sections[kSectionWireToLabel];
    in.limit(map.begin, map.end);
    if (in.remaining() != uint64_t(file.n_wires) * 8) {
      in.corrupt(map.begin - 8, "wire-to-label section size",
                 std::to_string(in.remaining()) + " bytes, expected 8 x n_wires = " +
                     std::to_string(uint64_t(file.n_wires) * 8));
    }
    file.wire_to_label.resize(file.n_wires);
    for (uint64_t& label : file.wire_to_label) label = in.u64("wire label");
  }
  return file;
}

std::vector<Fr> decode_wtns(Reader& in) {
  const auto sections = read_sections<3>(in, "wtns", 1, kWtnsVersion);
  for (uint32_t type : {kSectionHeader, kSectionWitness}) {
    if (!sections[type]) fail(corruption(in.path() + ": no section of type " + std::to_string(type)));
  }
  const Section& header = *sections[kSectionHeader];
  in.limit(header.begin, header.end);
  read_prime(in);
  const size_t n_at = in.offset();
  const uint32_t n_witness = in.u32("header n_witness");
  end_section(in, "header");

  const Section& values = *sections[kSectionWitness];
  in.limit(values.begin, values.end);
  if (uint64_t(n_witness) * kN8 != in.remaining()) {
    in.corrupt(n_at, "header n_witness",
               std::to_string(n_witness) + " values need " + std::to_string(uint64_t(n_witness) * kN8) +
                   " bytes, the values section has " + std::to_string(in.remaining()));
  }
  std::vector<Fr> witness(n_witness);
  const size_t values_at = in.offset();
  const uint8_t* p = in.bytes(n_witness * kN8, "witness values").data();
  for (uint32_t i = 0; i < n_witness; ++i) witness[i] = in.fr(p + i * kN8, values_at + i * kN8, {"value", "witness", i});
  return witness;
}

// Runs a parser or writer body, turning a thrown cuzk::Exception into the returned Error.
template <class Body>
auto guarded(Body&& body) -> Expected<decltype(body())> {
  try {
    if constexpr (std::is_void_v<decltype(body())>) {
      body();
      return {};
    } else {
      return body();
    }
  } catch (const Exception& e) {
    return e.error();
  }
}

}  // namespace

Expected<R1csFile> parse_r1cs(std::span<const uint8_t> bytes, const std::string& source) {
  return guarded([&] {
    Reader in(bytes, source);
    return decode_r1cs(in);
  });
}

Expected<R1csFile> read_r1cs(const std::filesystem::path& path) {
  return guarded([&] {
    const auto bytes = read_whole_file(path);
    Reader in(bytes, path.string());
    return decode_r1cs(in);
  });
}

Expected<void> write_r1cs(const std::filesystem::path& path, const R1csFile& file) {
  return guarded([&] {
    const std::string name = path.string();
    if (uint64_t(file.n_pub_out) + file.n_pub_in + file.n_prv_in + 1 > file.n_wires) {
      fail(invalid_argument(name + ": n_wires " + std::to_string(file.n_wires) +
                            " cannot hold ONE and the inputs/outputs"));
    }
    if (file.constraints.size() > std::numeric_limits<uint32_t>::max()) {
      fail(invalid_argument(name + ": more than 2^32-1 constraints"));
    }
    if (!file.wire_to_label.empty() && file.wire_to_label.size() != file.n_wires) {
      fail(invalid_argument(name + ": wire_to_label has " + std::to_string(file.wire_to_label.size()) +
                            " entries, n_wires is " + std::to_string(file.n_wires)));
    }
    size_t size = 12 + (12 + kR1csHeaderBytes) + 12 + 8 * file.wire_to_label.size() + 12;
    for (const Constraint& c : file.constraints) size += 12 + kTermBytes * (c.a.size() + c.b.size() + c.c.size());
    Writer out("r1cs", kR1csVersion, file.wire_to_label.empty() ? 2 : 3, size);
    out.begin_section(kSectionHeader);
    out.prime();
    out.u32(file.n_wires);
    out.u32(file.n_pub_out);
    out.u32(file.n_pub_in);
    out.u32(file.n_prv_in);
    out.u64(file.n_labels);
    out.u32(uint32_t(file.constraints.size()));
    out.end_section();

    out.begin_section(kSectionConstraints);
    for (size_t i = 0; i < file.constraints.size(); ++i) {
      for (const std::vector<Term>* lc : {&file.constraints[i].a, &file.constraints[i].b, &file.constraints[i].c}) {
        out.u32(uint32_t(lc->size()));
        for (const Term& term : *lc) {
          if (term.wire >= file.n_wires) {
            fail(invalid_argument(name + ": constraint " + std::to_string(i) + " uses wire " +
                                  std::to_string(term.wire) + " >= n_wires " + std::to_string(file.n_wires)));
          }
          out.u32(term.wire);
          out.fr(term.coeff);
        }
      }
    }
    out.end_section();

    if (!file.wire_to_label.empty()) {
      out.begin_section(kSectionWireToLabel);
      for (uint64_t label : file.wire_to_label) out.u64(label);
      out.end_section();
    }
    write_whole_file(path, out.bytes());
  });
}

Expected<std::vector<Fr>> parse_wtns(std::span<const uint8_t> bytes, const std::string& source) {
  return guarded([&] {
    Reader in(bytes, source);
    return decode_wtns(in);
  });
}

Expected<std::vector<Fr>> read_wtns(const std::filesystem::path& path) {
  return guarded([&] {
    const auto bytes = read_whole_file(path);
    Reader in(bytes, path.string());
    return decode_wtns(in);
  });
}

Expected<void> write_wtns(const std::filesystem::path& path, std::span<const Fr> witness) {
  return guarded([&] {
    if (witness.size() > std::numeric_limits<uint32_t>::max()) {
      fail(invalid_argument(path.string() + ": more than 2^32-1 witness values"));
    }
    Writer out("wtns", kWtnsVersion, 2, 12 + 12 + 4 + kN8 + 4 + 12 + kN8 * witness.size());
    out.begin_section(kSectionHeader);
    out.prime();
    out.u32(uint32_t(witness.size()));
    out.end_section();
    out.begin_section(kSectionWitness);
    for (const Fr& value : witness) out.fr(value);
    out.end_section();
    write_whole_file(path, out.bytes());
  });
}

}  // namespace cuzk::r1cs::iden3
