# Writes a program's man page (gzip'd) with help2man from its own --help and --version; kplay-cli's page
# gets a COMMANDS section with each command's --help, read from the "Subcommands:" list of its --help.
#   cmake -DHELP2MAN=... -DPROGRAM=.../kplay-cli -DDESCRIPTION="..." -DOUTPUT=.../kplay-cli.1.gz -P make_man.cmake
get_filename_component(name ${PROGRAM} NAME)
get_filename_component(folder ${OUTPUT} DIRECTORY)
file(MAKE_DIRECTORY ${folder})
set(page ${folder}/${name}.1)
set(include ${folder}/${name}.h2m)

# roff: a backslash is \e, and a line that starts with . or ' would be a request.
function(as_roff text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

execute_process(COMMAND ${PROGRAM} --help OUTPUT_VARIABLE help RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "${PROGRAM} --help failed (${failed})")
endif()
set(sections "[SEE ALSO]\nkplay(1), kplay-cli(1), kplay-worker(1), and README.md in the source tree.\n")
string(FIND "${help}" "Subcommands:\n" at)
if(NOT at EQUAL -1)
  string(SUBSTRING "${help}" ${at} -1 list)
  string(FIND "${list}" "\n\n" end)  # the list ends at the first blank line (the footer follows)
  string(SUBSTRING "${list}" 0 ${end} list)
  string(REGEX MATCHALL "\n  [a-z][a-z-]*" commands "${list}")
  string(APPEND sections "[COMMANDS]\n")
  foreach(command ${commands})
    string(STRIP "${command}" command)
    execute_process(COMMAND ${PROGRAM} ${command} --help OUTPUT_VARIABLE command_help)
    string(FIND "${command_help}" "\nExamples:\n" footer)  # the top level's footer, which CLI11 repeats
    string(SUBSTRING "${command_help}" 0 ${footer} command_help)
    as_roff("${command_help}" command_help)
    string(APPEND sections ".SS ${command}\n.nf\n${command_help}.fi\n")
  endforeach()
endif()
file(WRITE ${include} "${sections}")
execute_process(COMMAND ${HELP2MAN} --no-info --section=1 "--name=${DESCRIPTION}" --include=${include}
                        --output=${page} ${PROGRAM}
                RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "help2man failed on ${PROGRAM} (${failed})")
endif()
execute_process(COMMAND gzip -9nf ${page} RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "gzip failed on ${page}")
endif()
