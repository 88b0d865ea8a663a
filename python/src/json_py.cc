#include "json_py.h"

#include <string>
#include <vector>

#include "exactsim/math/error.h"

namespace exactsim::py {

namespace pb = pybind11;

namespace {

// Nesting as deep as a scene file may be (io/json_cursor.h kMaxJsonDepth), so that a hostile
// dict cannot exhaust the C++ stack.
constexpr int kMaxDepth = 64;

struct Converter {
  const std::string& origin;
  std::vector<PyObject*> open;  // the containers being converted, outermost first
  std::string path;

  [[noreturn]] void fail(const std::string& reason) const {
    throw InputError(origin + ": " + (path.empty() ? "(top level)" : path) + ": " + reason);
  }

  nlohmann::json convert(pb::handle h) {
    if (h.is_none()) return nullptr;
    if (pb::isinstance<pb::bool_>(h)) return h.cast<bool>();
    if (pb::isinstance<pb::int_>(h)) {
      try {
        return h.cast<long long>();
      } catch (const pb::cast_error&) {
        return h.cast<double>();  // beyond 64 bits: as JSON text would read it
      }
    }
    if (pb::isinstance<pb::float_>(h)) return h.cast<double>();
    if (pb::isinstance<pb::str>(h)) return h.cast<std::string>();
    const bool is_dict = pb::isinstance<pb::dict>(h);
    const bool is_list = pb::isinstance<pb::list>(h) || pb::isinstance<pb::tuple>(h);
    if (!is_dict && !is_list) {
      if (pb::hasattr(h, "tolist")) return convert(h.attr("tolist")());  // numpy
      fail("cannot convert " + std::string(pb::str(pb::repr(h))) + " to JSON");
    }
    for (PyObject* o : open)
      if (o == h.ptr())
        fail(std::string("the ") + (is_dict ? "dict" : "list") + " contains itself");
    if (static_cast<int>(open.size()) >= kMaxDepth)
      fail("nested deeper than " + std::to_string(kMaxDepth) + " levels");
    open.push_back(h.ptr());
    const std::size_t length = path.size();
    nlohmann::json out = is_dict ? nlohmann::json::object() : nlohmann::json::array();
    if (is_dict) {
      for (auto item : h.cast<pb::dict>()) {
        if (!pb::isinstance<pb::str>(item.first))
          fail("keys must be strings, got " + std::string(pb::str(pb::repr(item.first))));
        const std::string key = item.first.cast<std::string>();
        path += (path.empty() ? "" : ".") + key;
        out[key] = convert(item.second);
        path.resize(length);
      }
    } else {
      std::size_t i = 0;
      for (auto e : h) {
        path += "[" + std::to_string(i++) + "]";
        out.push_back(convert(e));
        path.resize(length);
      }
    }
    open.pop_back();
    return out;
  }
};

}  // namespace

pb::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null:
      return pb::none();
    case nlohmann::json::value_t::boolean:
      return pb::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer:
      return pb::int_(j.get<long long>());
    case nlohmann::json::value_t::number_unsigned:
      return pb::int_(j.get<unsigned long long>());
    case nlohmann::json::value_t::number_float:
      return pb::float_(j.get<double>());
    case nlohmann::json::value_t::string:
      return pb::str(j.get<std::string>());
    case nlohmann::json::value_t::array: {
      pb::list l;
      for (const auto& e : j) l.append(to_python(e));
      return l;
    }
    case nlohmann::json::value_t::object: {
      pb::dict d;
      for (auto it = j.begin(); it != j.end(); ++it) d[pb::str(it.key())] = to_python(it.value());
      return d;
    }
    default:
      return pb::none();
  }
}

nlohmann::json from_python(pb::handle h, const std::string& origin) {
  return Converter{origin, {}, {}}.convert(h);
}

}  // namespace exactsim::py
