# Writes schema.sql into a C++ header as one raw string literal (cmake -P, see CMakeLists.txt).
file(READ ${IN} sql)
string(FIND "${sql}" ")mtsql\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "schema.sql contains the raw-string delimiter )mtsql\"")
endif()
file(WRITE ${OUT} "// Generated from schema.sql by embed_schema.cmake. Do not edit.\n#pragma once\ninline constexpr const char kSchemaSql[] = R\"mtsql(${sql})mtsql\";\n")
