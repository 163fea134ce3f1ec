#pragma once
// The children of a sandbox's cgroup (cgroupmanager.h), named here for the agent's keeper too:
// v2 has both (no process may live in a cgroup whose children get the cpu controller), v1 only
// the workload's, in the cpu hierarchy.

namespace lizard::runtime {

inline constexpr const char* kAgentCgroup = "agent";
inline constexpr const char* kWorkloadCgroup = "work";

} // namespace lizard::runtime
