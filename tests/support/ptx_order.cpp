#include "ptx_order.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace sssp::test::ptx {
namespace {

constexpr std::size_t kMaxPtxBytes = std::size_t{64} << 20;

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(first, last - first + 1));
}

bool has(std::string_view opcode, std::string_view part) { return opcode.find(part) != std::string_view::npos; }

// Splits an operand list at the commas outside {} and [].
std::vector<std::string> operands_of(std::string_view text) {
  std::vector<std::string> out;
  int depth = 0;
  std::string current;
  for (const char c : text) {
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!trim(current).empty()) out.push_back(trim(current));
  return out;
}

std::vector<std::string> registers_in(const std::string& text) {
  static const std::regex reg(R"(%[A-Za-z_][A-Za-z0-9_]*)");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), reg); it != std::sregex_iterator(); ++it) {
    out.push_back(it->str());
  }
  return out;
}

// Opcodes whose first operand is not a register they define.
bool defines_nothing(std::string_view opcode) {
  for (const std::string_view prefix : {"st.", "red.", "bar", "membar", "fence", "bra", "ret", "call", "nanosleep",
                                        "trap", "exit", "prefetch", "cp.", "mbarrier", "discard", "griddepcontrol"}) {
    if (opcode.starts_with(prefix)) return true;
  }
  return false;
}

// A state space other than global (or generic, which may be global).
bool off_global(std::string_view opcode) {
  return has(opcode, ".shared") || has(opcode, ".local") || has(opcode, ".param") || has(opcode, ".const");
}

bool narrow_scope(std::string_view opcode) { return has(opcode, ".cta") || has(opcode, ".cluster"); }

// One statement of the body, with the line it is on; a label is a statement
// of its own (`label` set), the target of the branches that name it.
struct Statement {
  std::string text;
  int line;
  std::string label;
};

// The statements of the entry's body, or nullopt without that entry.
std::optional<std::vector<Statement>> body_of(std::string_view ptx, std::string_view kernel) {
  const std::string head = ".entry " + std::string(kernel) + "(";
  const auto at = ptx.find(head);
  if (at == std::string_view::npos) return std::nullopt;
  const auto open = ptx.find('{', ptx.find(')', at));
  if (open == std::string_view::npos) return std::nullopt;
  int depth = 0;
  std::size_t end = open;
  for (; end < ptx.size(); ++end) {
    if (ptx[end] == '{') ++depth;
    if (ptx[end] == '}' && --depth == 0) break;
  }
  static const std::regex label(R"(^([A-Za-z_$][A-Za-z0-9_$]*)\s*:(.*)$)");
  int line = 1 + static_cast<int>(std::count(ptx.begin(), ptx.begin() + static_cast<long>(open), '\n'));
  std::vector<Statement> out;
  std::istringstream lines{std::string(ptx.substr(open + 1, end - open - 1))};
  for (std::string text; std::getline(lines, text); ++line) {
    if (const auto comment = text.find("//"); comment != std::string::npos) text.resize(comment);
    std::istringstream parts(text);
    for (std::string part; std::getline(parts, part, ';');) {
      std::string s = trim(part);
      while (!s.empty() && (s.front() == '{' || s.front() == '}')) s = trim(s.substr(1));
      for (std::smatch m; std::regex_match(s, m, label);) {
        out.push_back({m[1], line, m[1]});
        s = trim(m[2].str());
      }
      if (s.empty() || s.front() == '.') continue;  // declarations (.reg, .shared, ...)
      out.push_back({s, line, ""});
    }
  }
  return out;
}

// The statements control may pass to after statement i of `body`: the next
// one, a branch's target, both for a predicated branch, none after ret.
std::vector<std::vector<std::size_t>> control_flow(const std::vector<Statement>& body) {
  std::unordered_map<std::string, std::size_t> at;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (!body[i].label.empty()) at[body[i].label] = i;
  }
  std::vector<std::vector<std::size_t>> next(body.size());
  for (std::size_t i = 0; i < body.size(); ++i) {
    const std::string& text = body[i].text;
    const bool predicated = text.starts_with("@");
    const std::string op = predicated ? trim(text.substr(text.find_first_of(" \t"))) : text;
    const std::string opcode = op.substr(0, op.find_first_of(" \t"));
    const bool falls_through = predicated || !(opcode.starts_with("bra") || opcode.starts_with("brx") ||
                                               opcode == "ret" || opcode == "exit" || opcode == "trap");
    if (falls_through && i + 1 < body.size()) next[i].push_back(i + 1);
    if (opcode.starts_with("bra")) {
      const std::string target = trim(op.substr(op.find_last_of(" \t,")));
      if (const auto t = at.find(target); t != at.end()) next[i].push_back(t->second);
    } else if (opcode.starts_with("brx")) {  // an indirect branch: any label
      for (const auto& [name, index] : at) next[i].push_back(index);
    }
  }
  return next;
}

}  // namespace

std::string read_ptx_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<std::size_t>(st.st_size) > kMaxPtxBytes) {
    ::close(fd);
    throw std::runtime_error(path + " is not a regular file of at most 64 MiB");
  }
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  text.resize(got);
  return text;
}

