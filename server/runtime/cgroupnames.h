#pragma once
// The children of a sandbox's cgroup (cgroupmanager.h), named here for the agent's keeper too:
// the workload's (v2: threaded; v1: in the cpu hierarchy), and on a v2 kernel without threaded
// groups the agent's (no process may live in a domain cgroup whose children get the cpu
// controller).

namespace lizard::runtime {

inline constexpr const char* kAgentCgroup = "agent";
inline constexpr const char* kWorkloadCgroup = "work";

} // namespace lizard::runtime
