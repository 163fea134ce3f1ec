#pragma once
// File requests of the agent: read, write, list, stat, remove, move, mkdir. Paths are
// absolute paths in the sandbox (the agent runs inside its root).

#include "agent/serve/agentcontext.h"
#include "agent/serve/framestream.h"
#include "agent/serve/userdb.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace lizard::agent {

void handleRead(FrameStream& stream, const nlohmann::json& request, AgentContext& context);
void handleWrite(FrameStream& stream, const nlohmann::json& request, AgentContext& context);
void handleList(FrameStream& stream, const nlohmann::json& request);
void handleStat(FrameStream& stream, const nlohmann::json& request);
void handleRemove(FrameStream& stream, const nlohmann::json& request, AgentContext& context);
void handleMove(FrameStream& stream, const nlohmann::json& request, AgentContext& context);
void handleMkdir(FrameStream& stream, const nlohmann::json& request, AgentContext& context);

// Shared helpers (fileerrors.cpp).
std::string errnoCode(int err);
bool writeErrno(FrameStream& stream, int err, const std::string& path);
// As writeErrno, but a path refused for passing through a /proc magic link says so.
bool writePathErrno(FrameStream& stream, int err, const std::string& path);
// True when the directory holding `path` is reached through a /proc magic link.
bool parentIsMagic(const std::string& path);
// Writes the refusal and answers true for such a path; else false.
bool refuseMagicParent(FrameStream& stream, const std::string& path);
// Creates the parents of `path` (like mkdir -p of its directory). Returns 0 or an errno.
int makeParents(const std::string& path);
int makeDirs(const std::string& path);

} // namespace lizard::agent

namespace lizard::agent {

// Returns the absolute path in request[key], or writes an INVALID_ARGUMENT reply and
// returns nothing.
std::optional<std::string> requirePath(FrameStream& stream, const nlohmann::json& request,
                                       const char* key);
// Resolves request["user"] (root by default), or writes UNKNOWN_USER and returns nothing.
std::optional<UserInfo> requireUser(FrameStream& stream, const nlohmann::json& request,
                                    const AgentContext& context);

} // namespace lizard::agent
