# Compiles every file under assets/ into the binary as planfirst_assets (a table of path -> bytes).
file(GLOB_RECURSE PLANFIRST_ASSET_FILES CONFIGURE_DEPENDS
  RELATIVE ${PROJECT_SOURCE_DIR}/assets ${PROJECT_SOURCE_DIR}/assets/*)
list(FILTER PLANFIRST_ASSET_FILES EXCLUDE REGEX "(^|/)README\\.md$")
list(SORT PLANFIRST_ASSET_FILES)
set(PLANFIRST_ASSET_DEPS "")
foreach(f ${PLANFIRST_ASSET_FILES})
  list(APPEND PLANFIRST_ASSET_DEPS ${PROJECT_SOURCE_DIR}/assets/${f})
endforeach()
add_custom_command(
  OUTPUT ${PROJECT_BINARY_DIR}/generated/builtin_assets.cpp
  COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR}/assets "-DFILES=${PLANFIRST_ASSET_FILES}"
          -DOUT=${PROJECT_BINARY_DIR}/generated/builtin_assets.cpp -P ${PROJECT_SOURCE_DIR}/cmake/embed_assets.cmake
  DEPENDS ${PLANFIRST_ASSET_DEPS} ${PROJECT_SOURCE_DIR}/cmake/embed_assets.cmake
  COMMENT "Embedding assets"
  VERBATIM)
add_library(planfirst_assets STATIC ${PROJECT_BINARY_DIR}/generated/builtin_assets.cpp)
