#pragma once
// Writing an output file (results, reports, fleet files, the history page) so that it is either
// whole or not there, and never at the cost of what the path names:
//   - absent or a regular file: written beside it and renamed over it (a killed run never leaves
//     half a file);
//   - a symbolic link: followed on purpose; the file it ends at is replaced that way, the link stays;
//   - "-", or the file this process's stdout already is (/dev/stdout, /dev/fd/1, `> out.md`):
//     written to stdout, in order with what the verb prints;
//   - anything else that is not a regular file (a FIFO, /dev/null, /dev/full, a terminal):
//     written into, never replaced, so a device stays a device.
// A name ending in ".gz" is written gzip-compressed, whichever of these it is.
#include <stdexcept>
#include <string>

namespace cuconform {

struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws OutputError ("PATH: cannot write: No space left on device").
void write_file_atomically(const std::string& path, const std::string& content);

// True when `path` goes to this process's stdout ("-", /dev/stdout, or the same file).
bool writes_to_stdout(const std::string& path);

// True when writing `path` replaces a regular file (or makes one), false when it streams into
// stdout, a FIFO or a device: what is rewritten while a run goes on (its snapshot) should be
// written only where it replaces, not appended to a stream again and again.
bool output_replaces_file(const std::string& path);

}  // namespace cuconform
