# Catch2 2.13, yaml-cpp 0.7, nlohmann/json 3.11, CLI11 2.1, zlib and RE2 from Debian: either installed system-wide
# (apt-get) or unpacked by ci/setup.sh into .deps/prefix (runners with no package registry).
set(CUCONFORM_DEPS_PREFIX "${CMAKE_SOURCE_DIR}/.deps/prefix" CACHE PATH "unpacked Debian packages")
if(EXISTS "${CUCONFORM_DEPS_PREFIX}/usr")
  list(PREPEND CMAKE_PREFIX_PATH "${CUCONFORM_DEPS_PREFIX}/usr")
endif()

find_package(Catch2 2.13 REQUIRED)
include(Catch)

# The command line (cli/): CLI11 2.1, header-only.
find_package(CLI11 2.1 REQUIRED)

# JSON (results files, the worker protocol): header-only.
find_package(nlohmann_json 3.11 REQUIRED)

# yaml-cpp is linked statically so the executables need no yaml-cpp at run time.
find_path(YAMLCPP_INCLUDE_DIR yaml-cpp/yaml.h REQUIRED)
find_library(YAMLCPP_STATIC NAMES libyaml-cpp.a REQUIRED
             PATH_SUFFIXES lib/x86_64-linux-gnu lib/aarch64-linux-gnu lib)
add_library(cuconform_yaml INTERFACE)
target_include_directories(cuconform_yaml SYSTEM INTERFACE ${YAMLCPP_INCLUDE_DIR})
target_link_libraries(cuconform_yaml INTERFACE ${YAMLCPP_STATIC})

# zlib (zlib1g-dev), static like yaml-cpp: results and fleet files may be gzip-compressed (.json.gz).
find_path(ZLIB_INCLUDE_DIR zlib.h REQUIRED)
find_library(ZLIB_STATIC NAMES libz.a REQUIRED PATH_SUFFIXES lib/x86_64-linux-gnu lib/aarch64-linux-gnu lib)
add_library(cuconform_zlib INTERFACE)
target_include_directories(cuconform_zlib SYSTEM INTERFACE ${ZLIB_INCLUDE_DIR})
target_link_libraries(cuconform_zlib INTERFACE ${ZLIB_STATIC})
# RE2 (libre2-dev), static like zlib: the known list's regexes, matched in linear time
# (reporters/safe_regex.hpp). Debian 12's RE2 (2022-06-01) needs threads, not Abseil.
find_package(Threads REQUIRED)
find_path(RE2_INCLUDE_DIR re2/re2.h REQUIRED)
find_library(RE2_STATIC NAMES libre2.a REQUIRED PATH_SUFFIXES lib/x86_64-linux-gnu lib/aarch64-linux-gnu lib)
add_library(cuconform_re2 INTERFACE)
target_include_directories(cuconform_re2 SYSTEM INTERFACE ${RE2_INCLUDE_DIR})
target_link_libraries(cuconform_re2 INTERFACE ${RE2_STATIC} Threads::Threads)
message(STATUS "cuconform: Catch2 ${Catch2_VERSION} (${Catch2_DIR}), yaml-cpp ${YAMLCPP_STATIC}, "
               "nlohmann_json ${nlohmann_json_VERSION} (${nlohmann_json_DIR}), CLI11 ${CLI11_VERSION} (${CLI11_DIR}), zlib ${ZLIB_STATIC}, RE2 ${RE2_STATIC}")