std::string probe_path(std::string_view fallback) {
  if (const char* env = std::getenv("SSSP_ORDERING_PTX"); env != nullptr && *env != '\0') return env;
  return std::string(fallback);
}

std::optional<Kernel> parse_kernel(std::string_view ptx, std::string_view kernel,
                                   const std::map<int, std::string>& params) {
  const auto statements = body_of(ptx, kernel);
  if (!statements) return std::nullopt;
  const std::regex param_symbol(std::string(kernel) + R"(_param_(\d+))");

  // Where each register's value may come from: the named parameters its
  // definitions compute it from. A loaded value is data, not an address
  // base, so provenance stops at every load and read-modify-write.
  std::unordered_map<std::string, std::vector<std::vector<std::string>>> sources;  // register -> per definition
  std::unordered_map<std::string, std::set<std::string>> direct;  // register -> parameters named in a definition
  for (const Statement& s : *statements) {
    std::string text = s.text;
    if (text.starts_with("@")) text = trim(text.substr(text.find_first_of(" \t")));
    const auto space = text.find_first_of(" \t");
    const std::string opcode = text.substr(0, space);
    if (space == std::string::npos || defines_nothing(opcode)) continue;
    const auto ops = operands_of(text.substr(space));
    if (ops.empty()) continue;
    const bool data = (opcode.starts_with("ld.") && !has(opcode, ".param")) || opcode.starts_with("atom.");
    std::vector<std::string> from;
    std::set<std::string> named;
    if (!data) {
      for (std::size_t i = 1; i < ops.size(); ++i) {
        for (const std::string& r : registers_in(ops[i])) from.push_back(r);
        std::smatch m;
        if (std::regex_search(ops[i], m, param_symbol)) {
          if (const auto p = params.find(std::stoi(m[1])); p != params.end()) named.insert(p->second);
        }
      }
    }
    for (const std::string& dest : registers_in(ops[0])) {
      sources[dest].push_back(from);
      direct[dest].insert(named.begin(), named.end());
    }
  }
  // A fixed point: registers are defined in loops too, so a pass may learn
  // a register's origin after a use of it; repeat until nothing grows.
  std::unordered_map<std::string, std::set<std::string>> origin = direct;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [reg, defs] : sources) {
      std::set<std::string>& mine = origin[reg];
      const std::size_t before = mine.size();
      for (const auto& def : defs) {
        for (const std::string& r : def) {
          if (const auto it = origin.find(r); it != origin.end() && r != reg)
            mine.insert(it->second.begin(), it->second.end());
        }
      }
      grew |= mine.size() != before;
    }
  }

  Kernel out{std::string(kernel), {}, control_flow(*statements)};
  for (const Statement& s : *statements) {
    std::string text = s.text;
    if (text.starts_with("@")) text = trim(text.substr(text.find_first_of(" \t")));
    const std::string opcode = text.substr(0, text.find_first_of(" \t"));
    Access a;
    a.text = s.text;
    a.line = s.line;
    const bool ordering =
        (has(opcode, ".acquire") || has(opcode, ".acq_rel") || has(opcode, ".release")) && !narrow_scope(opcode);
    a.acquire = ordering && (has(opcode, ".acquire") || has(opcode, ".acq_rel"));
    a.release = ordering && (has(opcode, ".release") || has(opcode, ".acq_rel"));
    if (opcode.starts_with("ld.") && !off_global(opcode)) {
      a.kind = Access::Kind::kLoad;
    } else if (opcode.starts_with("st.") && !off_global(opcode)) {
      a.kind = Access::Kind::kStore;
    } else if ((opcode.starts_with("atom.") || opcode.starts_with("red.")) && !off_global(opcode)) {
      a.kind = Access::Kind::kRmw;
    } else if (opcode == "membar.gl" || opcode == "membar.sys" ||
               (opcode.starts_with("fence.") && !has(opcode, "proxy") && !has(opcode, "mbarrier") &&
                (has(opcode, ".gpu") || has(opcode, ".sys")))) {
      a.kind = Access::Kind::kFence;
    } else if (opcode == "membar.cta" || (opcode.starts_with("fence.") && narrow_scope(opcode))) {
      a.kind = Access::Kind::kWeakFence;
    } else if ((opcode.starts_with("bar.") || opcode.starts_with("barrier.")) && !has(opcode, "warp") &&
               !has(opcode, "arrive")) {
      a.kind = Access::Kind::kBarrier;
    } else if (opcode.starts_with("call") && !has(text, "vprintf") && !has(text, "__assertfail")) {
      a.kind = Access::Kind::kCall;  // (printf and assert order nothing the rules are about)
    } else {
      a.kind = Access::Kind::kOther;
    }
    if (a.kind == Access::Kind::kLoad || a.kind == Access::Kind::kStore || a.kind == Access::Kind::kRmw) {
      const auto open = text.find('['), close = text.find(']', open);
      if (open != std::string::npos && close != std::string::npos) {
        for (const std::string& r : registers_in(text.substr(open, close - open))) {
          if (const auto it = origin.find(r); it != origin.end()) a.on.insert(it->second.begin(), it->second.end());
        }
      }
    }
    out.accesses.push_back(std::move(a));
  }
  return out;
}

