{
  "targets": [
    {
      "target_name": "wflo_kernel_avx2",
      "type": "static_library",
      "sources": ["src/physics/native/isaAvx2.cc"],
      "cflags_cc": ["-O2", "-mavx2", "-mno-fma", "-ffp-contract=off", "-fno-math-errno", "-fno-fast-math", "-Wno-psabi", "-fPIC"],
      "cflags_cc!": ["-O3", "-ffast-math"]
    },
    {
      "target_name": "wflo_kernel",
      "sources": ["src/physics/native/addon.cc", "src/physics/native/isaSse2.cc"],
      "dependencies": ["wflo_kernel_avx2"],
      "cflags_cc": ["-O2", "-ffp-contract=off", "-fno-math-errno", "-fno-fast-math", "-Wno-psabi"],
      "cflags_cc!": ["-O3", "-ffast-math"]
    }
  ]
}
