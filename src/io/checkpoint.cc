#include "exactsim/io/checkpoint.h"

#include <bit>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "exactsim/math/error.h"
#include "json_cursor.h"

namespace exactsim {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMagic = "exactsim-checkpoint\n";
// Saved states (encode_state) are format 2; a format-1 state (without the halves' memory) still
// reads.
constexpr std::uint32_t kStateVersion = 2;
// Checkpoints are format 4; a format-3 checkpoint (without islands_flown_free), format 2 (nor the
// halves' memory) or format 1 (nor retaken_failed_solves) still reads.
constexpr std::uint32_t kCheckpointVersion = 4;
constexpr std::uintmax_t kMaxCheckpointBytes = std::uintmax_t{16} << 30;

std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

// Every field of a checkpoint, in file order: io(name, field). The writer and the reader both
// go through this one list.
template <class IO, class C>
void for_each_checkpoint_field(IO& io, C& c, std::uint32_t version) {
  io("scene_hash", c.scene_hash);
  io("trajectory_every", c.trajectory_every);
  io("trajectory_bytes", c.trajectory_bytes);
  io("steps_bytes", c.steps_bytes);
  io("state.dimension", c.state.dimension);
  io("state.time", c.state.time);
  io("state.q", c.state.q);
  io("state.v", c.state.v);
  io("state.present", c.state.present);
  io("state.rest_time", c.state.rest_time);
  io("state.asleep", c.state.asleep);
  for_each_memory_field([&](const char* name, auto field, auto) {
    if (version >= 3 || !memory_field_since_halves(name)) io(name, c.memory.*field);
  });
  auto& s = c.tally.summary;
  io("steps_done", s.steps_done);
  io("solver_calls", s.solver_calls);
  io("fallback_solves", s.fallback_solves);
  io("solver_failures", s.solver_failures);
  io("energy_failures", s.energy_failures);
  if (version >= 2) io("retaken_failed_solves", s.retaken_failed_solves);
  if (version >= 4) io("islands_flown_free", s.islands_flown_free);
  io("max_energy_gain", s.max_energy_gain);
  io("projection_steps", s.projection_steps);
  io("projection_relaxed", s.projection_relaxed);
  io("projection_scaled", s.projection_scaled);
  io("projection_failures", s.projection_failures);
  io("deep_penetration_steps", s.deep_penetration_steps);
  io("max_penetration", s.max_penetration);
  io("max_pivots", s.max_pivots);
  io("max_complementarity", s.max_complementarity);
  io("solver_seconds", s.solver_seconds);
  io("max_overlap", s.max_overlap);
  io("max_contacts", s.max_contacts);
  io("peg_changed_steps", s.peg_changed_steps);
  io("impacts", s.impacts);
  io("impact_fallbacks", s.impact_fallbacks);
  io("impact_capped_steps", s.impact_capped_steps);
  io("impact_energy_change", s.impact_energy_change);
  io("overlaps", c.tally.overlaps);
  io("overlap_every", c.tally.overlap_every);
  io("contact_sum", c.tally.contact_sum);
  io("lost", c.tally.lost);
  io("wall_seconds", c.tally.wall_seconds);
}

class Writer {
 public:
  std::string bytes;

  template <class T>
  void operator()(const char* name, const T& value) {
    const std::string_view n(name);
    put_bytes(n.size(), 2);
    bytes.append(n);
    put(value);
  }
  void put_bytes(std::uint64_t v, int count) {
    for (int i = 0; i < count; ++i) bytes.push_back(static_cast<char>(v >> (8 * i)));
  }

 private:
  void put(std::uint64_t v) { put_bytes(v, 8); }
  void put(long v) { put(static_cast<std::uint64_t>(v)); }
  void put(int v) { put(static_cast<long>(v)); }
  void put(bool v) { put_bytes(v ? 1 : 0, 1); }
  void put(std::uint8_t v) { put_bytes(v, 1); }
  void put(double v) { put(std::bit_cast<std::uint64_t>(v)); }
  void put(const WarmStart::Row& r) {
    put(r.name);
    put(r.basic);
    put(r.z);
  }
  void put(const FrictionDirection& d) {
    put(d.patch);
    put(d.angle);
  }
  template <class T>
  void put(const std::vector<T>& v) {
    put(static_cast<std::uint64_t>(v.size()));
    for (const T& x : v) put(x);
  }
  void put(const VecX& v) {
    put(static_cast<std::uint64_t>(v.size()));
    for (Eigen::Index i = 0; i < v.size(); ++i) put(v[i]);
  }
};

class Reader {
 public:
  Reader(std::string_view bytes, std::string path) : bytes_(bytes), path_(std::move(path)) {}