::testing::AssertionResult load_probe(std::string_view kernel, const std::map<int, std::string>& params,
                                      std::string_view fallback, Kernel* out) {
  const std::string path = probe_path(fallback);
  std::string text;
  try {
    text = read_ptx_file(path);
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "the ordering probe's PTX could not be read (" << e.what()
                                         << "): the build compiles it from your lab's files beside your worker; "
                                            "did they compile?";
  }
  auto kernel_found = parse_kernel(text, kernel, params);
  if (!kernel_found) {
    return ::testing::AssertionFailure() << "the ordering probe's PTX (" << path << ") has no kernel " << kernel;
  }
  *out = std::move(*kernel_found);
  return ::testing::AssertionSuccess();
}

namespace {

bool matches(const Access& a, const Match& m) {
  if (m.kind == Access::Kind::kBarrier) return a.kind == Access::Kind::kBarrier;
  const bool kind_ok = a.kind == m.kind || (m.writes && m.kind == Access::Kind::kStore && a.kind == Access::Kind::kRmw);
  return kind_ok && a.on.contains(m.on);
}

std::string show(const Access& a) { return "PTX line " + std::to_string(a.line) + ": " + a.text; }

// Whether some path from statement i, through fences too, reaches a `then`.
bool any_then_after(const Kernel& kernel, std::size_t i, const Match& then) {
  std::vector<bool> seen(kernel.accesses.size(), false);
  std::vector<std::size_t> todo(kernel.next[i].begin(), kernel.next[i].end());
  while (!todo.empty()) {
    const std::size_t k = todo.back();
    todo.pop_back();
    if (seen[k]) continue;
    seen[k] = true;
    if (matches(kernel.accesses[k], then)) return true;
    todo.insert(todo.end(), kernel.next[k].begin(), kernel.next[k].end());
  }
  return false;
}

}  // namespace

::testing::AssertionResult ordered_before(const Kernel& kernel, std::string_view function, const Match& first,
                                          const Match& then, std::string_view hint) {
  for (const Access& a : kernel.accesses) {
    if (a.kind == Access::Kind::kCall) {
      return ::testing::AssertionFailure()
             << function << ": the compiled probe calls a function that was not inlined (" << show(a)
             << "), so the order of its accesses cannot be read from one piece of code. Remove __noinline__ from "
                "the functions "
             << function << " calls.\nhint: " << hint;
    }
  }
  // From each `first`, walk every path forward to the first `then` on it: a
  // path that meets a fence of device scope first is ordered, and so is a
  // pair ordered by its own semantics (an acquire read first, a release
  // write second).
  const auto& all = kernel.accesses;
  bool any_first = false;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Access& a = all[i];
    if (!matches(a, first)) continue;
    any_first = true;
    const bool first_reads = a.kind == Access::Kind::kLoad || a.kind == Access::Kind::kRmw;
    std::vector<bool> seen(all.size(), false);
    std::vector<std::pair<std::size_t, bool>> todo;  // statement, and whether a block-scope fence lies behind it
    for (const std::size_t n : kernel.next[i]) todo.emplace_back(n, false);
    bool reached = false;
    while (!todo.empty()) {
      const auto [k, weak_behind] = todo.back();
      todo.pop_back();
      if (seen[k]) continue;
      seen[k] = true;
      const Access& b = all[k];
      if (b.kind == Access::Kind::kFence) continue;  // this path is ordered from here on
      if (matches(b, then)) {
        reached = true;
        const bool then_writes = b.kind == Access::Kind::kStore || b.kind == Access::Kind::kRmw;
        if ((first_reads && a.acquire) || (then_writes && b.release)) continue;
        auto failure = ::testing::AssertionFailure();
        failure << function << ": nothing orders " << first.what << "\n  " << show(a) << "\nbefore " << then.what
                << "\n  " << show(b)
                << "\nOn a path from the first to the second there is no fence of device scope (__threadfence(), or "
                   "a cuda::atomic_thread_fence at thread_scope_device), "
                << (first_reads ? "the first is not an acquire, " : "")
                << (then_writes ? "the second is not a release, " : "")
                << "so another SM may see them in the other order.";
        if (weak_behind) {
          failure << " A fence of block scope lies on that path (__threadfence_block()): it orders accesses only "
                     "as this block's threads see them, not as another SM does.";
        }
        return failure << "\nhint: " << hint;
      }
      for (const std::size_t n : kernel.next[k])
        todo.emplace_back(n, weak_behind || b.kind == Access::Kind::kWeakFence);
    }
    if (!reached && !any_then_after(kernel, i, then)) {
      return ::testing::AssertionFailure() << function << ": " << then.what << " does not come after " << first.what
                                           << " (" << show(a) << "): it is missing, or done before it.\nhint: " << hint;
    }
  }
  if (!any_first) {
    return ::testing::AssertionFailure() << function << ": did not find " << first.what
                                         << " in the compiled code (is the task written?).\nhint: " << hint;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace sssp::test::ptx
