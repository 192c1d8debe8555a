// ByteStream: raw or gzip file reads in bounded chunks (see byte_stream.h).
#include "algorithms/data/byte_stream.h"

#include "algorithms/data/datasets.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace cilab {
namespace data_detail {

namespace fs = std::filesystem;

namespace {
constexpr size_t kInChunk = size_t(256) << 10;
}  // namespace

struct ByteStream::Zlib {
  z_stream strm{};
  std::vector<uint8_t> in = std::vector<uint8_t>(kInChunk);
  bool initialised = false;
  bool member_done = false;
  ~Zlib() {
    if (initialised) inflateEnd(&strm);
  }
};

std::string human_bytes(uint64_t n) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(n);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  char buf[64];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(n));
  else
    std::snprintf(buf, sizeof buf, "%.4g %s", v, units[u]);
  return buf;
}

std::string file_stem(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  for (const char* ext : {".gz", ".csv", ".tsv", ".txt", ".idx"}) {
    const size_t len = std::strlen(ext);
    if (name.size() > len && name.compare(name.size() - len, len, ext) == 0)
      name.resize(name.size() - len);
  }
  return name.empty() ? std::string("data") : name;
}

ByteStream::ByteStream(const std::string& path, size_t max_bytes)
    : path_(path), max_bytes_(max_bytes) {
  if (path.empty())
    throw DataError("(empty path): expected a file path, found an empty string; try: choose a file");
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st) || (ec && ec != std::errc::no_such_file_or_directory)) {
    throw DataError(path + ": cannot open: expected an existing file, found " +
                    (ec && ec != std::errc::no_such_file_or_directory ? ec.message()
                                                                      : std::string("no such file or directory")) +
                    "; try: check the path and its spelling");
  }
  if (fs::is_directory(st))
    throw DataError(path + ": expected a data file, found a directory; try: choose a file inside it");
  if (!fs::is_regular_file(st))
    throw DataError(path + ": expected a regular data file, found a device, pipe or socket; "
                           "try: copy the data to a regular file first");
  file_size_ = fs::file_size(path, ec);
  if (ec) file_size_ = 0;
  file_ = std::fopen(path.c_str(), "rb");
  if (!file_) {
    const int err = errno;
    throw DataError(path + ": byte 0: cannot open: expected a readable file, found '" +
                    std::strerror(err) + "'; try: check the file's permissions");
  }
  try {
    start();
  } catch (...) {
    std::fclose(file_);  // the destructor does not run when the constructor throws
    throw;
  }
}

ByteStream::ByteStream(const uint8_t* data, size_t size, const std::string& name, size_t max_bytes)
    : path_(name), max_bytes_(max_bytes), mem_(data), mem_size_(size) {
  file_size_ = size;
  start();
}

void ByteStream::start() {
  uint8_t magic[2] = {0, 0};
  const size_t got = read_raw(magic, 2);
  if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
    gzip_ = true;
    z_ = std::make_unique<Zlib>();
    z_->in[0] = magic[0];
    z_->in[1] = magic[1];
    z_->strm.next_in = z_->in.data();
    z_->strm.avail_in = 2;
    if (inflateInit2(&z_->strm, 15 + 16) != Z_OK)
      fail("cannot start gzip decompression (zlib init failed); try: free some memory");
    z_->initialised = true;
  } else {
    if (file_size_ > max_bytes_)
      fail("expected at most " + human_bytes(max_bytes_) + ", found a file of " +
           human_bytes(file_size_) + "; try: split the file or raise the size limit");
    peeked_.assign(magic, magic + got);
  }
}

ByteStream::~ByteStream() {
  if (file_) std::fclose(file_);
}

void ByteStream::fail(const std::string& what) const {
  throw DataError(path_ + ": " + where() + ": " + what);
}

std::string ByteStream::where() const { return where(delivered_); }

std::string ByteStream::where(uint64_t offset) const {
  if (!gzip_) return "byte " + std::to_string(offset);
  return "decompressed byte " + std::to_string(offset) + " (compressed byte " +
         std::to_string(raw_consumed_) + ")";
}

