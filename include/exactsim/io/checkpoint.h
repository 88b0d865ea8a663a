// A run's checkpoint (docs/robustness.md "Interrupted runs"): everything that carries from one
// step to the next, so that `exactsim run --resume DIR` continues bit for bit as if the run had
// never stopped.
//
// DIR/checkpoint.bin is binary: the 20 bytes "exactsim-checkpoint\n", the format version (4
// bytes), then the fields of Checkpoint in the order of for_each_checkpoint_field (checkpoint.cc),
// each as its name (2-byte length, bytes) and its value: integers as 8 bytes (1 for bools and
// flags), doubles as their 8 IEEE-754 bytes (exact), vectors as an 8-byte count and the
// elements; all little-endian. The last 8 bytes are the FNV-1a hash of everything before them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "exactsim/dynamics/body.h"
#include "exactsim/io/run.h"
#include "exactsim/stepping/snapshot.h"

namespace exactsim {

inline constexpr const char* kCheckpointFile = "checkpoint.bin";

struct Checkpoint {
  std::uint64_t scene_hash = 0;  // FNV-1a of DIR/scene.json as the run wrote it
  int trajectory_every = 1;      // RunOptions::trajectory_every of the run
  // The lengths of trajectory.csv and steps.jsonl once the rows of the last step (tally.summary.
  // steps_done steps) were written: what the files are cut back to on resume.
  std::uint64_t trajectory_bytes = 0, steps_bytes = 0;
  State state;           // after tally.summary.steps_done steps
  StepperMemory memory;  // of the Workspace after them
  RunTally tally;
};

// FNV-1a (64 bit) of a file's bytes; InputError when it cannot be read.
std::uint64_t file_hash(const std::string& path);

// Writes c to `path` through path + ".tmp" and a rename, so that the file is always a whole
// checkpoint. InputError naming the file when it cannot be written.
void write_checkpoint(const Checkpoint& c, const std::string& path);

// Reads the checkpoint at `path` and checks it against `scene` (read from `scene_file`, the
// folder's scene.json): same file, sizes that fit its bodies, a step within the run.
// InputError naming the file and the reason: missing, not a checkpoint, another format
// version, damaged (checksum), truncated, or written for another scene.
Checkpoint read_checkpoint(const std::string& path, const Scene& scene,
                           const std::string& scene_file);

// The check before `exactsim run --resume DIR` reads anything else: DIR is a folder with a
// checkpoint. InputError saying why not, and whether DIR holds a run that ended (summary.json).
void require_checkpoint(const std::string& dir);

// A simulation's state between steps (State, steps taken, the stepper's memory) as bytes, in the
// checkpoint's exact encoding behind their own magic "exactsim-state\n" and checksum: what the
// Python module pickles a Simulation's state to (docs/python.md). decode_state throws InputError
// ("saved state: ...") for bytes that are not one; the caller checks that it fits its scene.
std::string encode_state(const State& state, long steps, const StepperMemory& memory);
void decode_state(std::string_view bytes, State& state, long& steps, StepperMemory& memory);

}  // namespace exactsim
