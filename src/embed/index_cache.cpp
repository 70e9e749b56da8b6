#include "embed/index_cache.hpp"

#include <fmt/format.h>

#include <array>
#include <fstream>
#include <system_error>
#include <vector>

#include "core/content_hash.hpp"
#include "core/file_text.hpp"
#include "core/logging.hpp"

namespace planfirst::embed {
using core::checksum64;
using core::fmix64;
using core::fnv1a64;
using core::to_hex;
namespace {

// File layout, every integer little-endian:
//   0  magic "PFVINDEX"      8 bytes
//   8  format version        u32
//  12  index kind            u32 (IndexKind)
//  16  key                   u64 (the value whose hex is the file name)
//  24  count                 u64 (rows)
//  32  dimensions            u64
//  40  payload length        u64
//  48  payload checksum      u64 checksum64 of the payload
//  56  header checksum       u64 checksum64 of bytes 0..55
//  64  payload               FAISS write_index bytes
constexpr std::string_view kMagic = "PFVINDEX";
constexpr std::size_t kHeaderSize = 64;

struct Header {
  std::uint32_t version = kIndexCacheFormatVersion;
  IndexKind kind = IndexKind::kFlat;
  std::uint64_t key = 0;
  std::uint64_t count = 0;
  std::uint64_t dimensions = 0;
  std::uint64_t payload_length = 0;
  std::uint64_t payload_checksum = 0;
};

std::uint64_t checksum(std::span<const std::uint8_t> bytes) {
  return checksum64(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

void put(std::vector<std::uint8_t>& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

std::uint64_t get(std::span<const std::uint8_t> in, std::size_t offset, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= static_cast<std::uint64_t>(in[offset + i]) << (8 * i);
  return value;
}

std::uint64_t key_value(const Embedder& embedder, std::span<const std::string> texts) {
  std::uint64_t state = fnv1a64("planfirst-index-key\n");
  state = fnv1a64(embedder.identity(), state);
  state = fnv1a64(fmt::format("\n{}\n{}\n", embedder.dimensions(), texts.size()), state);
  for (const std::string& text : texts) {
    state = fnv1a64(fmt::format("{}:", text.size()), state);
    state = fnv1a64(text, state);
  }
  return fmix64(state);
}

std::vector<std::uint8_t> encode(const Header& header, std::span<const std::uint8_t> payload) {
  std::vector<std::uint8_t> out;
  out.reserve(kHeaderSize + payload.size());
  out.insert(out.end(), kMagic.begin(), kMagic.end());
  put(out, header.version, 4);
  put(out, static_cast<std::uint32_t>(header.kind), 4);
  put(out, header.key, 8);
  put(out, header.count, 8);
  put(out, header.dimensions, 8);
  put(out, payload.size(), 8);
  put(out, checksum(payload), 8);
  put(out, checksum(out), 8);
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

// The header of `file`, checked against what the caller expects; the error says why it was refused.
core::Result<Header> decode(std::span<const std::uint8_t> file, const Header& expected) {
  if (file.size() < kHeaderSize)
    return core::invalid_argument(fmt::format("truncated header ({} bytes)", file.size()));
  if (std::string_view(reinterpret_cast<const char*>(file.data()), kMagic.size()) != kMagic) {
    return core::invalid_argument("not a planfirst index file (bad magic)");
  }
  if (checksum(file.first(56)) != get(file, 56, 8)) return core::invalid_argument("header checksum mismatch");
  Header header;
  header.version = static_cast<std::uint32_t>(get(file, 8, 4));
  header.kind = static_cast<IndexKind>(get(file, 12, 4));
  header.key = get(file, 16, 8);
  header.count = get(file, 24, 8);
  header.dimensions = get(file, 32, 8);
  header.payload_length = get(file, 40, 8);
  header.payload_checksum = get(file, 48, 8);
  if (header.version != expected.version) {
    return core::invalid_argument(
        fmt::format("format version {}, expected {}", header.version, expected.version));
  }
  if (header.key != expected.key) {
    return core::invalid_argument(
        fmt::format("foreign file: key {}, expected {}", to_hex(header.key), to_hex(expected.key)));
  }
  if (header.kind != expected.kind || header.count != expected.count ||
      header.dimensions != expected.dimensions) {
    return core::invalid_argument(fmt::format("holds a {} index of {} x {}, expected {} of {} x {}",
                                              header.kind == IndexKind::kHnsw ? "hnsw" : "flat", header.count,
                                              header.dimensions, to_string(expected.kind), expected.count,
                                              expected.dimensions));
  }
  if (header.payload_length != file.size() - kHeaderSize) {
    return core::invalid_argument(fmt::format("payload is {} bytes, header says {} (truncated?)",
                                              file.size() - kHeaderSize, header.payload_length));
  }
  if (checksum(file.subspan(kHeaderSize)) != header.payload_checksum) {
    return core::invalid_argument("payload checksum mismatch");
  }
  return header;
}

core::Result<std::vector<std::uint8_t>> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return core::not_found("no cache file", path.string());
  const std::streamoff size = in.tellg();
  if (size < 0) return core::unavailable("cannot read cache file", path.string());
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  in.seekg(0);
  in.read(reinterpret_cast<char*>(bytes.data()), size);
  if (in.gcount() != size) return core::unavailable("cannot read cache file", path.string());
  return bytes;
}

core::Result<void> write_cache_file(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec)
    return core::unavailable("cannot create cache directory: " + ec.message(), path.parent_path().string());
  return core::write_file_atomically(
      path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace

std::string index_cache_key(const Embedder& embedder, std::span<const std::string> texts) {
  return to_hex(key_value(embedder, texts));
}

std::string_view to_string(CacheOutcome outcome) {
  switch (outcome) {
    case CacheOutcome::kLoaded: return "loaded";
    case CacheOutcome::kBuilt: return "built";
    case CacheOutcome::kRebuilt: return "rebuilt";
  }
  return "built";
}

IndexCache::IndexCache(std::filesystem::path directory, VectorIndexOptions options)
    : directory_(std::move(directory)), options_(options) {}

std::filesystem::path IndexCache::file_for(std::string_view key) const {
  return directory_ / (std::string(key) + ".pfindex");
}

core::Result<CachedIndex> IndexCache::load_or_build(const Embedder& embedder,
                                                    std::span<const std::string> texts) const {
  Header expected;
  expected.key = key_value(embedder, texts);
  expected.count = texts.size();
  expected.dimensions = embedder.dimensions();
  expected.kind = texts.size() > options_.hnsw_threshold ? IndexKind::kHnsw : IndexKind::kFlat;
  const std::string key = to_hex(expected.key);
  const std::filesystem::path file = file_for(key);

  std::string refusal;
  bool existed = false;
  if (core::Result<std::vector<std::uint8_t>> bytes = read_file(file); bytes) {
    existed = true;
    core::Result<Header> header = decode(*bytes, expected);
    if (header) {
      core::Result<VectorIndex> index =
          VectorIndex::deserialize(std::span<const std::uint8_t>(*bytes).subspan(kHeaderSize), expected.kind,
                                   expected.count, expected.dimensions, options_);
      if (index) return CachedIndex{std::move(*index), CacheOutcome::kLoaded, key, file, {}, {}};
      refusal = index.error().message;
    } else {
      refusal = header.error().message;
    }
    core::log_warn("index cache {}: refused ({}); rebuilding", file.string(), refusal);
  }

  core::Result<EmbeddingMatrix> vectors = embedder.embed(texts);
  if (!vectors) return vectors.error();
  if (vectors->rows != texts.size() || vectors->dimensions != embedder.dimensions()) {
    return core::internal_error(fmt::format("embedder {} returned {} x {} for {} texts of {} dimensions",
                                            embedder.identity(), vectors->rows, vectors->dimensions,
                                            texts.size(), embedder.dimensions()));
  }
  core::Result<VectorIndex> index = VectorIndex::build(*vectors, options_);
  if (!index) return index.error();

  std::string store_error;
  core::Result<std::vector<std::uint8_t>> payload = index->serialize();
  if (!payload) {
    store_error = payload.error().describe();
  } else if (core::Result<void> written = write_cache_file(file, encode(expected, *payload)); !written) {
    store_error = written.error().describe();
  }
  if (!store_error.empty()) core::log_warn("index cache: {}", store_error);
  return CachedIndex{std::move(*index),
                     existed ? CacheOutcome::kRebuilt : CacheOutcome::kBuilt,
                     key,
                     file,
                     std::move(refusal),
                     std::move(store_error)};
}

}  // namespace planfirst::embed
