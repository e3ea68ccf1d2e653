#include "history/pg_connect_timeout.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace cuconform {

int pg_connect_timeout_s(const std::string& uri_value, const std::string& env_value, std::string* error) {
  const bool from_uri = !uri_value.empty();
  const std::string& text = from_uri ? uri_value : env_value;
  if (text.empty()) return kPgConnectTimeoutDefaultS;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || errno == ERANGE) {
    *error = std::string(from_uri ? "connect_timeout=" : "PGCONNECT_TIMEOUT=") + text + " is not a whole number of seconds";
    return -1;
  }
  return static_cast<int>(std::clamp<long long>(v, kPgConnectTimeoutMinS, kPgConnectTimeoutMaxS));
}

}  // namespace cuconform
