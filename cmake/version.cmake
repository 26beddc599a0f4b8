# kplay_version: the generated kplay_version.hpp (cmake/write_version.cmake), rewritten at each build so
# that `--version` names the commit actually built. The three programs link it.
set(KPLAY_GENERATED_DIR ${CMAKE_BINARY_DIR}/generated)
add_custom_target(kplay_version_header
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${KPLAY_GENERATED_DIR}/kplay_version.hpp
          -DVERSION=${PROJECT_VERSION} -P ${CMAKE_CURRENT_LIST_DIR}/write_version.cmake
  BYPRODUCTS ${KPLAY_GENERATED_DIR}/kplay_version.hpp
  COMMENT "kplay_version.hpp: version ${PROJECT_VERSION} and the git commit"
  VERBATIM)
add_library(kplay_version INTERFACE)
target_include_directories(kplay_version INTERFACE ${KPLAY_GENERATED_DIR})
add_dependencies(kplay_version kplay_version_header)
