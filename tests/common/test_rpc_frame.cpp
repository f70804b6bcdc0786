// The grader's worker boundary (tests/grader/runtime/rpc): a message's large
// blocks go to the pipe from where they lie, not copied (Writer::bulk), and
// the worker keeps a call's result and arguments until its answer is
// written (serve_call), so that nothing it references is freed first.
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "rpc/api.hpp"
#include "rpc/frame.hpp"

namespace {

using sssp::rpc::Reader;
using sssp::rpc::Writer;

/// A block large enough to be referenced, not copied.
constexpr std::size_t kLargeValues = 3 * Writer::kReferenceBytes / sizeof(std::uint64_t);

std::vector<std::uint64_t> counting(std::size_t n, std::uint64_t from) {
  std::vector<std::uint64_t> values(n);
  std::iota(values.begin(), values.end(), from);
  return values;
}

std::vector<std::uint64_t> decode(const std::string& bytes) {
  Reader in(bytes);
  std::vector<std::uint64_t> values;
  sssp::rpc::get(in, values);
  in.expect_end();
  return values;
}

TEST(RpcWriter, CopiesEverythingOutsideAReferencingScope) {
  Writer out;
  sssp::rpc::put(out, counting(kLargeValues, 3));  // a temporary: it must be copied
  const std::vector<std::uint64_t> churn = counting(kLargeValues, 1000);
  EXPECT_EQ(decode(out.bytes()), counting(kLargeValues, 3));
  EXPECT_EQ(out.pieces().size(), 1U);
  EXPECT_EQ(churn.size(), kLargeValues);
}

TEST(RpcWriter, InAReferencingScopeCopiesSmallBlocksAndReferencesLargeOnes) {
  std::vector<std::uint64_t> small = counting(4, 1);
  std::vector<std::uint64_t> large = counting(kLargeValues, 1);
  Writer out;
  {
    const Writer::Referencing referencing(out);
    sssp::rpc::put(out, small);
    sssp::rpc::put(out, large);
  }
  const std::string before = out.bytes();
  small[0] = 99;
  large[0] = 99;
  const std::string after = out.bytes();
  Reader in(after);
  std::vector<std::uint64_t> small_read;
  std::vector<std::uint64_t> large_read;
  sssp::rpc::get(in, small_read);
  sssp::rpc::get(in, large_read);
  in.expect_end();
  EXPECT_EQ(small_read[0], 1U) << "a small block is copied as it is written";
  EXPECT_EQ(large_read[0], 99U) << "a large block is referenced: it is read when the message is sent";
  EXPECT_EQ(before.size(), after.size());
  EXPECT_EQ(out.size(), after.size());
  // The small vector's length and values, the large one's length, the large values.
  EXPECT_EQ(out.pieces().size(), 2U);
}

TEST(RpcWriter, AFrameSendsEveryPieceInOrder) {
  const std::vector<std::uint64_t> large = counting(40 * kLargeValues, 7);  // several pipe-fulls
  Writer out;
  {
    const Writer::Referencing referencing(out);
    sssp::rpc::put(out, std::string("before"));
    sssp::rpc::put(out, large);
    sssp::rpc::put(out, std::string("after"));
  }
  ASSERT_EQ(out.pieces().size(), 3U) << "the large block is sent from where it lies";
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::optional<std::string> received;
  std::thread reader([&] { received = sssp::rpc::read_frame(fds[0]); });
  const bool sent = sssp::rpc::write_frame(fds[1], out);
  reader.join();
  ::close(fds[0]);
  ::close(fds[1]);
  ASSERT_TRUE(sent);
  ASSERT_TRUE(received.has_value());
  EXPECT_EQ(*received, out.bytes());
  Reader in(*received);
  std::string first;
  std::vector<std::uint64_t> values;
  std::string last;
  sssp::rpc::get(in, first);
  sssp::rpc::get(in, values);
  sssp::rpc::get(in, last);
  in.expect_end();
  EXPECT_EQ(first, "before");
  EXPECT_EQ(values, large);
  EXPECT_EQ(last, "after");
}

TEST(RpcWriter, AWriteToAClosedPipeFailsInsteadOfHanging) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);
  const std::vector<std::uint64_t> values = counting(kLargeValues, 0);
  Writer out;
  {
    const Writer::Referencing referencing(out);
    sssp::rpc::put(out, values);
  }
  const auto previous = std::signal(SIGPIPE, SIG_IGN);
  EXPECT_FALSE(sssp::rpc::write_frame(fds[1], out));
  std::signal(SIGPIPE, previous);
  ::close(fds[1]);
}

TEST(RpcWriter, AppendingAMessageKeepsWhatItReferences) {
  Writer out;
  {
    Writer body;
    const Writer::Referencing referencing(body);
    sssp::rpc::put(body, body.keep(counting(kLargeValues, 5)));
    ASSERT_EQ(body.pieces().size(), 2U);
    out.append(std::move(body));
  }  // the body is gone; the vector it kept lives on in `out`
  const std::vector<std::uint64_t> churn = counting(kLargeValues, 1000);  // reuses freed memory, if any was freed
  EXPECT_EQ(decode(out.bytes()), counting(kLargeValues, 5));
  EXPECT_EQ(churn.size(), kLargeValues);
}

TEST(RpcServeCall, TheAnswerHoldsTheResultUntilItIsWritten) {
  Writer request;
  sssp::rpc::put(request, std::uint64_t{kLargeValues});
  const std::string bytes = request.bytes();
  Reader in(bytes);
  Writer out;
  sssp::rpc::detail::serve_call<std::vector<std::uint64_t>, std::uint64_t>(
      in, out, [](std::uint64_t n) { return counting(n, 42); });
  // The result was a temporary of serve_call; if the answer only pointed at
  // it, this would read freed memory that the next allocations overwrite.
  std::vector<std::vector<std::uint64_t>> churn;
  for (int i = 0; i < 4; ++i) churn.push_back(counting(kLargeValues, 7000));
  EXPECT_EQ(decode(out.bytes()), counting(kLargeValues, 42));
}

TEST(RpcServeCall, OutParametersGoBackFromTheKeptArguments) {
  Writer request;
  sssp::rpc::put(request, counting(kLargeValues, 0));
  const std::string bytes = request.bytes();
  Reader in(bytes);
  Writer out;
  sssp::rpc::detail::serve_call<void, std::vector<std::uint64_t>&>(in, out, [](std::vector<std::uint64_t>& values) {
    for (std::uint64_t& v : values) v *= 2;
  });
  std::vector<std::vector<std::uint64_t>> churn;
  for (int i = 0; i < 4; ++i) churn.push_back(counting(kLargeValues, 7000));
  std::vector<std::uint64_t> doubled = counting(kLargeValues, 0);
  for (std::uint64_t& v : doubled) v *= 2;
  EXPECT_EQ(decode(out.bytes()), doubled);
}

}  // namespace
