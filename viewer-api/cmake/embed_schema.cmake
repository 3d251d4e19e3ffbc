# Writes OUT, a header holding IN's text as kSchemaSql.
file(READ ${IN} text)
file(WRITE ${OUT} "// Generated from symbolizer/schema.sql; do not edit.\n#pragma once\nstatic const char kSchemaSql[] = R\"mtschema(${text})mtschema\";\n")
