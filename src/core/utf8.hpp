// first_invalid_utf8 finds where a byte string stops being well-formed UTF-8 (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), so a bad reply or prompt is named at its byte
// instead of failing deep inside the JSON library.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace planfirst::core {

std::optional<std::size_t> first_invalid_utf8(std::string_view text);  // nullopt when valid

// "not valid UTF-8 at byte N (counting from 0)" for the first bad byte of `text`; "" when it is valid.
std::string invalid_utf8_message(std::string_view text);

// `text` with each byte that breaks UTF-8 written as \xNN, so a line can be quoted as it is:
// "Jos\xE9,Madrid".
std::string escape_invalid_utf8(std::string_view text);

}  // namespace planfirst::core
