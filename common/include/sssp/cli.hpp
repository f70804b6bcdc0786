/// @file
/// @brief The command-line parser of the runner and of the labs' benchmark
/// programs: one set of rules for every program of the course.
///
/// Options are long (`--name`), take their value as the next word or after
/// `=` (`--reps 5`, `--reps=5`), and are refused when unknown, given twice
/// (unless repeatable), given an empty value (an unset shell variable must not
/// select a default) or combined with an option they exclude. `--help` and
/// `-h` print the usage, generated from the options' own descriptions.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sssp::cli {

/// `text` as an integer from `min` to `max`: decimal digits only (no sign, no
/// space: std::stoull takes " -3" and wraps it to 2^64 - 3). Throws
/// InputError "`option` needs an integer from `min` to `max` (digits only),
/// got '`text`'" otherwise.
[[nodiscard]] std::uint64_t parse_count(std::string_view option, std::string_view text, std::uint64_t min,
                                        std::uint64_t max);

/// Whether an option may be given more than once.
enum class Repeat : bool { kOnce, kMany };

/// A program's options: declared with their help, parsed from argv.
class Parser {
 public:
  /// `synopsis` is the usage line ("sssp [options]"); `description` the
  /// paragraph under it.
  Parser(std::string synopsis, std::string description);

  /// Starts a group of options under `heading` in the usage ("graph:").
  void section(std::string heading);

  /// An option without a value; `set` runs when it is given.
  void flag(std::string name, std::string help, std::function<void()> set);

  /// An option with a value, shown as `metavar` in the usage. `set` stores
  /// it, throwing InputError for a value it refuses. A line break in `help`
  /// starts an indented line.
  void option(std::string name, std::string metavar, std::string help, std::function<void(const std::string&)> set,
              Repeat repeat = Repeat::kOnce);

  /// An integer option from `min` to `max` (parse_count's rules) into `target`.
  template <typename Integer>
  void count(std::string name, std::string metavar, std::string help, Integer& target, std::uint64_t min,
             std::uint64_t max) {
    option(name, std::move(metavar), std::move(help), [&target, name, min, max](const std::string& value) {
      target = static_cast<Integer>(parse_count(name, value, min, max));
    });
  }

  /// A text option stored as given into `target`.
  void text(std::string name, std::string metavar, std::string help, std::string& target);

  /// Refuses `first` and `second` together.
  void excludes(std::string first, std::string second);

  /// Text printed under the options in the usage.
  void epilogue(std::string text);

  /// Parses argv[1..argc). Returns false when `--help` or `-h` was given: the
  /// usage is then written to `help_out` and nothing else is parsed. Throws
  /// InputError (ending "(see --help)" where that helps) for anything refused.
  [[nodiscard]] bool parse(int argc, const char* const* argv, std::ostream& help_out);

  /// True when `name` was on the command line.
  [[nodiscard]] bool given(std::string_view name) const;

  /// The usage text that `--help` prints.
  [[nodiscard]] std::string usage() const;

 private:
  struct Option {
    std::string name;
    std::string metavar;  // empty for a flag
    std::string help;
    std::function<void(const std::string&)> set;
    Repeat repeat = Repeat::kOnce;
    std::string section;
    std::vector<std::string> values;  // as given, in order
  };

  Option* find(std::string_view name);
  void add(Option option);

  std::string synopsis_;
  std::string description_;
  std::string section_;
  std::string epilogue_;
  std::vector<Option> options_;
  std::vector<std::pair<std::string, std::string>> exclusions_;
};

}  // namespace sssp::cli
