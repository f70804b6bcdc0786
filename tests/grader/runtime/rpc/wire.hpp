/// @file
/// @brief The bytes that pass between a graded test and the worker process
/// that runs the student's code: a small binary encoding of the lab APIs'
/// argument and result types, and of the exceptions they throw.
///
/// Both sides are built from this one header, on one machine, so the encoding
/// is the machine's own (no byte swapping). What a worker sends is untrusted:
/// every Reader call checks that the bytes it needs are there, and a length
/// read from the stream is checked against the bytes left before anything is
/// allocated, so a lying worker costs the test process no memory and no crash,
/// only a ProtocolError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "sssp/counters.hpp"
#include "sssp/graph.hpp"
#include "sssp/result.hpp"

/// Calls between a graded test and the worker process that runs the student's code.
namespace sssp::rpc {

/// The other side sent bytes that do not decode as what was expected.
class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Appends encoded values to a message. Values are copied in, but for the
/// worker's answers (a Referencing scope): there a large block of what the
/// writer keeps (keep()) is only referenced and goes to the pipe from where
/// it lies (write_frame()), so that an answer of n distances is not copied on
/// its way out; those copies, with their fresh pages, were most of a call's
/// own cost.
class Writer {
 public:
  /// Blocks of at least this many bytes are referenced by bulk() in a Referencing scope.
  static constexpr std::size_t kReferenceBytes = std::size_t{64} << 10;

  /// While one lives, bulk() references large blocks instead of copying them:
  /// open it only to put what the writer keeps (keep()), or what outlives the
  /// writer's last use, never a temporary.
  class Referencing {
   public:
    explicit Referencing(Writer& writer) : writer_(writer), was_(std::exchange(writer.referencing_, true)) {}
    Referencing(const Referencing&) = delete;
    Referencing& operator=(const Referencing&) = delete;
    ~Referencing() { writer_.referencing_ = was_; }

   private:
    Writer& writer_;
    bool was_;
  };

  Writer() = default;
  Writer(Writer&&) noexcept = default;
  Writer& operator=(Writer&&) noexcept = default;
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  ~Writer() = default;

  /// Appends a copy of `size` raw bytes.
  void raw(const void* data, std::size_t size) {
    if (size == 0) return;
    if (pieces_.empty() || !pieces_.back().referenced.empty()) pieces_.emplace_back();
    pieces_.back().copied.append(static_cast<const char*>(data), size);
  }
  /// Appends `size` bytes: by reference in a Referencing scope when there are
  /// kReferenceBytes or more (they must then stay valid and unchanged until
  /// the message is written), a copy otherwise.
  void bulk(const void* data, std::size_t size) {
    if (!referencing_ || size < kReferenceBytes) return raw(data, size);
    pieces_.push_back(Piece{{}, std::string_view(static_cast<const char*>(data), size)});
  }
  /// Moves `value` into this writer, which holds it as long as it lives, and
  /// returns it: bytes of it appended with bulk() stay valid until written.
  template <typename T>
  const T& keep(T value) {
    auto held = std::make_shared<const T>(std::move(value));
    kept_.push_back(held);
    return *held;
  }
  /// Appends the message `other` holds (and takes over what it keeps).
  void append(Writer&& other) {
    for (Piece& piece : other.pieces_) {
      if (piece.referenced.empty()) {
        raw(piece.copied.data(), piece.copied.size());
      } else {
        pieces_.push_back(std::move(piece));
      }
    }
    kept_.insert(kept_.end(), other.kept_.begin(), other.kept_.end());
    other = Writer();
  }
  /// The message's pieces in order, for a gathering write (write_frame()).
  [[nodiscard]] std::vector<std::string_view> pieces() const {
    std::vector<std::string_view> views;
    views.reserve(pieces_.size());
    for (const Piece& piece : pieces_) views.push_back(piece.referenced.empty() ? piece.copied : piece.referenced);
    return views;
  }
  /// The message's size in bytes.
  [[nodiscard]] std::size_t size() const {
    std::size_t total = 0;
    for (const std::string_view piece : pieces()) total += piece.size();
    return total;
  }
  /// The whole message as one string: a copy, referenced blocks included.
  [[nodiscard]] std::string bytes() const {
    std::string all;
    all.reserve(size());
    for (const std::string_view piece : pieces()) all.append(piece);
    return all;
  }

 private:
  /// Copied bytes, or a referenced block (`referenced` not empty).
  struct Piece {
    std::string copied;
    std::string_view referenced;
  };
  std::vector<Piece> pieces_;
  std::vector<std::shared_ptr<const void>> kept_;
  bool referencing_ = false;
};

/// Reads encoded values from a byte string, refusing to read past its end.
class Reader {
 public:
  /// Reads `bytes` (which must outlive the reader).
  explicit Reader(std::string_view bytes) : rest_(bytes) {}
  /// Copies the next `size` bytes to `data`; ProtocolError when fewer are left.
  void raw(void* data, std::size_t size) {
    if (size > rest_.size()) throw ProtocolError("message ends too early");
    if (size != 0) std::memcpy(data, rest_.data(), size);
    rest_.remove_prefix(size);
  }
  /// Reads a count of items that take at least `min_item_bytes` each: a count
  /// the remaining bytes cannot hold is a ProtocolError, never an allocation.
  [[nodiscard]] std::size_t count(std::size_t min_item_bytes) {
    std::uint64_t n = 0;
    raw(&n, sizeof n);
    if (min_item_bytes != 0 && n > rest_.size() / min_item_bytes) {
      throw ProtocolError("a length larger than the message (" + std::to_string(n) + " items)");
    }
    return static_cast<std::size_t>(n);
  }
  /// Throws ProtocolError unless every byte was read.
  void expect_end() const {
    if (!rest_.empty()) throw ProtocolError(std::to_string(rest_.size()) + " unexpected bytes at the end of a message");
  }

