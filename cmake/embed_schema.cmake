# Turns schema/NNN_name.sql files into a C array of {version, name, sql}.
#
# Refuses (FATAL_ERROR, so the build stops) a file name that is not
# NNN_name.sql, and numbers that are not exactly 1..N: a gap would be
# skipped by a database already past it (PRAGMA user_version only grows),
# and of two files with one number the second would never run.
file(GLOB FILES ${DIR}/*.sql)
list(SORT FILES)
set(body "/* generated from the schema migrations: do not edit */\n#include \"store/migrations.h\"\n")
set(entries "")
set(expected 1)
if(NOT FILES)
  message(FATAL_ERROR "schema migrations: no .sql file in ${DIR}")
endif()
foreach(f ${FILES})
  get_filename_component(file ${f} NAME)
  if(NOT file MATCHES "^([0-9][0-9][0-9])_([a-z0-9_]+)\\.sql$")
    message(FATAL_ERROR "schema migrations: ${f}: the name must be NNN_name.sql "
      "(three digits, an underscore, then lower-case letters, digits and underscores)")
  endif()
  math(EXPR ver "${CMAKE_MATCH_1}")
  string(REGEX REPLACE "\\.sql$" "" name ${file})
  if(ver EQUAL 0)
    message(FATAL_ERROR "schema migrations: ${file}: numbers start at 001 (000 is an empty database)")
  elseif(ver LESS expected)
    message(FATAL_ERROR "schema migrations: ${file} and ${prev} have the same number; "
      "each migration needs its own number, 001 to N")
  elseif(ver GREATER expected)
    message(FATAL_ERROR "schema migrations: ${file}: number ${expected} is missing before it; "
      "the numbers must run 001 to N with no gap")
  endif()
  math(EXPR expected "${expected} + 1")
  set(prev ${file})
  file(READ ${f} sql)
  string(REPLACE "\\" "\\\\" sql "${sql}")
  string(REPLACE "\"" "\\\"" sql "${sql}")
  string(REPLACE "\n" "\\n\"\n\"" sql "${sql}")
  string(APPEND entries "  {${ver}, \"${name}\", \"${sql}\"},\n")
endforeach()
string(APPEND body "const struct migration pb_migrations[] = {\n${entries}  {0, 0, 0}\n};\n")
file(WRITE ${OUT} "${body}")
