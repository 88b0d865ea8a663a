#include "json_py.h"

#include <string>

namespace exactsim::py {

namespace pb = pybind11;

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

nlohmann::json from_python(pb::handle h) {
  if (h.is_none()) return nullptr;
  if (pb::isinstance<pb::bool_>(h)) return h.cast<bool>();
  if (pb::isinstance<pb::int_>(h)) return h.cast<long long>();
  if (pb::isinstance<pb::float_>(h)) return h.cast<double>();
  if (pb::isinstance<pb::str>(h)) return h.cast<std::string>();
  if (pb::isinstance<pb::dict>(h)) {
    nlohmann::json o = nlohmann::json::object();
    for (auto item : h.cast<pb::dict>()) {
      if (!pb::isinstance<pb::str>(item.first))
        throw pb::type_error("dictionary keys must be strings, got " +
                             std::string(pb::str(pb::repr(item.first))));
      o[item.first.cast<std::string>()] = from_python(item.second);
    }
    return o;
  }
  if (pb::isinstance<pb::list>(h) || pb::isinstance<pb::tuple>(h)) {
    nlohmann::json a = nlohmann::json::array();
    for (auto e : h) a.push_back(from_python(e));
    return a;
  }
  if (pb::hasattr(h, "tolist")) return from_python(h.attr("tolist")());  // numpy
  throw pb::type_error("cannot convert " + std::string(pb::str(pb::repr(h))) + " to JSON");
}

}  // namespace exactsim::py
