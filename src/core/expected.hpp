#pragma once
// Expected<T>: a value or an Error. A minimal stand-in for C++23 std::expected (g++ 12 in C++20
// mode has none), with the same spelling for the parts we use.

#include <exception>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "core/error.hpp"

namespace cuzk {

template <class T>
class [[nodiscard]] Expected {
  static_assert(!std::is_same_v<std::remove_cv_t<T>, Error>, "Expected<Error> is ambiguous");

 public:
  Expected(const T& value) : state_(std::in_place_index<0>, value) {}          // NOLINT
  Expected(T&& value) : state_(std::in_place_index<0>, std::move(value)) {}    // NOLINT
  Expected(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool has_value() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }

  // The value; throws cuzk::Exception with the error when there is none.
  T& value() & {
    check();
    return std::get<0>(state_);
  }
  const T& value() const& {
    check();
    return std::get<0>(state_);
  }
  T&& value() && {
    check();
    return std::get<0>(std::move(state_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // The error; only meaningful when !has_value().
  const Error& error() const { return std::get<1>(state_); }

 private:
  void check() const {
    if (!has_value()) throw Exception(std::get<1>(state_));
  }
  std::variant<T, Error> state_;
};

// Success or an Error, for operations with no result (writing a file).
template <>
class [[nodiscard]] Expected<void> {
 public:
  Expected() = default;
  Expected(Error error) : error_(std::move(error)) {}  // NOLINT

  bool has_value() const noexcept { return !error_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }
  // Throws cuzk::Exception with the error when there is one.
  void value() const {
    if (error_) throw Exception(*error_);
  }
  const Error& error() const { return *error_; }

 private:
  std::optional<Error> error_;
};

namespace detail {
template <class R>
struct CaptureResult {
  using type = Expected<R>;
};
template <class T>
struct CaptureResult<Expected<T>> {
  using type = Expected<T>;
};
}  // namespace detail

// The one boundary where exceptions become values (shared/DESIGN.md decision 9): `f()`'s result
// (a value, an Expected, or nothing), or the error of what it threw. A cuzk::Exception keeps its
// code (a SynthesisError is the input's kInvalidArgument); std::bad_alloc is kResourceExhausted;
// any other exception kInternal with its text. Used where a library calls code that may throw
// (synthesis, CUDA) and at the edges of the apps, never to rewrap an Error.
template <class F>
auto capture(F&& f) noexcept -> typename detail::CaptureResult<std::invoke_result_t<F>>::type {
  using R = std::invoke_result_t<F>;
  try {
    if constexpr (std::is_void_v<R>) {
      f();
      return {};
    } else {
      return f();
    }
  } catch (const Exception& e) {
    return e.error();
  } catch (const std::bad_alloc&) {
    return Error{ErrorCode::kResourceExhausted, "out of host memory"};
  } catch (const std::exception& e) {
    return Error{ErrorCode::kInternal, e.what()};
  } catch (...) {
    return Error{ErrorCode::kInternal, "an exception of unknown type"};
  }
}

}  // namespace cuzk

// In a function returning Expected<...> (or an Error): evaluate an Expected; on error return
// it, else move its value into lhs. For parsers that read many fields in a row.
#define CUZK_TRY_ASSIGN(lhs, expr) \
  if (auto cuzk_try_ = (expr); !cuzk_try_) { \
    return cuzk_try_.error();                \
  } else {                                   \
    lhs = std::move(*cuzk_try_);             \
  }
