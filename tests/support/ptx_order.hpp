/// @file
/// @brief Reads the memory order a kernel's compiled code keeps: the graded
/// ordering checks of labs 04 and 09.
///
/// A missing fence is a bug no run can be counted on to show: on an H100 the
/// lab 09 solver without any of its five fences passed every graded GPU test
/// five times in five (issue 45). What a run cannot show, the code can. Each
/// lab builds an ordering probe beside its worker (tests/<lab>/ordering_probe.cu):
/// kernels that call one of the student's device functions, with every
/// array it touches passed as a parameter of its own, compiled to PTX. This
/// header reads that PTX. Every global memory access is labelled with the
/// parameter its address derives from (`pool`, `wcc`, ...), and a rule says
/// which accesses must be ordered before which: "every store to `pool` is
/// ordered before the next write to `wcc`". Ordered means a device-scope
/// fence lies between the two on every path of the kernel's control flow
/// from one to the other, or the earlier access has acquire semantics
/// (a load, or a read-modify-write), or the later one release semantics (a
/// store, or a read-modify-write): the PTX memory model's release and acquire
/// patterns, in program order. PTX keeps the source's program order for
/// these: neither the compiler nor the hardware may move an access across a
/// fence, or across a release or acquire access in the direction it orders.
///
/// The trust boundary: the PTX file is what the sandboxed build of the
/// student's code wrote, so it is read as untrusted data (a regular file, not
/// a link, of bounded size) and only ever decides a failure or a pass of a
/// rule the course wrote. The check reads the probe's copy of the student's
/// functions: code that behaves differently when compiled for the probe
/// (preprocessor tricks) is outside what it can see, as the threat model says.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace sssp::test::ptx {

/// One instruction of a kernel that the memory model cares about.
struct Access {
  /// What the instruction does to memory.
  enum class Kind {
    kLoad,       ///< ld (global or generic)
    kStore,      ///< st (global or generic)
    kRmw,        ///< atom or red (global or generic)
    kFence,      ///< membar or fence of device or system scope
    kWeakFence,  ///< membar.cta or fence of block or cluster scope: orders nothing across the GPU
    kBarrier,    ///< bar.sync / barrier.sync: the block's threads meet
    kCall,       ///< a call of a function that was not inlined
    kOther,      ///< anything else: arithmetic, a branch, a label
  };
  Kind kind = Kind::kLoad;
  bool acquire = false;      ///< .acquire or .acq_rel at device or system scope
  bool release = false;      ///< .release or .acq_rel at device or system scope
  std::set<std::string> on;  ///< the named parameters its address derives from
  std::string text;          ///< the instruction, as in the PTX
  int line = 0;              ///< its line in the PTX file
};

/// A kernel's statements, each an Access (most of them kOther), and the
/// paths control may take between them.
struct Kernel {
  std::string name;                            ///< the entry's name
  std::vector<Access> accesses;                ///< every statement, in the PTX's order
  std::vector<std::vector<std::size_t>> next;  ///< per statement: where control may go next
};

/// Reads the PTX file at `path` as untrusted data: a regular file (a link is
/// refused), at most 64 MiB. Throws std::runtime_error saying why not.
[[nodiscard]] std::string read_ptx_file(const std::string& path);

/// The PTX file of the ordering probe built beside the worker under test:
/// the SSSP_ORDERING_PTX environment variable if set (the grader sets it
/// beside SSSP_WORKER), else `fallback`, the probe built beside the worker
/// this test program was built with.
[[nodiscard]] std::string probe_path(std::string_view fallback);

/// Finds entry `kernel` (an extern "C" name) in `ptx` and lists its accesses,
/// labelling each with the names `params` gives its parameters (by index:
/// parameter 1 is `<kernel>_param_1`). Returns nullopt if there is no such
/// entry.
[[nodiscard]] std::optional<Kernel> parse_kernel(std::string_view ptx, std::string_view kernel,
                                                 const std::map<int, std::string>& params);

/// Loads the probe kernel `kernel` from the PTX at probe_path(`fallback`)
/// into `out`, its parameters named by `params`. Fails, saying why, when the
/// file or the kernel cannot be read (the probe did not compile?).
[[nodiscard]] ::testing::AssertionResult load_probe(std::string_view kernel, const std::map<int, std::string>& params,
                                                    std::string_view fallback, Kernel* out);

/// Which accesses a rule is about.
struct Match {
  /// kLoad, kStore or kRmw (kStore also matches kRmw when `writes` is set),
  /// or kBarrier (then `on` is ignored).
  Access::Kind kind = Access::Kind::kStore;
  std::string on;       ///< the parameter the address derives from
  bool writes = false;  ///< with kStore: any write, a store or a read-modify-write
  /// How a message names these accesses, e.g. "the store of the item (to pool)".
  std::string what;
};

/// The rule "every `first` is ordered before the first `then` on each path
/// after it", for the function `function` of the probe `kernel`: on every
/// path of the control flow a fence of device scope lies between them, or
/// the pair is ordered by its own semantics. Fails, with a message that names
/// the function, shows both instructions and says what orders nothing, when:
/// there is no `first`; no path leads from a `first` to a `then` (`then`
/// missing, or done too early); or a pair is not ordered on some path.
/// `hint` ends every message.
[[nodiscard]] ::testing::AssertionResult ordered_before(const Kernel& kernel, std::string_view function,
                                                        const Match& first, const Match& then, std::string_view hint);

}  // namespace sssp::test::ptx

/// EXPECT_TRUE of a rule's result, its failure message alone (GoogleTest
/// would first repeat the whole call, hint and all).
#define SSSP_EXPECT_ORDERED(rule)                      \
  do {                                                 \
    const ::testing::AssertionResult ordered = (rule); \
    EXPECT_TRUE(ordered);                              \
  } while (0)
