// The one source of the libraries that only hold the suites' precompiled headers
// (tests/CMakeLists.txt): a library needs a source, and this one compiles to nothing.
