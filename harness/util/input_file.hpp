#pragma once
// Reading a whole input file (results, fleet): plain or gzip-compressed (found by its first
// bytes, whatever its name), never more than a results file may hold.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace cuconform {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The most a results or fleet file may hold, plain or inflated: 256 MiB (a whole run of one GPU
// is about 6 MB, a merged node of 8 about 50 MB), or $CUCONFORM_MAX_RESULTS_MB.
std::size_t max_results_bytes();

// The file's text, inflated when it is gzip. Throws InputError, starting with the path:
// "PATH: cannot open: ...", "PATH: truncated gzip (...)", "PATH: N MiB, more than ...".
std::string read_input_file(const std::string& path, std::size_t max_bytes = max_results_bytes());

}  // namespace cuconform
