#include "exactsim/impact/impact_result.h"

namespace exactsim {

const char* to_string(ContactPhase p) {
  switch (p) {
    case ContactPhase::kCompressing:
      return "compressing";
    case ContactPhase::kExpanding:
      return "expanding";
    case ContactPhase::kObserving:
      return "observing";
  }
  return "?";
}

const char* to_string(NormalState s) {
  switch (s) {
    case NormalState::kActive:
      return "active";
    case NormalState::kKnown:
      return "known";
    case NormalState::kOff:
      return "off";
  }
  return "?";
}

const char* to_string(FrictionState s) {
  switch (s) {
    case FrictionState::kOff:
      return "off";
    case FrictionState::kRolling:
      return "rolling";
    case FrictionState::kSliding:
      return "sliding";
    case FrictionState::kImpending:
      return "impending";
  }
  return "?";
}

const char* to_string(StepLimit s) {
  switch (s) {
    case StepLimit::kWhole:
      return "whole";
    case StepLimit::kRollingTransition:
      return "rolling_transition";
    case StepLimit::kEndInRollingDisc:
      return "end_in_rolling_disc";
    case StepLimit::kDirectionChange:
      return "direction_change";
    case StepLimit::kAlphaMin:
      return "alpha_min";
  }
  return "?";
}

const char* to_string(Transition t) {
  switch (t) {
    case Transition::kNone:
      return "none";
    case Transition::kCompression:
      return "compression";
    case Transition::kExpansion:
      return "expansion";
  }
  return "?";
}

}  // namespace exactsim
