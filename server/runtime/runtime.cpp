#include "runtime/runtime.h"

#include "runtime/linuxruntime.h"

namespace lizard::runtime {

Result<std::unique_ptr<Runtime>> Runtime::create(const std::string& dataDir, bool keeper)
{
    return LinuxRuntime::create(dataDir, keeper);
}

} // namespace lizard::runtime
