#include "runtime/runtime.h"

#include "runtime/linuxruntime.h"

namespace lizard::runtime {

Result<std::unique_ptr<Runtime>> Runtime::create(const std::string& dataDir)
{
    return LinuxRuntime::create(dataDir);
}

} // namespace lizard::runtime
