#pragma once
// Runs this thread's file-system access as a sandbox user (setfsuid/setfsgid are per
// thread on Linux), so permission checks and new files' owners are that user's.

#include "agent/serve/userdb.h"

namespace lizard::agent {

class FsIdentity
{
public:
    explicit FsIdentity(const UserInfo& user);
    ~FsIdentity();
    FsIdentity(const FsIdentity&) = delete;
    FsIdentity& operator=(const FsIdentity&) = delete;

private:
    bool m_changed = false;
};

} // namespace lizard::agent
