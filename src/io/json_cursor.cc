#include "json_cursor.h"

#include <cmath>

namespace exactsim::io {

void JsonCursor::fail(const std::string& reason) const {
  throw InputError(origin_ + ": " + (path_.empty() ? "(top level)" : path_) + ": " + reason);
}

JsonCursor JsonCursor::at(const char* key) const {
  if (!value_.is_object()) fail("expected an object");
  const auto it = value_.find(key);
  const std::string child = path_.empty() ? std::string(key) : path_ + "." + key;
  if (it == value_.end()) JsonCursor(value_, origin_, child).fail("required field is missing");
  return JsonCursor(*it, origin_, child);
}

JsonCursor JsonCursor::at(std::size_t index) const {
  return JsonCursor(value_.at(index), origin_, path_ + "[" + std::to_string(index) + "]");
}

void JsonCursor::expect_object(std::initializer_list<const char*> allowed_keys) const {
  if (!value_.is_object()) fail(std::string("expected an object, got ") + value_.type_name());
  for (const auto& item : value_.items()) {
    bool known = false;
    for (const char* k : allowed_keys) known = known || item.key() == k;
    if (!known) {
      std::string list;
      for (const char* k : allowed_keys) list += (list.empty() ? "" : ", ") + std::string(k);
      const std::string child = path_.empty() ? item.key() : path_ + "." + item.key();
      JsonCursor(item.value(), origin_, child).fail("unknown field (allowed here: " + list + ")");
    }
  }
}

void JsonCursor::expect_array() const {
  if (!value_.is_array()) fail(std::string("expected an array, got ") + value_.type_name());
}

Real JsonCursor::number() const {
  if (!value_.is_number()) fail(std::string("expected a number, got ") + value_.type_name());
  const Real x = value_.get<Real>();
  if (!std::isfinite(x)) fail("the number is not finite");
  return x;
}

Real JsonCursor::positive() const {
  const Real x = number();
  if (!(x > 0)) fail("must be > 0, got " + value_.dump());
  return x;
}

Real JsonCursor::non_negative() const {
  const Real x = number();
  if (!(x >= 0)) fail("must be >= 0, got " + value_.dump());
  return x;
}

int JsonCursor::integer(int lo, int hi) const {
  const Real x = number();
  if (x != std::floor(x)) fail("expected a whole number, got " + value_.dump());
  if (x < lo || x > hi)
    fail("must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
         value_.dump());
  return static_cast<int>(x);
}

bool JsonCursor::boolean() const {
  if (!value_.is_boolean()) fail(std::string("expected true or false, got ") + value_.type_name());
  return value_.get<bool>();
}

std::string JsonCursor::string() const {
  if (!value_.is_string()) fail(std::string("expected a string, got ") + value_.type_name());
  return value_.get<std::string>();
}

std::vector<Real> JsonCursor::numbers(int expected_size) const {
  expect_array();
  if (expected_size >= 0 && static_cast<int>(value_.size()) != expected_size)
    fail("expected " + std::to_string(expected_size) + " numbers, got " +
         std::to_string(value_.size()));
  std::vector<Real> out;
  out.reserve(value_.size());
  for (std::size_t i = 0; i < value_.size(); ++i) out.push_back(at(i).number());
  return out;
}

Vec2 JsonCursor::vec2() const {
  const auto v = numbers(2);
  return Vec2(v[0], v[1]);
}

Vec3 JsonCursor::vec3() const {
  const auto v = numbers(3);
  return Vec3(v[0], v[1], v[2]);
}

}  // namespace exactsim::io