size_t ByteStream::read_raw(uint8_t* buf, size_t n) {
  if (!file_) {
    const size_t got = std::min(n, mem_size_ - static_cast<size_t>(raw_consumed_));
    if (got > 0) std::memcpy(buf, mem_ + raw_consumed_, got);
    raw_consumed_ += got;
    return got;
  }
  size_t total = 0;
  while (total < n) {
    const size_t got = std::fread(buf + total, 1, n - total, file_);
    total += got;
    if (got == 0) {
      if (std::ferror(file_)) {
        const int err = errno;
        throw DataError(path_ + ": byte " + std::to_string(raw_consumed_ + total) +
                        ": read failed: expected more data, found an I/O error '" + std::strerror(err) +
                        "'; try: check the disk or copy the file elsewhere");
      }
      break;
    }
  }
  raw_consumed_ += total;
  return total;
}

size_t ByteStream::inflate_some(uint8_t* buf, size_t n) {
  Zlib& z = *z_;
  n = std::min(n, size_t(1) << 30);  // zlib counts in 32-bit uInt
  while (!eof_) {
    if (z.member_done) {
      // Another gzip member may follow (concatenated .gz files).
      if (z.strm.avail_in == 0) {
        const size_t got = read_raw(z.in.data(), z.in.size());
        z.strm.next_in = z.in.data();
        z.strm.avail_in = static_cast<uInt>(got);
      }
      if (z.strm.avail_in >= 2 && z.strm.next_in[0] == 0x1f && z.strm.next_in[1] == 0x8b) {
        inflateReset(&z.strm);
        z.member_done = false;
      } else {
        eof_ = true;  // end of data (trailing padding, if any, is ignored as gzip does)
        return 0;
      }
    }
    if (z.strm.avail_in == 0) {
      const size_t got = read_raw(z.in.data(), z.in.size());
      z.strm.next_in = z.in.data();
      z.strm.avail_in = static_cast<uInt>(got);
      if (got == 0)
        fail("gzip data ends early: expected more compressed data and the end-of-stream "
             "checksum, found the end of the file; try: the file is truncated, download or copy it again");
    }
    z.strm.next_out = buf;
    z.strm.avail_out = static_cast<uInt>(n);
    const int ret = inflate(&z.strm, Z_NO_FLUSH);
    const size_t produced = n - z.strm.avail_out;
    if (ret == Z_STREAM_END) {
      z.member_done = true;
    } else if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT) {
      fail(std::string("corrupt gzip data: expected a valid deflate stream, found '") +
           (z.strm.msg ? z.strm.msg : "invalid data") +
           "'; try: the file is damaged, download or copy it again (check it with: gzip -t FILE)");
    } else if (ret == Z_MEM_ERROR) {
      fail("out of memory while decompressing; try: free some memory");
    } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
      fail("gzip decompression failed (zlib code " + std::to_string(ret) +
           "); try: check the file with: gzip -t FILE");
    }
    if (produced > 0) return produced;
  }
  return 0;
}

size_t ByteStream::read(uint8_t* buf, size_t n) {
  if (n == 0) return 0;
  size_t got = 0;
  if (peek_pos_ < peeked_.size()) {
    got = std::min(n, peeked_.size() - peek_pos_);
    std::memcpy(buf, peeked_.data() + peek_pos_, got);
    peek_pos_ += got;
    if (peek_pos_ == peeked_.size()) {
      peeked_.clear();
      peek_pos_ = 0;
    }
  } else if (!eof_) {
    got = gzip_ ? inflate_some(buf, n) : read_raw(buf, n);
    if (!gzip_ && got == 0) eof_ = true;
  }
  if (delivered_ + got > max_bytes_)
    fail("expected at most " + human_bytes(max_bytes_) +
         " of data, found more; try: split the file or raise the size limit");
  delivered_ += got;
  return got;
}

size_t ByteStream::read_full(uint8_t* buf, size_t n) {
  size_t total = 0;
  while (total < n) {
    const size_t got = read(buf + total, n - total);
    if (got == 0) break;
    total += got;
  }
  return total;
}

const std::vector<uint8_t>& ByteStream::peek(size_t n) {
  // Move any unread peeked bytes to the front, then top up to n bytes.
  if (peek_pos_ > 0) {
    peeked_.erase(peeked_.begin(), peeked_.begin() + static_cast<std::ptrdiff_t>(peek_pos_));
    peek_pos_ = 0;
  }
  while (peeked_.size() < n && !eof_) {
    const size_t old = peeked_.size();
    peeked_.resize(n);
    size_t got = gzip_ ? inflate_some(peeked_.data() + old, n - old)
                       : read_raw(peeked_.data() + old, n - old);
    if (!gzip_ && got == 0) eof_ = true;
    peeked_.resize(old + got);
  }
  return peeked_;
}

}  // namespace data_detail
}  // namespace cilab
