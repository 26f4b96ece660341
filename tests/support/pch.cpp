// The translation unit that builds the test programs' precompiled header (tests/CMakeLists.txt:
// cuzk_test_pch); it holds nothing else.