 private:
  std::string_view rest_;
};

/// How a type is written and read. Specialised below for the standard types;
/// a struct of a lab gets one by a function `rpc_fields(T&)`, found by
/// argument-dependent lookup, that returns std::tie of its members.
template <typename T, typename = void>
struct Codec;

/// Writes `value`.
template <typename T>
void put(Writer& out, const T& value) {
  Codec<T>::put(out, value);
}
/// Reads into `value`.
template <typename T>
void get(Reader& in, T& value) {
  Codec<T>::get(in, value);
}

template <typename T>
struct Codec<T, std::enable_if_t<std::is_arithmetic_v<T> || std::is_enum_v<T>>> {
  static void put(Writer& out, const T& v) { out.raw(&v, sizeof v); }
  static void get(Reader& in, T& v) {
    if constexpr (std::is_same_v<T, bool>) {
      unsigned char byte = 0;
      in.raw(&byte, 1);
      if (byte > 1) throw ProtocolError("a bool that is neither 0 nor 1");
      v = byte != 0;
    } else {
      in.raw(&v, sizeof v);
    }
  }
};

template <>
struct Codec<std::string> {
  static void put(Writer& out, const std::string& s) {
    const std::uint64_t n = s.size();
    out.raw(&n, sizeof n);
    out.raw(s.data(), s.size());
  }
  static void get(Reader& in, std::string& s) {
    s.resize(in.count(1));
    in.raw(s.data(), s.size());
  }
};

template <typename T>
struct Codec<std::vector<T>> {
  static void put(Writer& out, std::span<const T> items) {
    const std::uint64_t n = items.size();
    out.raw(&n, sizeof n);
    if constexpr (std::is_arithmetic_v<T>) {
      out.bulk(items.data(), items.size_bytes());
    } else {
      for (const T& item : items) rpc::put(out, item);
    }
  }
  static void put(Writer& out, const std::vector<T>& items) { put(out, std::span<const T>(items)); }
  static void get(Reader& in, std::vector<T>& items) {
    if constexpr (std::is_arithmetic_v<T>) {
      items.resize(in.count(sizeof(T)));
      in.raw(items.data(), items.size() * sizeof(T));
    } else {
      items.clear();
      const std::size_t n = in.count(1);
      items.reserve(n);
      for (std::size_t i = 0; i < n; ++i) rpc::get(in, items.emplace_back());
    }
  }
};

template <typename T>
struct Codec<std::optional<T>> {
  static void put(Writer& out, const std::optional<T>& v) {
    rpc::put(out, v.has_value());
    if (v) rpc::put(out, *v);
  }
  static void get(Reader& in, std::optional<T>& v) {
    bool present = false;
    rpc::get(in, present);
    v.reset();
    if (present) rpc::get(in, v.emplace());
  }
};

template <typename A, typename B>
struct Codec<std::pair<A, B>> {
  static void put(Writer& out, const std::pair<A, B>& v) {
    rpc::put(out, v.first);
    rpc::put(out, v.second);
  }
  static void get(Reader& in, std::pair<A, B>& v) {
    rpc::get(in, v.first);
    rpc::get(in, v.second);
  }
};

/// Whether `rpc_fields(T&)` names T's members for the encoding.
template <typename T>
concept HasFields = requires(T& v) {
  rpc_fields(v);
};

template <typename T>
struct Codec<T, std::enable_if_t<HasFields<T>>> {
  static void put(Writer& out, const T& v) {
    std::apply([&out](const auto&... field) { (rpc::put(out, field), ...); }, rpc_fields(const_cast<T&>(v)));
  }
  static void get(Reader& in, T& v) {
    std::apply([&in](auto&... field) { (rpc::get(in, field), ...); }, rpc_fields(v));
  }
};

// -------------------------------------------------------------- exceptions --

/// Writes the exception in flight (call inside a catch block): its kind and
/// its message, so that the other side can throw the same kind again.
void put_current_exception(Writer& out);

/// Reads what put_current_exception() wrote and throws it: the same standard
/// or sssp exception type with the same message.
[[noreturn]] void throw_exception(Reader& in);

}  // namespace sssp::rpc

namespace sssp {

/// The members of Counters, for the encoding.
inline auto rpc_fields(Counters& c) {
  return std::tie(c.iterations, c.vertices_processed, c.edges_relaxed, c.distance_updates, c.kernel_launches,
                  c.host_syncs);
}
/// The members of a RunResult, for the encoding.
template <typename Value>
auto rpc_fields(RunResult<Value>& r) {
  return std::tie(r.values, r.counters, r.device_ms);
}
/// The members of a CsrGraph, for the encoding.
inline auto rpc_fields(CsrGraph& g) { return std::tie(g.offsets, g.targets, g.weights, g.name); }

}  // namespace sssp
