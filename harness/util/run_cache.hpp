#pragma once
// Files a run makes once and shares between its processes (the supervisor and its workers):
// module images a toolchain produced and their SASS listings. The supervisor names the folder
// in $CUCONFORM_RUN_CACHE and removes it at the end; a process started on its own (a CTest
// case) gets a private folder, removed when it exits.
#include <functional>
#include <string>

namespace cuconform {

constexpr const char* kRunCacheEnv = "CUCONFORM_RUN_CACHE";

// The folder (created on first use).
std::string run_cache_dir();

// A fresh folder for a run, exported in $CUCONFORM_RUN_CACHE for the processes it starts.
// remove_run_cache() deletes it.
std::string start_run_cache();
void remove_run_cache(const std::string& dir);

// The path of cache entry `name`, made by make(path) exactly once across processes: others
// wait on a lock for the one making it. A `make` that throws leaves the message as the entry's
// error, so later askers get the same error at once instead of repeating the work.
std::string cached_file(const std::string& name, const std::function<void(const std::string& path)>& make);

// The whole content of a file ("" when unreadable).
std::string read_whole_file(const std::string& path);
void write_whole_file(const std::string& path, const std::string& data);

}  // namespace cuconform
