#include "harness/util/gzip.hpp"

#include <zlib.h>

#include <algorithm>
#include <climits>

namespace cuconform {

namespace {

std::string mib(std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// Feeds zlib at most UINT_MAX bytes at a time (its counters are 32-bit).
uInt chunk(std::size_t left) { return static_cast<uInt>(std::min<std::size_t>(left, UINT_MAX)); }

}  // namespace

bool looks_gzip(const std::string& data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f && static_cast<unsigned char>(data[1]) == 0x8b;
}

std::string gunzip(const std::string& data, const std::string& name, std::size_t max_bytes) {
  if (!looks_gzip(data)) throw GzipError(name + ": not gzip (it does not start with the gzip magic bytes 1f 8b)");
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw GzipError(name + ": cannot start zlib");
  std::string out;
  std::size_t in_at = 0;
  char buf[1 << 16];
  int rc = Z_OK;
  for (;;) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + in_at));
    z.avail_in = chunk(data.size() - in_at);
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    uInt had = z.avail_in;
    rc = inflate(&z, Z_NO_FLUSH);
    in_at += had - z.avail_in;
    std::size_t got = sizeof buf - z.avail_out;
    if (out.size() + got > max_bytes) {
      inflateEnd(&z);
      throw GzipError(name + ": inflates to more than " + mib(max_bytes) + " (the most a results file may hold; "
                      "$CUCONFORM_MAX_RESULTS_MB raises it)");
    }
    out.append(buf, got);
    if (rc == Z_STREAM_END) {
      // Another member may follow (gzip a b > c.gz, or files cat'ed together); nothing else may.
      if (in_at == data.size()) break;
      if (!looks_gzip(data.substr(in_at, 2))) {
        inflateEnd(&z);
        throw GzipError(name + ": corrupt gzip: " + std::to_string(data.size() - in_at) + " byte(s) after the end of its compressed data");
      }
      inflateReset(&z);
      continue;
    }
    if (rc == Z_BUF_ERROR && in_at == data.size() && got == 0) {
      inflateEnd(&z);
      throw GzipError(name + ": truncated gzip (the file ends before its compressed data does)");
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      std::string why = z.msg ? z.msg : "error " + std::to_string(rc);
      inflateEnd(&z);
      throw GzipError(name + ": corrupt gzip: " + why);
    }
  }
  inflateEnd(&z);
  return out;
}

std::string gzip(const std::string& data) {
  z_stream z{};
  if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) throw GzipError("cannot start zlib");
  std::string out;
  std::size_t in_at = 0;
  char buf[1 << 16];
  int rc = Z_OK;
  do {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + in_at));
    z.avail_in = chunk(data.size() - in_at);
    uInt had = z.avail_in;
    bool last = in_at + had == data.size();
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
    in_at += had - z.avail_in;
    out.append(buf, sizeof buf - z.avail_out);
  } while (rc != Z_STREAM_END && rc != Z_STREAM_ERROR);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw GzipError("zlib could not compress");
  return out;
}

}  // namespace cuconform
