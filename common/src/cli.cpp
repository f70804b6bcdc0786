// The command-line parser of the runner and the benchmark programs (sssp/cli.hpp).
#include "sssp/cli.hpp"

#include <algorithm>
#include <charconv>
#include <ostream>
#include <stdexcept>
#include <utility>

#include "sssp/errors.hpp"

namespace sssp::cli {

std::uint64_t parse_count(std::string_view option, std::string_view text, std::uint64_t min, std::uint64_t max) {
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
  std::uint64_t value = 0;
  if (!digits || std::from_chars(text.data(), text.data() + text.size(), value).ec != std::errc{} || value < min ||
      value > max) {
    throw InputError(std::string(option) + " needs an integer from " + std::to_string(min) + " to " +
                     std::to_string(max) + " (digits only), got '" + std::string(text) + "'");
  }
  return value;
}

Parser::Parser(std::string synopsis, std::string description)
    : synopsis_(std::move(synopsis)), description_(std::move(description)) {}

void Parser::section(std::string heading) { section_ = std::move(heading); }

void Parser::add(Option option) {
  if (!option.name.starts_with("--") || find(option.name) != nullptr) {
    throw std::logic_error("cli::Parser: option '" + option.name + "' is not --name or is declared twice");
  }
  option.section = section_;
  options_.push_back(std::move(option));
}

void Parser::flag(std::string name, std::string help, std::function<void()> set) {
  add({std::move(name),
       "",
       std::move(help),
       [set = std::move(set)](const std::string&) { set(); },
       Repeat::kOnce,
       "",
       {}});
}

void Parser::option(std::string name, std::string metavar, std::string help,
                    std::function<void(const std::string&)> set, Repeat repeat) {
  add({std::move(name), std::move(metavar), std::move(help), std::move(set), repeat, "", {}});
}

void Parser::text(std::string name, std::string metavar, std::string help, std::string& target) {
  option(std::move(name), std::move(metavar), std::move(help), [&target](const std::string& value) { target = value; });
}

void Parser::excludes(std::string first, std::string second) {
  exclusions_.emplace_back(std::move(first), std::move(second));
}

void Parser::epilogue(std::string text) { epilogue_ = std::move(text); }

Parser::Option* Parser::find(std::string_view name) {
  const auto it = std::find_if(options_.begin(), options_.end(), [&](const Option& o) { return o.name == name; });
  return it == options_.end() ? nullptr : &*it;
}

bool Parser::given(std::string_view name) const {
  return std::any_of(options_.begin(), options_.end(),
                     [&](const Option& o) { return o.name == name && !o.values.empty(); });
}

bool Parser::parse(int argc, const char* const* argv, std::ostream& help_out) {
  // Every word is checked before any value is stored, so that a conflict
  // is reported as one, not as whichever setter refuses its value first.
  std::vector<std::pair<Option*, std::string>> given_values;
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--help" || word == "-h") {
      help_out << usage();
      return false;
    }
    const std::size_t equals = word.find('=');
    const std::string_view name = word.substr(0, equals);
    Option* option = word.starts_with("--") ? find(name) : nullptr;
    if (option == nullptr) throw InputError("unknown option '" + std::string(word) + "' (see --help)");
    std::string value;
    if (option->metavar.empty()) {
      if (equals != std::string_view::npos) {
        throw InputError(option->name + " takes no value, got '" + std::string(word) + "'");
      }
    } else if (equals != std::string_view::npos) {
      value = word.substr(equals + 1);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      throw InputError(option->name + " needs a value (see --help)");
    }
    if (!option->metavar.empty() && value.empty()) {
      throw InputError(option->name + " needs a value, got an empty string");
    }
    if (!option->values.empty() && option->repeat == Repeat::kOnce) {
      throw InputError(option->name + " given twice" +
                       (option->metavar.empty() ? "" : " ('" + option->values.front() + "' and '" + value + "')") +
                       ": give it once");
    }
    option->values.push_back(value);
    given_values.emplace_back(option, std::move(value));
  }
  for (const auto& [first, second] : exclusions_) {
    if (given(first) && given(second)) throw InputError("give either " + first + " or " + second + ", not both");
  }
  for (const auto& [option, value] : given_values) option->set(value);
  return true;
}

std::string Parser::usage() const {
  constexpr std::size_t kHelpColumn = 24;
  std::string text = "usage: " + synopsis_ + "\n\n" + description_ + "\n";
  std::string section = "\n";  // differs from every heading: the first one is printed
  for (const Option& o : options_) {
    if (o.section != section) {
      section = o.section;
      text += section.empty() ? "\n" : "\n" + section + "\n";
    }
    std::string left = "  " + o.name + (o.metavar.empty() ? "" : " " + o.metavar);
    left += left.size() + 2 <= kHelpColumn ? std::string(kHelpColumn - left.size(), ' ') : "  ";
    std::string help = o.help;
    for (std::size_t at = help.find('\n'); at != std::string::npos; at = help.find('\n', at + 1)) {
      help.insert(at + 1, kHelpColumn, ' ');
    }
    text += left + help + "\n";
  }
  text += "  --help                this text\n";
  if (!epilogue_.empty()) text += "\n" + epilogue_ + "\n";
  return text;
}

}  // namespace sssp::cli
