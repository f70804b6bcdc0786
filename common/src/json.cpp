// JSON strings (sssp/json.hpp).
#include "sssp/json.hpp"

#include <cstdio>

namespace sssp {

std::string json_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string json_string(const std::string& text) { return '"' + json_escape(text) + '"'; }

}  // namespace sssp
