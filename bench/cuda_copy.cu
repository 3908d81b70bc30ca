// The copy yardstick in CUDA, for `glradix-bench --copy`'s GL figures: n
// 32-bit keys and n 32-bit values copied from one pair of buffers to
// another, timed on the GPU (cudaEvent pairs, median of 20 after a second
// of warm-up), in two forms:
//   kernel: the same kernel as glradix-bench's GL copy (bench_copy.c: 256
//           threads, 4 uint4 per thread a grid's width apart, one launch
//           per buffer);
//   memcpy: cudaMemcpyAsync device to device, one per buffer.
// Prints "impl,n,ms_median,gb_per_s" rows, bytes read plus written.
// Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -o cuda_copy bench/cuda_copy.cu && ./cuda_copy N,N,...
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static void check(cudaError_t e, int line) {
  if (e == cudaSuccess) return;
  fprintf(stderr, "cuda_copy: CUDA error %s at line %d\n", cudaGetErrorString(e), line);
  exit(1);
}
#define CHECK(x) check((x), __LINE__)

enum { WG = 256, PER_THREAD = 4 };

__global__ void copy_kernel(const uint4 *src, uint4 *dst, unsigned count) {
  unsigned stride = gridDim.x * WG;
  for (unsigned k = 0; k < PER_THREAD; k++) {
    unsigned i = blockIdx.x * WG + threadIdx.x + k * stride;
    if (i < count) dst[i] = src[i];
  }
}

static void copy_once(bool kernel, uint32_t *const src[2], uint32_t *const dst[2], size_t n) {
  for (int b = 0; b < 2; b++) {
    if (kernel) {
      unsigned vecs = (unsigned)(n / 4), per_group = WG * PER_THREAD;
      copy_kernel<<<(vecs + per_group - 1) / per_group, WG>>>((const uint4 *)src[b],
                                                                (uint4 *)dst[b], vecs);
    } else {
      CHECK(cudaMemcpyAsync(dst[b], src[b], n * 4, cudaMemcpyDeviceToDevice));
    }
  }
}

static double time_copy(bool kernel, uint32_t *const src[2], uint32_t *const dst[2], size_t n) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  // Warm-up: a second of copies, so that the clocks are up.
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  CHECK(cudaEventRecord(t0));
  for (float ms = 0; ms < 1000.0f;) {
    for (int k = 0; k < 20; k++) copy_once(kernel, src, dst, n);
    CHECK(cudaEventRecord(t1));
    CHECK(cudaEventSynchronize(t1));
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
  }
  std::vector<float> times;
  for (int r = 0; r < 20; r++) {
    CHECK(cudaEventRecord(start));
    copy_once(kernel, src, dst, n);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaEventDestroy(t0));
  CHECK(cudaEventDestroy(t1));
  return (times[9] + times[10]) / 2.0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: cuda_copy N[,N...]\n");
    return 2;
  }
  std::vector<size_t> sizes;
  for (char *s = strtok(argv[1], ","); s; s = strtok(nullptr, ",")) sizes.push_back(strtoull(s, 0, 10));
  printf("impl,n,ms_median,gb_per_s\n");
  for (size_t n : sizes) {
    uint32_t *src[2], *dst[2];
    for (int b = 0; b < 2; b++) {
      CHECK(cudaMalloc(&src[b], n * 4));
      CHECK(cudaMalloc(&dst[b], n * 4));
      CHECK(cudaMemset(src[b], b + 1, n * 4));
    }
    for (int kernel = 1; kernel >= 0; kernel--) {
      double ms = time_copy(kernel != 0, src, dst, n);
      printf("%s,%zu,%.4f,%.0f\n", kernel ? "kernel" : "memcpy", n, ms, 16.0 * n / (ms * 1e6));
      fflush(stdout);
    }
    std::vector<uint32_t> check_words(n);
    CHECK(cudaMemcpy(check_words.data(), dst[1], n * 4, cudaMemcpyDeviceToHost));
    if (check_words[n - 1] != 0x02020202u) fprintf(stderr, "cuda_copy: n = %zu: copy wrong\n", n);
    for (int b = 0; b < 2; b++) {
      CHECK(cudaFree(src[b]));
      CHECK(cudaFree(dst[b]));
    }
  }
  return 0;
}