  template <class T>
  void operator()(const char* name, T& value) {
    field_ = name;
    const auto length = static_cast<std::size_t>(get_bytes(2));
    const std::string_view found = take(length);
    if (found != name)
      fail("expected field '" + std::string(name) + "', found '" + std::string(found) +
           "' (written by another version of exactsim?)");
    get(value);
  }
  std::uint64_t get_bytes(int count) {
    const std::string_view b = take(static_cast<std::size_t>(count));
    std::uint64_t v = 0;
    for (int i = 0; i < count; ++i) v |= std::uint64_t{static_cast<unsigned char>(b[i])} << (8 * i);
    return v;
  }
  std::string_view take(std::size_t n) {
    if (n > bytes_.size() - pos_) fail("cut short");
    const std::string_view b = bytes_.substr(pos_, n);
    pos_ += n;
    return b;
  }
  bool at_end() const { return pos_ == bytes_.size(); }
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(path_ + ": not a usable checkpoint: " + why + " at byte " +
                     std::to_string(pos_) + (field_ ? std::string(" (field ") + field_ + ")" : ""));
  }

 private:
  void get(std::uint64_t& v) { v = get_bytes(8); }
  void get(long& v) { v = static_cast<long>(get_bytes(8)); }
  void get(int& v) {
    const long x = static_cast<long>(get_bytes(8));
    if (x < std::numeric_limits<int>::min() || x > std::numeric_limits<int>::max())
      fail("value out of range");
    v = static_cast<int>(x);
  }
  void get(bool& v) { v = get_bytes(1) != 0; }
  void get(std::uint8_t& v) { v = static_cast<std::uint8_t>(get_bytes(1)); }
  void get(double& v) { v = std::bit_cast<double>(get_bytes(8)); }
  void get(WarmStart::Row& r) {
    get(r.name);
    get(r.basic);
    get(r.z);
  }
  void get(FrictionDirection& d) {
    get(d.patch);
    get(d.angle);
  }
  // The count of a vector whose elements take at least `element_bytes` each.
  std::size_t count(std::size_t element_bytes) {
    const std::uint64_t n = get_bytes(8);
    if (n > (bytes_.size() - pos_) / element_bytes) fail("cut short");
    return static_cast<std::size_t>(n);
  }
  template <class T>
  void get(std::vector<T>& v) {
    v.resize(count(std::is_same_v<T, std::uint8_t> ? 1 : 8));
    for (T& x : v) get(x);
  }
  void get(VecX& v) {
    v.resize(static_cast<Eigen::Index>(count(8)));
    for (Eigen::Index i = 0; i < v.size(); ++i) get(v[i]);
  }

  std::string_view bytes_;
  std::string path_;
  std::size_t pos_ = 0;
  const char* field_ = nullptr;
};

// The checkpoint's sizes fit the scene's bodies and run (the scene's hash matched already).
void check_against_scene(const Checkpoint& c, const Scene& scene, const std::string& path) {
  const World& w = scene.world;
  const auto n = static_cast<std::size_t>(w.body_count());
  const auto fail = [&](const std::string& why) {
    throw InputError(path + ": does not fit the scene: " + why);
  };
  const State& s = c.state;
  if (s.dimension != w.dimension)
    fail("a " + std::to_string(s.dimension) + "D state for a " + std::to_string(w.dimension) +
         "D scene");
  if (s.present.size() != n ||
      static_cast<std::size_t>(s.q.size()) != n * config_size(w.dimension) ||
      static_cast<std::size_t>(s.v.size()) != n * velocity_size(w.dimension) ||
      (!s.rest_time.empty() && s.rest_time.size() != n) ||
      (!s.asleep.empty() && s.asleep.size() != n) || c.tally.lost.size() != n)
    fail("its state is not of the scene's " + std::to_string(n) + " bodies");
  const long done = c.tally.summary.steps_done;
  if (done < 0 || done > scene.step_count())
    fail("step " + std::to_string(done) + " is not within the run's " +
         std::to_string(scene.step_count()) + " steps");
  if (c.trajectory_every < 1 || c.tally.overlap_every < 1)
    fail("trajectory_every and overlap_every must be >= 1");
}

constexpr std::string_view kStateMagic = "exactsim-state\n";

// The fields of a saved state, in order (encode_state, decode_state).
template <class IO, class S, class N, class M>
void for_each_state_field(IO& io, S& state, N& steps, M& memory, std::uint32_t version) {
  io("steps", steps);
  io("state.dimension", state.dimension);
  io("state.time", state.time);
  io("state.q", state.q);
  io("state.v", state.v);
  io("state.present", state.present);
  io("state.rest_time", state.rest_time);
  io("state.asleep", state.asleep);
  io("state.force", state.force);
  for_each_memory_field([&](const char* name, auto field, auto) {
    if (version >= 2 || !memory_field_since_halves(name)) io(name, memory.*field);
  });
}

}  // namespace

