// The source of the libraries that only hold the suites' precompiled headers (tests/CMakeLists.txt):
// a library needs one, and this one compiles to nothing.
