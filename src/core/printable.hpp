#pragma once
// Text from outside (a client's id, an error quoting a payload) bounded and made safe for a log
// line or an error message. A log line is one line: a newline in a request id must not start a
// forged line, and an 8 MiB id must not become an 8 MiB line.

#include <cstddef>
#include <string>
#include <string_view>

namespace cuzk {

// `text` with every byte below 0x20, DEL and the backslash escaped (\n, \r, \t, \\, \xNN), cut
// after `max_bytes` of input with " ... (N bytes)" saying how long it was. UTF-8 passes through;
// the cut never splits a UTF-8 sequence.
std::string printable(std::string_view text, size_t max_bytes);

// `text` cut to at most `max_bytes` (at a UTF-8 boundary), then " ... (N bytes)"; as it was when
// it fits. For messages kept or sent on (a job's error), not escaped.
std::string bounded(std::string text, size_t max_bytes);

}  // namespace cuzk
