#include "json_cursor.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "exactsim/io/scene_rules.h"

namespace exactsim::io {

std::string format_number(Real x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  // 1e+06 -> 1e6, 1e-05 -> 1e-5: the exponent as a reader writes it.
  std::string s = buf;
  const auto e = s.find('e');
  if (e == std::string::npos) return s;
  std::string exponent = s.substr(e + 1);
  const bool negative = exponent[0] == '-';
  exponent.erase(0, exponent[0] == '-' || exponent[0] == '+' ? 1 : 0);
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return s.substr(0, e + 1) + (negative ? "-" : "") + exponent;
}

std::string read_input_file(const std::string& path, std::uintmax_t max_bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st))
    throw InputError(path + ": cannot read the file (" +
                     (ec ? ec.message() : std::string("no such file")) + ")");
  // A FIFO, socket or device would block or never end; a directory has no text.
  if (!fs::is_regular_file(st)) throw InputError(path + ": not a regular file");
  const auto size = fs::file_size(path, ec);
  if (ec) throw InputError(path + ": cannot read the file (" + ec.message() + ")");
  if (size > max_bytes)
    throw InputError(path + ": the file is larger than the limit of " +
                     std::to_string(max_bytes >> 20) + " MiB");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open the file");
  std::string text;
  text.reserve(static_cast<std::size_t>(size));
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(path + ": cannot read the file");
  return text;
}

namespace {

using nlohmann::json;

// Builds the document like nlohmann's own DOM parser, keeping the path of the value being
// read so that every error can name it.
class StrictSax {
 public:
  explicit StrictSax(json& root) : root_(root) {}

  bool null() { return put(nullptr); }
  bool boolean(bool b) { return put(b); }
  bool number_integer(json::number_integer_t x) { return put(x); }
  bool number_unsigned(json::number_unsigned_t x) { return put(x); }
  bool number_float(json::number_float_t x, const std::string&) { return put(x); }
  bool string(json::string_t& s) { return put(std::move(s)); }
  bool binary(json::binary_t& b) { return put(json::binary(std::move(b))); }
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(json::string_t& k) {
    Frame& f = stack_.back();
    if (f.value->contains(k)) {
      error_path_ = path(true, &k);
      error_ = "duplicate key \"" + k + "\" (an object names each key once)";
      return false;
    }
    f.key = std::move(k);
    return true;
  }

  bool parse_error(std::size_t position, const std::string& token,
                   const nlohmann::detail::exception& e) {
    position_ = position;
    token_ = token;
    syntax_ = e.id != 406;  // 406: number overflow (out_of_range)
    error_path_ = path(true, nullptr);
    if (!syntax_) {
      error_ = "the number " + token + " is outside the range of a double";
    } else {
      // "[json.exception.parse_error.101] parse error at line 1, column 9: syntax error ..."
      std::string what = e.what();
      const auto colon = what.find(": ");
      error_ = colon == std::string::npos ? what : what.substr(colon + 2);
    }
    return false;
  }

  const std::string& error() const { return error_; }
  const std::string& error_path() const { return error_path_; }
  bool syntax() const { return syntax_; }
  std::size_t position() const { return position_; }
  const std::string& token() const { return token_; }

 private:
  struct Frame {
    json* value;
    std::string key;  // objects: the key of the member being read
  };

  // The path of the value being read (pending: not yet stored in its container).
  std::string path(bool pending, const std::string* last_key) const {
    std::string p;
    for (std::size_t i = 0; i < stack_.size(); ++i) {
      const Frame& f = stack_[i];
      const bool innermost = i + 1 == stack_.size();
      if (f.value->is_array()) {
        std::size_t n = f.value->size();
        if (!(innermost && pending) && n > 0) --n;
        p += '[';
        p += std::to_string(n);
        p += ']';
      } else {
        const std::string& k = innermost && last_key ? *last_key : f.key;
        if (k.empty() && innermost) break;
        if (!p.empty()) p += '.';
        p.append(k);
      }
    }
    return p;
  }

  // Stores v in the innermost container (or as the root); returns where it went.
  template <class V>
  json* store(V&& v) {
    if (stack_.empty()) {
      root_ = json(std::forward<V>(v));
      return &root_;
    }
    Frame& f = stack_.back();
    if (f.value->is_array()) {
      f.value->push_back(json(std::forward<V>(v)));
      return &f.value->back();
    }
    json& slot = (*f.value)[f.key];
    slot = json(std::forward<V>(v));
    return &slot;
  }