std::string encode_state(const State& state, long steps, const StepperMemory& memory) {
  Writer w;
  w.bytes.append(kStateMagic);
  w.put_bytes(kStateVersion, 4);
  for_each_state_field(w, state, steps, memory, kStateVersion);
  w.put_bytes(fnv1a(w.bytes), 8);
  return w.bytes;
}

void decode_state(std::string_view bytes, State& state, long& steps, StepperMemory& memory) {
  const std::string who = "saved state";
  if (bytes.size() < kStateMagic.size() + 12 || bytes.substr(0, kStateMagic.size()) != kStateMagic)
    throw InputError(who + ": not a saved exactsim state");
  if (fnv1a(bytes.substr(0, bytes.size() - 8)) !=
      Reader(bytes.substr(bytes.size() - 8), who).get_bytes(8))
    throw InputError(who + ": damaged (its checksum does not match)");
  Reader r(bytes.substr(0, bytes.size() - 8), who);
  r.take(kStateMagic.size());
  const auto version = static_cast<std::uint32_t>(r.get_bytes(4));
  if (version < 1 || version > kStateVersion)
    throw InputError(who + ": format " + std::to_string(version) +
                     ", but this exactsim reads formats 1 to " + std::to_string(kStateVersion));
  memory = StepperMemory{};
  for_each_state_field(r, state, steps, memory, version);
  if (!r.at_end()) r.fail("bytes after the last field");
}

std::uint64_t file_hash(const std::string& path) {
  return fnv1a(io::read_input_file(path, kMaxCheckpointBytes));
}

void write_checkpoint(const Checkpoint& c, const std::string& path) {
  Writer w;
  w.bytes.append(kMagic);
  w.put_bytes(kCheckpointVersion, 4);
  for_each_checkpoint_field(w, c, kCheckpointVersion);
  w.put_bytes(fnv1a(w.bytes), 8);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(w.bytes.data(), static_cast<std::streamsize>(w.bytes.size()));
    out.close();
    if (!out) throw InputError(tmp + ": cannot write the checkpoint");
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw InputError(path + ": cannot write the checkpoint (" + ec.message() + ")");
}

Checkpoint read_checkpoint(const std::string& path, const Scene& scene,
                           const std::string& scene_file) {
  const std::string bytes = io::read_input_file(path, kMaxCheckpointBytes);
  Reader r(bytes, path);
  if (r.take(std::min(bytes.size(), kMagic.size())) != kMagic)
    throw InputError(path + ": not an exactsim checkpoint (it does not start with \"" +
                     std::string(kMagic.substr(0, kMagic.size() - 1)) + "\")");
  const auto version = static_cast<std::uint32_t>(r.get_bytes(4));
  if (version < 1 || version > kCheckpointVersion)
    throw InputError(path + ": checkpoint format " + std::to_string(version) +
                     ", but this exactsim reads formats 1 to " +
                     std::to_string(kCheckpointVersion));
  if (bytes.size() < kMagic.size() + 12 ||
      fnv1a(std::string_view(bytes).substr(0, bytes.size() - 8)) !=
          Reader(std::string_view(bytes).substr(bytes.size() - 8), path).get_bytes(8))
    throw InputError(path + ": the checkpoint is damaged (its checksum does not match)");
  Reader fields(std::string_view(bytes).substr(0, bytes.size() - 8), path);
  fields.take(kMagic.size() + 4);
  Checkpoint c;
  c.tally = start_tally(scene);  // the scene's part of the summary; the counts are read
  for_each_checkpoint_field(fields, c, version);
  if (!fields.at_end()) fields.fail("bytes after the last field");
  if (c.scene_hash != file_hash(scene_file))
    throw InputError(path + ": written for another scene: " + scene_file +
                     " is not the file the checkpointed run wrote (it has changed since)");
  check_against_scene(c, scene, path);
  return c;
}

void require_checkpoint(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw InputError(dir + ": no such results folder (give the --out folder of a run)");
  const fs::path file = fs::path(dir) / kCheckpointFile;
  if (fs::exists(file, ec)) return;
  std::string why = "the folder holds no run of `exactsim run --out` to resume";
  std::ifstream in(fs::path(dir) / "summary.json");
  const nlohmann::json s = nlohmann::json::parse(in, nullptr, false);
  if (s.is_object() && s.value("failed", false) && s.value("failure", "") == "interrupted")
    why = "the run was interrupted (summary.json), but its checkpoint is gone";
  else if (s.is_object() && s.value("failed", false))
    why = "its run ended at " + s.value("failure", std::string("a failure")) + " (summary.json)";
  else if (s.is_object())
    why = "its run ended after all its steps (summary.json)";
  throw InputError(file.string() + ": no checkpoint to resume from: " + why);
}

}  // namespace exactsim
