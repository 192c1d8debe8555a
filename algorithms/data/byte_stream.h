// ByteStream: bounded, streaming reads of a raw or gzip-compressed file
// (or of bytes in memory).
//
// Internal to the loaders (algorithms/data). The stream opens `path`, checks it
// is a regular readable file, sniffs the gzip magic (1f 8b) and, if present,
// inflates on the fly with zlib. Reads come in caller-sized chunks, so memory
// stays bounded whatever the file holds. Every failure throws DataError with
// the path, the byte offset (decompressed, and compressed for gzip), what was
// expected, what was found and what to try. At most `max_bytes` (decompressed)
// bytes are delivered; reading past that throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace cilab {
namespace data_detail {

class ByteStream {
 public:
  ByteStream(const std::string& path, size_t max_bytes);
  // The same over `size` bytes already in memory (not copied: they must outlive
  // the stream); `name` stands for the path in messages. For the fuzz targets.
  ByteStream(const uint8_t* data, size_t size, const std::string& name, size_t max_bytes);
  ~ByteStream();
  ByteStream(const ByteStream&) = delete;
  ByteStream& operator=(const ByteStream&) = delete;

  // Reads up to n bytes into buf; returns the count, 0 only at the end of the
  // data. Throws DataError on I/O or gzip errors, or past max_bytes.
  size_t read(uint8_t* buf, size_t n);

  // Reads until n bytes or the end; returns the count.
  size_t read_full(uint8_t* buf, size_t n);

  // Looks at up to n leading bytes without consuming them (call before read).
  const std::vector<uint8_t>& peek(size_t n);

  bool gzip() const { return gzip_; }
  const std::string& path() const { return path_; }
  // Bytes delivered so far (decompressed offset).
  uint64_t offset() const { return delivered_; }
  // Size on disk of the file.
  uint64_t file_size() const { return file_size_; }
  // "byte 123" or "decompressed byte 123 (compressed byte 45)".
  std::string where() const;
  std::string where(uint64_t offset) const;

 private:
  // Sniffs the gzip magic and starts zlib, or checks the raw size limit.
  void start();
  size_t read_raw(uint8_t* buf, size_t n);
  size_t inflate_some(uint8_t* buf, size_t n);
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  size_t max_bytes_;
  std::FILE* file_ = nullptr;
  const uint8_t* mem_ = nullptr;  // in-memory source when file_ is null
  size_t mem_size_ = 0;
  uint64_t file_size_ = 0;
  bool gzip_ = false;
  bool eof_ = false;
  uint64_t delivered_ = 0;
  uint64_t raw_consumed_ = 0;   // compressed bytes fed to zlib
  std::vector<uint8_t> peeked_;  // bytes peeked but not yet read
  size_t peek_pos_ = 0;
  struct Zlib;
  std::unique_ptr<Zlib> z_;
};

// "1.5 KiB", "64 MiB": for messages.
std::string human_bytes(uint64_t n);

// The path's file name without directories and without ".gz"/".csv"/... ext.
std::string file_stem(const std::string& path);

}  // namespace data_detail
}  // namespace cilab
