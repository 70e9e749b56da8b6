# Third-party libraries: Debian packages plus what scripts/bootstrap puts in third_party/.
set(PLANFIRST_THIRD_PARTY ${PROJECT_SOURCE_DIR}/third_party)

find_package(nlohmann_json 3 REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(tomlplusplus REQUIRED)
find_package(date REQUIRED)
find_package(SQLite3 REQUIRED)
find_package(PostgreSQL REQUIRED)
find_package(CLI11 REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(Threads REQUIRED)
find_library(STEMMER_LIBRARY stemmer REQUIRED)
find_library(WORDNET_LIBRARY wordnet REQUIRED)  # wordnet-dev: synonyms for grounding question words
find_library(PG_QUERY_LIBRARY pg_query REQUIRED)  # libpg-query-dev: the PostgreSQL parser (sqlopt)

if(NOT EXISTS ${PLANFIRST_THIRD_PARTY}/duckdb/lib/libduckdb.so)
  message(FATAL_ERROR "DuckDB is missing: run scripts/bootstrap (or plain 'make')")
endif()
add_library(duckdb_c SHARED IMPORTED GLOBAL)
set_target_properties(duckdb_c PROPERTIES
  IMPORTED_LOCATION ${PLANFIRST_THIRD_PARTY}/duckdb/lib/libduckdb.so
  INTERFACE_INCLUDE_DIRECTORIES ${PLANFIRST_THIRD_PARTY}/duckdb/include
  INTERFACE_SYSTEM_INCLUDE_DIRECTORIES ${PLANFIRST_THIRD_PARTY}/duckdb/include)

add_library(valijson INTERFACE IMPORTED GLOBAL)
set_target_properties(valijson PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${PLANFIRST_THIRD_PARTY}/valijson/include
  INTERFACE_SYSTEM_INCLUDE_DIRECTORIES ${PLANFIRST_THIRD_PARTY}/valijson/include)

find_package(PkgConfig REQUIRED)
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)  # its .pc flags (OpenSSL, zlib, brotli) are required
pkg_check_modules(FASTTEXT REQUIRED IMPORTED_TARGET fasttext)  # the analyst router's classifier
find_package(OpenMP REQUIRED)  # before faiss, which needs it
find_package(faiss REQUIRED)
