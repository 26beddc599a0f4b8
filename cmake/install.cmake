# Installing kplay as a desktop tool: the three programs in bin/, their run-time files in share/kplay/
# (found from the executable's own location, base/install_paths.cpp), the desktop entry and icon, man
# pages made from the programs' --help by help2man, the bash completion made by kplay-cli from its own
# option table, and a Debian package through CPack. `cmake --install build --prefix P` honours DESTDIR.
include(GNUInstallDirs)

# The programs look for share/kplay beside their bin/; the path between the two is baked in.
set(KPLAY_INSTALL_DATADIR ${CMAKE_INSTALL_DATAROOTDIR}/kplay)
file(RELATIVE_PATH KPLAY_DATA_FROM_BIN /prefix/${CMAKE_INSTALL_BINDIR} /prefix/${KPLAY_INSTALL_DATADIR})
target_compile_definitions(kplay_base PRIVATE KPLAY_INSTALLED_DATA_FROM_BIN="${KPLAY_DATA_FROM_BIN}")

# NVRTC is linked (kplay::nvrtc), not loaded: an installed program finds libnvrtc in the toolkit folder it
# was built against (a toolkit from NVIDIA's runfile registers no ld.so path). kplay-worker also looks in
# ../lib, where `kplay-cli remote-install` puts the libraries a GPU host may lack.
get_filename_component(KPLAY_NVRTC_DIR "${KPLAY_NVRTC_LOCATION}" DIRECTORY)
set_target_properties(kplay-cli PROPERTIES INSTALL_RPATH "${KPLAY_NVRTC_DIR}")
set_target_properties(kplay-worker PROPERTIES INSTALL_RPATH "$ORIGIN/../lib;${KPLAY_NVRTC_DIR}")

set(KPLAY_PROGRAMS kplay-cli kplay-worker)
if(TARGET kplay)
  list(PREPEND KPLAY_PROGRAMS kplay)
endif()
install(TARGETS ${KPLAY_PROGRAMS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kernels_src/ DESTINATION ${KPLAY_INSTALL_DATADIR}/kernels_src)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/emu/include/ DESTINATION ${KPLAY_INSTALL_DATADIR}/emu/include)
if(TARGET kplay)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/shaders/ DESTINATION ${KPLAY_INSTALL_DATADIR}/shaders)
  install(FILES ${PROJECT_SOURCE_DIR}/app/window/desktop/kplay.desktop DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/app/window/desktop/kplay.svg
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/icons/hicolor/scalable/apps)
  # text/x-cuda for *.cu and *.cuh, so that file managers offer kplay for them.
  install(FILES ${PROJECT_SOURCE_DIR}/app/window/desktop/kplay-cuda.xml RENAME kplay.xml
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/mime/packages)
endif()

# The bash completion, printed by the kplay-cli just built.
set(KPLAY_COMPLETION ${CMAKE_BINARY_DIR}/completion/kplay-cli)
add_custom_command(OUTPUT ${KPLAY_COMPLETION}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/completion
  COMMAND $<TARGET_FILE:kplay-cli> completion bash > ${KPLAY_COMPLETION}
  DEPENDS kplay-cli
  COMMENT "bash completion for kplay-cli")
add_custom_target(kplay_completion ALL DEPENDS ${KPLAY_COMPLETION})
install(FILES ${KPLAY_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions)

# Man pages from each program's --help and --version (cmake/make_man.cmake), so they never drift.
find_program(HELP2MAN help2man)
if(HELP2MAN)
  set(KPLAY_MAN_PAGES)
  set(description_kplay "live-reload CUDA kernel playground window")
  set(description_kplay-cli "compile, run, check and time CUDA kernel files from the command line")
  set(description_kplay-worker "the process that compiles and runs the kernels of kplay")
  foreach(program ${KPLAY_PROGRAMS})
    set(page ${CMAKE_BINARY_DIR}/man/${program}.1.gz)
    add_custom_command(OUTPUT ${page}
      COMMAND ${CMAKE_COMMAND} -DHELP2MAN=${HELP2MAN} -DPROGRAM=$<TARGET_FILE:${program}>
              "-DDESCRIPTION=${description_${program}}" -DOUTPUT=${page} -P ${CMAKE_CURRENT_LIST_DIR}/make_man.cmake
      DEPENDS ${program} ${CMAKE_CURRENT_LIST_DIR}/make_man.cmake
      COMMENT "man page of ${program} (help2man)"
      VERBATIM)
    list(APPEND KPLAY_MAN_PAGES ${page})
  endforeach()
  add_custom_target(kplay_man ALL DEPENDS ${KPLAY_MAN_PAGES})
  install(FILES ${KPLAY_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(WARNING "help2man not found (scripts/install-deps installs it): no man pages will be installed")
endif()

# The Debian package: `cpack --config build/CPackConfig.cmake -B build/package` makes kplay_VERSION_ARCH.deb.
# Its dependencies are the Debian packages whose libraries the programs load (Boost.Context, libseccomp
# and zstd are linked statically); scripts/test-install checks the list against each program's NEEDED
# entries. NVRTC is not a Debian package: the CUDA Toolkit must be installed (/usr/local/cuda).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kplay)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "kplay")
set(CPACK_PACKAGE_CONTACT "kplay maintainers <kplay@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "JIT CUDA kernel playground")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "JIT CUDA kernel playground
 kplay compiles a .cu file you keep open in your own editor with NVRTC, launches it through the CUDA
 driver with the grid and block you choose, checks the output against a CPU reference and tells you
 how fast it ran. Without a GPU, kernels run on an emulated CPU device.
 .
 Needs the CUDA Toolkit 13 (NVRTC and its headers) at /usr/local/cuda, or its headers where
 KPLAY_CUDA_INCLUDE points; kernels run on a GPU with the NVIDIA driver, else on the emulated device
 (g++ or clang++).")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES TRUE)  # the build's debug information stays in the build
set(KPLAY_DEB_DEPENDS "libc6, libstdc++6, libgcc-s1, libopenblas0-pthread | libopenblas0-openmp | libopenblas0-serial, g++ | clang")
if(TARGET kplay)
  string(APPEND KPLAY_DEB_DEPENDS ", libglfw3 | libglfw3-wayland, libgl1, libfontconfig1, libstb0")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${KPLAY_DEB_DEPENDS}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "openssh-client, fonts-dejavu-core, man-db")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "xdg-utils")
include(CPack)
