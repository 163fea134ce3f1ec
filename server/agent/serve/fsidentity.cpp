#include "agent/serve/fsidentity.h"

#include <sys/fsuid.h>

namespace lizard::agent {

FsIdentity::FsIdentity(const UserInfo& user)
{
    if (user.uid != 0 || user.gid != 0) {
        ::setfsgid(user.gid);
        ::setfsuid(user.uid);
        m_changed = true;
    }
}

FsIdentity::~FsIdentity()
{
    if (m_changed) {
        ::setfsuid(0);
        ::setfsgid(0);
    }
}

} // namespace lizard::agent
