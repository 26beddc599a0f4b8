// NVRTC's automatic precompiled headers (-pch, NVRTC 12.8+) measured in one process, as a long-lived
// compiler would see them: a plain kernel, a CUB BlockScan kernel and the CuTe-style test kernel
// (tests/data/cute_like), each compiled once and then again after an edit (a comment appended), with and
// without -pch. Prints one line per compile: mode, kernel, compile number, ms, and NVRTC's PCH note.
//     nvrtc_pch_probe [pch|nopch] [REPEATS]   (CUDA_CACHE_DISABLE=1 as kplay sets it)
#include <nvrtc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    const bool pch = argc > 1 && std::string(argv[1]) == "pch";
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 4;
    const char* names[] = {"plain", "cub_block_scan", "cute_like"};
    const std::string sources[] = {
        "extern \"C\" __global__ void k(float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] *= 2.0f; }\n",
        "#include <cub/block/block_scan.cuh>\n__global__ void k(int* a) { using S = cub::BlockScan<int, 256>; __shared__ typename "
        "S::TempStorage t; int v = a[threadIdx.x]; S(t).InclusiveSum(v, v); a[threadIdx.x] = v; }\n",
        "#include <mini_tensor/layout.hpp>\n__global__ void k(float* a, float* b, int R, int C) { int r = blockIdx.y, c = threadIdx.x; "
        "auto s = mini::make_tensor(a, mini::make_row_major(R, C)); auto t = mini::make_tensor(b, mini::make_row_major(C, R)); "
        "t(c, r) = s(r, c); }\n"};
    const std::string cute = std::string(KPLAY_TEST_DATA_DIR) + "/cute_like/include";
    const std::string include = "-I" + cute;
    for (int which = 0; which < 3; ++which) {
        for (int rep = 0; rep < repeats; ++rep) {
            const std::string source = sources[which] + "// edit " + std::to_string(rep) + "\n";
            const auto start = std::chrono::steady_clock::now();
            nvrtcProgram program = nullptr;
            if (nvrtcCreateProgram(&program, source.c_str(), "k.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS) return 1;
            std::vector<const char*> options = {"--gpu-architecture=sm_90", "-std=c++17", "-lineinfo", "-I" KPLAY_CUDA_INCLUDE,
                                                "-I" KPLAY_CUDA_INCLUDE "/cccl", include.c_str(), "--device-as-default-execution-space"};
            if (pch) options.push_back("-pch");
            const nvrtcResult result = nvrtcCompileProgram(program, static_cast<int>(options.size()), options.data());
            size_t size = 0;
            nvrtcGetProgramLogSize(program, &size);
            std::string log(size, '\0');
            nvrtcGetProgramLog(program, log.data());
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            const std::string note = log.find("using precompiled") != std::string::npos      ? "used PCH"
                                     : log.find("creating precompiled") != std::string::npos ? "created PCH"
                                     : log.find("630-D") != std::string::npos                ? "PCH not compatible"
                                                                                             : "-";
            std::printf("%s %s %d %s %.0f ms %s\n", pch ? "pch" : "nopch", names[which], rep + 1, result == NVRTC_SUCCESS ? "ok" : "FAILED",
                        ms, note.c_str());
            nvrtcDestroyProgram(&program);
        }
    }
    return 0;
}