  template <class V>
  bool put(V&& v) {
    store(std::forward<V>(v));
    return true;
  }

  bool open(json container) {
    if (static_cast<int>(stack_.size()) >= kMaxJsonDepth) {
      error_path_ = path(true, nullptr);
      error_ = "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
      return false;
    }
    json* v = store(std::move(container));
    stack_.push_back(Frame{v, {}});
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  json& root_;
  std::vector<Frame> stack_;
  std::string error_, error_path_, token_;
  std::size_t position_ = 0;
  bool syntax_ = false;
};

// 1-based line and column of a byte offset.
std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

}  // namespace

json parse_json_strict(std::string_view text, const std::string& origin) {
  json root;
  StrictSax sax(root);
  const bool ok = json::sax_parse(text.begin(), text.end(), &sax, json::input_format_t::json,
                                  /*strict=*/true, /*ignore_comments=*/false);
  if (ok) return root;
  const std::string& where = sax.error_path();
  if (sax.syntax()) {
    const auto [line, column] = line_column(text, sax.position() > 0 ? sax.position() - 1 : 0);
    throw LocatedInputError(origin + ": not valid JSON at line " + std::to_string(line) +
                            ", column " + std::to_string(column) +
                            (where.empty() ? std::string() : " (in " + where + ")") + ": " +
                            sax.error());
  }
  std::string location;
  if (!sax.token().empty() || sax.position() > 0) {
    const std::size_t start =
        sax.position() >= sax.token().size() ? sax.position() - sax.token().size() : 0;
    const auto [line, column] = line_column(text, start);
    if (!sax.error().starts_with("duplicate key"))
      location = " (line " + std::to_string(line) + ", column " + std::to_string(column) + ")";
  }
  throw LocatedInputError(origin + ": " + (where.empty() ? "(top level)" : where) + ": " +
                          sax.error() + location);
}

void JsonCursor::fail(const std::string& reason) const {
  throw LocatedInputError(origin_ + ": " + (path_.empty() ? "(top level)" : path_) + ": " + reason);
}

JsonCursor JsonCursor::at(const char* key) const {
  if (!value_.is_object()) fail("expected an object");
  const auto it = value_.find(key);
  const std::string child = path_.empty() ? std::string(key) : path_ + "." + key;
  if (it == value_.end()) JsonCursor(value_, origin_, child).fail("required field is missing");
  return JsonCursor(*it, origin_, child);
}

JsonCursor JsonCursor::at(std::size_t index) const {
  if (!value_.is_array()) fail("expected an array");
  return JsonCursor(value_.at(index), origin_, path_ + "[" + std::to_string(index) + "]");
}

void JsonCursor::expect_object(std::span<const char* const> allowed_keys) const {
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
  if (!std::isfinite(x)) fail("must be finite, got " + rules::shown(x));
  return x;
}

Real JsonCursor::positive() const {
  const Real x = number();
  if (!(x > 0)) fail("must be > 0, got " + rules::shown(x));
  return x;
}

Real JsonCursor::non_negative() const {
  const Real x = number();
  if (!(x >= 0)) fail("must be >= 0, got " + rules::shown(x));
  return x;
}

Real JsonCursor::in_range(Real lo, Real hi, const char* unit) const {
  const Real x = number();
  return checked([&] { return rules::in_range(x, lo, hi, unit); });
}

int JsonCursor::integer(int lo, int hi) const {
  const Real x = number();
  return checked([&] { return rules::whole(x, lo, hi); });
}

bool JsonCursor::boolean() const {
  if (!value_.is_boolean()) fail(std::string("expected true or false, got ") + value_.type_name());
  return value_.get<bool>();
}

std::string JsonCursor::string() const {
  if (!value_.is_string()) fail(std::string("expected a string, got ") + value_.type_name());
  return value_.get<std::string>();
}

std::string JsonCursor::name() const {
  const std::string s = string();
  checked([&] { rules::name(s); });
  return s;
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

Vec2 JsonCursor::point2(Real max_abs) const {
  numbers(2);
  return Vec2(at(std::size_t{0}).in_range(-max_abs, max_abs, "m"),
              at(std::size_t{1}).in_range(-max_abs, max_abs, "m"));
}

Vec3 JsonCursor::point3(Real max_abs) const {
  numbers(3);
  return Vec3(at(std::size_t{0}).in_range(-max_abs, max_abs, "m"),
              at(std::size_t{1}).in_range(-max_abs, max_abs, "m"),
              at(std::size_t{2}).in_range(-max_abs, max_abs, "m"));
}

}  // namespace exactsim::io
