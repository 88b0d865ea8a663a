// Reading JSON input with messages that name the file, the JSON path and the reason
// (docs/input-validation.md): a strict parser (duplicate keys, numbers outside the double
// range and absurd nesting are errors with their path) and a cursor over the parsed value.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "exactsim/math/error.h"
#include "exactsim/math/types.h"

namespace exactsim::io {

// An InputError whose message already names the file and the JSON path ("FILE: PATH: reason").
// Code that adds a path to an error from a lower layer passes these through unchanged, so the
// location appears once.
class LocatedInputError : public InputError {
 public:
  using InputError::InputError;
};

// The bytes of an input file. InputError naming the file when it is not a regular file (a FIFO
// or device would block or never end), is larger than max_bytes, or cannot be read.
std::string read_input_file(const std::string& path, std::uintmax_t max_bytes);

// Parses JSON text strictly (docs/input-validation.md "JSON"): LocatedInputError
// "ORIGIN: PATH: reason" for a duplicate key, a number outside the double range or nesting
// deeper than kMaxJsonDepth, "ORIGIN: not valid JSON at line L, column C (...): reason" for a
// syntax error.
inline constexpr int kMaxJsonDepth = 64;
nlohmann::json parse_json_strict(std::string_view text, const std::string& origin);

class JsonCursor {
 public:
  JsonCursor(const nlohmann::json& value, std::string origin, std::string path)
      : value_(value), origin_(std::move(origin)), path_(std::move(path)) {}

  const nlohmann::json& value() const { return value_; }
  const std::string& path() const { return path_; }
  const std::string& origin() const { return origin_; }

  // Throws LocatedInputError("ORIGIN: PATH: reason").
  [[noreturn]] void fail(const std::string& reason) const;
  // Runs f, a check of the scene rules (exactsim/io/scene_rules.h): its InputError becomes
  // fail(reason); a LocatedInputError (already located) passes through.
  template <class F>
  auto checked(F&& f) const -> decltype(f()) {
    try {
      return f();
    } catch (const LocatedInputError&) {
      throw;
    } catch (const InputError& e) {
      fail(e.what());
    }
  }
  // The number here, checked by one of the scene rules (rules::restitution, rules::mass, …).
  template <class R>
  auto rule(R (*check)(Real)) const {
    const Real x = number();
    return checked([&] { return check(x); });
  }

  bool has(const char* key) const { return value_.is_object() && value_.contains(key); }
  JsonCursor at(const char* key) const;  // required member
  JsonCursor at(std::size_t index) const;
  std::size_t size() const { return value_.size(); }

  void expect_object(std::span<const char* const> allowed_keys) const;
  void expect_object(std::initializer_list<const char*> allowed_keys) const {
    expect_object(std::span<const char* const>(allowed_keys.begin(), allowed_keys.size()));
  }
  void expect_array() const;
  Real number() const;        // finite number
  Real positive() const;      // finite, > 0
  Real non_negative() const;  // finite, >= 0
  // Finite and in [lo, hi]; `unit` names the unit in the message ("m", "kg", "" for none).
  Real in_range(Real lo, Real hi, const char* unit) const;
  int integer(int lo, int hi) const;  // whole number in [lo, hi]
  bool boolean() const;
  std::string string() const;
  // A string that is a safe name (rules::name, scene_rules.h).
  std::string name() const;
  std::vector<Real> numbers(int expected_size) const;  // array of finite numbers; -1 = any size
  Vec2 vec2() const;
  Vec3 vec3() const;
  // Coordinates: each component in [-max_abs, max_abs] (unit "m").
  Vec2 point2(Real max_abs) const;
  Vec3 point3(Real max_abs) const;

 private:
  const nlohmann::json& value_;
  std::string origin_;
  std::string path_;
};

// A number as the messages print it (%g, so 1e+06, 0.001).
std::string format_number(Real x);

}  // namespace exactsim::io
