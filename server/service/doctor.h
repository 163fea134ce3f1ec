#pragma once
// `lizard-local doctor`: every host feature lizard-local uses, found or not, and what it means for
// the sandboxes. It starts the runtime on a data directory of its own (so each fact is the one a
// server here would find, template build included), prints, and removes that directory again.

namespace lizard::service {

// Prints the report on stdout; 0 when sandboxes can be made here, 1 when not.
int runDoctor();

} // namespace lizard::service
