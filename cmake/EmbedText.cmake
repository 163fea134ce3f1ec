# Writes a C++ source defining `const char* <FUNCTION>()` (in namespace NAMESPACE) that returns
# the text of INPUT, as one raw string literal. Run at build time:
#   cmake -DINPUT=... -DOUTPUT=... -DNAMESPACE=... -DFUNCTION=... -DHEADER=... -P EmbedText.cmake
file(READ ${INPUT} text)
set(delim "lizard_embed")
string(FIND "${text}" ")${delim}\"" clash)
if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${INPUT} contains the raw string's end marker")
endif()
file(WRITE ${OUTPUT}.tmp
    "// Generated from ${INPUT} by cmake/EmbedText.cmake: do not edit.\n"
    "#include \"${HEADER}\"\n\nnamespace ${NAMESPACE} {\n\nconst char* ${FUNCTION}()\n{\n"
    "    static const char text[] = R\"${delim}(${text})${delim}\";\n    return text;\n}\n\n}\n")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
