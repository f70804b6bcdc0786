#include "rpc/wire.hpp"

#include <new>

#include "sssp/errors.hpp"

namespace sssp::rpc {

namespace {

// The exception kinds that cross: the most derived first, as they are caught.
enum class Kind : std::uint8_t {
  kInvalidSource,
  kInputError,
  kNotImplemented,
  kCudaError,
  kAlgorithmError,
  kInvalidArgument,
  kOutOfRange,
  kLengthError,
  kDomainError,
  kLogicError,
  kRangeError,
  kOverflowError,
  kUnderflowError,
  kRuntimeError,
  kBadAlloc,
  kOtherException,
  kNotAnException,
};

void put_kind(Writer& out, Kind kind, const char* what) {
  rpc::put(out, kind);
  rpc::put(out, std::string(what));
}

}  // namespace

void put_current_exception(Writer& out) {
  try {
    throw;
  } catch (const InvalidSource& e) {
    put_kind(out, Kind::kInvalidSource, e.what());
  } catch (const InputError& e) {
    put_kind(out, Kind::kInputError, e.what());
  } catch (const NotImplemented& e) {
    put_kind(out, Kind::kNotImplemented, e.what());
  } catch (const CudaError& e) {
    put_kind(out, Kind::kCudaError, e.what());
  } catch (const AlgorithmError& e) {
    put_kind(out, Kind::kAlgorithmError, e.what());
  } catch (const std::invalid_argument& e) {
    put_kind(out, Kind::kInvalidArgument, e.what());
  } catch (const std::out_of_range& e) {
    put_kind(out, Kind::kOutOfRange, e.what());
  } catch (const std::length_error& e) {
    put_kind(out, Kind::kLengthError, e.what());
  } catch (const std::domain_error& e) {
    put_kind(out, Kind::kDomainError, e.what());
  } catch (const std::logic_error& e) {
    put_kind(out, Kind::kLogicError, e.what());
  } catch (const std::range_error& e) {
    put_kind(out, Kind::kRangeError, e.what());
  } catch (const std::overflow_error& e) {
    put_kind(out, Kind::kOverflowError, e.what());
  } catch (const std::underflow_error& e) {
    put_kind(out, Kind::kUnderflowError, e.what());
  } catch (const std::runtime_error& e) {
    put_kind(out, Kind::kRuntimeError, e.what());
  } catch (const std::bad_alloc& e) {
    put_kind(out, Kind::kBadAlloc, e.what());
  } catch (const std::exception& e) {
    put_kind(out, Kind::kOtherException, e.what());
  } catch (...) {
    put_kind(out, Kind::kNotAnException, "an exception that is not a std::exception");
  }
}

void throw_exception(Reader& in) {
  Kind kind{};
  std::string what;
  rpc::get(in, kind);
  rpc::get(in, what);
  in.expect_end();
  switch (kind) {
    case Kind::kInvalidSource: throw InvalidSource(what);
    case Kind::kInputError: throw InputError(what);
    case Kind::kNotImplemented: throw NotImplemented(what);
    case Kind::kCudaError: throw CudaError(what);
    case Kind::kAlgorithmError: throw AlgorithmError(what);
    case Kind::kInvalidArgument: throw std::invalid_argument(what);
    case Kind::kOutOfRange: throw std::out_of_range(what);
    case Kind::kLengthError: throw std::length_error(what);
    case Kind::kDomainError: throw std::domain_error(what);
    case Kind::kLogicError: throw std::logic_error(what);
    case Kind::kRangeError: throw std::range_error(what);
    case Kind::kOverflowError: throw std::overflow_error(what);
    case Kind::kUnderflowError: throw std::underflow_error(what);
    case Kind::kRuntimeError: throw std::runtime_error(what);
    case Kind::kBadAlloc: throw std::bad_alloc();
    case Kind::kOtherException: throw std::runtime_error(what);
    case Kind::kNotAnException: throw std::runtime_error(what);
  }
  throw ProtocolError("an exception of an unknown kind (" + std::to_string(static_cast<int>(kind)) + ")");
}

}  // namespace sssp::rpc
