; tests/fake_libdevice.ll: a libdevice of one function for tests that build GPU math
; without the CUDA toolkit (tests/CMakeLists.txt assembles it with llvm-as). Its expf is
; x * 3, so a test can find the linked body in the PTX (0f40400000).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define float @__nv_expf(float %x) {
  %r = fmul float %x, 3.0
  ret float %r
}

define float @__nv_logf(float %x) {
  %r = fmul float %x, 5.0
  ret float %r
}
