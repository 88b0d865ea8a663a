// A JSON value with its path, for reading with messages that name file, field and reason.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exactsim/math/error.h"
#include "exactsim/math/types.h"

namespace exactsim::io {

class JsonCursor {
 public:
  JsonCursor(const nlohmann::json& value, std::string origin, std::string path)
      : value_(value), origin_(std::move(origin)), path_(std::move(path)) {}

  const nlohmann::json& value() const { return value_; }
  const std::string& path() const { return path_; }
  const std::string& origin() const { return origin_; }

  [[noreturn]] void fail(const std::string& reason) const;

  bool has(const char* key) const { return value_.is_object() && value_.contains(key); }
  JsonCursor at(const char* key) const;  // required member
  JsonCursor at(std::size_t index) const;
  std::size_t size() const { return value_.size(); }

  void expect_object(std::initializer_list<const char*> allowed_keys) const;
  void expect_array() const;
  Real number() const;                // finite number
  Real positive() const;              // finite, > 0
  Real non_negative() const;          // finite, >= 0
  int integer(int lo, int hi) const;  // whole number in [lo, hi]
  bool boolean() const;
  std::string string() const;
  std::vector<Real> numbers(int expected_size) const;  // array of finite numbers; -1 = any size
  Vec2 vec2() const;
  Vec3 vec3() const;

 private:
  const nlohmann::json& value_;
  std::string origin_;
  std::string path_;
};

}  // namespace exactsim::io
