#pragma once
// serve/runnerzygote.py, embedded at build time (cmake/EmbedText.cmake).

namespace lizard::agent {

const char* runnerZygoteSource();

} // namespace lizard::agent
