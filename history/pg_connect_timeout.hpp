#pragma once
// How long `--db postgresql://...` waits for the server to answer. libpq waits for ever on
// connect_timeout 0 or less (a URI's ?connect_timeout=-5, PGCONNECT_TIMEOUT=0), and on a server
// that accepts the connection and then says nothing a nightly job hung: the wait is clamped.
#include <string>

namespace cuconform {

constexpr int kPgConnectTimeoutDefaultS = 10;
constexpr int kPgConnectTimeoutMinS = 2;  // libpq's own floor
constexpr int kPgConnectTimeoutMaxS = 300;

// The seconds to wait: the URI's connect_timeout (`uri_value`, empty when it has none), else
// $PGCONNECT_TIMEOUT (`env_value`, empty when unset), else the default; clamped to
// [kPgConnectTimeoutMinS, kPgConnectTimeoutMaxS]. -1 with `error` when the value given is not a
// whole number.
int pg_connect_timeout_s(const std::string& uri_value, const std::string& env_value, std::string* error);

}  // namespace cuconform
