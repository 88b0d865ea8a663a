// The part of a peer driver that is the same for every engine (docs/peers.md "Drivers"): the
// command line, the scene (read, overridden, mapped), the step loop with spawning and its timing,
// and the outputs: DIR/scene.json, DIR/trajectory.csv in exactsim's format and DIR/peer.json.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "peer_scene.h"

namespace exactsim::peers {

// Where the engine has body i's principal frame and how it moves (world frame).
struct BodyMotion {
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
  Vec3 velocity = Vec3::Zero(), angular_velocity = Vec3::Zero();
};

// One engine's model of a PeerScene. The driver calls add_body(i) before the first step whose
// start time reaches body i's spawn time (static bodies included), then step() once per step.
class PeerEngine {
 public:
  virtual ~PeerEngine() = default;
  virtual void add_body(int i) = 0;
  virtual void step() = 0;
  // Body i (dynamic, added) after the last step.
  virtual BodyMotion motion(int i) const = 0;
  // What the engine warned about during the run ("" when nothing), for peer.json.
  virtual std::string warnings() const { return ""; }
};

// What a driver knows about its engine: its name, its version, the settings it changes from the
// engine's defaults (written into peer.json), and how to build a model for steps of h.
struct PeerEngineInfo {
  std::string engine;   // "bullet", "ode", "mujoco"
  std::string version;  // e.g. "3.24 double"
  nlohmann::json settings = nlohmann::json::object();
  // Throws InputError for a scene the engine cannot take (naming the body and the reason).
  std::unique_ptr<PeerEngine> (*build)(const PeerScene& scene, Real h) = nullptr;
};

// The driver's main: `peer_<engine> SCENE --out DIR [--dt H] [--duration T] [--repeat N]
// [--thickness M]`. Exit 0 on a finished run (also one stopped by a diverged body, which
// peer.json records), 2 on bad input (scene file, options), 1 on any other failure.
int run_driver(int argc, char** argv, const PeerEngineInfo& info);

}  // namespace exactsim::peers
