#pragma once
// The daemon's default addresses (never every interface unless configured): the gRPC service, as
// the Rust cuzk and Curio's examples use it, and the HTTP /metrics endpoint beside it. The config
// (service/config.hpp), the server and the CLI's client commands all take them from here.

#include <string_view>

namespace cuzk::service {

inline constexpr std::string_view kDefaultListen = "127.0.0.1:9820";
inline constexpr std::string_view kDefaultMetricsListen = "127.0.0.1:9821";

}  // namespace cuzk::service
