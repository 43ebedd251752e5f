# bench/reference/reference.cmake: libtjref.so, the GPU references of tilejit-bench
# (tjref.cu: CUDA runtime and CUB), built with nvcc when it is found. The bench loads it
# with dlopen from beside itself, so tilejit-bench builds and runs without CUDA; the GPU
# figures then say that the reference is absent. The runtime is linked statically, so the
# library needs only glibc, libstdc++ and libgcc (and the driver at run time).
option(TILEJIT_BENCH_REFERENCES "Build libtjref.so with nvcc when it is found" ON)
set(TILEJIT_BENCH_REF_ARCH 90 CACHE STRING "SM architecture of libtjref.so (90: H100/H200)")
if(TILEJIT_BENCH_REFERENCES)
  find_program(TJ_NVCC nvcc HINTS ENV CUDA_HOME PATH_SUFFIXES bin
               PATHS /usr/local/cuda/bin NO_CACHE)
endif()
if(TILEJIT_BENCH_REFERENCES AND TJ_NVCC)
  set(TJ_REF_LIB ${CMAKE_BINARY_DIR}/libtjref.so)
  set(TJ_REF_DIR ${CMAKE_CURRENT_LIST_DIR})
  add_custom_command(
    OUTPUT ${TJ_REF_LIB}
    COMMAND ${TJ_NVCC} -O3 -std=c++17 -arch=sm_${TILEJIT_BENCH_REF_ARCH}
            -DTJREF_ARCH=${TILEJIT_BENCH_REF_ARCH} -shared -Xcompiler -fPIC,-fvisibility=hidden
            -cudart static -o ${TJ_REF_LIB} ${TJ_REF_DIR}/tjref.cu
    DEPENDS ${TJ_REF_DIR}/tjref.cu ${TJ_REF_DIR}/tjref.h
    COMMENT "nvcc: libtjref.so (the GPU references of tilejit-bench)"
    VERBATIM)
  add_custom_target(tjref ALL DEPENDS ${TJ_REF_LIB})
  message(STATUS "tilejit-bench: GPU references with ${TJ_NVCC} "
                 "(libtjref.so, sm_${TILEJIT_BENCH_REF_ARCH})")
else()
  message(STATUS "tilejit-bench: no nvcc, so no libtjref.so (GPU figures run without references)")
endif()
